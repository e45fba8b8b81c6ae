/**
 * Issue 12 §2 in a real browser: the front desk scans while the server's answer is
 * lost (the scan reached the server and was recorded, but the page got a 503). The
 * page keeps the scan, says so, and sends it again with the same Idempotency-Key
 * once the server answers: the visitor is checked in exactly once, not in and out.
 */
import { describe, expect, it } from 'vitest';
import type { VisitorLogRow } from '@sesame/shared';
import { newContext, PHONE, screenshot, signIn } from './support/browser';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';
import { createConfirmedVisitor } from './support/visitors';

const RECEPTIONIST = { email: 'file@demo.test', password: 'File-Attente-Password-7' };

describe('scanner offline queue in Chromium', () => {
  const sesame = useSesame({
    staff: [
      {
        ...RECEPTIONIST,
        name: 'Kouassi',
        firstname: 'Ange',
        title: 'Accueil',
        role: 'ROLE_EMPLOYEE',
      },
    ],
  });

  it('keeps a scan whose answer was lost and sends it again once, with the same key', async () => {
    const admin = await apiToken(sesame.server);
    const { uidn } = await createConfirmedVisitor(sesame.server, admin, {
      firstname: 'Awa',
      lastname: 'Sangaré',
      email: 'awa.sangare@example.com',
    });
    const context = await newContext(sesame.browser, sesame.server.url, PHONE);
    const page = await context.newPage();
    await signIn(page, RECEPTIONIST.email, RECEPTIONIST.password);

    // The first attempt reaches the server (which records it) but its answer is lost.
    const keys: string[] = [];
    let loseAnswers = true;
    await page.route('**/api/get-qr-data/**', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      const response = await route.fetch();
      if (loseAnswers) {
        await route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Service momentanément indisponible.' }),
        });
      } else {
        await route.fulfill({ response });
      }
    });

    await page.goto(`/scan/${uidn}`);
    await page.getByRole('alert').filter({ hasText: 'Passage mis en attente' }).waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toContain(
      "1 passage en attente d'envoi",
    );
    await screenshot(page, 'scan-queue-kept-375');

    // The server answers again: the queue sends the scan by itself and empties.
    loseAnswers = false;
    await page.getByRole('status').waitFor({ state: 'detached', timeout: 20_000 });

    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);

    const res = await fetch(
      `${sesame.server.url}/api/visitorlog?q=${encodeURIComponent('Sangaré')}`,
      {
        headers: { authorization: `Bearer ${admin}` },
      },
    );
    const rows = ((await res.json()) as { data: VisitorLogRow[] }).data;
    // Checked in once, still inside: the retry did not check her out again.
    expect(rows).toHaveLength(1);
    expect(rows[0]?.check_out_time).toBeNull();
    await context.close();
  });

  it('a second scan of the same code says when the first was made, and records nothing', async () => {
    const admin = await apiToken(sesame.server);
    const { uidn } = await createConfirmedVisitor(sesame.server, admin, {
      firstname: 'Koffi',
      lastname: 'Brou',
      email: 'koffi.brou@example.com',
    });
    const context = await newContext(sesame.browser, sesame.server.url, PHONE);
    const page = await context.newPage();
    await signIn(page, RECEPTIONIST.email, RECEPTIONIST.password);
    await page.goto(`/scan/${uidn}`);
    await page.waitForURL(/\/success-checkin\//);
    await page.goto(`/scan/${uidn}`);
    const repeat = page.getByRole('alert').filter({ hasText: 'est déjà enregistré(e)' });
    await repeat.waitFor();

    const res = await fetch(`${sesame.server.url}/api/visitorlog?q=${encodeURIComponent('Brou')}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const rows = ((await res.json()) as { data: VisitorLogRow[] }).data;
    expect(rows).toHaveLength(1);
    expect(rows[0]?.check_out_time).toBeNull();
    // The demo company's zone is UTC (Africa/Abidjan): the first scan's time as read.
    const first = new Date(rows[0]!.check_in_time).toISOString().slice(11, 16);
    expect(await repeat.textContent()).toContain(
      `Koffi Brou est déjà enregistré(e) à l'arrivée à ${first}.`,
    );
    await context.close();
  });
});
