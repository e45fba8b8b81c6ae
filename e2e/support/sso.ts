/**
 * Single sign-on in the browser (issue 33): a real OpenID Connect provider beside the built
 * Sésame (the server tests' `oidc-provider`, its redirect URI Sésame's callback), the
 * company's settings saved through the API as its admin, and the steps a person takes: the
 * login page's e-mail first ('Continuer'), then the password or the provider's own pages
 * (oidc-provider's development interactions: a login form, then a consent button).
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { SsoSettingsInput, SsoSettingsView } from '@sesame/shared';
import {
  startTestProvider,
  type TestAccount,
  type TestProvider,
} from '../../apps/server/test/helpers/oidc-provider';
import type { RunningServer } from './server';

export type { TestAccount, TestProvider };

/** Sésame's redirect URI, the one the provider's client is registered with. */
export const callbackOf = (server: RunningServer) => `${server.url}/api/sso/callback`;

/** The test provider, its one client sending the browser back to this Sésame. */
export function startProviderFor(
  server: RunningServer,
  accounts: TestAccount[],
): Promise<TestProvider> {
  return startTestProvider({ redirectUri: callbackOf(server), accounts });
}

/** The demo company's id (the SSO routes take the company's id, not its slug). */
export async function demoCompanyId(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/api/company/demo`);
  if (!res.ok) throw new Error(`/company/demo: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

/** The company's settings a test starts from: the provider's client, the domain, the mapping. */
export function ssoSettingsFor(
  provider: TestProvider,
  domain: string,
  changes: Partial<SsoSettingsInput> = {},
): SsoSettingsInput {
  return {
    enabled: true,
    issuer_url: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    domains: [domain],
    groups_claim: 'groups',
    role_mappings: [{ group: 'reception', role: 'ROLE_EMPLOYEE' }],
    default_role: 'ROLE_USER',
    allow_jit: true,
    enforced: false,
    ...changes,
  };
}

/** PUT /api/company/{id}/sso as `token` (set-up, not the journey). */
export async function saveSso(
  server: RunningServer,
  token: string,
  companyId: string,
  settings: SsoSettingsInput,
): Promise<SsoSettingsView> {
  const res = await fetch(`${server.url}/api/company/${companyId}/sso`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(settings),
  });
  if (!res.ok) {
    const log = res.status >= 500 ? `\nthe server's log:\n${server.output().slice(-3000)}` : '';
    throw new Error(`PUT /company/${companyId}/sso: ${res.status} ${await res.text()}${log}`);
  }
  return ((await res.json()) as { data: SsoSettingsView }).data;
}

/** GET /api/company/{id}/sso as `token`. */
export async function readSso(
  server: RunningServer,
  token: string,
  companyId: string,
): Promise<SsoSettingsView> {
  const res = await fetch(`${server.url}/api/company/${companyId}/sso`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`GET /company/${companyId}/sso: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: SsoSettingsView }).data;
}

/**
 * The provider's pages import a web font from the internet: the test machine has none, and
 * nothing of the journey depends on it.
 */
export async function keepOffTheInternet(context: BrowserContext): Promise<void> {
  await context.route(/^https:\/\/fonts\.(googleapis|gstatic)\.com\//, (route) => route.abort());
}

/** The login page's words the SSO journeys use, in each language. */
export const LOGIN_WORDS = {
  fr: {
    switchTo: 'FR',
    email: 'Adresse e-mail',
    password: 'Mot de passe',
    continue: 'Continuer',
    submit: 'Soumettre',
  },
  en: {
    switchTo: 'EN',
    email: 'E-mail address',
    password: 'Password',
    continue: 'Continue',
    submit: 'Submit',
  },
} as const;
export type LoginLanguage = keyof typeof LOGIN_WORDS;

/** Switches the screen's language with the header's FR/EN control, as a person would. */
export async function switchLanguage(page: Page, lang: LoginLanguage): Promise<void> {
  await page.getByRole('banner').getByText(LOGIN_WORDS[lang].switchTo, { exact: true }).click();
  await page.waitForFunction((l) => localStorage.getItem('lang') === l, lang);
}

/** The login page's first step: the e-mail, then 'Continuer'. */
export async function continueWithEmail(
  page: Page,
  email: string,
  lang: LoginLanguage = 'fr',
): Promise<void> {
  const w = LOGIN_WORDS[lang];
  await page.getByLabel(w.email).fill(email);
  await page.getByRole('button', { name: w.continue }).click();
}

/** The password step, after 'Continuer' kept the e-mail (no provider covers its domain). */
export async function submitPassword(
  page: Page,
  password: string,
  lang: LoginLanguage = 'fr',
): Promise<void> {
  const w = LOGIN_WORDS[lang];
  await page.getByLabel(w.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: w.submit }).click();
}

/** The provider's login form (its development interaction: any password signs `login` in). */
export async function providerLoginForm(page: Page, provider: TestProvider) {
  await page.waitForURL((url) => url.origin === new URL(provider.issuer).origin);
  const login = page.locator('input[name="login"]');
  await login.waitFor();
  return login;
}

/**
 * Signs in at the provider's pages as the account `sub`, consents when asked, and waits
 * until the browser is back on Sésame.
 */
export async function signInAtProvider(
  page: Page,
  provider: TestProvider,
  server: RunningServer,
  sub: string,
): Promise<void> {
  await (await providerLoginForm(page, provider)).fill(sub);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const back = page
    .waitForURL((url) => url.origin === server.url, { waitUntil: 'commit' })
    .then(() => 'back' as const);
  const consent = page.getByRole('button', { name: 'Continue' });
  // The provider asks for consent to the client's scopes the first time (the loser of the
  // race settles when the page moves on or closes: it must not throw unheard).
  const asked = consent.waitFor().then(
    () => 'consent' as const,
    () => 'gone' as const,
  );
  const first = await Promise.race([back, asked]);
  if (first !== 'back') {
    if (first === 'consent') await consent.click();
    await back;
  }
}
