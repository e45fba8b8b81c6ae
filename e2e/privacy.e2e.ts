/**
 * Privacy by default (issue 16): the platform admin shortens how long identity documents
 * are kept in the company's 'Confidentialité' section, looks at a visitor's identity
 * document in the request list, and finds both — the retention change and that view, with
 * who and when — in the audit log, filtered by action.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newContext, screenshot, signIn } from './support/browser';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';
import { createConfirmedVisitor } from './support/visitors';

describe('privacy: retention, document views and the audit log in Chromium', () => {
  const sesame = useSesame();

  beforeAll(async () => {
    await createConfirmedVisitor(sesame.server, await apiToken(sesame.server), {
      firstname: 'Mariam',
      lastname: 'Ouattara',
      email: 'mariam.ouattara@example.com',
    });
  });

  it('an admin changes a retention period, views an identity document, and finds that view in the audit log', async () => {
    const context = await newContext(sesame.browser, sesame.server.url);
    const page: Page = await context.newPage();
    await signIn(page, sesame.server.adminEmail, sesame.server.adminPassword);

    // Confidentialité: identity documents kept 15 days instead of 30.
    await page.goto('/demo/edit-company/demo');
    const section = page.getByRole('region', { name: 'Confidentialité' });
    const documents = section.getByLabel(/^Pièces d'identité et photos/);
    await expect.poll(() => documents.inputValue()).toBe('30');
    await documents.fill('15');
    await section.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Les paramètres de confidentialité ont été enregistrés.').waitFor();
    await expect
      .poll(() => section.getByTestId('privacy-notice-preview').textContent())
      .toContain('supprimées 15 jours après la visite');

    // The request list shows the visitor's identity document: the admin's browser fetches it.
    await page.goto('/demo/list-qrcode');
    const thumbnail = page.getByRole('img', { name: 'Mariam Ouattara' }).first();
    await thumbnail.waitFor();
    await page.waitForFunction(
      (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0,
      await thumbnail.elementHandle(),
    );

    // The audit log ('Journal d'audit', a tile of the admin's menu), filtered on document views.
    await page.goto('/demo/audit');
    await page.getByRole('heading', { name: "Journal d'audit" }).waitFor();
    await page
      .getByRole('textbox', { name: 'Action', exact: true })
      .or(page.getByRole('combobox', { name: 'Action', exact: true }))
      .first()
      .click();
    await page.getByRole('option', { name: "Pièce d'identité consultée" }).click();
    const rows = page.getByTestId('audit-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(1);
    await expect
      .poll(async () =>
        (await rows.allTextContents()).every((r) => r.includes("Pièce d'identité consultée")),
      )
      .toBe(true);
    const first = await rows.first().textContent();
    expect(first).toContain('Visiteur');
    await screenshot(page, 'privacy-audit-log');

    await page
      .getByRole('textbox', { name: 'Action', exact: true })
      .or(page.getByRole('combobox', { name: 'Action', exact: true }))
      .first()
      .click();
    await page.getByRole('option', { name: 'Durées de conservation modifiées' }).click();
    await expect.poll(() => rows.first().textContent()).toContain('documentsDays');
    expect(await rows.first().textContent()).toContain('30→15');
    await context.close();
  });
});
