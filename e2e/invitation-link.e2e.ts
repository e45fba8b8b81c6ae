/**
 * The invited visitor's page (issue 30) in Chromium, on a phone: a host invites a visitor for
 * today in English; the visitor opens their link with `&here=1` and reads their visit in the
 * invitation's language (host, site, the code), the "I'm here" button in view with the
 * focus; they complete their details (a refused submit says each field's message under it,
 * then the ID number, a PNG document and the privacy notice are saved), and press the button:
 * the page says the host knows. A forged link shows a clear message. axe on the page, and
 * screenshots to look at.
 */
import { describe, expect, it } from 'vitest';
import { InvitationLinks } from '../apps/server/src/invitations/link';
import { qrPng } from '../apps/server/src/qr/qr';
import { axeFindings, report } from './support/axe';
import { PHONE, screenshot } from './support/browser';
import { demoSite } from './support/kiosk';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';

const SECRET = 'e2e-invitation-link-secret-long-enough-for-hs256';
const HOST = {
  name: 'Koné',
  firstname: 'Awa',
  email: 'awa.kone.link@example.com',
  password: 'Host-Password-2026',
  title: 'Cheffe de projet',
  role: 'ROLE_USER',
};

describe("the invited visitor's page", () => {
  const sesame = useSesame({ staff: [HOST], env: { JWT_SECRET: SECRET }, timeout: 90_000 });

  it('shows the visit, completes the details and says the host knows of the arrival', async () => {
    const { server } = sesame;
    const site = await demoSite(server, await apiToken(server));
    const hostToken = await apiToken(server, HOST.email, HOST.password);
    const today = new Intl.DateTimeFormat('fr-FR', {
      timeZone: site.timezone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    }).format(new Date());
    const res = await fetch(`${server.url}/api/invitations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${hostToken}` },
      body: JSON.stringify({
        site_id: site.siteId,
        date: today,
        time: '09:00',
        end_time: '18:00',
        reason: 'Steering committee',
        language: 'en',
        visitors: [{ firstname: 'John', lastname: 'Smith', email: 'john.smith@example.com' }],
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const created = (await res.json()) as { visitors: { request_id: string; code: string }[] };
    const visitor = created.visitors[0]!;
    const token = new InvitationLinks(SECRET).sign(
      visitor.request_id,
      new Date(Date.now() + 86_400_000),
    );

    const page = await sesame.page({ ...PHONE, bypassCSP: true });
    // A forged link: a clear message, no visit.
    await page.goto(`/demo/invitation?token=${encodeURIComponent(`${token}x`)}`);
    await page.getByTestId('invitation-error').waitFor();
    expect(await page.getByTestId('invitation-error').innerText()).toContain(
      "Ce lien d'invitation n'est pas valide ou a expiré.",
    );

    await page.goto(`/demo/invitation?token=${encodeURIComponent(token)}&here=1`);
    // The invitation's language first: English.
    await page.getByRole('heading', { name: /^Your visit to / }).waitFor();
    const here = page.getByRole('button', { name: "I'm here" });
    await here.waitFor();
    await expect.poll(() => here.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.getByTestId('invitation-code').innerText()).toBe(visitor.code);
    expect(await page.locator('main').innerText()).toContain('Awa Koné');
    const english = await axeFindings(page, '/demo/invitation (phone, en)');
    expect(english, report(english)).toEqual([]);
    await screenshot(page, 'invitation-link-en');

    // A refused submit: each field's message under it.
    await page.getByRole('button', { name: 'Save my details' }).click();
    await page.getByTestId('invitation-details-error').waitFor();
    expect(await page.locator('main').innerText()).toContain('Please accept the privacy notice.');

    // The site's first visitor type, 'Visiteur' (issue 31), asks the organisation and the phone too.
    await page.getByLabel(/^Company or organisation/).fill('Acme CI');
    await page.getByLabel(/^Phone/).fill('0707080910');
    await page.getByLabel(/^ID document number/).fill('P-1234567');
    await page
      .locator('input[type="file"][name="request_image"]')
      .setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: await qrPng('id') });
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Save my details' }).click();
    await page.getByTestId('invitation-details-saved').waitFor();
    expect(await page.getByTestId('invitation-details-saved').innerText()).toBe(
      'Thank you, your details are saved. See you soon!',
    );

    await here.click();
    await page
      .getByTestId('invitation-here-answer')
      .getByText('Awa Koné knows you have arrived.')
      .waitFor();
    await screenshot(page, 'invitation-link-here-en');

    // The product's switch: the same page in French.
    await page.getByRole('banner').getByText('FR', { exact: true }).click();
    await page.getByRole('heading', { name: /^Votre visite chez / }).waitFor();
    await page.getByRole('button', { name: 'Je suis arrivé(e)' }).waitFor();
    // The server's English answers go; the page says the arrival in its own French words.
    await page
      .getByTestId('invitation-here-answer')
      .getByText(/^Vous avez signalé votre arrivée à \d\d:\d\d\.$/)
      .waitFor();
    expect(await page.locator('main').innerText()).not.toMatch(
      /knows you have arrived|See you soon/,
    );
    const french = await axeFindings(page, '/demo/invitation (phone, fr)');
    expect(french, report(french)).toEqual([]);
    await screenshot(page, 'invitation-link-fr');
  });
});
