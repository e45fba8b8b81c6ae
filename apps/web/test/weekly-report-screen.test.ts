/**
 * Issue 35: 'Mes notifications' in Chromium against a mocked API (test/support/screens.ts).
 * Whoever may read the dashboard sees the weekly summary's switch and its site choice, and
 * the save sends them (the server's null for every site); a person without the dashboard
 * sees neither and sends neither; the server's refusal is said.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MockApi,
  PHONE,
  overflowsSideways,
  personOf,
  startScreens,
  type Screens,
} from './support/screens';

let screens: Screens;
beforeAll(async () => {
  screens = await startScreens();
}, 120_000);
afterAll(async () => {
  await screens?.close();
});

const SLOW = 60_000;
const PREFS = '/api/me/mail-preferences';
const PARIS = '1f0e2d3c-4b5a-4e8d-9c2a-5b0c6a8e3f1d';
const LYON = '2a1b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d';

const prefs = (over: Record<string, unknown> = {}) => ({
  language: 'fr',
  arrival_mail: true,
  channels: { request: 'mail', arrival: 'mail', here: 'mail' },
  chat_available: false,
  weekly_report: false,
  weekly_report_site_id: null,
  weekly_report_available: true,
  weekly_report_sites: [
    { id: PARIS, name: 'Paris' },
    { id: LYON, name: 'Lyon' },
  ],
  ...over,
});

describe('Mes notifications: the weekly summary', () => {
  it(
    'lets a manager switch it on for one site, and sends both',
    async () => {
      const api = new MockApi()
        .on('GET', PREFS, { body: { data: prefs() } })
        .on('PUT', PREFS, (call) => ({
          body: {
            message: 'Préférences enregistrées.',
            data: prefs(call.body as Record<string, unknown>),
          },
        }));
      const page = await screens.open('/acme/my-mail-settings', api, {
        user: personOf('ROLE_MANAGER'),
        viewport: PHONE,
      });
      const toggle = page.getByRole('switch', { name: 'Résumé hebdomadaire' });
      await toggle.waitFor();
      await page.getByText('Chaque lundi à 8 h (heure du site)', { exact: false }).waitFor();
      const site = page.getByTestId('weekly-report-site');
      expect(await site.inputValue()).toBe('Tous mes sites');
      // The site waits for the switch.
      expect(await site.isDisabled()).toBe(true);
      await toggle.check({ force: true });
      expect(await site.isDisabled()).toBe(false);
      await site.click();
      await page.getByRole('option', { name: 'Lyon' }).click();
      expect(await site.inputValue()).toBe('Lyon');
      expect(await overflowsSideways(page)).toBe(false);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByText('Préférences enregistrées.').waitFor();
      expect(api.sent('PUT', PREFS).map((c) => c.body)).toEqual([
        {
          language: 'fr',
          arrival_mail: true,
          channels: { request: 'mail', arrival: 'mail', here: 'mail' },
          weekly_report: true,
          weekly_report_site_id: LYON,
        },
      ]);

      // Back to every site: the server's null.
      await site.click();
      await page.getByRole('option', { name: 'Tous mes sites' }).click();
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect.poll(() => api.sent('PUT', PREFS).length, { timeout: 10_000 }).toBe(2);
      expect(api.sent('PUT', PREFS)[1]?.body).toMatchObject({
        weekly_report: true,
        weekly_report_site_id: null,
      });
      await page.context().close();
    },
    SLOW,
  );

  it(
    'says the server’s refusal',
    async () => {
      const refusal = 'Choisissez pour le résumé hebdomadaire un site que vous pouvez consulter.';
      const api = new MockApi()
        .on('GET', PREFS, { body: { data: prefs({ weekly_report: true }) } })
        .on('PUT', PREFS, {
          status: 400,
          body: { message: refusal, errors: { weekly_report_site_id: refusal } },
        });
      const page = await screens.open('/acme/my-mail-settings', api, {
        user: personOf('ROLE_SUPERVISOR'),
      });
      await page.getByRole('switch', { name: 'Résumé hebdomadaire' }).waitFor();
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByText(refusal).waitFor();
      await page.context().close();
    },
    SLOW,
  );

  it(
    'is not offered to a person without the dashboard, and not sent',
    async () => {
      const api = new MockApi()
        .on('GET', PREFS, {
          body: { data: prefs({ weekly_report_available: false, weekly_report_sites: [] }) },
        })
        .on('PUT', PREFS, (call) => ({
          body: {
            message: 'Préférences enregistrées.',
            data: prefs(call.body as Record<string, unknown>),
          },
        }));
      const page = await screens.open('/acme/my-mail-settings', api, {
        user: personOf('ROLE_EMPLOYEE'),
      });
      await page.getByTestId('arrival-mail-switch').waitFor();
      expect(await page.getByTestId('weekly-report-switch').count()).toBe(0);
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await page.getByText('Préférences enregistrées.').waitFor();
      expect(api.sent('PUT', PREFS)[0]?.body).toEqual({
        language: 'fr',
        arrival_mail: true,
        channels: { request: 'mail', arrival: 'mail', here: 'mail' },
      });
      await page.context().close();
    },
    SLOW,
  );
});
