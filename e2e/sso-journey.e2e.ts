/**
 * Issue 33's journey in Chromium: "sign in through the test provider's login page, land on
 * the company's menu with the mapped role, in French and English". A real OpenID Connect
 * provider (oidc-provider, the server tests' helper) runs beside the built Sésame, its client
 * registered with Sésame's callback. The demo company's admin sets it up on 'Connexion unique
 * (SSO)' (the form, "Tester la connexion", saved); a person the provider alone knows, of its
 * group 'reception', types their e-mail on the login page, presses 'Continuer', signs in on
 * the provider's own pages and lands back on the company, their account made at this first
 * sign-in with the role the group maps to (ROLE_EMPLOYEE: its tiles, not the others'). Once
 * the company enforces its provider, a right password of its staff is refused on the login
 * page with the server's own sentence. Screens saved under e2e/artifacts.
 */
import { catalogue } from '@sesame/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field, screenshot, signIn } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, apiToken } from './support/server';
import { useSesame } from './support/sesame';
import {
  callbackOf,
  continueWithEmail,
  demoCompanyId,
  keepOffTheInternet,
  readSso,
  saveSso,
  signInAtProvider,
  ssoSettingsFor,
  startProviderFor,
  submitPassword,
  switchLanguage,
  type LoginLanguage,
  type TestAccount,
  type TestProvider,
} from './support/sso';

/** The e-mail domain the demo company's provider covers. */
const DOMAIN = 'lagune-sso.test';

/** People only the provider knows: no Sésame account until their first sign-in. */
const PEOPLE: Record<LoginLanguage, TestAccount> = {
  fr: {
    sub: 'awa.kone',
    email: `awa.kone@${DOMAIN}`,
    given_name: 'Awa',
    family_name: 'Koné',
    name: 'Awa Koné',
    groups: ['reception', 'cafeteria'],
  },
  en: {
    sub: 'grace.mensah',
    email: `grace.mensah@${DOMAIN}`,
    given_name: 'Grace',
    family_name: 'Mensah',
    name: 'Grace Mensah',
    groups: ['reception'],
  },
};

/** A local account of the demo company (a password, an address no provider covers). */
const LOCAL = {
  name: 'Yao',
  firstname: 'Aya',
  email: 'aya.yao.sso@example.com',
  password: 'Local-Password-2026',
  title: 'Réceptionniste',
  role: 'ROLE_EMPLOYEE',
};

/** The menu's words in each language: ROLE_EMPLOYEE's tiles, and tiles it has not. */
const MENU = {
  fr: {
    menu: 'Menu',
    title: 'Menu de navigation',
    has: ['Sur place', 'QR Code manuel', 'Scanner QR', 'Inviter des visiteurs'],
    hasNot: ['Utilisateurs', 'Connexion unique (SSO)', "Journal d'audit", 'Sites'],
  },
  en: {
    menu: 'Menu',
    title: 'Navigation menu',
    has: ['On site', 'Manual QR code', 'QR scanner', 'Invite visitors'],
    hasNot: ['Users', 'Single sign-on (SSO)', 'Audit log', 'Sites'],
  },
} as const;

describe('single sign-on: staff sign in through their company’s identity provider', () => {
  const sesame = useSesame({ staff: [LOCAL], timeout: 120_000 });
  let provider: TestProvider | undefined;
  let companyId = '';
  let adminToken = '';

  beforeAll(async () => {
    provider = await startProviderFor(sesame.server, Object.values(PEOPLE));
    companyId = await demoCompanyId(sesame.server);
    adminToken = await apiToken(sesame.server);
  });
  afterAll(async () => {
    await provider?.close();
  });

  const theProvider = () => {
    if (!provider) throw new Error('the test provider did not start');
    return provider;
  };

  /** A page of its own, off the internet (the provider's pages ask for a web font). */
  async function freshPage(): Promise<Page> {
    const page = await sesame.page();
    await keepOffTheInternet(page.context());
    return page;
  }

  it("the admin sets the provider up on 'Connexion unique (SSO)', tested then saved", async () => {
    const { server } = sesame;
    const idp = theProvider();
    const admin = await freshPage();
    await signIn(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.goto('/demo/menu');
    await admin.getByRole('link', { name: 'Connexion unique (SSO)' }).click();
    await admin.waitForURL(/\/demo\/sso$/);
    const settings = admin.getByTestId('sso-settings');
    await settings.waitFor();
    // What to register at the provider: the callback it was started with.
    await expect
      .poll(() => field(admin, 'URI de redirection').inputValue())
      .toBe(callbackOf(server));

    await admin.getByRole('switch', { name: 'Activer la connexion unique' }).check();
    await field(admin, "URL de l'émetteur").fill(idp.issuer);
    await admin.getByRole('button', { name: 'Tester la connexion' }).click();
    const tested = admin.getByTestId('sso-test-result');
    await tested.waitFor();
    expect(await tested.getAttribute('data-ok')).toBe('true');
    expect(await tested.innerText()).toContain(catalogue('fr').sso.testOk(idp.issuer));

    await field(admin, 'Identifiant client (client id)').fill(idp.clientId);
    await field(admin, 'Secret client (client secret)').fill(idp.clientSecret);
    const domains = admin.getByRole('combobox', { name: 'Domaines de messagerie' });
    await domains.fill(DOMAIN);
    await domains.press('Enter');
    await field(admin, 'Revendication des groupes').fill('groups');
    await admin.getByRole('button', { name: 'Ajouter un groupe' }).click();
    await field(admin, 'Groupe (ligne 1)').fill('reception');
    await field(admin, 'Rôle (ligne 1)').selectOption('ROLE_EMPLOYEE');
    await admin.getByRole('switch', { name: 'Créer les comptes à la première connexion' }).check();
    await screenshot(admin, 'sso-settings-1280');
    await admin.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await admin.getByTestId('sso-feedback').getByText(catalogue('fr').sso.saved).waitFor();

    // Stored as typed (the secret never comes back, only that there is one).
    const stored = await readSso(server, adminToken, companyId);
    expect(stored).toMatchObject({
      enabled: true,
      issuer_url: idp.issuer,
      client_id: idp.clientId,
      has_client_secret: true,
      domains: [DOMAIN],
      groups_claim: 'groups',
      role_mappings: [{ group: 'reception', role: 'ROLE_EMPLOYEE' }],
      allow_jit: true,
      enforced: false,
      redirect_uri: callbackOf(server),
    });
  });

  for (const lang of ['fr', 'en'] as const) {
    it(`in ${lang === 'fr' ? 'French' : 'English'}: through the provider's login page to the company's menu, as ROLE_EMPLOYEE`, async () => {
      const { server } = sesame;
      const idp = theProvider();
      // The settings the admin's page saves, whatever the test before did.
      await saveSso(server, adminToken, companyId, ssoSettingsFor(idp, DOMAIN));
      const person = PEOPLE[lang];
      const w = MENU[lang];

      const page = await freshPage();
      await page.goto('/sign-in');
      if (lang !== 'fr') await switchLanguage(page, lang);
      await continueWithEmail(page, person.email, lang);

      // The provider's own login page, its origin not Sésame's.
      await signInAtProviderWithScreenshot(page, idp, lang, person.sub);

      // Back on Sésame: signed in, on the company's home, then its menu.
      await page.waitForURL(/\/demo$/);
      await page.getByRole('link', { name: w.menu, exact: true }).first().click();
      await page.waitForURL(/\/demo\/menu$/);
      const tiles = page.getByRole('navigation', { name: w.title });
      await tiles.waitFor();
      for (const name of w.has) {
        await expect.poll(() => tiles.getByRole('link', { name, exact: true }).count()).toBe(1);
      }
      for (const name of w.hasNot) {
        expect(await tiles.getByRole('link', { name, exact: true }).count()).toBe(0);
      }
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      await screenshot(page, `sso-menu-${lang}-1280`);

      // The account made at this first sign-in: the provider's person, with the mapped role.
      const me = await page.evaluate(async () => {
        const token = localStorage.getItem('token');
        const res = await fetch('/api/user/info', {
          headers: token ? { authorization: `Bearer ${token}` } : {},
          credentials: 'include',
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({
        email: person.email,
        firstname: person.given_name,
        name: person.family_name,
        roles: ['ROLE_EMPLOYEE'],
        company: 'demo',
      });
    });
  }

  it("an enforced provider: a right password of the company's staff is refused with the server's sentence", async () => {
    const { server } = sesame;
    const idp = theProvider();
    await saveSso(server, adminToken, companyId, ssoSettingsFor(idp, DOMAIN, { enforced: true }));

    const page = await freshPage();
    await page.goto('/sign-in');
    // Its address is no provider's: 'Continuer' asks the password, which is right, and refused.
    await continueWithEmail(page, LOCAL.email);
    await submitPassword(page, LOCAL.password);
    await page
      .getByRole('alert')
      .filter({ hasText: catalogue('fr').sso.passwordDisabled })
      .waitFor();
    expect(page.url()).toMatch(/\/sign-in$/);
    await screenshot(page, 'sso-password-refused-1280');

    // As the sentence says: 'Continuer' with an address of the company's provider signs in.
    await page.getByRole('button', { name: "Modifier l'adresse e-mail" }).click();
    await continueWithEmail(page, PEOPLE.fr.email);
    await signInAtProvider(page, idp, server, PEOPLE.fr.sub);
    await page.waitForURL(/\/demo$/);

    // The platform's admin keeps their password.
    expect(await apiToken(server)).toBeTruthy();
  });

  /** The provider's login page (saved for a person to look at), then back to Sésame. */
  async function signInAtProviderWithScreenshot(
    page: Page,
    idp: TestProvider,
    lang: LoginLanguage,
    sub: string,
  ): Promise<void> {
    await page.waitForURL((url) => url.origin === new URL(idp.issuer).origin);
    await page.locator('input[name="login"]').waitFor();
    await screenshot(page, `sso-provider-${lang}`);
    await signInAtProvider(page, idp, sesame.server, sub);
  }
});
