/**
 * Usable by everyone (issue 18, WCAG 2.2 AA), in Chromium against the built app.
 *
 * - axe-core (WCAG 2.0/2.1/2.2 A and AA, and axe's best practices) finds no serious or
 *   critical violation on any route: every public route signed out, and for each staff role the
 *   routes its Menu tiles give (plus its Menu, Mon compte, Mes e-mails, and as the platform admin
 *   the detail pages that need a record), in French and in English, on a 1280 px desktop and a
 *   375 px phone. The language is switched with the navbar's FR/EN control, as a person would.
 * - The keyboard alone goes through the login and the visitor form in reading order, each stop
 *   showing a focus indicator (an outline or a box-shadow the element lacks unfocused), and
 *   signs in and sends the visitor form: Tab, typing, Space and Enter only.
 * - On a 375 px phone every button, link and field of the main screens is at least 44 px high
 *   (links inside a sentence excepted, WCAG 2.5.8's inline exception).
 * - The scanner's result, the manual validation's result and the on-site list's arrivals and
 *   departures are said by live regions that were in the page before the change (a region
 *   added together with its text is not reliably announced).
 * - Nothing overflows a 320 px screen on the public pages; the visitor form and JoinEvent work
 *   at 200 % zoom (a 640 px wide window at twice the pixel density: the CSS layout of a 1280 px
 *   window zoomed to 200 %): nothing wider than the window, filled in and sent.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { Page } from 'playwright-core';
import QRCode from 'qrcode';
import { beforeAll, describe, expect, it } from 'vitest';
import { menuTilesFor, type Role } from '@sesame/shared';
import { overflow, smallTargets, tabThrough, type FocusStop } from './support/a11y';
import { axeFindings, report, type Finding } from './support/axe';
import {
  DESKTOP,
  field,
  launchBrowser,
  newContext,
  PHONE,
  screenshot,
  signIn,
} from './support/browser';
import { fakeCameraFlags, videoOf } from './support/camera';
import { within } from './support/poll';
import { apiToken, type RunningServer, type StaffMember } from './support/server';
import { useSesame } from './support/sesame';
import { createOpenEvent } from './support/events';
import { createConfirmedVisitor, filePendingRequest, ID_PNG } from './support/visitors';

type Lang = 'fr' | 'en';
const LANGS: Lang[] = ['fr', 'en'];

/** A route to scan, and where it is expected to end (a scan link may move on by itself). */
interface Route {
  path: string;
  /** The path (and search) the page ends on, when it is not `path`. */
  endsOn?: RegExp;
  /** 'Page introuvable' is what this route shows (any other route showing it is a failure). */
  notFound?: true;
}

/** NotFoundPage's heading, in both languages: a route meant to show a screen must not show it. */
const NOT_FOUND = /^(Page introuvable|Page not found)$/;

const password = 'A11y-Password-2026';
const STAFF: Partial<Record<Role, StaffMember>> = {
  ROLE_SESAME: staff('ROLE_SESAME', 'Sesame'),
  ROLE_MANAGER: staff('ROLE_MANAGER', 'Manager'),
  ROLE_SUPER_ADMIN: staff('ROLE_SUPER_ADMIN', 'Superadmin'),
  ROLE_SUPERVISOR: staff('ROLE_SUPERVISOR', 'Superviseur'),
  ROLE_EMPLOYEE: staff('ROLE_EMPLOYEE', 'Accueil'),
  ROLE_USER: staff('ROLE_USER', 'Hote'),
};

function staff(role: Role, name: string): StaffMember {
  return {
    name,
    firstname: 'Awa',
    email: `${name.toLowerCase()}.a11y@demo.test`,
    password,
    title: 'Personnel',
    role,
  };
}

/** Data the routes need: real records created through the API. */
interface Records {
  uidn: string;
  requestId: string;
  pendingRequestId: string;
  decisionLink: string;
  eventSlug: string;
  qrUser: { id: string; uidn: string };
  userId: string;
}

async function createRecords(server: RunningServer): Promise<Records> {
  const admin = await apiToken(server);
  const auth = { authorization: `Bearer ${admin}` };
  const demo = (await (await fetch(`${server.url}/api/company/demo`)).json()) as {
    data: { id: string };
  };

  // A confirmed visitor, checked in: the card, the thank-you pages, the logs, 'Sur place'.
  const confirmed = await createConfirmedVisitor(server, admin, {
    firstname: 'Aïcha',
    lastname: 'Bamba',
    email: 'aicha.bamba@example.com',
  });
  const arrival = await fetch(`${server.url}/api/get-qr-data/${confirmed.uidn}`, {
    headers: auth,
  });
  expect(arrival.status, await arrival.clone().text()).toBe(200);

  // A request still pending: the waiting page and the host's Valider link from the mail.
  const { requestId: pendingRequestId } = await filePendingRequest(server);
  // Without SMTP_URL the server writes each mail as a file; the front desk's holds the link.
  const mailDir = path.join(server.dataDir, 'mail');
  let decisionLink = '';
  await within(
    20_000,
    async () => {
      const files = await readdir(mailDir).catch(() => [] as string[]);
      for (const file of files.filter((f) => f.endsWith('.eml'))) {
        const mail = await simpleParser(await readFile(path.join(mailDir, file)));
        const link = /Valider ?: (\S+)/.exec(mail.text ?? '')?.[1];
        if (link?.includes('host-decision') && mail.text?.includes('Koffi')) decisionLink = link;
      }
      return decisionLink !== '';
    },
    "the host's request mail",
  );

  // An event with its registration link.
  const { slug: eventSlug } = await createOpenEvent(server, admin);
  const nextYear = new Date().getUTCFullYear() + 1;

  // A permanent QR code and a member card.
  const card = (kind: 'permanent' | 'member', email: string) => {
    const body = new FormData();
    for (const [key, value] of Object.entries({
      firstname: 'Mariam',
      lastname: kind === 'member' ? 'Ouattara' : 'Coulibaly',
      email,
      contact: '0102030405',
      title: 'Consultante',
      type: 'permanent',
      dateExp: `${nextYear}-12-31`,
      company_id: demo.data.id,
    }))
      body.set(key, value);
    body.set('user_document', new Blob([new Uint8Array(ID_PNG)], { type: 'image/png' }), 'a.png');
    return fetch(`${server.url}/api/${kind === 'member' ? 'create-member' : 'create-qr'}`, {
      method: 'POST',
      headers: auth,
      body,
    });
  };
  const qr = await card('permanent', 'mariam.coulibaly@example.com');
  expect(qr.status, await qr.clone().text()).toBe(200);
  const qrUser = ((await qr.json()) as { data: { id: string; uidn: string } }).data;
  const member = await card('member', 'mariam.ouattara@example.com');
  expect(member.status, await member.clone().text()).toBe(201);

  const users = (await (
    await fetch(`${server.url}/api/user/list?q=accueil.a11y`, { headers: auth })
  ).json()) as { data: { id: string }[] };
  const userId = users.data[0]!.id;

  return {
    uidn: confirmed.uidn,
    requestId: confirmed.requestId,
    pendingRequestId,
    decisionLink: decisionLink.replace(server.url, ''),
    eventSlug,
    qrUser: { id: qrUser.id, uidn: qrUser.uidn },
    userId,
  };
}

/** Every public route, signed out. */
function publicRoutes(r: Records): Route[] {
  return [
    { path: '/' },
    { path: '/sign-in' },
    { path: '/demo' },
    { path: '/demo/request-meeting' },
    { path: '/demo/meeting' },
    { path: `/demo/request-meeting/${r.pendingRequestId}` },
    { path: `/demo/waiting-validation/${r.requestId}` },
    { path: `/demo/qr-code/${r.requestId}` },
    { path: r.decisionLink },
    { path: r.decisionLink.replace('choice=confirm', 'choice=decline') },
    { path: `/company/demo/meeting-request-qr/${r.uidn}` },
    // A visitor scanning their own code lands on their card; a QR user's code on the login.
    { path: `/scan/${r.uidn}`, endsOn: /^\/company\/demo\/meeting-request-qr\// },
    { path: `/scan-user-qrcode/${r.qrUser.uidn}`, endsOn: /^\/sign-in$/ },
    { path: `/success-checkout/${r.uidn}` },
    { path: `/success-user-checkin/${r.qrUser.uidn}` },
    { path: `/success-user-checkout/${r.qrUser.uidn}` },
    { path: '/demo/create-company' },
    { path: '/demo/show-company-qrcode/demo' },
    { path: `/company/demo/event/${r.eventSlug}` },
    { path: `/demo/show-event-qrcode/${r.eventSlug}` },
    // A staff page signed out: the request page itself (spec §2).
    { path: '/demo/menu', endsOn: /^\/demo\/(menu|request-meeting)$/ },
    { path: '/demo/no-such-page', notFound: true },
  ];
}

/** The pages every signed-in person has: the home, the Menu, Mon compte, Mes e-mails. */
const OWN_PAGES: Route[] = [
  { path: '/demo' },
  { path: '/demo/menu' },
  { path: '/demo/mon-compte' },
  { path: '/demo/my-mail-settings' },
];

/** The pages behind a record, scanned as the platform admin (who reaches them all). */
function detailRoutes(r: Records): Route[] {
  return [
    { path: '/demo/edit-company/demo' },
    { path: '/company/demo' },
    { path: '/company/demo/members' },
    { path: `/demo/list-qrcode-events/${r.eventSlug}` },
    { path: '/demo/on-site/roll-call' },
    { path: `/qr-details?id=${r.qrUser.id}` },
    { path: `/demo/disable-user-qrcode/${r.qrUser.id}` },
    { path: `/demo/edit-user/${r.userId}` },
    { path: '/user-check-in-out' },
    { path: `/success-checkin/${r.uidn}` },
    // A code that does not exist: the scan page's refusal (nothing is checked).
    { path: '/scan/ZZZZ-ZZZZ-ZZZZ' },
  ];
}

/** The routes a role's Menu tiles give (packages/shared MENU_TILES). */
function tileRoutes(role: Role): Route[] {
  return menuTilesFor(role).map((tile) => ({ path: `/demo/${tile.path}` }));
}

/**
 * Waits until the screen has settled: its heading shown, no loading state left (a loader that
 * says 'Chargement…'; a decorative one, aria-hidden, such as the waiting page's, stays), no toast
 * nor modal still fading in.
 */
async function settled(page: Page, where: string) {
  try {
    await page.locator('main h1').first().waitFor({ timeout: 15_000 });
    await page.waitForFunction(
      () =>
        !document.querySelector('main .mantine-Loader-root:not([aria-hidden="true"])') &&
        ![...document.querySelectorAll('.mantine-Notification-root, .mantine-Modal-content')].some(
          (el) => Number(getComputedStyle(el).opacity) < 1,
        ),
      null,
      { timeout: 15_000 },
    );
  } catch (error) {
    throw new Error(`${where} did not settle: ${String(error)}`, { cause: error });
  }
}

async function switchLanguage(page: Page, lang: Lang) {
  const control = page.locator('header').getByText(lang.toUpperCase(), { exact: true });
  await control.click();
  await page.waitForFunction((l) => localStorage.getItem('lang') === l, lang);
}

/** Scans each route with axe and returns the findings (all of them, not the first). */
async function scanRoutes(page: Page, routes: Route[], label: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const route of routes) {
    await page.goto(route.path);
    if (route.endsOn) await page.waitForURL((url) => route.endsOn!.test(url.pathname));
    const where = `${route.path} (${label})`;
    await settled(page, where);
    const url = new URL(page.url());
    if (!route.endsOn)
      expect(`${url.pathname}${url.search}`, `${where} moved away`).toBe(route.path);
    const heading = (await page.locator('main h1').first().textContent())?.trim() ?? '';
    expect(NOT_FOUND.test(heading), `${where} shows '${heading}'`).toBe(!!route.notFound);
    findings.push(...(await axeFindings(page, where)));
  }
  return findings;
}

/** A day a month from now, as the visitor form's date field is typed (DDMMYYYY, digits only). */
function dayAhead(): string {
  const day = new Date(Date.now() + 30 * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(day.getUTCDate())}${pad(day.getUTCMonth() + 1)}${day.getUTCFullYear()}`;
}

/** A label as the focus reads it, without the required field's asterisk. */
const bare = (name: string) => name.trim().replace(/\*$/, '').trim();

/** `expected` appear among the stops' names in this order (other stops may come between). */
function inOrder(stops: FocusStop[], expected: string[]): string[] {
  const names = stops.map((stop) => bare(stop.name));
  let at = 0;
  const missing: string[] = [];
  for (const name of expected) {
    const found = names.indexOf(name, at);
    if (found < 0) missing.push(name);
    else at = found + 1;
  }
  return missing;
}

/**
 * Reading order: each stop is on the line of the one before or below it (a row of a two-column
 * form reads left to right; an icon button inside a field sits a few pixels lower than the next
 * field's top).
 */
function outOfReadingOrder(stops: FocusStop[]): string[] {
  const wrong: string[] = [];
  for (let i = 1; i < stops.length; i++) {
    const [before, after] = [stops[i - 1]!, stops[i]!];
    const sameLine = Math.abs(after.top - before.top) <= 16;
    if (
      after.top < before.top - 16 ||
      (sameLine && after.left < before.left - 4 && after.top <= before.top)
    )
      wrong.push(
        `'${before.name}' (${before.left},${before.top}) → '${after.name}' (${after.left},${after.top})`,
      );
  }
  return wrong;
}

/** Presses Tab until the focus is on `name` (at most `max` presses), as a keyboard user would. */
async function tabTo(page: Page, name: string, max = 10) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLInputElement | null;
      return (
        el?.getAttribute('aria-label') ??
        el?.labels?.[0]?.textContent ??
        el?.textContent ??
        ''
      )
        .replace(/\s+/g, ' ')
        .trim();
    });
    if (bare(focused) === name) return;
  }
  throw new Error(`'${name}' not reached with ${max} Tab presses`);
}

/** Fills the visitor form (or JoinEvent's, `event`) with the mouse and pointer-free calls. */
async function fillVisitorForm(page: Page, email: string, event = false) {
  await field(page, 'Prénoms').fill('Adjoua');
  await field(page, 'Nom').fill('Kouassi');
  await field(page, "Numéro de pièce d'identité").fill('CI-2030-0418');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'piece.png', mimeType: 'image/png', buffer: ID_PNG });
  await field(page, 'Employeur').fill('Orange CI');
  if (!event) {
    await page.getByRole('combobox', { name: "Nom de l'hôte" }).fill('M. Diallo');
    await field(page, 'Motif de la visite').fill('Entretien');
    await field(page, 'Date').pressSequentially(dayAhead());
    await field(page, 'Heure').selectOption('11');
    await field(page, 'Minute').selectOption('15');
  }
  await field(page, 'Email').fill(email);
  await field(page, 'Contact').fill('0707070711');
  await page.getByLabel("J'ai lu et j'accepte la notice de confidentialité.").check();
}

describe('accessibility (issue 18): WCAG 2.2 AA on every route', () => {
  const sesame = useSesame({
    staff: Object.values(STAFF),
    timeout: 120_000,
    // The on-site check: a code scanned in is scanned out at once.
    env: { REPEAT_SCAN_WINDOW_SECONDS: '0' },
  });
  let records: Records;

  /** A page in a fresh context; axe's script needs the page's CSP bypassed. */
  const freshPage = (options: Parameters<typeof sesame.page>[0] = {}) =>
    sesame.page({ bypassCSP: true, ...options });
  const signedIn = (email: string, password: string, options: Parameters<typeof sesame.page>[0]) =>
    sesame.signedIn(email, password, { bypassCSP: true, ...options });
  const admin = () => ({ email: sesame.server.adminEmail, password: sesame.server.adminPassword });

  /** Scans routes in French, then in English (switched with the FR/EN control). */
  async function scanBothLanguages(page: Page, routes: Route[], label: string) {
    const findings: Finding[] = [];
    for (const lang of LANGS) {
      if (lang !== 'fr') await switchLanguage(page, lang);
      findings.push(...(await scanRoutes(page, routes, `${label}, ${lang}`)));
    }
    return findings;
  }

  beforeAll(async () => {
    records = await createRecords(sesame.server);
  }, 120_000);

  it('every public route, signed out, on a desktop and a phone, in French and English', async () => {
    const findings: Finding[] = [];
    for (const [device, options] of [
      ['desktop 1280', DESKTOP],
      ['phone 375', PHONE],
    ] as const) {
      const page = await freshPage(options);
      await page.goto('/');
      findings.push(...(await scanBothLanguages(page, publicRoutes(records), device)));
    }
    expect(findings, report(findings)).toEqual([]);
  }, 300_000);

  const roles: Role[] = ['ROLE_ADMIN', ...(Object.keys(STAFF) as Role[])];
  it.each(roles)(
    '%s: its Menu tiles and own pages, on a desktop, in French and English',
    async (role) => {
      const person = role === 'ROLE_ADMIN' ? admin() : STAFF[role]!;
      const routes = [
        ...OWN_PAGES,
        ...tileRoutes(role),
        ...(role === 'ROLE_ADMIN' ? detailRoutes(records) : []),
      ];
      const page = await signedIn(person.email, person.password, DESKTOP);
      const findings = await scanBothLanguages(page, routes, `${role}, desktop 1280`);
      expect(findings, report(findings)).toEqual([]);
    },
    300_000,
  );

  it("the staff's screens on a phone, in French and English", async () => {
    const page = await signedIn(admin().email, admin().password, PHONE);
    const routes = [...OWN_PAGES, ...tileRoutes('ROLE_ADMIN'), ...detailRoutes(records)];
    const findings = await scanBothLanguages(page, routes, 'ROLE_ADMIN, phone 375');
    expect(findings, report(findings)).toEqual([]);
  }, 300_000);

  /**
   * Tabs through `address` (at most `max` stops) from its start: fails on a stop without a
   * focus indicator, and answers the stops inside main, in the order Tab reached them.
   */
  const stopsInMain = async (page: Page, address: string, what: string, max: number) => {
    await page.goto(address);
    await settled(page, what);
    const stops = await tabThrough(page, max);
    const unringed = stops.filter((stop) => !stop.indicator);
    expect(unringed.map((stop) => `${stop.name}: ${stop.style}`)).toEqual([]);
    return stops.filter((stop) => stop.inMain);
  };

  it('the keyboard alone signs in, in reading order, each stop showing its focus', async () => {
    const page = await freshPage(DESKTOP);
    const form = await stopsInMain(page, '/sign-in', 'the login', 30);
    expect(inOrder(form, ['Adresse e-mail', 'Continuer', 'Changer le mot de passe'])).toEqual([]);
    expect(outOfReadingOrder(form)).toEqual([]);

    // Signed in with Tab, typing and Enter only.
    await page.goto('/sign-in');
    await settled(page, 'the login');
    await tabTo(page, 'Adresse e-mail', 10);
    await page.keyboard.type(admin().email);
    // Issue 33: Enter is 'Continuer'; the password step takes the keyboard to its field.
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => (document.activeElement as HTMLInputElement | null)?.name === 'password',
    );
    await page.keyboard.type(admin().password);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/demo$/);
  });

  it('the keyboard alone fills and sends the visitor form, in reading order, each stop showing its focus', async () => {
    const page = await freshPage(DESKTOP);
    const form = await stopsInMain(page, '/demo/meeting', 'the visitor form', 60);
    const order = [
      'Prénoms',
      'Nom',
      "Numéro de pièce d'identité",
      'Adresse',
      'Ville',
      'Pays',
      'Employeur',
      "Nom de l'hôte",
      'Motif de la visite',
      'Date',
      'Heure',
      'Minute',
      'Email',
      'Contact',
      "J'ai lu et j'accepte la notice de confidentialité.",
      'Envoyer la demande',
    ];
    expect(inOrder(form, order), form.map((stop) => stop.name).join(' | ')).toEqual([]);
    expect(outOfReadingOrder(form)).toEqual([]);

    // Filled and sent without the mouse: the document's button opens the file chooser on
    // Enter, a select takes the typed option, the checkbox Space, the form Enter.
    await page.goto('/demo/meeting');
    await settled(page, 'the visitor form');
    await tabTo(page, 'Prénoms', 10);
    await page.keyboard.type('Adjoua');
    await tabTo(page, 'Nom');
    await page.keyboard.type('Kouassi');
    await tabTo(page, "Numéro de pièce d'identité");
    await page.keyboard.type('CI-2030-0419');
    // Listening for the file chooser before the focus gets there: Playwright turns the
    // browser's interception on without waiting for an answer, so a listener added in the
    // same breath as the key press could miss the chooser on a loaded machine.
    const chooserOpened = page.waitForEvent('filechooser', { timeout: 20_000 });
    await tabTo(page, "Pièce d'identité");
    // Enter clicks a button on the key's press (Space on its release).
    await page.keyboard.press('Enter');
    const chooser = await chooserOpened;
    await chooser.setFiles({ name: 'piece.png', mimeType: 'image/png', buffer: ID_PNG });
    await tabTo(page, 'Employeur');
    await page.keyboard.type('Orange CI');
    await tabTo(page, "Nom de l'hôte");
    await page.keyboard.type('M. Diallo');
    await page.keyboard.press('Escape');
    await tabTo(page, 'Motif de la visite');
    await page.keyboard.type('Entretien');
    await tabTo(page, 'Date');
    await page.keyboard.type(dayAhead());
    await tabTo(page, 'Heure');
    await page.keyboard.type('11');
    await tabTo(page, 'Minute');
    await page.keyboard.type('15');
    await tabTo(page, 'Email');
    await page.keyboard.type('adjoua.keyboard@example.com');
    await tabTo(page, 'Contact');
    await page.keyboard.type('0707070712');
    await tabTo(page, "J'ai lu et j'accepte la notice de confidentialité.");
    await page.keyboard.press('Space');
    await tabTo(page, 'Envoyer la demande');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/demo\/request-meeting\/[0-9a-f-]{36}$/);
  });

  it('on a phone every control of the main screens is at least 44 px high', async () => {
    const small: string[] = [];
    const measure = async (page: Page, route: string) => {
      await page.goto(route);
      await settled(page, `${route} on a phone`);
      small.push(...(await smallTargets(page, 'header, main', 44)).map((s) => `${route}: ${s}`));
    };
    const visitor = await freshPage(PHONE);
    for (const route of [
      '/demo',
      '/sign-in',
      '/demo/meeting',
      `/company/demo/event/${records.eventSlug}`,
      `/demo/waiting-validation/${records.requestId}`,
      `/company/demo/meeting-request-qr/${records.uidn}`,
    ])
      await measure(visitor, route);
    const desk = await signedIn(admin().email, admin().password, PHONE);
    for (const route of [
      '/demo',
      '/demo/menu',
      '/demo/on-site',
      '/demo/manual-check',
      '/demo/camera',
      '/demo/list-qrcode',
      '/demo/display-logs',
    ])
      await measure(desk, route);
    await desk.goto('/demo/on-site');
    await settled(desk, 'on site');
    await screenshot(desk, 'a11y-on-site-phone-375');
    await visitor.goto('/sign-in');
    await settled(visitor, 'the login on a phone');
    await screenshot(visitor, 'a11y-login-phone-375');
    expect(small).toEqual([]);
  });

  it("the manual validation's result and the on-site list's changes are said by live regions", async () => {
    const { server } = sesame;
    const token = await apiToken(server);
    const awa = await createConfirmedVisitor(server, token, {
      firstname: 'Awa',
      lastname: 'Live',
      email: 'awa.live@example.com',
    });
    const yao = await createConfirmedVisitor(server, token, {
      firstname: 'Yao',
      lastname: 'Live',
      email: 'yao.live@example.com',
    });

    // The guard's phone on 'Sur place', hearing the live feed.
    const guard = await signedIn(STAFF.ROLE_SUPERVISOR!.email, password, PHONE);
    await guard.goto('/demo/on-site');
    await guard.locator('[data-live="live"]').waitFor();
    const news = guard.getByTestId('on-site-announcement');
    expect(await news.getAttribute('role')).toBe('status');
    expect((await news.textContent())?.trim()).toBe('');
    const regionBefore = await news.elementHandle();

    // The desk validates Awa's code by hand: its result is said where it appears.
    const desk = await signedIn(STAFF.ROLE_EMPLOYEE!.email, password, DESKTOP);
    await desk.goto('/demo/manual-check');
    const result = desk.getByTestId('manual-check-result');
    expect(await result.getAttribute('role')).toBe('status');
    expect(await result.getAttribute('aria-live')).toBe('polite');
    const resultBefore = await result.elementHandle();
    await desk.getByLabel('UIDN').fill(awa.uidn);
    await desk.keyboard.press('Enter');
    await result.getByText('Arrivée enregistrée : Awa Live.').waitFor();
    // The same element, there before the result: not a region added with its text.
    expect(await resultBefore!.evaluate((el) => el.isConnected && el.textContent)).toContain(
      'Arrivée enregistrée : Awa Live.',
    );

    // The guard's list says who came, and how many are in.
    await within(
      10_000,
      async () => ((await news.textContent()) ?? '').includes('Arrivée : Awa Live.'),
      "the guard's live region saying Awa's arrival",
    );
    const inside = async () =>
      Number(/\b(\d{1,6}) personnes? sur place\./.exec((await news.textContent()) ?? '')?.[1]);
    const withAwa = await inside();
    expect(withAwa).toBeGreaterThanOrEqual(1);
    expect(await regionBefore!.evaluate((el) => el.isConnected)).toBe(true);

    // Yao arrives (a scan), then Awa leaves (her code again): each said in turn.
    const scan = (uidn: string) =>
      fetch(`${server.url}/api/get-qr-data/${uidn}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await scan(yao.uidn)).status).toBe(200);
    await within(
      10_000,
      async () => ((await news.textContent()) ?? '').includes('Arrivée : Yao Live.'),
      "Yao's arrival said",
    );
    expect(await inside()).toBe(withAwa + 1);
    expect((await scan(awa.uidn)).status).toBe(200);
    await within(
      10_000,
      async () => ((await news.textContent()) ?? '').includes('Départ : Awa Live.'),
      "Awa's departure said",
    );
    // Yao in, Awa out: as many as when Awa came.
    expect(await inside()).toBe(withAwa);
  });

  it("the scanner's result is said by a live region, after a real scan", async () => {
    const code = await QRCode.toBuffer('PAS-UN-CODE-SESAME', { margin: 4, width: 400 });
    const camera = await launchBrowser(fakeCameraFlags(await videoOf(code)));
    try {
      const context = await newContext(camera, sesame.server.url, PHONE);
      await context.grantPermissions(['camera'], { origin: sesame.server.url });
      const page = await context.newPage();
      await signIn(page, STAFF.ROLE_EMPLOYEE!.email, password);
      await page.goto('/demo/camera');
      // The region is rendered with the page (the camera may read the code at once, so its
      // emptiness is not awaited): the result must land in this same element, not a new one.
      const region = page.getByTestId('scan-result');
      expect(await region.getAttribute('aria-live')).toBe('polite');
      const before = await region.elementHandle();
      const said = 'QR Code invalide : PAS-UN-CODE-SESAME';
      await region.getByText(said).waitFor({ timeout: 20_000 });
      // The same element: the result was said by the region that was waiting for it.
      expect(await before!.evaluate((el) => el.isConnected && el.textContent)).toContain(said);
    } finally {
      await camera.close();
    }
  });

  it('nothing overflows a 320 px screen on the public pages', async () => {
    const page = await freshPage({ ...PHONE, viewport: { width: 320, height: 640 } });
    const wide: string[] = [];
    for (const route of [
      '/demo',
      '/sign-in',
      '/demo/meeting',
      `/company/demo/event/${records.eventSlug}`,
      `/demo/waiting-validation/${records.requestId}`,
      `/success-checkout/${records.uidn}`,
      `/company/demo/meeting-request-qr/${records.uidn}`,
    ]) {
      await page.goto(route);
      await settled(page, `${route} at 320 px`);
      const extra = await overflow(page);
      if (extra > 0) wide.push(`${route}: ${extra} px too wide`);
    }
    await page.goto('/demo/meeting');
    await settled(page, 'the visitor form at 320 px');
    await screenshot(page, 'a11y-visitor-form-320');
    expect(wide).toEqual([]);
  });

  it('the visitor form and JoinEvent at 200 % zoom: nothing wider than the window, filled and sent', async () => {
    // A 1280 × 800 window zoomed to 200 %: a 640 × 400 CSS layout at twice the density.
    const zoomed = { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 };
    const page = await freshPage(zoomed);
    await page.goto('/demo/meeting');
    await settled(page, 'the visitor form at 200 %');
    expect(await overflow(page)).toBe(0);
    await fillVisitorForm(page, 'adjoua.zoom@example.com');
    expect(await overflow(page)).toBe(0);
    await screenshot(page, 'a11y-visitor-form-zoom-200');
    await page.getByRole('button', { name: 'Envoyer la demande' }).click();
    await page.waitForURL(/\/demo\/request-meeting\/[0-9a-f-]{36}$/);

    const guest = await freshPage(zoomed);
    await guest.goto(`/company/demo/event/${records.eventSlug}`);
    await settled(guest, 'JoinEvent at 200 %');
    expect(await overflow(guest)).toBe(0);
    await fillVisitorForm(guest, 'adjoua.event@example.com', true);
    expect(await overflow(guest)).toBe(0);
    await screenshot(guest, 'a11y-join-event-zoom-200');
    await guest.getByRole('button', { name: "S'inscrire" }).click();
    await guest.waitForURL(/\/demo\/qr-code\/[0-9a-f-]{36}$/);
  });
});
