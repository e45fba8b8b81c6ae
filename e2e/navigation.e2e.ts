/**
 * Navigation and companies (issue 17): an unknown address and a screen that fails are
 * real pages in the layout; a slugless address uses the default company (public pages)
 * or the person's own (staff pages); the company on screen follows one rule (the URL's,
 * else the record's, else the person's own, else the default); the meeting QR card
 * belongs to the company of its URL; a manager gets 'Page introuvable' for another
 * company's edit page and saves the seeded one unchanged; an ended session says so and
 * the login comes back to the page.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { field, newContext, PHONE, screenshot, signIn } from './support/browser';
import { apiToken, createDemoStaff, type RunningServer, type StaffMember } from './support/server';
import { useSesame } from './support/sesame';
import { createConfirmedVisitor, ID_PNG } from './support/visitors';

/** The phone: 390 px wide. */
const PHONE_390 = { ...PHONE, viewport: { width: 390, height: 844 } };

const MANAGER: StaffMember = {
  name: 'Kouassi',
  firstname: 'Adjoua',
  email: 'adjoua.kouassi@demo.test',
  password: 'Manager-Password-123',
  title: 'Responsable',
  role: 'ROLE_MANAGER',
};
const ACME_EMPLOYEE = {
  name: 'Yao',
  firstname: 'Konan',
  email: 'konan.yao@acme.test',
  password: 'Employee-Password-123',
  title: 'Accueil',
  role: 'ROLE_EMPLOYEE',
};

async function createAcme(server: RunningServer, token: string): Promise<{ id: string }> {
  const form = new FormData();
  const fields = {
    name: 'Acme',
    id_number: 'CI-ACME-01',
    address: 'Rue des Jardins',
    city: 'Abidjan',
    state: 'Lagunes',
    country: 'Côte d’Ivoire',
    zipcode: '01000',
    company_field: 'Logistique',
    point_contact: 'Awa Bamba',
    title: 'Acme Logistique',
    email: 'contact@acme.test',
    phone_number: '0102030405',
  };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set('logo', new Blob([ID_PNG], { type: 'image/png' }), 'acme.png');
  const res = await fetch(`${server.url}/api/company`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`acme: ${res.status} ${await res.text()}`);
  const company = ((await res.json()) as { data: { id: string; slug: string } }).data;
  expect(company.slug).toBe('acme');
  return company;
}

async function createUser(server: RunningServer, token: string, body: object): Promise<void> {
  const res = await fetch(`${server.url}/api/user/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ contact: '0102030405', ...body }),
  });
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`user: ${res.status} ${await res.text()}`);
}

/** The navbar (the page's banner landmark). */
const navbar = (page: Page) => page.getByRole('banner');

async function expectNotFound(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Page introuvable' }).waitFor();
  await page.getByRole('link', { name: "Retour à l'accueil" }).waitFor();
  // In the layout: the navbar and the footer are there; never the router's developer page.
  await navbar(page).waitFor();
  await page.getByText('Tous droits réservés').waitFor();
  expect(await page.getByText('Unexpected Application Error').count()).toBe(0);
  expect(await page.getByText('Hey developer').count()).toBe(0);
}

/** A full-page screenshot from the top, so the sticky navbar sits where a person sees it. */
async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

describe('navigation and companies in Chromium', () => {
  let adminToken: string;
  let visitorUidn: string;
  let visitorRequestId: string;
  let acmeVisitorUidn: string;
  const contexts: BrowserContext[] = [];
  const open = async (options = {}) => {
    const context = await newContext(sesame.browser, sesame.server.url, options);
    contexts.push(context);
    return context.newPage();
  };

  const sesame = useSesame();

  beforeAll(async () => {
    adminToken = await apiToken(sesame.server);
    const acme = await createAcme(sesame.server, adminToken);
    await createDemoStaff(sesame.server, MANAGER);
    await createUser(sesame.server, adminToken, { ...ACME_EMPLOYEE, company_id: acme.id });
    // A Demo visitor, confirmed and checked in by the admin (Demo's staff).
    const visitor = await createConfirmedVisitor(sesame.server, adminToken, {
      firstname: 'Mariam',
      lastname: 'Coulibaly',
      email: 'mariam.coulibaly@example.test',
    });
    visitorUidn = visitor.uidn;
    visitorRequestId = visitor.requestId;
    // And an Acme visitor, whose form named Acme.
    const acmePerson = {
      firstname: 'Ibrahim',
      lastname: 'Sangaré',
      email: 'ibrahim.sangare@example.test',
      company_id: 'acme',
    };
    acmeVisitorUidn = (await createConfirmedVisitor(sesame.server, adminToken, acmePerson)).uidn;
    for (const uidn of [visitorUidn, acmeVisitorUidn]) {
      const check = await fetch(`${sesame.server.url}/api/get-qr-data/${uidn}`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(check.status).toBe(200);
    }
  });

  it('shows a real not-found page in the layout for an unknown address, in French and English', async () => {
    const page = await open();
    await page.goto('/demo/no-such-page');
    await expectNotFound(page);
    await shot(page, 'navigation-not-found-desktop');
    // The way back leads to the company the URL names, when it exists.
    await page.getByRole('link', { name: "Retour à l'accueil" }).click();
    await page.waitForURL(`${sesame.server.url}/demo`);
    await page.getByRole('link', { name: 'Demander un rendez-vous' }).waitFor();

    // A company that does not exist: its home and every page under it.
    for (const path of ['/no-such-company', '/no-such-company/request-meeting', '/a/b/c/d']) {
      await page.goto(path);
      await expectNotFound(page);
    }
    // Anonymous: back to the default company.
    await page.getByRole('link', { name: "Retour à l'accueil" }).click();
    await page.waitForURL(`${sesame.server.url}/demo`);

    await page.goto('/demo/no-such-page');
    await navbar(page).getByText('EN', { exact: true }).click();
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Back to home' }).waitFor();
    await navbar(page).getByText('FR', { exact: true }).click();
    await page.getByRole('heading', { name: 'Page introuvable' }).waitFor();

    const phone = await open(PHONE_390);
    await phone.goto('/demo/list-qrcode/extra/segments');
    await expectNotFound(phone);
    await shot(phone, 'navigation-not-found-phone');
  });

  it('shows a real error page, in the layout, when a screen fails to load', async () => {
    const page = await open();
    // The Menu's code cannot be fetched (an update replaced it, a network cut).
    await page.route(/\/assets\/MenuPage-[^/]+\.js$/, (route) => route.abort());
    await signIn(page, sesame.server.adminEmail, sesame.server.adminPassword);
    await page.goto('/demo/menu');
    await page.getByRole('heading', { name: 'Cette page a rencontré une erreur' }).waitFor();
    await page.getByRole('button', { name: 'Recharger la page' }).waitFor();
    await navbar(page).getByRole('button', { name: 'Déconnexion' }).waitFor();
    expect(await page.getByText('Unexpected Application Error').count()).toBe(0);
    await shot(page, 'navigation-route-error');
    await page.unroute(/\/assets\/MenuPage-[^/]+\.js$/);
    await page.getByRole('link', { name: "Retour à l'accueil" }).click();
    await page.waitForURL(`${sesame.server.url}/demo`);
    await page.getByRole('link', { name: 'Menu' }).click();
    await page.getByRole('heading', { name: 'Menu de navigation' }).waitFor();
  });

  it('sends slugless addresses to the default company, and staff pages to the person’s own', async () => {
    const phone = await open(PHONE_390);
    await phone.goto('/request-meeting');
    await phone.waitForURL(`${sesame.server.url}/demo/request-meeting`);
    await phone.getByRole('heading', { name: 'Demo' }).waitFor();
    // A company without a logo is named in the navbar, on a phone too.
    await navbar(phone).getByText('Demo', { exact: true }).waitFor();
    await phone.goto('/meeting');
    await phone.waitForURL(`${sesame.server.url}/demo/meeting`);
    await phone.getByText('Demande de rendez-vous').first().waitFor();
    await shot(phone, 'navigation-slugless-meeting-phone');

    // A staff page without a company: the login first, then that person's own company.
    await phone.goto('/manual-check');
    await phone.waitForURL(`${sesame.server.url}/sign-in`);
    await phone.getByLabel('Adresse e-mail').fill(ACME_EMPLOYEE.email);
    await phone.getByRole('button', { name: 'Continuer' }).click();
    await phone.getByLabel('Mot de passe').fill(ACME_EMPLOYEE.password);
    await phone.getByRole('button', { name: 'Soumettre' }).click();
    await phone.waitForURL(`${sesame.server.url}/acme/manual-check`);
    await phone.getByRole('heading', { name: 'Validation Manuelle UIDN' }).waitFor();
    // Signed in, a public slugless page is still the default company's (spec §1).
    await phone.goto('/request-meeting');
    await phone.waitForURL(`${sesame.server.url}/demo/request-meeting`);
    await phone.goto('/menu');
    await phone.waitForURL(`${sesame.server.url}/acme/menu`);
    await phone.getByRole('heading', { name: 'Menu de navigation' }).waitFor();
    // A page of the menu the role has no tile for: the permission message, no tile.
    expect(await phone.getByRole('link', { name: 'Liste QR Code' }).count()).toBe(0);
    await phone.goto('/acme/qr-code-list');
    await phone.getByRole('heading', { name: "Vous n'avez pas la permission." }).waitFor();
    expect(await phone.getByText(/quelque chose|something went wrong/i).count()).toBe(0);
  });

  it('shows the company of the URL, else of the record, whichever load finishes last', async () => {
    // The admin belongs to Demo and opens Acme's home: Acme on screen, after a reload too
    // (the user-info refresh finishing last no longer changes it).
    const page = await open();
    await signIn(page, sesame.server.adminEmail, sesame.server.adminPassword);
    await page.goto('/acme');
    await page.getByRole('heading', { name: /Acme/ }).waitFor();
    await navbar(page).getByRole('img', { name: 'Acme' }).waitFor();
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/user/info'));
    await page.reload();
    await refreshed;
    await page.getByRole('heading', { name: /Acme/ }).waitFor();
    await navbar(page).getByRole('img', { name: 'Acme' }).waitFor();
    expect(await navbar(page).getByText('Demo', { exact: true }).count()).toBe(0);
    // Spec §3's 'currentCompany' records the URL's company; it decides nothing.
    expect(await page.evaluate(() => localStorage.getItem('currentCompany'))).toBe('acme');

    // A Demo visitor's thank-you page (no company in its URL): Demo, not the last one visited.
    await page.goto(`/success-checkin/${visitorUidn}`);
    await page.getByText('Mariam Coulibaly').first().waitFor();
    await navbar(page).getByText('Demo', { exact: true }).waitFor();
    expect(await navbar(page).getByRole('img', { name: 'Acme' }).count()).toBe(0);
    await shot(page, 'navigation-thank-you-demo');
    // An Acme visitor's, opened by the Demo admin: Acme, the record's company.
    await page.goto(`/success-checkin/${acmeVisitorUidn}`);
    await page.getByText('Ibrahim Sangaré').first().waitFor();
    await navbar(page).getByRole('img', { name: 'Acme' }).waitFor();
    // A staff page with no company in its URL and no record: the person's own company.
    await page.goto('/user-check-in-out');
    await navbar(page).getByText('Demo', { exact: true }).waitFor();
    expect(await navbar(page).getByRole('img', { name: 'Acme' }).count()).toBe(0);

    // An anonymous visitor who was on Acme's page: a Demo visitor's thank-you page shows Demo.
    const visitor = await open();
    await visitor.goto('/acme/request-meeting');
    await visitor.getByRole('heading', { name: 'Acme' }).waitFor();
    await visitor.goto(`/success-checkout/${visitorUidn}`);
    // Checked in, not out: the page welcomes them, whatever its address (issue 27).
    await visitor.getByRole('heading', { name: /^Bienvenue, / }).waitFor();
    await navbar(visitor).getByText('Demo', { exact: true }).waitFor();
    expect(await navbar(visitor).getByRole('img', { name: 'Acme' }).count()).toBe(0);
    // ...and an Acme visitor's, after the default company's page, shows Acme.
    await visitor.goto('/demo');
    await visitor.goto(`/success-checkout/${acmeVisitorUidn}`);
    await navbar(visitor).getByRole('img', { name: 'Acme' }).waitFor();
    await shot(visitor, 'navigation-thank-you-acme-anonymous');
  });

  it('opens the meeting QR card only under its own company', async () => {
    const phone = await open(PHONE_390);
    await phone.goto(`/company/demo/meeting-request-qr/${visitorUidn}`);
    await phone.getByText(visitorUidn).first().waitFor();
    await phone.getByRole('button', { name: /Capture/ }).waitFor();
    await phone.goto(`/company/acme/meeting-request-qr/${visitorUidn}`);
    await expectNotFound(phone);
    expect(await phone.getByText(visitorUidn).count()).toBe(0);
    await shot(phone, 'navigation-card-other-company-phone');
    await phone.goto('/company/demo/meeting-request-qr/0000-0000-0000');
    await expectNotFound(phone);
    // The visitor's waiting page too: its own company's URL only.
    await phone.goto(`/demo/request-meeting/${visitorRequestId}`);
    await phone.getByText(visitorUidn).first().waitFor();
    await phone.goto(`/acme/request-meeting/${visitorRequestId}`);
    await expectNotFound(phone);
  });

  it("gives a manager 'Page introuvable' for another company's pages, and saves the seeded company", async () => {
    const page = await open();
    await signIn(page, MANAGER.email, MANAGER.password);
    for (const path of [
      '/demo/edit-company/acme',
      '/acme/edit-company/acme',
      '/acme/list-users',
      '/acme/menu',
    ]) {
      await page.goto(path);
      await expectNotFound(page);
      expect(await page.getByRole('button', { name: 'Enregistrer' }).count()).toBe(0);
    }
    await shot(page, 'navigation-manager-other-company');
    // The way back is the manager's own company.
    await page.getByRole('link', { name: "Retour à l'accueil" }).click();
    await page.waitForURL(`${sesame.server.url}/demo`);

    // The navbar's 'Modifier entreprise': the seeded company saves with one field changed.
    await navbar(page).getByRole('link', { name: 'Modifier entreprise' }).click();
    await page.waitForURL(`${sesame.server.url}/demo/edit-company/demo`);
    await field(page, 'Description').fill('Accueil du siège');
    // The company form's own button (the privacy settings below have theirs).
    await page.getByRole('button', { name: 'Enregistrer' }).first().click();
    await page.getByText('Entreprise mise à jour avec succès.').first().waitFor();
    await page.waitForURL(/\/demo\/company-list$/);
  });

  it('says a revoked session ended and comes back to the page after signing in', async () => {
    const page = await open();
    await signIn(page, sesame.server.adminEmail, sesame.server.adminPassword);
    await page.goto('/demo/menu');
    await page.getByRole('heading', { name: 'Menu de navigation' }).waitFor();
    // The session is revoked elsewhere (a logout on another device, an admin).
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const revoked = await fetch(`${sesame.server.url}/api/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBeLessThan(300);

    await page.locator('[data-tile="users"]').click();
    await page.waitForURL(`${sesame.server.url}/sign-in`);
    await page.getByText('Votre session a expiré. Reconnectez-vous.').waitFor();
    expect(await navbar(page).getByRole('button', { name: 'Déconnexion' }).count()).toBe(0);
    await navbar(page).getByRole('link', { name: 'Connexion' }).waitFor();
    await shot(page, 'navigation-session-ended');
    await page.getByLabel('Adresse e-mail').fill(sesame.server.adminEmail);
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.getByLabel('Mot de passe').fill(sesame.server.adminPassword);
    await page.getByRole('button', { name: 'Soumettre' }).click();
    await page.waitForURL(`${sesame.server.url}/demo/list-users`);
    await page.getByRole('heading', { name: 'Liste des Utilisateurs' }).waitFor();
    expect(await page.getByText('Votre session a expiré. Reconnectez-vous.').count()).toBe(0);

    // Revoked before the page loads: no Menu nor Déconnexion for it, on a public page too.
    const stale = await page.evaluate(() => localStorage.getItem('token'));
    const revokedAgain = await fetch(`${sesame.server.url}/api/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stale}` },
    });
    expect(revokedAgain.status, await revokedAgain.text()).toBeLessThan(300);
    await page.goto('/demo');
    await page.getByText('Votre session a expiré. Reconnectez-vous.').waitFor();
    await navbar(page).getByRole('link', { name: 'Connexion' }).waitFor();
    expect(await page.getByRole('link', { name: 'Menu' }).count()).toBe(0);
    expect(await navbar(page).getByRole('button', { name: 'Déconnexion' }).count()).toBe(0);
  });

  it('ends an expired session on a phone and returns to the page after signing in', async () => {
    const phone = await open(PHONE_390);
    await signIn(phone, sesame.server.adminEmail, sesame.server.adminPassword);
    // The token's own expiry has passed (its claims say so; the server refuses it too).
    await phone.evaluate(() => {
      const encode = (value: object) =>
        btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '');
      const expired = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({
        sub: 'someone',
        sid: 'gone',
        exp: Math.floor(Date.now() / 1000) - 60,
      })}.signature`;
      localStorage.setItem('token', expired);
    });
    await phone.goto('/demo/display-logs?page=2');
    await phone.waitForURL(`${sesame.server.url}/sign-in`);
    await phone.getByText('Votre session a expiré. Reconnectez-vous.').waitFor();
    expect(await phone.getByRole('button', { name: 'Déconnexion' }).count()).toBe(0);
    await shot(phone, 'navigation-session-expired-phone');
    await phone.getByLabel('Adresse e-mail').fill(sesame.server.adminEmail);
    await phone.getByRole('button', { name: 'Continuer' }).click();
    await phone.getByLabel('Mot de passe').fill(sesame.server.adminPassword);
    await phone.getByRole('button', { name: 'Soumettre' }).click();
    await phone.waitForURL(`${sesame.server.url}/demo/display-logs?page=2`);
    await phone.getByRole('heading', { name: 'Liste Check in' }).waitFor();
  });
});
