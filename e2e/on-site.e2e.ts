/**
 * The front desk in real time (issue 14), in Chromium with two browser contexts:
 * a security officer keeps 'Sur place' open on a phone while the front desk, on a
 * desktop, validates a visitor's code by hand. The visitor appears on the phone
 * within 2 s without a reload (LISTEN/NOTIFY → Server-Sent Events), leaves the
 * 'Attendus aujourd'hui' tab, and is checked out from the phone's list; the desk's
 * request list hears a new request without a reload.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PHONE, screenshot } from './support/browser';
import { within } from './support/poll';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';
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

/** Watches the list, then has their account disabled (the last test). */
const WATCH = {
  name: 'Veille',
  firstname: 'Koffi',
  email: 'veille.onsite@example.com',
  password: 'Veille-Password-2026',
  title: 'Agent de sécurité',
  role: 'ROLE_SUPERVISOR',
};

const names = (page: Page) =>
  page.getByTestId('on-site-name').evaluateAll((els) => els.map((el) => el.textContent ?? ''));

describe('on site now, live across two screens', () => {
  const sesame = useSesame({ staff: [DESK, GUARD, WATCH], timeout: 90_000 });

  it('a code validated on one screen appears on the other within 2 s, and leaves from the list', async () => {
    const { server } = sesame;
    const admin = await apiToken(server);
    const visitor = await createConfirmedVisitor(server, admin, {
      firstname: 'Awa',
      lastname: 'Sanogo',
      email: 'awa.sanogo@example.com',
    });

    const guard = await sesame.signedIn(GUARD.email, GUARD.password, PHONE);
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

    const front = await sesame.signedIn(DESK.email, DESK.password);
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
    const deskList = await front.context().newPage();
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
    const { server } = sesame;
    const admin = await apiToken(server);
    const page = await sesame.signedIn(DESK.email, DESK.password);
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

  it('a screen whose account is disabled elsewhere ends its session by itself, asking once', async () => {
    const { server } = sesame;
    const admin = await apiToken(server);
    const page = await sesame.signedIn(WATCH.email, WATCH.password);
    const refused: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/live' && response.status() === 401)
        refused.push(response.url());
    });
    await page.goto('/demo/on-site');
    await page.locator('[data-live="live"]').waitFor();

    const headers = { 'content-type': 'application/json', authorization: `Bearer ${admin}` };
    const found = (await (
      await fetch(`${server.url}/api/user/list?q=${encodeURIComponent(WATCH.email)}`, { headers })
    ).json()) as {
      data: {
        id: string;
        name: string;
        firstname: string;
        email: string;
        role: string;
        company_id: string;
      }[];
    };
    const watch = found.data[0]!;
    const disabled = await fetch(`${server.url}/api/user/${watch.id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        name: watch.name,
        firstname: watch.firstname,
        email: watch.email,
        role: watch.role,
        status: false,
        company_id: watch.company_id,
      }),
    });
    expect(disabled.status).toBe(200);
    // The server ends the stream at once; its reconnection's 401 ends the session on
    // screen, with no click and no reload — and no second try with the dead token.
    await within(
      5_000,
      async () => (await page.getByText('Votre session a expiré. Reconnectez-vous.').count()) > 0,
      'the session’s end on the screen',
    );
    expect(refused).toHaveLength(1);
  }, 30_000);

  it('an arrival undone is said as such on both screens and the visitor is expected again; no host reads "Sans hôte", never the company', async () => {
    const { server } = sesame;
    const admin = await apiToken(server);
    // A visitor who named no host (issue 27).
    const visitor = await createConfirmedVisitor(
      server,
      admin,
      { firstname: 'Fatou', lastname: 'Diabaté', email: 'fatou.diabate@example.com' },
      { host: '' },
    );
    const company = (
      (await (await fetch(`${server.url}/api/company/demo`)).json()) as { data: { name: string } }
    ).data.name;

    // The guard's phone hears the live feed; the platform admin's screen names each card's company.
    const guard = await sesame.signedIn(GUARD.email, GUARD.password, PHONE);
    await guard.goto('/demo/on-site');
    await guard.locator('[data-live="live"]').waitFor();
    await guard.getByTestId('tab-expected').click();
    await guard
      .getByTestId('expected-row')
      .filter({ hasText: 'Fatou Diabaté' })
      .getByText('Sans hôte')
      .waitFor();
    await guard.getByTestId('tab-present').click();
    const desk = await sesame.signedIn(server.adminEmail, server.adminPassword);
    await desk.goto('/demo/on-site');
    await desk.locator('[data-live="live"]').waitFor();

    const scanned = await fetch(`${server.url}/api/get-qr-data/${visitor.uidn}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(scanned.status).toBe(200);
    await within(
      2_000,
      async () => (await names(guard)).includes('Fatou Diabaté'),
      'the arrival on the guard’s phone',
    );

    // The host's slot, under the organisation, says there is none: the company visited is a
    // line of its own, named as such, never in that slot.
    const card = desk.getByTestId('on-site-row').filter({ hasText: 'Fatou Diabaté' });
    await card.getByTestId('no-host').waitFor();
    const lines = (await card.locator('p').allInnerTexts()).map((line) => line.trim());
    expect(lines[lines.indexOf('Orange CI') + 1]).toBe('Sans hôte');
    expect(lines).toContain(`Entreprise : ${company}`);
    expect(lines).not.toContain(company);
    await guard
      .getByTestId('on-site-row')
      .filter({ hasText: 'Fatou Diabaté' })
      .getByText('Sans hôte')
      .waitFor();

    // The desk takes the arrival back: a scan made by mistake.
    await card.getByRole('button', { name: 'Annuler', exact: true }).click();
    const dialog = desk.getByRole('dialog');
    await dialog.getByLabel("Motif de l'annulation").fill('Scanné par erreur');
    await dialog.getByRole('button', { name: 'Annuler ce passage' }).click();

    // Both live regions say the arrival was undone — the desk's own, and the guard's from the
    // live feed — and neither says 'Départ': nobody left.
    for (const [screen, page] of [
      ['desk', desk],
      ['guard', guard],
    ] as const) {
      const news = page.getByTestId('on-site-announcement');
      await within(
        5_000,
        async () => ((await news.textContent()) ?? '').includes('Arrivée annulée : Fatou Diabaté.'),
        `the undone arrival said on the ${screen}'s screen`,
      );
      expect(await news.textContent()).not.toContain('Départ');
      expect(await names(page)).not.toContain('Fatou Diabaté');
    }

    // She is still to come: back under 'Attendus aujourd'hui', without a reload.
    await guard.getByTestId('tab-expected').click();
    await guard
      .getByTestId('expected-row')
      .filter({ hasText: 'Fatou Diabaté' })
      .waitFor({ timeout: 5_000 });
  }, 60_000);
});
