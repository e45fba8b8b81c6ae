/**
 * Issue 17: the company picker of every creation form (events, QR codes, member
 * cards, users) reaches every company, not the preselected one alone, nor only the
 * first hundred: it lists the first hundred and searches them all on the server.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newContext, screenshot, signIn } from './support/browser';
import { apiToken, type RunningServer } from './support/server';
import { useSesame } from './support/sesame';
import { ID_PNG } from './support/visitors';

/** More companies than the picker lists at once. */
const COMPANIES = 105;

async function createCompany(server: RunningServer, token: string, name: string): Promise<void> {
  const body = new FormData();
  const fields = {
    name,
    id_number: 'RC-0001',
    address: 'Rue 1',
    city: 'Abidjan',
    state: 'Lagunes',
    country: 'Côte d’Ivoire',
    zipcode: '00225',
    company_field: 'Services',
    point_contact: 'Awa Koné',
    title: 'Directrice',
    email: 'contact@example.com',
    phone_number: '0701020304',
  };
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  body.set('logo', new Blob([ID_PNG], { type: 'image/png' }), 'logo.png');
  const res = await fetch(`${server.url}/api/company`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body,
  });
  if (res.status !== 200 && res.status !== 201) {
    throw new Error(`company ${name}: ${res.status} ${await res.text()}`);
  }
}

describe('the company picker in Chromium', () => {
  let admin: Page;

  const sesame = useSesame();

  beforeAll(async () => {
    const token = await apiToken(sesame.server);
    for (let i = 1; i <= COMPANIES; i++) {
      await createCompany(sesame.server, token, `Filiale ${String(i).padStart(3, '0')}`);
    }
    admin = await (await newContext(sesame.browser, sesame.server.url)).newPage();
    await signIn(admin, sesame.server.adminEmail, sesame.server.adminPassword);
  });

  it('starts on the page’s company, lists the others, and finds one past the first hundred', async () => {
    await admin.goto('/demo/create-qr');
    await admin.getByRole('heading', { name: 'Créer un QRCode' }).waitFor();
    const picker = admin.getByRole('combobox', { name: 'Entreprise' });
    await expect.poll(() => picker.inputValue()).toBe('Demo');

    // Opened on the chosen company, the list holds the others too (it held Demo alone).
    await picker.click();
    const options = admin.getByRole('option');
    await expect.poll(() => options.count(), { timeout: 15_000 }).toBeGreaterThan(50);
    await screenshot(admin, 'company-picker-open-1280');

    // A company the first page does not hold is found by typing part of its name.
    await picker.fill('105');
    await admin.getByRole('option', { name: 'Filiale 105' }).click();
    await expect.poll(() => picker.inputValue()).toBe('Filiale 105');

    // Opened again on the new choice: every company is offered again.
    await picker.click();
    await expect.poll(() => options.count(), { timeout: 15_000 }).toBeGreaterThan(50);
  });
});
