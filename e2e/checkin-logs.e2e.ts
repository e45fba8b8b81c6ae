/**
 * The presence logs in Chromium: a visitor with a confirmed request is checked in
 * and out with their code, another is checked in and stays; a permanent QR code is
 * checked in, out and in again. The admin finds them in 'Liste Check in' (times in
 * French, how and by whom, 'Sur place'), narrows it by search and by a date-time
 * range that reaches the server, exports the filtered range as CSV for French
 * Excel, opens the image; then reads 'Liste Check in / Check out Participants'
 * (View modal, Edit link) and the badge log. Screens at 1280 and 375 px wide.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newContext, PHONE, screenshot, signIn } from './support/browser';
import { clearOfMidnight } from './support/poll';
import { apiToken, type RunningServer } from './support/server';
import { useSesame } from './support/sesame';
import { ID_PNG } from './support/visitors';

const TIME_ZONE = 'Africa/Abidjan';

const LEAVER = {
  firstname: 'Mariam',
  lastname: 'Ouattara',
  email: 'mariam.ouattara@example.com',
  organisation: 'Orange CI',
};
const STAYER = {
  firstname: 'Koffi',
  lastname: 'Brou',
  email: 'koffi.brou@example.com',
  organisation: 'Cacao Export SA',
};
const BADGE = {
  firstname: 'Ibrahim',
  lastname: 'Traoré',
  email: 'ibrahim.traore@example.com',
  contact: '0505050505',
};

/** Today in the company's time zone: 'DD/MM/YYYY' (the visitor form) and '22 novembre 2026'. */
function today() {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    })
      .formatToParts(new Date())
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  const long = new Intl.DateTimeFormat('fr-FR', {
    timeZone: TIME_ZONE,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(new Date());
  return { form: `${parts.day}/${parts.month}/${parts.year}`, long };
}

/** The calendar's name of a day of the month before this one: '1 octobre 2026'. */
function lastMonthDay(day: number): string {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, day, 12));
  return new Intl.DateTimeFormat('fr-FR', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(date);
}

async function call<T>(
  server: RunningServer,
  token: string | null,
  method: string,
  path: string,
  body?: FormData | object,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${server.url}/api${path}`, { method, headers, body: payload });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The visitor form's two calls, then Valider by the admin: the visitor's code. */
async function confirmedVisitor(
  server: RunningServer,
  token: string,
  who: typeof LEAVER,
): Promise<string> {
  const form = new FormData();
  const fields: Record<string, string> = {
    company_id: 'demo',
    firstname: who.firstname,
    lastname: who.lastname,
    id_number: `CI-${who.lastname.toUpperCase()}`,
    organisation_name: who.organisation,
    email: who.email,
    contact: '0707070707',
    address: 'Rue des Jardins',
    city: 'Abidjan',
    country: "Côte d'Ivoire",
    request_date: today().form,
    request_time: '10:30',
    // Issue 16: the privacy notice accepted.
    privacy_accepted: '1',
  };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set('request_image', new Blob([new Uint8Array(ID_PNG)], { type: 'image/png' }), 'id.png');
  const visitor = await call<{ data: { visitor_id: string } }>(
    server,
    null,
    'POST',
    '/visitor/create',
    form,
  );
  const request = await call<{ data: { id: string } }>(server, null, 'POST', '/requests/create', {
    visitor_id: visitor.data.visitor_id,
    host: 'M. Diallo',
    reason: 'Entretien',
  });
  const confirmed = await call<{ data: { uidn?: string; data?: { uidn: string } } }>(
    server,
    token,
    'PUT',
    `/requests/update/${request.data.id}`,
    { status: 1, confirmed: 1 },
  );
  const uidn = confirmed.data.uidn ?? confirmed.data.data?.uidn;
  if (!uidn) throw new Error(`no uidn in ${JSON.stringify(confirmed)}`);
  return uidn;
}

async function permanentQr(
  server: RunningServer,
  token: string,
): Promise<{ id: string; uidn: string }> {
  const demo = await call<{ data: { id: string } }>(server, null, 'GET', '/company/demo');
  const form = new FormData();
  for (const [key, value] of Object.entries({
    ...BADGE,
    title: 'Consultant',
    type: 'permanent',
    company_id: demo.data.id,
  }))
    form.set(key, value);
  form.set('user_document', new Blob([new Uint8Array(ID_PNG)], { type: 'image/png' }), 'photo.png');
  const created = await call<{ data: { id: string; uidn: string } }>(
    server,
    token,
    'POST',
    '/create-qr',
    form,
  );
  return created.data;
}

/** A screenshot once transitions are over (a popover or a modal opening). */
async function settledScreenshot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().length === 0);
  await screenshot(page, name);
}

/** '22 novembre 2026 à 10:32': a French long date with its time. */
const FRENCH_DATE_TIME = /^\d{1,2} \p{L}+ \d{4} à \d{2}:\d{2}$/u;

describe('presence logs in Chromium', () => {
  let badge: { id: string; uidn: string };

  const sesame = useSesame({ env: { REPEAT_SCAN_WINDOW_SECONDS: '0' } });

  beforeAll(async () => {
    // The checks below are read back as today's: not made on one side of midnight and read on the other.
    await clearOfMidnight(TIME_ZONE);
    // No repeat window: the second scan of a code checks its holder out at once.
    const token = await apiToken(sesame.server);

    const leaver = await confirmedVisitor(sesame.server, token, LEAVER);
    const stayer = await confirmedVisitor(sesame.server, token, STAYER);
    const checkIn = await call<{ action: string }>(
      sesame.server,
      token,
      'GET',
      `/get-qr-data/${leaver}`,
    );
    expect(checkIn.action).toBe('check_in');
    const checkOut = await call<{ action: string }>(
      sesame.server,
      token,
      'GET',
      `/get-qr-data/${leaver}`,
    );
    expect(checkOut.action).toBe('check_out');
    await call(sesame.server, token, 'GET', `/get-qr-data/${stayer}?type=1`);

    badge = await permanentQr(sesame.server, token);
    for (const expected of ['check_in', 'check_out', 'check_in']) {
      const result = await call<{ action: string }>(
        sesame.server,
        token,
        'GET',
        `/get-qr-user-data/${badge.uidn}`,
      );
      expect(result.action).toBe(expected);
    }
  }, 240_000);

  it("'Liste Check in': times in French, how and by whom, search, date-time range, CSV, image", async () => {
    const context = await newContext(sesame.browser, sesame.server.url);
    const page = await context.newPage();
    await signIn(page, sesame.server.adminEmail, sesame.server.adminPassword);
    await page.goto('/demo/display-logs');
    await page.getByRole('heading', { name: 'Liste Check in' }).waitFor();
    for (const header of [
      '#',
      'Nom du visiteur',
      'Email du visiteur',
      'Image',
      'Créé le',
      'Heure de check-in',
      'Heure de check-out',
    ]) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    await page.getByTestId('log-total').getByText('2 passages').waitFor();

    // The visitor who came and left: both times, in French, and who recorded them.
    const leaver = page.getByRole('row').filter({ hasText: LEAVER.email });
    await leaver.getByText(`${LEAVER.firstname} ${LEAVER.lastname}`).waitFor();
    // Under the name, the visitor's own organisation (issue 27); the company visited is a
    // line of its own, named as such (the admin reads every company's log).
    const nameLines = (await leaver.getByRole('cell').nth(1).locator('p').allInnerTexts()).map(
      (line) => line.trim(),
    );
    expect(nameLines).toEqual([
      `${LEAVER.firstname} ${LEAVER.lastname}`,
      LEAVER.organisation,
      'Entreprise : Demo',
    ]);
    await page
      .getByRole('row')
      .filter({ hasText: STAYER.email })
      .getByTestId('visitor-organisation')
      .getByText(STAYER.organisation, { exact: true })
      .waitFor();
    const cells = leaver.getByRole('cell');
    const checkInText = (await cells.nth(5).locator('p').first().innerText()).trim();
    const checkOutText = (await cells.nth(6).locator('p').first().innerText()).trim();
    expect(checkInText).toMatch(FRENCH_DATE_TIME);
    expect(checkOutText).toMatch(FRENCH_DATE_TIME);
    expect(checkInText.startsWith(today().long)).toBe(true);
    await cells
      .nth(5)
      .getByText(/^Scan du QR Code · par /)
      .waitFor();
    await cells
      .nth(6)
      .getByText(/^Scan du QR Code · par /)
      .waitFor();
    // The newest check-in comes first: the visitor still inside, validated by hand.
    const stayer = page.getByRole('row').nth(1);
    await stayer.getByText(STAYER.email).waitFor();
    await stayer.getByText('Sur place').waitFor();
    await stayer.getByText(/^Saisie manuelle · par /).waitFor();
    await screenshot(page, 'checkin-logs-visitors-1280');

    // The identity document is no thumbnail: 'Voir la pièce' opens it (issue 27).
    expect(await leaver.locator('img').count()).toBe(0);
    await leaver.getByRole('button', { name: /^Voir la pièce de / }).click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('img', { name: /Pièce d'identité de Mariam Ouattara/ }).waitFor();
    await modal.getByRole('button', { name: 'Fermer' }).click();
    await modal.waitFor({ state: 'detached' });

    // The search reaches the sesame.server.
    await page.getByLabel('Rechercher').fill('ouattara');
    await page.getByTestId('log-total').getByText('1 passage', { exact: true }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: STAYER.email }).count()).toBe(0);
    await page.getByLabel('Rechercher').fill('');
    await page.getByTestId('log-total').getByText('2 passages').waitFor();

    // A date-time range: today, picked on the calendar (one day: 00:00 to 23:59).
    await page.getByRole('button', { name: 'Période', exact: true }).click();
    const day = page.getByRole('button', { name: today().long, exact: true });
    await day.click();
    const ranged = page.waitForRequest((r) => /\/api\/visitorlog\?.*from=.*to=/.test(r.url()));
    await day.click();
    await settledScreenshot(page, 'checkin-logs-visitors-range-1280');
    await page.getByRole('button', { name: 'Appliquer la période' }).click();
    await page.getByRole('button', { name: 'Appliquer la période' }).waitFor({ state: 'detached' });
    const query = new URL((await ranged).url()).searchParams;
    const from = new Date(query.get('from')!);
    const to = new Date(query.get('to')!);
    expect(to.getTime() - from.getTime()).toBe(24 * 3600_000 - 1);
    await page.getByTestId('log-total').getByText('2 passages').waitFor();
    expect(
      (await page.getByRole('button', { name: 'Période', exact: true }).innerText()).trim(),
    ).toBe(`${today().form} 00:00 au ${today().form} 23:59`);

    // CSV of the filtered range: UTF-8 with a BOM, semicolons, the visitors' rows.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^liste-check-in-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!);
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = csv.subarray(3).toString('utf8');
    const [header, ...lines] = text.trim().split(/\r?\n/);
    expect(header).toContain(';');
    expect(header!.split(';')[0]).toBe('Prénom');
    expect(lines).toHaveLength(2);
    expect(text).toContain(`${LEAVER.firstname};${LEAVER.lastname};${LEAVER.email}`);

    // A range with nobody in it empties the list.
    await page.getByRole('button', { name: 'Effacer la période' }).click();
    await page.getByRole('button', { name: 'Période', exact: true }).click();
    await page.getByRole('button', { name: 'Mois précédent' }).click();
    await page.getByRole('button', { name: lastMonthDay(1), exact: true }).click();
    await page.getByRole('button', { name: lastMonthDay(2), exact: true }).click();
    await page.getByRole('button', { name: 'Appliquer la période' }).click();
    await page.getByText('Aucun passage de visiteur pour ces critères.').waitFor();
    await page.getByRole('button', { name: 'Effacer la période' }).click();
    await page.getByTestId('log-total').getByText('2 passages').waitFor();

    // On a phone.
    const phoneContext = await newContext(sesame.browser, sesame.server.url, PHONE);
    const phone = await phoneContext.newPage();
    await signIn(phone, sesame.server.adminEmail, sesame.server.adminPassword);
    await phone.goto('/demo/display-logs');
    // Each check is a card there: the times without scrolling sideways.
    const card = phone.getByTestId('row-card').filter({ hasText: LEAVER.email });
    await card.getByText('Heure de check-out').waitFor();
    await card
      .getByText(/^Scan du QR Code · par /)
      .first()
      .waitFor();
    await screenshot(phone, 'checkin-logs-visitors-375');
    await phone.getByRole('button', { name: 'Période', exact: true }).click();
    await phone
      .getByRole('dialog')
      .getByRole('button', { name: today().long, exact: true })
      .waitFor();
    await settledScreenshot(phone, 'checkin-logs-range-375');

    await phoneContext.close();
    await context.close();
  });

  it("'Liste Check in / Check out Participants' and the badge log", async () => {
    const context = await newContext(sesame.browser, sesame.server.url);
    const page = await context.newPage();
    await signIn(page, sesame.server.adminEmail, sesame.server.adminPassword);
    await page.goto('/demo/user-check-ins');
    await page.getByRole('heading', { name: 'Liste Check in / Check out Participants' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: BADGE.email });
    await row.getByText(`${BADGE.firstname} ${BADGE.lastname}`).waitFor();
    await row.getByText(BADGE.contact).waitFor();
    await row.getByText('2 passages').waitFor();
    await row.getByText('Sur place').waitFor();
    expect(
      await row.getByRole('link', { name: /Modifier l'expiration/ }).getAttribute('href'),
    ).toBe(`/demo/disable-user-qrcode/${badge.id}`);
    await screenshot(page, 'checkin-logs-attendance-1280');

    await row.getByRole('button', { name: /Voir les passages/ }).click();
    const modal = page.getByRole('dialog', { name: /Passages de Ibrahim Traoré/ });
    const checks = modal.getByRole('row');
    await expect.poll(() => checks.count()).toBe(3);
    await checks.nth(1).getByText('Sur place').waitFor();
    expect((await checks.nth(2).getByRole('cell').nth(0).innerText()).trim()).toMatch(
      FRENCH_DATE_TIME,
    );
    expect((await checks.nth(2).getByRole('cell').nth(1).innerText()).trim()).toMatch(
      FRENCH_DATE_TIME,
    );
    await settledScreenshot(page, 'checkin-logs-attendance-view-1280');
    await modal.getByRole('button', { name: 'Fermer' }).click();

    await page.getByLabel('Rechercher').fill('personne-inconnue');
    await page.getByText('Aucune donnée trouvée.').waitFor();

    // The flat badge log: one row per check, newest first.
    await page.goto('/user-check-in-out');
    await page.getByRole('heading', { name: 'Entrées et sorties des badges' }).waitFor();
    await page.getByTestId('log-total').getByText('2 passages').waitFor();
    const rows = page.getByRole('row').filter({ hasText: BADGE.email });
    await expect.poll(() => rows.count()).toBe(2);
    await rows.nth(0).getByText('Sur place').waitFor();
    await rows.nth(0).getByText('QR permanent').waitFor();
    await rows
      .nth(1)
      .getByText(/^Scan du QR Code · par /)
      .first()
      .waitFor();
    await screenshot(page, 'checkin-logs-badges-1280');

    const phoneContext = await newContext(sesame.browser, sesame.server.url, PHONE);
    const phone = await phoneContext.newPage();
    await signIn(phone, sesame.server.adminEmail, sesame.server.adminPassword);
    await phone.goto('/demo/user-check-ins');
    await phone.getByTestId('row-card').filter({ hasText: BADGE.email }).waitFor();
    await screenshot(phone, 'checkin-logs-attendance-375');
    await phone.goto('/user-check-in-out');
    await phone.getByTestId('row-card').filter({ hasText: BADGE.email }).first().waitFor();
    await screenshot(phone, 'checkin-logs-badges-375');

    await phoneContext.close();
    await context.close();
  });
});
