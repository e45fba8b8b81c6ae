/**
 * The front desk in real time (issue 14), in Chromium with two browser contexts:
 * a security officer keeps 'Sur place' open on a phone while the front desk, on a
 * desktop, validates a visitor's code by hand. The visitor appears on the phone
 * within 2 s without a reload (LISTEN/NOTIFY → Server-Sent Events), leaves the
 * 'Attendus aujourd'hui' tab, and is checked out from the phone's list; the desk's
 * request list hears a new request without a reload.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, PHONE, screenshot, signIn } from './support/browser';
import { apiToken, createDemoStaff, startServer, type RunningServer } from './support/server';
import { createConfirmedVisitor } from './support/visitors';

const DESK = {
  name: 'Accueil',
  firstname: 'Aminata',
  email: 'accueil.onsite@example.com',
  password: 'Accueil-Password-2026',
  title: 'Hôtesse',
  role: 'ROLE_EMPLOYEE',
};
const GUARD = {
  name: 'Sécurité',
  firstname: 'Moussa',
  email: 'securite.onsite@example.com',
  password: 'Securite-Password-2026',
  title: 'Agent de sécurité',
  role: 'ROLE_SUPERVISOR',
};

/** Polls `check` until it holds or `ms` have passed (no fixed wait). */
async function within(ms: number, check: () => Promise<boolean>, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const names = (page: Page) =>
  page.getByTestId('on-site-name').evaluateAll((els) => els.map((el) => el.textContent ?? ''));

describe('on site now, live across two screens', () => {
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    await createDemoStaff(server, DESK);
    await createDemoStaff(server, GUARD);
  }, 90_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
  });

  it('a code validated on one screen appears on the other within 2 s, and leaves from the list', async () => {
    const admin = await apiToken(server);
    const visitor = await createConfirmedVisitor(server, admin, {
      firstname: 'Awa',
      lastname: 'Sanogo',
      email: 'awa.sanogo@example.com',
    });

    const phone = await newContext(browser, server.url, PHONE);
    const desk = await newContext(browser, server.url);
    contexts.push(phone, desk);
    const guard = await phone.newPage();
    await signIn(guard, GUARD.email, GUARD.password);
    await guard.goto('/demo/menu');
    await guard.locator('[data-tile="onSite"]').click();
    await guard.waitForURL(/\/demo\/on-site$/);
    await guard.getByRole('heading', { name: 'Sur place' }).waitFor();
    await guard.locator('[data-live="live"]').waitFor();
    await guard.getByText("Personne n'est sur place.").waitFor();

    // Expected today: the confirmed meeting, not yet arrived.
    await guard.getByTestId('tab-expected').click();
    await guard.getByTestId('expected-row').filter({ hasText: 'Awa Sanogo' }).waitFor();
    await guard.getByTestId('tab-present').click();

    const front = await desk.newPage();
    await signIn(front, DESK.email, DESK.password);
    await front.goto('/demo/manual-check');
    await front.getByLabel('UIDN').fill(visitor.uidn);
    await front.getByRole('button', { name: 'Valider' }).click();
    await front.getByText('Arrivée enregistrée : Awa Sanogo.').waitFor();

    const seenAfter = await within(
      2_000,
      async () => (await names(guard)).includes('Awa Sanogo'),
      'the arrival on the other screen',
    );
    expect(seenAfter).toBeLessThanOrEqual(2_000);
    await guard.getByTestId('count-visitor').getByText('1', { exact: true }).waitFor();
    const row = guard.getByTestId('on-site-row').filter({ hasText: 'Awa Sanogo' });
    await row.getByText('Orange CI').waitFor();
    await row.getByText('Reçu(e) par Mme Traoré').waitFor();
    await guard.getByTestId('tab-expected').getByText("Attendus aujourd'hui (0)").waitFor();
    await screenshot(guard, 'on-site-phone-375');

    // A second visitor arrives (scanned through the API), for a fuller screen.
    const second = await createConfirmedVisitor(server, admin, {
      firstname: 'Yao',
      lastname: 'Kouadio',
      email: 'yao.kouadio@example.com',
    });
    const scanned = await fetch(`${server.url}/api/get-qr-data/${second.uidn}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(scanned.status).toBe(200);
    await within(
      2_000,
      async () => (await names(guard)).includes('Yao Kouadio'),
      'the second arrival',
    );

    // The desk's screen too (a second open screen), then the screenshot for the README.
    const deskList = await desk.newPage();
    await deskList.goto('/demo/on-site');
    await deskList.getByTestId('on-site-row').filter({ hasText: 'Awa Sanogo' }).waitFor();
    await deskList.locator('[data-live="live"]').waitFor();
    await screenshot(deskList, 'on-site-1280');

    // Checked out from the phone's list: a manual departure by the guard; gone from both screens.
    await row.getByRole('button', { name: 'Enregistrer le départ de Awa Sanogo' }).click();
    await guard.getByRole('dialog').getByRole('button', { name: 'Enregistrer le départ' }).click();
    await guard.getByText('Départ enregistré : Awa Sanogo.').waitFor();
    await within(
      2_000,
      async () => !(await names(deskList)).includes('Awa Sanogo'),
      'the departure on the desk',
    );
    const log = (await (
      await fetch(`${server.url}/api/visitorlog?q=Sanogo`, {
        headers: { authorization: `Bearer ${admin}` },
      })
    ).json()) as { data: { check_out_method: string | null; check_out_by: unknown }[] };
    expect(log.data[0]).toMatchObject({ check_out_method: 'manual' });
  }, 60_000);

  it('the request list hears a new request without a reload', async () => {
    const admin = await apiToken(server);
    const context = await newContext(browser, server.url);
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, DESK.email, DESK.password);
    await page.goto('/demo/list-qrcode');
    await page.getByRole('heading', { name: 'Liste des demandes' }).waitFor();
    await page.getByRole('switch').waitFor();
    // The stream is open before the request is filed.
    await page.locator('[data-live="live"]').waitFor();
    await createConfirmedVisitor(server, admin, {
      firstname: 'Kouamé',
      lastname: 'Nouveau',
      email: 'kouame.nouveau@example.com',
    });
    await within(
      2_000,
      async () => (await page.getByText('Kouamé Nouveau').count()) > 0,
      'the new request in the list',
    );
    await page.getByText('Une nouvelle demande vient d’arriver.').waitFor();
    await screenshot(page, 'requests-live-1280');
  }, 30_000);
});
