/**
 * What the layout journey (issue 27, "phone and desktop layout") makes and measures: records
 * whose texts are long, and on a list screen whatever a person would find cut or out of reach.
 */
import type { Page } from 'playwright-core';
import enEvents from '../../apps/web/src/locales/en/events.json';
import enHome from '../../apps/web/src/locales/en/home.json';
import enRequests from '../../apps/web/src/locales/en/requests.json';
import frEvents from '../../apps/web/src/locales/fr/events.json';
import frHome from '../../apps/web/src/locales/fr/home.json';
import frRequests from '../../apps/web/src/locales/fr/requests.json';
import type { RunningServer } from './server';
import { fileRequest, ID_PNG, todayForForm } from './visitors';

export type Lang = 'fr' | 'en';
export const LANGS: Lang[] = ['fr', 'en'];
/** The screens' words in each language, as the locale files hold them. */
export const WORDS = {
  fr: { requests: frRequests, events: frEvents, home: frHome },
  en: { requests: enRequests, events: enEvents, home: enHome },
};

/** The long texts the lists must show whole (each within its field's limit, TEXT_MAX). */
export const LONG = {
  confirmed: {
    firstname: 'Marie-Christine Adjoua',
    lastname: 'Kouassi-N’Guessan Ouattara',
    email: 'marie-christine.kouassi-nguessan@societe-ivoirienne-de-raffinage.example.com',
    organisation_name: 'Société Ivoirienne de Raffinage et de Distribution des Produits Pétroliers',
  },
  pending: {
    firstname: 'Jean-Baptiste Emmanuel',
    lastname: 'Yao-Kouadio Assamoi',
    email: 'jean-baptiste.yao-kouadio@compagnie-ivoirienne-des-textiles.example.com',
    organisation_name: 'Compagnie Ivoirienne pour le Développement des Textiles et de l’Industrie',
  },
  host: 'Mme Aminata Traoré-Ouédraogo, Direction des Ressources Humaines',
  reason: 'Entretien annuel de performance et présentation du plan de formation 2026',
  event: {
    name: 'Forum international des partenaires de la transformation numérique',
    location: 'Grande salle de conférences du Plateau',
  },
  guests: [
    {
      firstname: 'Anne-Sophie Akissi',
      lastname: 'Brou-Kacou Diabaté',
      email: 'anne-sophie.brou-kacou@groupement-des-exportateurs-de-cacao.example.com',
      organisation_name:
        'Groupement Professionnel des Exportateurs de Cacao et de Café de Côte d’Ivoire',
    },
    {
      firstname: 'Abdoulaye Mamadou',
      lastname: 'Konaté-Sangaré',
      email: 'abdoulaye.konate-sangare@banque-regionale-de-solidarite.example.com',
      organisation_name: 'Banque Régionale de Solidarité et d’Investissement Agricole',
    },
  ],
} as const;

export interface LongRecords {
  eventSlug: string;
}

function day(offsetDays: number): string {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

/**
 * A confirmed request (its code mail queued, so the Mail column has a state and 'Renvoyer'), a
 * pending one, and an event with two registrations, all of the demo company, made through the
 * API as the forms make them.
 */
export async function createLongRecords(
  server: RunningServer,
  adminToken: string,
): Promise<LongRecords> {
  const visitorFields = {
    company_id: 'demo',
    id_number: 'CI-2026-000123456',
    contact: '+225 07 07 07 07 07',
    request_date: todayForForm(),
    request_time: '14:30',
    privacy_accepted: '1',
  };
  const request = { host: LONG.host, reason: LONG.reason };
  const confirmed = await fileRequest(server, { ...visitorFields, ...LONG.confirmed }, request);
  const answer = await fetch(`${server.url}/api/requests/update/${confirmed.requestId}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ status: 1, confirmed: 1 }),
  });
  if (!answer.ok) throw new Error(`confirm: ${answer.status} ${await answer.text()}`);
  await fileRequest(server, { ...visitorFields, ...LONG.pending }, request);

  const event = await fetch(`${server.url}/api/evenement/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      company_id: 'demo',
      ...LONG.event,
      address_name: 'Boulevard de la République, immeuble Alpha 2000',
      city: 'Abidjan',
      country: "Côte d'Ivoire",
      date_event: day(30),
      time_event: '10:00',
    }),
  });
  if (event.status !== 201) throw new Error(`event: ${event.status} ${await event.text()}`);
  const eventSlug = ((await event.json()) as { data: { slug: string } }).data.slug;

  for (const guest of LONG.guests) {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      ...guest,
      id_number: 'CI-2026-000654321',
      contact: '+225 05 05 05 05 05',
      language: 'fr',
      privacy_accepted: '1',
    }))
      form.set(key, value);
    form.set('request_image', new Blob([ID_PNG], { type: 'image/png' }), 'id.png');
    const registered = await fetch(`${server.url}/api/evenement/demo/${eventSlug}/register`, {
      method: 'POST',
      body: form,
    });
    if (registered.status !== 201) {
      throw new Error(`registration: ${registered.status} ${await registered.text()}`);
    }
  }
  return { eventSlug };
}

/** A list screen, how many rows it shows, and the buttons and links its rows must offer. */
export interface ListScreen {
  name: string;
  path: string;
  rows: number;
  /** Its rows show a mail state each (the mails load after the rows). */
  mails: boolean;
  /** Names of controls that must be there, each once at least, in the screen's language. */
  controls: (lang: Lang) => string[];
}

export function listScreens(records: LongRecords): ListScreen[] {
  return [
    {
      name: 'requests',
      path: '/demo/list-qrcode',
      rows: 2,
      mails: true,
      controls: (lang) => {
        const { action } = WORDS[lang].requests;
        return [action.validate, action.card, action.delete];
      },
    },
    {
      name: 'events',
      path: '/demo/list-events',
      rows: 1,
      mails: false,
      controls: (lang) => {
        const { close, list } = WORDS[lang].events;
        return [close.button, list.delete];
      },
    },
    {
      name: 'participants',
      path: `/demo/list-qrcode-events/${records.eventSlug}`,
      rows: 2,
      mails: true,
      controls: (lang) => {
        const { participants, list } = WORDS[lang].events;
        return [participants.card, list.delete];
      },
    },
  ];
}

export async function switchLanguage(page: Page, lang: Lang) {
  await page.locator('header').getByText(lang.toUpperCase(), { exact: true }).click();
  await page.waitForFunction((l) => localStorage.getItem('lang') === l, lang);
}

/** The screen's rows are shown, with their mails' states when it has them; no loader left. */
export async function settled(page: Page, screen: ListScreen, where: string) {
  try {
    await page.locator('main h1').first().waitFor();
    await page.waitForFunction(
      ({ rows, mails }) => {
        const list = document.querySelector('main [data-layout]');
        if (!list) return false;
        const shown = list.querySelectorAll('tbody tr, [data-testid="row-card"]').length;
        const states = list.querySelectorAll('[data-mail-state]').length;
        return (
          shown === rows &&
          (!mails || states >= rows) &&
          !document.querySelector('main .mantine-Loader-root:not([aria-hidden="true"])')
        );
      },
      { rows: screen.rows, mails: screen.mails },
      { timeout: 20_000 },
    );
  } catch (error) {
    throw new Error(`${where} did not show its ${screen.rows} rows: ${String(error)}`, {
      cause: error,
    });
  }
}

/** How a list screen is laid out, and what a person would find cut or out of reach on it. */
export interface ListLayout {
  /** `data-layout` of the list: 'table' or 'cards'. */
  layout: string | null;
  /** How many rows (table rows or cards) it shows. */
  rows: number;
  /** The page is wider than the window by this many px. */
  pageOverflow: number;
  /** Each problem found, said so a failure reads on its own. */
  problems: string[];
}

/**
 * Measures the list `[data-layout]` inside `main`: the page's horizontal overflow; every badge's
 * text whole (its label as wide as its text, no ellipsis at work); every text of a row or card
 * whole (no element whose text overflows it); every button and link of a row or card inside
 * the window and not hidden by a scrolling box around it; and a table that needs no sideways
 * scroll.
 */
export async function measureList(page: Page): Promise<ListLayout> {
  return page.evaluate(() => {
    const list = document.querySelector<HTMLElement>('main [data-layout]');
    const problems: string[] = [];
    const pageOverflow = document.documentElement.scrollWidth - window.innerWidth;
    if (!list) return { layout: null, rows: 0, pageOverflow, problems: ['no list on the page'] };
    const layout = list.getAttribute('data-layout');
    const rows = [...list.querySelectorAll<HTMLElement>('tbody tr, [data-testid="row-card"]')];
    const say = (el: Element) =>
      `'${(el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 50)}'`;

    // The boxes that clip `el` (overflow other than visible), up to the window.
    const clippedSideways = (el: HTMLElement): string | null => {
      const box = el.getBoundingClientRect();
      if (box.left < -0.5 || box.right > window.innerWidth + 0.5) {
        return `outside the window (${Math.round(box.left)}–${Math.round(box.right)} px of ${window.innerWidth})`;
      }
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX === 'visible') continue;
        const clip = up.getBoundingClientRect();
        if (box.left < clip.left - 0.5 || box.right > clip.right + 0.5) {
          return `hidden by its scrolling box (${Math.round(box.left)}–${Math.round(box.right)} px, the box shows ${Math.round(clip.left)}–${Math.round(clip.right)})`;
        }
      }
      return null;
    };

    for (const badge of list.querySelectorAll<HTMLElement>('.mantine-Badge-root')) {
      const label = badge.querySelector<HTMLElement>('.mantine-Badge-label') ?? badge;
      for (const part of [badge, label]) {
        if (part.scrollWidth > part.clientWidth + 0.5) {
          problems.push(
            `badge ${say(badge)} is cut: its text needs ${part.scrollWidth} px, it shows ${part.clientWidth}`,
          );
          break;
        }
      }
      const away = clippedSideways(badge);
      if (away) problems.push(`badge ${say(badge)} is ${away}`);
    }

    // Any element of a row whose own text overflows it: an ellipsis at work, or text spilling.
    for (const row of rows) {
      for (const el of row.querySelectorAll<HTMLElement>('*')) {
        if (el.clientWidth === 0 || el.matches('img, svg, svg *')) continue;
        const style = getComputedStyle(el);
        const ownText = [...el.childNodes].some(
          (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '',
        );
        if (!ownText && style.textOverflow !== 'ellipsis') continue;
        if (el.scrollWidth > el.clientWidth + 0.5 && style.overflowX !== 'visible') {
          problems.push(
            `${say(el)} is cut (${style.textOverflow === 'ellipsis' ? 'an ellipsis' : 'clipped'}): ${el.scrollWidth} px in ${el.clientWidth}`,
          );
        }
      }
      for (const control of row.querySelectorAll<HTMLElement>('a[href], button')) {
        const away = clippedSideways(control);
        if (away) problems.push(`${control.tagName.toLowerCase()} ${say(control)} is ${away}`);
      }
    }

    const scroller = list.querySelector<HTMLElement>('[role="region"]');
    if (layout === 'table' && scroller && scroller.scrollWidth > scroller.clientWidth + 0.5) {
      problems.push(
        `the table needs a sideways scroll: ${scroller.scrollWidth} px in ${scroller.clientWidth}`,
      );
    }
    return { layout, rows: rows.length, pageOverflow, problems };
  });
}

/** How many lines a button's label takes (its height over its line height). */
export async function labelLines(page: Page, name: string): Promise<number> {
  return page.evaluate((name) => {
    const button = [...document.querySelectorAll<HTMLElement>('main a, main button')].find(
      (el) => el.textContent?.trim() === name,
    );
    if (!button) throw new Error(`no button '${name}'`);
    const label = button.querySelector<HTMLElement>('.mantine-Button-label') ?? button;
    const range = document.createRange();
    range.selectNodeContents(label);
    // One box per line the text runs on (getClientRects of the text's range).
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return tops.size;
  }, name);
}
