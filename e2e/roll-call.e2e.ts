/**
 * The evacuation roll call (issue 14), in Chromium on 390 px phones: a visitor is
 * inside; a security officer starts the roll call from 'Sur place', the front desk
 * follows it on a second phone; a tap marks the visitor safe and the desk's counts
 * change within 2 s without a reload; the roll call is ended and its CSV downloaded.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PHONE, screenshot } from './support/browser';
import { within } from './support/poll';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';
import { createConfirmedVisitor } from './support/visitors';

const PHONE_390 = { ...PHONE, viewport: { width: 390, height: 844 } };

const DESK = {
  name: 'Accueil',
  firstname: 'Aminata',
  email: 'accueil.rollcall@example.com',
  password: 'Accueil-Password-2026',
  title: 'Hôtesse',
  role: 'ROLE_EMPLOYEE',
};
const GUARD = {
  name: 'Sécurité',
  firstname: 'Moussa',
  email: 'securite.rollcall@example.com',
  password: 'Securite-Password-2026',
  title: 'Agent de sécurité',
  role: 'ROLE_SUPERVISOR',
};

const count = (page: Page, key: string) =>
  page.getByTestId(`roll-count-${key}`).getByTestId('roll-count-value').textContent();

describe('evacuation roll call on a phone', () => {
  const sesame = useSesame({ staff: [DESK, GUARD], timeout: 90_000 });

  it('starts, marks safe (seen on a second phone within 2 s), ends and exports', async () => {
    const { server } = sesame;
    const admin = await apiToken(server);
    const visitor = await createConfirmedVisitor(server, admin, {
      firstname: 'Awa',
      lastname: 'Sanogo',
      email: 'awa.sanogo.rollcall@example.com',
    });
    // The visitor arrives: the front desk validates the code.
    const deskToken = await apiToken(server, DESK.email, DESK.password);
    const arrival = await fetch(`${server.url}/api/get-qr-data/${visitor.uidn}`, {
      headers: { authorization: `Bearer ${deskToken}` },
    });
    expect(arrival.status).toBe(200);

    const guard = await sesame.signedIn(GUARD.email, GUARD.password, PHONE_390);
    const desk = await sesame.signedIn(DESK.email, DESK.password, PHONE_390);

    await guard.goto('/demo/on-site');
    await guard.getByTestId('on-site-name').filter({ hasText: 'Awa Sanogo' }).waitFor();
    await guard.getByTestId('roll-call-start').click();
    await guard.getByRole('dialog').getByRole('button', { name: "Lancer l'appel" }).click();
    await guard.waitForURL(/\/demo\/on-site\/roll-call$/);
    await guard.locator('[data-live="live"]').waitFor();
    const person = guard.getByTestId('roll-person').filter({ hasText: 'Awa Sanogo' });
    await person.waitFor();
    expect(await count(guard, 'total')).toBe('1');
    expect(await count(guard, 'unknown')).toBe('1');

    // The desk joins from its own 'Sur place' page.
    await desk.goto('/demo/on-site');
    await desk.getByTestId('roll-call-join').click();
    await desk.waitForURL(/\/demo\/on-site\/roll-call$/);
    await desk.locator('[data-live="live"]').waitFor();
    expect(await count(desk, 'safe')).toBe('0');

    // Large touch targets: each mark button at least 48 px high, within the 390 px screen.
    const safe = person.getByTestId('mark-safe');
    const box = await safe.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(48);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    const pageWidth = await guard.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(390);

    await safe.tap();
    await within(2_000, async () => (await count(guard, 'safe')) === '1', 'safe on the phone');
    const ms = await within(
      2_000,
      async () => (await count(desk, 'safe')) === '1' && (await count(desk, 'unknown')) === '0',
      'safe count on the second phone',
    );
    console.log(`roll call: the mark reached the second phone in ${ms} ms`);
    await screenshot(guard, 'roll-call-phone-390');

    // Tapping again undoes the mark; tapping once more marks it again.
    await safe.tap();
    await within(
      2_000,
      async () => (await count(desk, 'safe')) === '0',
      'undo on the second phone',
    );
    await safe.tap();
    await within(2_000, async () => (await count(desk, 'safe')) === '1', 'safe again');

    await guard.getByTestId('roll-end').click();
    await guard.getByRole('dialog').getByRole('button', { name: "Terminer l'appel" }).click();
    await guard.getByTestId('roll-call-state').filter({ hasText: 'Appel terminé' }).waitFor();
    await desk.getByTestId('roll-call-state').filter({ hasText: 'Appel terminé' }).waitFor();
    await guard.getByText('Terminé par Moussa Sécurité').waitFor();
    await screenshot(guard, 'roll-call-ended-390');

    const [download] = await Promise.all([
      guard.waitForEvent('download'),
      guard.getByTestId('roll-csv').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^appel-evacuation-demo-.*\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toContain('Nom;Prénom;Type;Organisation;Arrivée;Statut;Pointé(e) par;Pointé(e) à');
    expect(csv).toMatch(/Sanogo;Awa;Visiteur;Orange CI;[^;]+;En sécurité;Moussa Sécurité;/);

    const [pdf] = await Promise.all([
      guard.waitForEvent('download'),
      guard.getByTestId('roll-pdf').click(),
    ]);
    expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
    expect((await readFile((await pdf.path())!)).subarray(0, 5).toString()).toBe('%PDF-');

    // Back on 'Sur place': a new roll call may start; the last one's record is a tap away.
    await guard.getByRole('link', { name: 'Retour à la liste sur place' }).click();
    await guard.getByTestId('roll-call-start').waitFor();
    await guard.getByTestId('roll-call-last').waitFor();
    await screenshot(guard, 'on-site-after-roll-call-390');
  });
});
