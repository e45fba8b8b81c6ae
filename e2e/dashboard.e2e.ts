/**
 * The dashboard (issue 35) in Chromium against the built Sésame.
 *
 * Seeded through the API as the product makes them: four meetings (two visitor types, two
 * hosts) of which two arrive — one leaves again —, one never comes and one came last week,
 * and an event of today with two guests, one of whom arrives. The server is then stopped and
 * two rows are moved back in its data folder (PGlite), as time would have: the meeting nobody
 * came to is yesterday's (a no-show is judged once its day is over) and last week's visit is
 * eight days old (the previous period's). Then, as a manager:
 *
 * - in French and in English, on a 1280 px desktop and a 375 px phone, axe finds nothing
 *   serious or critical, with the charts drawn and with every table shown;
 * - every figure card shows the seeded figure beside the previous period's, and each chart is
 *   a region named by its title and described by its sentence;
 * - every chart's "Tableau" shows the seeded figure, with the CSV's header in the language;
 * - every chart's CSV (and the figures') reaches the browser with the right header line;
 * - a check-in made meanwhile moves "Sur place maintenant" without a reload (live feed);
 * - on a phone the cards stack, nothing is wider than the screen, a table scrolls inside
 *   its own box and every control is at least 44 px high;
 * - the platform's admin reads the company the URL names;
 * - no public page loads the charts' code or CSS (recharts, @mantine/charts): the dashboard does.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DASHBOARD_CHARTS,
  addDays,
  catalogue,
  type Dashboard,
  type DashboardChart,
} from '@sesame/shared';
import { overflow, smallTargets } from './support/a11y';
import { axeFindings, report, type Finding } from './support/axe';
import {
  DESKTOP,
  launchBrowser,
  newContext,
  PHONE,
  screenshot,
  signIn,
  tempDir,
} from './support/browser';
import { clearOfMidnight, within } from './support/poll';
import {
  apiToken,
  createDemoStaff,
  startServer,
  type RunningServer,
  type StaffMember,
} from './support/server';
import { fileRequest, ID_PNG, todayForForm } from './support/visitors';

type Lang = 'fr' | 'en';

const MANAGER: StaffMember = {
  name: 'Kaboré',
  firstname: 'Salif',
  email: 'salif.kabore.dashboard@example.com',
  password: 'Dashboard-Password-2026',
  title: 'Directeur des services généraux',
  role: 'ROLE_MANAGER',
};

/** The demo company's site is in Africa/Abidjan (UTC): its days are UTC days. */
const ZONE = 'Africa/Abidjan';
const EVENT_NAME = 'Forum des fournisseurs';
/** The whole file runs in a few minutes: it starts at least this long before midnight. */
const MIDNIGHT_MARGIN_MS = 8 * 60_000;

interface Seeded {
  /** The meeting nobody came to (moved to yesterday). */
  noShowVisitor: string;
  /** Last week's visitor (their check moved eight days back). */
  lastWeekVisitor: string;
  today: string;
}

// ---- Set-up through the API ----

async function call(server: RunningServer, token: string, route: string, init: RequestInit = {}) {
  const response = await fetch(`${server.url}/api${route}`, {
    ...init,
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

/** A meeting of today filed with the visitor form's calls and confirmed by the desk. */
async function confirmedMeeting(
  server: RunningServer,
  token: string,
  person: { firstname: string; lastname: string; type: string; host: string },
): Promise<{ visitorId: string; uidn: string }> {
  // The site's visitor types (issue 31), as the public form reads them.
  const types = (await (
    await fetch(`${server.url}/api/public/visitor-types?company=demo`)
  ).json()) as { data: { id: string; name_fr: string }[] };
  const type = types.data.find((t) => t.name_fr === person.type);
  if (!type) throw new Error(`no visitor type ${person.type}`);
  const { visitorId, requestId } = await fileRequest(
    server,
    {
      company_id: 'demo',
      firstname: person.firstname,
      lastname: person.lastname,
      email: `${person.firstname}.${person.lastname}@example.com`.toLowerCase(),
      visitor_type_id: type.id,
      id_number: 'CI-2030-0035',
      organisation_name: 'Acme CI',
      contact: '0707070707',
      request_date: todayForForm(),
      request_time: '09:30',
      privacy_accepted: '1',
    },
    { host: person.host, reason: 'Réunion' },
  );
  const confirmed = (await call(server, token, `/requests/update/${requestId}`, {
    method: 'PUT',
    body: JSON.stringify({ status: 1, confirmed: 1 }),
  })) as { data: { uidn: string } };
  return { visitorId, uidn: confirmed.data.uidn };
}

/** The code scanned at the desk: an arrival. */
const arrive = (server: RunningServer, token: string, uidn: string) =>
  call(server, token, `/get-qr-data/${uidn}`);

/** A departure recorded from the on-site list. */
async function leave(server: RunningServer, token: string, lastname: string) {
  const list = (await call(server, token, `/on-site?q=${encodeURIComponent(lastname)}`)) as {
    data: { check_id: string }[];
  };
  await call(server, token, `/on-site/${list.data[0]!.check_id}/check-out`, { method: 'POST' });
}

async function seed(server: RunningServer): Promise<Seeded> {
  const token = await apiToken(server);
  const pad = (n: number) => String(n).padStart(2, '0');
  const now = new Date();

  const awa = await confirmedMeeting(server, token, {
    firstname: 'Awa',
    lastname: 'Koné',
    type: 'Prestataire',
    host: 'Mme Traoré',
  });
  const bakary = await confirmedMeeting(server, token, {
    firstname: 'Bakary',
    lastname: 'Touré',
    type: 'Visiteur',
    host: 'Mme Traoré',
  });
  const chantal = await confirmedMeeting(server, token, {
    firstname: 'Chantal',
    lastname: 'Yao',
    type: 'Prestataire',
    host: 'M. Diallo',
  });
  const didier = await confirmedMeeting(server, token, {
    firstname: 'Didier',
    lastname: 'Kouassi',
    type: 'Visiteur',
    host: 'M. Diallo',
  });
  // Awa and Bakary arrive, Awa leaves: two inside at once, one inside after.
  await arrive(server, token, awa.uidn);
  await arrive(server, token, bakary.uidn);
  await leave(server, token, 'Koné');
  // Didier's visit becomes last week's (below).
  await arrive(server, token, didier.uidn);
  await leave(server, token, 'Kouassi');

  // An event of today, two guests registered through its share link; Esther arrives.
  const event = (await call(server, token, '/evenement/create', {
    method: 'POST',
    body: JSON.stringify({
      company_id: 'demo',
      name: EVENT_NAME,
      location: 'Salle Ivoire',
      address_name: 'Boulevard Lagunaire',
      city: 'Abidjan',
      country: "Côte d'Ivoire",
      date_event: `${pad(now.getUTCDate())}/${pad(now.getUTCMonth() + 1)}/${now.getUTCFullYear()}`,
      time_event: '10:00',
    }),
  })) as { data: { slug: string } };
  for (const [firstname, lastname] of [
    ['Esther', 'Gbagbo'],
    ['Franck', 'Assi'],
  ] as const) {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      firstname,
      lastname,
      email: `${firstname}.${lastname}@example.com`.toLowerCase(),
      id_number: 'CI-2030-0036',
      organisation_name: 'Fournitures CI',
      contact: '0505050505',
      language: 'fr',
      privacy_accepted: '1',
    }))
      form.set(key, value);
    form.set('request_image', new Blob([ID_PNG], { type: 'image/png' }), 'id.png');
    const registered = await fetch(`${server.url}/api/evenement/demo/${event.data.slug}/register`, {
      method: 'POST',
      body: form,
    });
    if (registered.status !== 201)
      throw new Error(`registration: ${registered.status} ${await registered.text()}`);
  }
  const guests = (await call(
    server,
    token,
    `/requests/list?event=${event.data.slug}&q=Gbagbo`,
  )) as { data: { visitor: { uidn: string } }[] };
  await arrive(server, token, guests.data[0]!.visitor.uidn);

  return {
    noShowVisitor: chantal.visitorId,
    lastWeekVisitor: didier.visitorId,
    today: now.toISOString().slice(0, 10),
  };
}

/**
 * What time would have done, in the stopped server's data folder: the meeting nobody came to
 * is yesterday's, and last week's visit is eight days old.
 */
async function moveBack(dataDir: string, seeded: Seeded): Promise<void> {
  const db = new PGlite({ dataDir: path.join(dataDir, 'db'), extensions: { pg_trgm, unaccent } });
  try {
    const day = await db.query(
      `update visitors set day_starts_at = day_starts_at - interval '1 day',
                           day_ends_at = day_ends_at - interval '1 day'
        where id = $1`,
      [seeded.noShowVisitor],
    );
    const check = await db.query(
      `update visitor_checks set check_in_at = check_in_at - interval '8 days',
                                 check_out_at = check_out_at - interval '8 days'
        where visitor_id = $1`,
      [seeded.lastWeekVisitor],
    );
    expect([day.affectedRows, check.affectedRows]).toEqual([1, 1]);
  } finally {
    await db.close();
  }
}

// ---- The screen ----

const words = (lang: Lang) => catalogue(lang).dashboard;

/** Each chart's seeded row, as its table shows it (the words of the CSV). */
function seededRow(chart: DashboardChart, lang: Lang, seeded: Seeded, api: Dashboard): string[] {
  const w = words(lang);
  const yesterday = addDays(seeded.today, -1);
  const inTable = (day: string) =>
    new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'fr-FR', {
      weekday: 'short',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      timeZone: 'UTC',
    })
      .format(new Date(`${day}T00:00:00Z`))
      .replace(',', '');
  switch (chart) {
    case 'visits_per_day':
      // Awa, of the demo site's type 'Prestataire' (issue 31's defaults).
      return [inTable(seeded.today), lang === 'en' ? 'Contractor' : 'Prestataire', '1'];
    case 'arrivals_by_hour': {
      // The hour the arrivals were made in (read from the API: a run may straddle an hour).
      const busiest = [...api.charts.arrivals_by_hour].sort((a, b) => b.arrivals - a.arrivals)[0]!;
      return [
        w.weekdays[busiest.weekday - 1]!,
        `${String(busiest.hour).padStart(2, '0')}:00`,
        String(busiest.arrivals),
      ];
    }
    case 'on_site_peaks':
      // Two at once as seeded; three once the French journey's late arrival came in.
      return [
        inTable(seeded.today),
        String(api.charts.on_site_peaks.find((r) => r.day === seeded.today)!.peak),
      ];
    case 'visit_lengths':
      return [w.bucket(0, 15), '1'];
    case 'no_shows_per_day':
      return [inTable(yesterday), '1', '1'];
    case 'decision_times':
      return [w.bucket(0, 15), String(api.charts.decision_times[0]!.requests)];
    case 'event_attendance':
      return [EVENT_NAME, inTable(seeded.today), '2', '1'];
    case 'top_hosts':
      return ['Mme Traoré', '2'];
  }
}

/** The text of each cell of the table's rows. */
const tableRows = (page: Page, chart: DashboardChart) =>
  page
    .locator(`[data-chart="${chart}"] [data-testid="chart-table"] tbody tr`)
    .evaluateAll((rows) =>
      rows.map((row) =>
        [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim()),
      ),
    );

const headerCells = (page: Page, chart: DashboardChart) =>
  page
    .locator(`[data-chart="${chart}"] [data-testid="chart-table"] thead th`)
    .evaluateAll((cells) => cells.map((cell) => (cell.textContent ?? '').trim()));

const figure = (page: Page, id: string) =>
  page.getByTestId(`figure-${id}`).getByTestId('figure-value').innerText();

/** The dashboard shown, its charts drawn (the charts' code loaded). */
async function shown(page: Page) {
  await page.getByTestId('dashboard-figures').waitFor();
  await page.waitForFunction(
    () =>
      document.querySelectorAll('[data-testid="chart-graphic"] svg').length >= 8 &&
      !document.querySelector('main .mantine-Loader-root'),
  );
}

async function switchLanguage(page: Page, lang: Lang) {
  await page.locator('header').getByText(lang.toUpperCase(), { exact: true }).click();
  await page.waitForFunction((l) => localStorage.getItem('lang') === l, lang);
}

async function showEveryTable(page: Page) {
  for (const chart of DASHBOARD_CHARTS) {
    const toggle = page.locator(`[data-chart="${chart}"]`).getByTestId('chart-table-toggle');
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
    await page.locator(`[data-chart="${chart}"] [data-testid="chart-table"]`).waitFor();
  }
}

describe('the dashboard', () => {
  let server: RunningServer;
  let browser: Browser;
  let seeded: Seeded;
  let dataDir: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    // The journey reads "today" and "yesterday": it must not straddle midnight (a run
    // started in the last minutes of the day waits for the next, hence the hook's time).
    await clearOfMidnight(ZONE, MIDNIGHT_MARGIN_MS);
    dataDir = await tempDir('sesame-dashboard-');
    server = await startServer({ DATA_DIR: dataDir });
    await createDemoStaff(server, MANAGER);
    seeded = await seed(server);
    await server.stop();
    await moveBack(dataDir, seeded);
    server = await startServer({ DATA_DIR: dataDir });
    browser = await launchBrowser();
  }, MIDNIGHT_MARGIN_MS + 240_000);

  afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close();
    await browser?.close();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function page(options: Parameters<typeof newContext>[2] = {}) {
    const context = await newContext(browser, server.url, { bypassCSP: true, ...options });
    contexts.push(context);
    return context.newPage();
  }
  async function manager(options: Parameters<typeof newContext>[2] = {}) {
    const opened = await page(options);
    await signIn(opened, MANAGER.email, MANAGER.password);
    return opened;
  }
  const apiDashboard = async (): Promise<Dashboard> => {
    const token = await apiToken(server, MANAGER.email, MANAGER.password);
    const from = addDays(seeded.today, -6);
    return (await call(
      server,
      token,
      `/dashboard?from=${from}&to=${seeded.today}`,
    )) as unknown as Dashboard;
  };

  it('in French on a desktop: the seeded figures, each chart’s sentence, table and CSV, axe clean, and a check-in moves "Sur place maintenant" live', async () => {
    const api = await apiDashboard();
    const desk = await manager(DESKTOP);
    await desk.goto('/demo/menu');
    await desk.locator('[data-tile="dashboard"]').click();
    await desk.waitForURL(/\/demo\/dashboard$/);
    await desk.getByRole('heading', { level: 1, name: 'Tableau de bord' }).waitFor();
    await shown(desk);
    await desk.locator('[data-live="live"]').waitFor();

    // The default period: the last 7 days, beside the 7 before.
    expect(
      await desk
        .getByTestId('dashboard-period')
        .getByRole('radio', { checked: true })
        .getAttribute('value'),
    ).toBe('7d');
    const dd = (day: string) => day.split('-').reverse().join('/');
    expect(await desk.getByTestId('dashboard-period-line').innerText()).toBe(
      `Du ${dd(addDays(seeded.today, -6))} au ${dd(seeded.today)}, comparé au ${dd(addDays(seeded.today, -13))} – ${dd(addDays(seeded.today, -7))}.`,
    );

    // The cards: the seeded figures, the previous period's beside them, the change in words.
    expect(await figure(desk, 'on_site_now')).toBe('2');
    expect(await figure(desk, 'peak_today')).toBe('2');
    expect(await figure(desk, 'arrivals')).toBe('3');
    const arrivals = desk.getByTestId('figure-arrivals');
    expect(await arrivals.getByTestId('figure-previous').innerText()).toBe(
      'Période précédente : 1',
    );
    expect(await arrivals.getByTestId('figure-change').innerText()).toBe('En hausse de 2 (200 %)');
    expect(await figure(desk, 'visits')).toBe('3');
    expect(await figure(desk, 'expected')).toBe('1');
    expect(await figure(desk, 'no_shows')).toBe('1');
    expect(await figure(desk, 'peak_on_site')).toBe('2');
    expect(await figure(desk, 'event_registrations')).toBe('2');
    expect(await figure(desk, 'event_attendees')).toBe('1');
    expect(await figure(desk, 'decisions')).toBe(String(api.current.decisions));
    expect(api.current.decisions).toBeGreaterThanOrEqual(4);
    expect(api.charts.on_site_peaks.at(-1)).toEqual({ day: seeded.today, peak: 2 });

    // Each chart: a region named by its title, described by its sentence.
    for (const chart of DASHBOARD_CHARTS) {
      const region = desk.getByRole('region', {
        name: words('fr').charts[chart].title,
        exact: true,
      });
      expect(await region.getAttribute('data-chart')).toBe(chart);
      const description = await region.evaluate(
        (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent,
      );
      expect(description, chart).toBe(await region.getByTestId('chart-summary').innerText());
      expect(description, chart).not.toMatch(/^Aucun/);
    }
    expect(
      await desk.locator('[data-chart="top_hosts"]').getByTestId('chart-summary').innerText(),
    ).toBe('Mme Traoré a reçu le plus de visites : 2.');
    expect(
      await desk
        .locator('[data-chart="no_shows_per_day"]')
        .getByTestId('chart-summary')
        .innerText(),
    ).toBe("Visiteurs absents : 1 ; visites attendues : 1 ; taux d'absence : 100 %.");

    const findings: Finding[] = [...(await axeFindings(desk, 'dashboard, charts (fr, desktop)'))];
    await screenshot(desk, 'dashboard-1280');
    await desk.screenshot({ path: '/tmp/dashboard-1280.png', fullPage: true });

    // Each chart's table: the CSV's header, and the seeded row.
    await showEveryTable(desk);
    for (const chart of DASHBOARD_CHARTS) {
      expect(await headerCells(desk, chart), chart).toEqual(words('fr').charts[chart].header);
      expect(await tableRows(desk, chart), chart).toContainEqual(
        seededRow(chart, 'fr', seeded, api),
      );
    }
    findings.push(...(await axeFindings(desk, 'dashboard, tables (fr, desktop)')));
    expect(findings, report(findings)).toEqual([]);

    // One CSV per chart, and the figures', with the screen's filters and the header line.
    const csv = async (button: ReturnType<Page['getByTestId']>) => {
      const [download] = await Promise.all([desk.waitForEvent('download'), button.click()]);
      const text = await readFile((await download.path())!, 'utf8');
      expect(text.startsWith('\uFEFF')).toBe(true);
      return { name: download.suggestedFilename(), lines: text.slice(1).split('\r\n') };
    };
    const period = `${addDays(seeded.today, -6)}-${seeded.today}`;
    for (const chart of DASHBOARD_CHARTS) {
      const file = await csv(desk.locator(`[data-chart="${chart}"]`).getByTestId('chart-csv'));
      expect(file.name).toBe(`tableau-de-bord-${chart}-${period}.csv`);
      expect(file.lines[0], chart).toBe(words('fr').charts[chart].header.join(';'));
      expect(file.lines.length, chart).toBeGreaterThan(2);
    }
    const figures = await csv(desk.getByTestId('dashboard-figures-csv'));
    expect(figures.name).toBe(`tableau-de-bord-${period}.csv`);
    expect(figures.lines[0]).toBe(words('fr').figuresHeader.join(';'));
    expect(figures.lines).toContain('Arrivées;3;1');

    // Meanwhile a visitor arrives at the desk: "Sur place maintenant" follows, without a reload.
    const token = await apiToken(server);
    const late = await confirmedMeeting(server, token, {
      firstname: 'Gisèle',
      lastname: 'Ouattara',
      type: 'Visiteur',
      host: 'M. Diallo',
    });
    await arrive(server, token, late.uidn);
    const took = await within(
      6_000,
      async () => (await figure(desk, 'on_site_now')) === '3',
      '"Sur place maintenant" at 3 without a reload',
    );
    expect(took).toBeLessThan(6_000);
    expect(await desk.getByTestId('dashboard-announcement').innerText()).toBe(
      'Sur place maintenant : 3.',
    );
    expect(await figure(desk, 'arrivals')).toBe('4');
  }, 180_000);

  it('in English on a desktop: the same screen in English, its table and CSV in English, axe clean', async () => {
    const api = await apiDashboard();
    const desk = await manager(DESKTOP);
    await desk.goto('/demo/dashboard');
    await switchLanguage(desk, 'en');
    await desk.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await shown(desk);
    // The server names visitor types in the interface's language: the switch reads them again.
    await desk.locator('[data-chart="visits_per_day"]').getByText('Contractor').waitFor();
    for (const chart of DASHBOARD_CHARTS)
      await desk
        .getByRole('region', { name: words('en').charts[chart].title, exact: true })
        .waitFor();
    expect(
      await desk.getByTestId('figure-arrivals').getByTestId('figure-previous').innerText(),
    ).toBe('Previous period: 1');
    expect(
      await desk.locator('[data-chart="top_hosts"]').getByTestId('chart-summary').innerText(),
    ).toBe('Mme Traoré received the most visits: 2.');
    const findings = await axeFindings(desk, 'dashboard, charts (en, desktop)');
    await showEveryTable(desk);
    for (const chart of DASHBOARD_CHARTS) {
      expect(await headerCells(desk, chart), chart).toEqual(words('en').charts[chart].header);
      expect(await tableRows(desk, chart), chart).toContainEqual(
        seededRow(chart, 'en', seeded, api),
      );
    }
    findings.push(...(await axeFindings(desk, 'dashboard, tables (en, desktop)')));
    expect(findings, report(findings)).toEqual([]);

    const [download] = await Promise.all([
      desk.waitForEvent('download'),
      desk.locator('[data-chart="top_hosts"]').getByTestId('chart-csv').click(),
    ]);
    const text = await readFile((await download.path())!, 'utf8');
    expect(download.suggestedFilename()).toMatch(/^dashboard-top_hosts-/);
    expect(text.slice(1).split('\r\n')[0]).toBe('Host;Visits');

    // Two dates: a reversed range is refused beside its field, in the server's words.
    await desk.getByTestId('dashboard-period').getByText('Dates', { exact: true }).click();
    await desk.getByRole('textbox', { name: 'To', exact: true }).fill('01/01/2020');
    await desk.getByText(words('en').rangeReversed).waitFor();
  }, 120_000);

  it.each(['fr', 'en'] as const)(
    'on a phone (%s): cards stacked, nothing wider than the screen, tables scroll in their box, 44 px targets, axe clean',
    async (lang) => {
      const phone = await manager(PHONE);
      await phone.goto('/demo/dashboard');
      if (lang === 'en') await switchLanguage(phone, 'en');
      await phone
        .getByRole('heading', { level: 1, name: lang === 'en' ? 'Dashboard' : 'Tableau de bord' })
        .waitFor();
      await shown(phone);
      const findings = await axeFindings(phone, `dashboard, charts (${lang}, phone)`);

      // The cards one under the other.
      const first = (await phone.getByTestId('figure-on_site_now').boundingBox())!;
      const second = (await phone.getByTestId('figure-peak_today').boundingBox())!;
      expect(second.x).toBe(first.x);
      expect(second.y).toBeGreaterThanOrEqual(first.y + first.height);
      expect(await overflow(phone)).toBe(0);
      // Each period choice whole on the screen (none clipped by its control).
      const control = (await phone.getByTestId('dashboard-period').boundingBox())!;
      for (const label of await phone.getByTestId('dashboard-period').locator('label').all()) {
        const box = (await label.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(control.x);
        expect(box.x + box.width).toBeLessThanOrEqual(control.x + control.width + 0.5);
        expect(box.height).toBeGreaterThanOrEqual(44);
      }
      for (const chart of DASHBOARD_CHARTS) {
        const box = (await phone.locator(`[data-chart="${chart}"]`).boundingBox())!;
        expect(box.x + box.width, chart).toBeLessThanOrEqual(PHONE.viewport.width);
      }
      if (lang === 'fr') await screenshot(phone, 'dashboard-phone-375');

      await showEveryTable(phone);
      expect(await overflow(phone)).toBe(0);
      // The widest table scrolls inside its own box, the page does not.
      const scroller = phone.locator('[data-chart="event_attendance"]').getByRole('region', {
        name: lang === 'en' ? /scrolls sideways/ : /défilement horizontal/,
      });
      const box = (await scroller.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.viewport.width);
      findings.push(...(await axeFindings(phone, `dashboard, tables (${lang}, phone)`)));
      expect(findings, report(findings)).toEqual([]);
      expect(await smallTargets(phone, 'main', 44)).toEqual([]);
    },
    120_000,
  );

  it('the platform’s admin reads the company the URL names', async () => {
    const admin = await page(DESKTOP);
    await signIn(admin, server.adminEmail, server.adminPassword);
    const asked = admin.waitForRequest(
      (request) =>
        new URL(request.url()).pathname === '/api/dashboard' &&
        new URL(request.url()).searchParams.get('company') === 'demo',
    );
    await admin.goto('/demo/dashboard');
    await asked;
    await shown(admin);
    expect(await figure(admin, 'event_registrations')).toBe('2');
  }, 60_000);

  it('the weekly summary mail’s link opens the week it names', async () => {
    const desk = await manager(DESKTOP);
    const asked = desk.waitForRequest(
      (request) =>
        new URL(request.url()).pathname === '/api/dashboard' &&
        new URL(request.url()).searchParams.get('from') === '2026-03-02' &&
        new URL(request.url()).searchParams.get('to') === '2026-03-08',
    );
    await desk.goto('/demo/dashboard?from=2026-03-02&to=2026-03-08');
    await asked;
    await shown(desk);
    expect(await desk.getByTestId('dashboard-period-line').innerText()).toContain('02/03/2026');
  }, 60_000);

  it('no public page loads the charts’ code or CSS; the dashboard does', async () => {
    const visitor = await page(DESKTOP);
    const bodies: { url: string; text: string }[] = [];
    visitor.on('response', (response) => {
      const type = response.request().resourceType();
      if (type === 'script' || type === 'stylesheet')
        void response.text().then(
          (text) => bodies.push({ url: response.url(), text }),
          () => undefined,
        );
    });
    // recharts' own class name, and a variable of @mantine/charts' CSS.
    const charts = (text: string) =>
      text.includes('recharts-wrapper') || text.includes('--chart-grid-color');
    for (const route of ['/demo', '/sign-in', '/demo/meeting']) {
      await visitor.goto(route);
      await visitor.locator('main h1, main h2').first().waitFor();
      await visitor.waitForLoadState('networkidle');
    }
    expect(bodies.length).toBeGreaterThan(3);
    expect(bodies.filter((b) => charts(b.text)).map((b) => b.url)).toEqual([]);

    // The check itself: the dashboard does load them.
    await signIn(visitor, MANAGER.email, MANAGER.password);
    await visitor.goto('/demo/dashboard');
    await shown(visitor);
    // (The live feed keeps a request open: the network is never idle on this screen.)
    const loaded = () =>
      bodies.filter((b) => charts(b.text)).map((b) => path.basename(new URL(b.url).pathname));
    await within(
      10_000,
      async () =>
        loaded().some((name) => name.endsWith('.js')) &&
        loaded().some((name) => name.endsWith('.css')),
      'the charts’ script and stylesheet loaded by the dashboard',
    );
  }, 60_000);
});
