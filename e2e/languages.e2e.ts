/**
 * Two languages on every screen (issue 18): "A person switching to English sees no French
 * word on any screen but names and addresses; and the other way round."
 *
 * Every route of the route table is opened (the public ones signed out, the staff ones as
 * the admin, who reaches them all; the detail pages on records made through the API), read
 * in the language it opens in, switched with the navbar's FR/EN control as a person would,
 * and read again. On each screen, every visible text node, the title, aria-labels,
 * placeholders, alts and titles are compared with the catalogues (the web's locale files
 * and the server's catalogues): a French screen showing a text that only the English
 * catalogue holds fails, and the other way round. Exact strings, not guessed words.
 * Each page's title is '<page> — Demo — Sésame', and distinct screens have distinct titles.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as shared from '@sesame/shared';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { within } from './support/poll';
import { ROOT, apiToken, type RunningServer } from './support/server';
import { useSesame } from './support/sesame';
import { createConfirmedVisitor, ID_PNG, todayForForm } from './support/visitors';
import { InvitationLinks } from '../apps/server/src/invitations/link';
import { demoSite } from './support/kiosk';

/** The server's secret here: the test signs an invited visitor's link with it (issue 30). */
const JWT_SECRET = 'e2e-languages-secret-long-enough-for-hs256-signing';

/** An invited visitor's page for today, in French: its address with its signed link. */
async function invitationPage(server: RunningServer): Promise<string> {
  const token = await apiToken(server);
  const site = await demoSite(server, token);
  // The answer holds the visitors at its root (no `data`): read as it comes.
  const res = await fetch(`${server.url}/api/invitations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      site_id: site.siteId,
      date: todayForForm(),
      time: '09:00',
      end_time: '18:00',
      reason: 'Réunion',
      visitors: [{ firstname: 'Koffi', lastname: 'Yao', email: 'koffi.yao@example.com' }],
    }),
  });
  if (!res.ok) throw new Error(`/invitations: ${res.status} ${await res.text()}`);
  const created = (await res.json()) as { visitors: { request_id: string }[] };
  const link = new InvitationLinks(JWT_SECRET).sign(
    created.visitors[0]!.request_id,
    new Date(Date.now() + 86_400_000),
  );
  return `/demo/invitation?token=${encodeURIComponent(link)}`;
}

type Language = 'fr' | 'en';
const DEMO = 'Demo';

/**
 * Texts one catalogue holds that may show on a screen of the other language, each with its
 * reason. Names and codes (people, companies, events, codes, countries from Intl) are no
 * catalogue text, and texts both catalogues hold ('Email', 'QR Code', 'Check-in', 'Menu',
 * 'UIDN', 'Sésame') never count: only a text one catalogue holds and the other does not can be
 * a leftover.
 */
const ALLOWED: Record<string, string> = {
  Type: "a French column of the roll call (English says 'Kind') that is an English word too",
  'QR code': "the English catalogue's spelling, which French writes too",
};

// ---------------------------------------------------------------------------------------
// The catalogues

type Tree = { [key: string]: unknown };

function localeTexts(lang: Language): Set<string> {
  const dir = path.join(ROOT, 'apps/web/src/locales', lang);
  const out = new Set<string>();
  const walk = (node: unknown) => {
    if (typeof node === 'string') out.add(node);
    else if (node && typeof node === 'object') Object.values(node as Tree).forEach(walk);
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    walk(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
  }
  return out;
}

/**
 * The server's catalogue in `lang` (packages/shared/src/messages: it answers in the
 * request's language). A message made by a function ('Arrivée enregistrée : ${name}.') is
 * read with '{{…}}' for its arguments.
 */
function serverTexts(lang: Language): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown) => {
    if (typeof node === 'string') out.add(node);
    else if (typeof node === 'function') {
      const args = Array.from({ length: node.length }, (_, i) => `{{arg${i}}}`);
      try {
        const text: unknown = (node as (...a: string[]) => unknown)(...args);
        if (typeof text === 'string') out.add(text);
      } catch {
        // A message whose arguments are not plain values is not read here.
      }
    } else if (node && typeof node === 'object') Object.values(node as Tree).forEach(walk);
  };
  walk(shared.catalogue(lang));
  return out;
}

interface Matcher {
  text: string;
  test: (shown: string) => boolean;
}

/** 'Bienvenue chez {{company}} !' → ['Bienvenue chez ', ' !']: the text around its variables. */
function literalParts(text: string): string[] {
  const parts: string[] = [];
  let rest = text;
  for (;;) {
    const open = rest.indexOf('{{');
    const close = open < 0 ? -1 : rest.indexOf('}}', open);
    if (close < 0) return [...parts, rest];
    parts.push(rest.slice(0, open));
    rest = rest.slice(close + 2);
  }
}

/**
 * A catalogue text as a matcher of a whole shown text: '{{name}}' stands for any value.
 * A text that is mostly variables would match anything: it is left out.
 */
function matcher(text: string): Matcher | null {
  const parts = literalParts(text.trim());
  if (parts.join('').replace(/[^\p{L}]/gu, '').length < 3) return null;
  if (parts.length === 1) return { text, test: (shown) => shown === text.trim() };
  const pattern = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+?');
  const regex = new RegExp(`^${pattern}$`, 'su');
  return { text, test: (shown) => regex.test(shown) };
}

interface Catalogues {
  /** Every key path of the web's catalogues with a dot ('mailKinds.host_arrival'), and namespaces. */
  keys: { paths: string[]; namespaces: string[] };
  /** Texts only the French catalogues hold: a leftover on an English screen. */
  frenchOnly: Matcher[];
  /** Texts only the English catalogue holds: a leftover on a French screen. */
  englishOnly: Matcher[];
  /** Every text of each language's catalogues, as written. */
  own: Record<Language, Set<string>>;
}

function catalogues(): Catalogues {
  const fr = new Set([...localeTexts('fr'), ...serverTexts('fr')]);
  const en = new Set([...localeTexts('en'), ...serverTexts('en')]);
  const only = (mine: Set<string>, theirs: Set<string>) =>
    [...mine]
      .filter((text) => !theirs.has(text) && !(text in ALLOWED))
      .map(matcher)
      .filter((m): m is Matcher => m !== null);
  return {
    keys: keyPaths(),
    frenchOnly: only(fr, en),
    englishOnly: only(en, fr),
    own: { fr, en },
  };
}

/** The key paths a missing word would show instead of its text (plural suffixes folded). */
function keyPaths(): Catalogues['keys'] {
  const dir = path.join(ROOT, 'apps/web/src/locales/fr');
  const paths = new Set<string>();
  const walkKeys = (node: unknown, prefix: string) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Tree)) {
      const keyPath = prefix ? `${prefix}.${key}` : key;
      if (typeof value === 'string') {
        if (keyPath.includes('.'))
          paths.add(keyPath.replace(/_(?:zero|one|two|few|many|other)$/, ''));
      } else walkKeys(value, keyPath);
    }
  };
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  for (const file of files) walkKeys(JSON.parse(readFileSync(path.join(dir, file), 'utf8')), '');
  return { paths: [...paths], namespaces: files.map((f) => f.replace(/\.json$/, '')) };
}

/**
 * A text that shows a catalogue's key instead of its words (issue 27: the request list read
 * `mailKinds.host_arrivalcolonEnvoyé`): a key path after a non-letter, or `namespace:key`.
 */
function rawKeyIn(text: string, keys: Catalogues['keys']): string | undefined {
  const named = new RegExp(`(?:^|[^\\w])(${keys.namespaces.join('|')}):[a-zA-Z_]`).exec(text);
  if (named) return named[0].trim();
  return keys.paths.find((keyPath) => {
    const at = text.indexOf(keyPath);
    return at >= 0 && (at === 0 || !/[\w.@]/.test(text.charAt(at - 1)));
  });
}

// ---------------------------------------------------------------------------------------
// The screens

/** What a person reads on the screen, and what a screen reader says of it. */
async function shownTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out = new Set<string>([document.title]);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent) continue;
      // A native select's options are read even while it is closed.
      if (parent.tagName === 'OPTION' || parent.checkVisibility()) out.add(text);
    }
    for (const element of document.body.querySelectorAll(
      '[aria-label], [placeholder], [alt], [title]',
    )) {
      for (const name of ['aria-label', 'placeholder', 'alt', 'title']) {
        const value = element.getAttribute(name)?.trim();
        if (value) out.add(value);
      }
    }
    return [...out];
  });
}

/**
 * Waits for the screen to settle: its title whole (the company's name comes with the
 * company's data), no loader, nothing in a CSS transition (a toast closing still shows its
 * words), and the same texts on two readings.
 */
async function settled(page: Page): Promise<void> {
  let previous = '';
  await within(
    20_000,
    async () => {
      const ready = await page.evaluate(
        (suffix) =>
          document.title.endsWith(suffix) &&
          ![...document.querySelectorAll('.mantine-Loader-root')].some((l) =>
            (l as HTMLElement).checkVisibility(),
          ) &&
          !document.getAnimations().some((a) => a instanceof CSSTransition),
        ` — ${DEMO} — Sésame`,
      );
      const now = ready ? (await shownTexts(page)).join('\n') : '';
      const same = ready && now === previous;
      previous = now;
      return same;
    },
    `${page.url()} settled`,
  );
}

interface Finding {
  url: string;
  lang: Language;
  text: string;
  catalogue: string;
}

function leftovers(shown: string[], lang: Language, cat: Catalogues, url: string): Finding[] {
  const other = lang === 'en' ? cat.frenchOnly : cat.englishOnly;
  const found: Finding[] = [];
  for (const text of shown) {
    const key = rawKeyIn(text, cat.keys);
    if (key) found.push({ url, lang, text, catalogue: `a raw key: ${key}` });
    // A text its own language's catalogue holds as written is no leftover ('Aucun logo'
    // is French, even though the English '{{name}} logo' would read it).
    if (text in ALLOWED || cat.own[lang].has(text)) continue;
    const hit = other.find((m) => m.test(text));
    if (hit) {
      found.push({ url, lang, text, catalogue: hit.text });
    }
  }
  return found;
}

async function currentLanguage(page: Page): Promise<Language> {
  return (await page.evaluate(() => document.documentElement.lang)) === 'en' ? 'en' : 'fr';
}

/** The navbar's FR/EN control, clicked as a person would. */
async function switchLanguage(page: Page, to: Language): Promise<void> {
  await page.getByRole('banner').getByText(to.toUpperCase(), { exact: true }).click();
  await within(
    5_000,
    async () => (await currentLanguage(page)) === to,
    `${page.url()} switched to ${to}`,
  );
}

/** '<page> — Demo — Sésame' → '<page>'; throws on any other shape. */
function pageOfTitle(title: string): string {
  const match = new RegExp(`^(.+) — ${DEMO} — Sésame$`, 'u').exec(title);
  if (!match?.[1] || match[1] === 'Sésame' || match[1].includes(' — ')) {
    throw new Error(`title '${title}' is not '<page> — ${DEMO} — Sésame'`);
  }
  return match[1];
}

interface Screen {
  /** Where to go. */
  path: string;
  /**
   * The screen it shows: addresses of one screen share its title, distinct screens differ.
   * Absent for an address that moves on to another screen by itself (a scan, a redirect).
   */
  screen?: string;
}

interface Seen {
  path: string;
  screen?: string;
  titles: Record<Language, string>;
}

/** Opens each address, reads it, switches language, reads it again. */
async function walk(page: Page, screens: Screen[], cat: Catalogues) {
  const findings: Finding[] = [];
  const seen: Seen[] = [];
  for (const { path: address, screen } of screens) {
    await page.goto(address);
    const titles = {} as Record<Language, string>;
    const first = await currentLanguage(page);
    for (const lang of [first, first === 'fr' ? 'en' : 'fr'] as const) {
      if (lang !== first) await switchLanguage(page, lang);
      await settled(page);
      expect(await currentLanguage(page)).toBe(lang);
      const shown = await shownTexts(page);
      findings.push(...leftovers(shown, lang, cat, page.url()));
      // The screen does read in its language: some text of it is that language's only,
      // so the texts were read and the check had something to compare.
      const mine = lang === 'fr' ? cat.frenchOnly : cat.englishOnly;
      expect(
        shown.some((text) => mine.some((m) => m.test(text))),
        `${page.url()} shows no ${lang} text`,
      ).toBe(true);
      titles[lang] = pageOfTitle(await page.title());
    }
    seen.push({ path: address, screen, titles });
  }
  return { findings, seen };
}

function distinctTitles(seen: Seen[]): string[] {
  const clashes: string[] = [];
  for (const lang of ['fr', 'en'] as const) {
    const byTitle = new Map<string, string>();
    for (const { screen, titles, path: address } of seen) {
      if (!screen) continue;
      const other = byTitle.get(titles[lang]);
      if (other !== undefined && other !== screen) {
        clashes.push(`${lang}: '${titles[lang]}' names ${other} and ${screen} (${address})`);
      }
      byTitle.set(titles[lang], screen);
    }
  }
  return clashes;
}

// ---------------------------------------------------------------------------------------
// The records the detail pages show

interface Records {
  adminId: string;
  eventSlug: string;
  requestId: string;
  uidn: string;
  /** A second confirmed visitor, checked in by the staff walk's scan. */
  scanUidn: string;
  qrUserId: string;
  qrUidn: string;
}

async function call<T>(server: RunningServer, token: string, url: string, init: RequestInit) {
  const res = await fetch(`${server.url}/api${url}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...init.headers },
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

async function createRecords(server: RunningServer): Promise<Records> {
  const token = await apiToken(server);
  const me = await fetch(`${server.url}/api/user/info`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { id: adminId, company_id: demoId } = (await me.json()) as {
    id: string;
    company_id: string;
  };

  const event = await call<{ slug: string }>(server, token, '/evenement/create', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      company_id: 'demo',
      name: 'Kermesse 2031',
      location: 'Salle B',
      address_name: 'Boulevard Latrille',
      city: 'Abidjan',
      // Sent as a name, as the spec's payloads do; shown in the screen's language.
      country: "Côte d'Ivoire",
      date_event: todayForForm(),
      time_event: '10:00',
    }),
  });

  const visitor = await createConfirmedVisitor(server, token, {
    firstname: 'Awa',
    lastname: 'Koné',
    email: 'awa.kone@example.com',
  });
  const scanned = await createConfirmedVisitor(server, token, {
    firstname: 'Moussa',
    lastname: 'Diallo',
    email: 'moussa.diallo@example.com',
  });

  const form = new FormData();
  for (const [key, value] of Object.entries({
    firstname: 'Fatou',
    lastname: 'Bamba',
    email: 'fatou.bamba@example.com',
    contact: '0102030405',
    title: 'Consultante',
    type: 'permanent',
    dateExp: '2031-12-31',
    company_id: demoId,
  })) {
    form.set(key, value);
  }
  form.set('user_document', new Blob([ID_PNG], { type: 'image/png' }), 'photo.png');
  const qrUser = await call<{ id: string; uidn: string }>(server, token, '/create-qr', {
    method: 'POST',
    body: form,
  });

  return {
    adminId,
    eventSlug: event.slug,
    requestId: visitor.requestId,
    uidn: visitor.uidn,
    scanUidn: scanned.uidn,
    qrUserId: qrUser.id,
    qrUidn: qrUser.uidn,
  };
}

// ---------------------------------------------------------------------------------------

describe('every screen in French and in English (issue 18)', () => {
  const sesame = useSesame({ env: { JWT_SECRET } });
  let records: Records;
  let cat: Catalogues;
  const seen: Seen[] = [];
  /** Walks `screens`, keeps what each showed (for the titles' test), fails on a leftover. */
  const walkScreens = async (page: Page, screens: Screen[]) => {
    const result = await walk(page, screens, cat);
    seen.push(...result.seen);
    expect(result.findings).toEqual([]);
  };

  beforeAll(async () => {
    records = await createRecords(sesame.server);
    cat = catalogues();
    // The check would pass on nothing: the catalogues hold texts of each language only.
    expect(cat.frenchOnly.length).toBeGreaterThan(300);
    expect(cat.englishOnly.length).toBeGreaterThan(300);
  });

  it('the public screens, signed out', async () => {
    const { eventSlug, requestId, uidn } = records;
    const page = await sesame.page();
    await walkScreens(page, [
      { path: '/', screen: 'login' },
      { path: '/sign-in', screen: 'login' },
      { path: '/demo', screen: 'home' },
      { path: '/demo/request-meeting', screen: 'request-meeting' },
      { path: `/demo/request-meeting/${requestId}`, screen: 'request-waiting' },
      { path: '/demo/meeting', screen: 'visitor-form' },
      { path: `/company/demo/event/${eventSlug}`, screen: 'join-event' },
      { path: `/demo/waiting-validation/${requestId}`, screen: 'waiting-validation' },
      { path: `/demo/qr-code/${requestId}`, screen: 'request-summary' },
      { path: '/company/demo/host-decision', screen: 'host-decision' },
      { path: `/company/demo/meeting-request-qr/${uidn}`, screen: 'meeting-card' },
      { path: `/demo/show-event-qrcode/${eventSlug}`, screen: 'event-poster' },
      { path: '/demo/show-company-qrcode/demo', screen: 'company-qr' },
      { path: '/demo/create-company', screen: 'create-company' },
      { path: `/success-checkout/${uidn}`, screen: 'thanks' },
      { path: `/success-user-checkin/${uidn}`, screen: 'thanks' },
      { path: `/success-user-checkout/${uidn}`, screen: 'thanks' },
      { path: '/demo/no-such-page', screen: 'not-found' },
      { path: await invitationPage(sesame.server), screen: 'invitation' },
      // Signed out, the Menu sends a visitor to the request page; a scan, to the login.
      { path: '/demo/menu' },
      { path: `/scan/${uidn}` },
    ]);
  });

  it('the staff screens, as the admin', async () => {
    const { adminId, eventSlug, scanUidn, qrUserId, qrUidn, uidn } = records;
    const page = await sesame.signedIn(sesame.server.adminEmail, sesame.server.adminPassword);
    await walkScreens(page, [
      { path: '/demo/menu', screen: 'menu' },
      { path: '/demo/create-user', screen: 'create-user' },
      { path: '/demo/list-users', screen: 'user-list' },
      { path: '/demo/mon-compte', screen: 'account' },
      { path: '/demo/my-mail-settings', screen: 'mail-settings' },
      { path: `/demo/edit-user/${adminId}`, screen: 'edit-user' },
      { path: '/demo/list-qrcode', screen: 'request-list' },
      { path: '/demo/manual-check', screen: 'manual-check' },
      { path: '/demo/camera', screen: 'camera' },
      { path: '/demo/display-logs', screen: 'visitor-log' },
      { path: '/demo/user-check-ins', screen: 'user-attendance' },
      { path: '/user-check-in-out', screen: 'user-log' },
      { path: '/demo/create-event', screen: 'create-event' },
      { path: '/demo/list-events', screen: 'event-list' },
      { path: `/demo/list-qrcode-events/${eventSlug}`, screen: 'event' },
      { path: '/demo/event-attendences', screen: 'event-attendance' },
      { path: '/demo/create-company', screen: 'create-company' },
      { path: '/demo/edit-company/demo', screen: 'edit-company' },
      { path: '/demo/company-list', screen: 'company-list' },
      { path: '/company/demo', screen: 'employees' },
      { path: '/company/demo/members', screen: 'members' },
      { path: '/demo/create-qr', screen: 'create-qr' },
      { path: '/demo/create-membre-qr', screen: 'create-member' },
      { path: '/demo/qr-code-list', screen: 'qr-list' },
      { path: `/qr-details?id=${qrUserId}`, screen: 'qr-details' },
      { path: `/demo/disable-user-qrcode/${qrUserId}`, screen: 'qr-expiry' },
      { path: '/demo/on-site', screen: 'on-site' },
      { path: '/demo/on-site/roll-call', screen: 'roll-call' },
      { path: '/demo/audit', screen: 'audit' },
      { path: '/demo/invite', screen: 'invite' },
      { path: '/demo/my-visitors', screen: 'my-visitors' },
      { path: `/success-checkin/${uidn}`, screen: 'thanks' },
      // A scan checks the code in, then says so on the thank-you page.
      { path: `/scan/${scanUidn}` },
      { path: `/scan-user-qrcode/${qrUidn}` },
    ]);

    // The account menu opens over any screen: read it in both languages (issue 27: it
    // showed `preferences.title` on a screen that had not loaded the mail settings' words).
    const findings: Finding[] = [];
    for (const lang of ['fr', 'en'] as const) {
      await page.goto('/demo/list-events');
      if ((await currentLanguage(page)) !== lang) await switchLanguage(page, lang);
      await settled(page);
      await page.getByTestId('user-menu').click();
      await page.getByTestId('mail-settings-link').waitFor();
      await settled(page);
      findings.push(
        ...leftovers(await shownTexts(page), lang, cat, `${page.url()} (account menu)`),
      );
      await page.keyboard.press('Escape');
    }
    expect(findings).toEqual([]);
  });

  it('the visitor form shows the privacy notice in its own language (issue 27)', async () => {
    const page = await sesame.page();
    await page.goto('/demo/meeting');
    const notice = page.getByTestId('privacy-notice');
    await notice.getByText(/enregistre votre identité/).waitFor();
    await switchLanguage(page, 'en');
    await notice.getByText(/records your identity/).waitFor();
    expect(await notice.textContent()).not.toMatch(/enregistre|supprimées/);
  });

  it('answers on English screens: a refused login, a code checked by hand, forms sent empty', async () => {
    const findings: Finding[] = [];
    const read = async (page: Page, what: string, role: 'alert' | 'status') => {
      await page.getByRole(role).first().waitFor();
      await settled(page);
      findings.push(...leftovers(await shownTexts(page), 'en', cat, `${page.url()} (${what})`));
    };
    /** A form sent empty: every check's message, in the screen's language. */
    const sendEmpty = async (page: Page, address: string) => {
      await page.goto(address);
      if ((await currentLanguage(page)) !== 'en') await switchLanguage(page, 'en');
      await settled(page);
      await page.locator('main form button[type="submit"]').first().click();
      // The fields' own messages: each field the checks refused says why.
      await page.locator('main [aria-invalid="true"]').first().waitFor();
      await settled(page);
      findings.push(...leftovers(await shownTexts(page), 'en', cat, `${page.url()} (sent empty)`));
    };

    const visitor = await sesame.page();
    await visitor.goto('/sign-in');
    await switchLanguage(visitor, 'en');
    await visitor.getByLabel('E-mail address').fill(sesame.server.adminEmail);
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await visitor.getByLabel('Password', { exact: true }).fill('not-the-password');
    await visitor.getByRole('button', { name: 'Submit' }).click();
    await read(visitor, 'login', 'alert');
    await sendEmpty(visitor, '/demo/meeting');

    const admin = await sesame.signedIn(sesame.server.adminEmail, sesame.server.adminPassword);
    await admin.goto('/demo/manual-check');
    await switchLanguage(admin, 'en');
    await admin.getByRole('textbox', { name: 'UIDN' }).fill(records.uidn);
    await admin.getByRole('button', { name: 'Validate' }).click();
    await read(admin, 'manual check', 'status');
    for (const form of ['create-company', 'create-event', 'create-user', 'create-qr']) {
      await sendEmpty(admin, `/demo/${form}`);
    }

    expect(findings).toEqual([]);
  });

  it('titles every screen distinctly, in both languages', () => {
    expect(seen.length).toBeGreaterThan(45);
    expect(distinctTitles(seen)).toEqual([]);
    // Switching the language rewrites the title.
    const untranslated = seen.filter((s) => s.titles.fr === s.titles.en).map((s) => s.path);
    expect(untranslated).toEqual([]);
  });
});
