/**
 * Debian's Chromium driven by playwright-core (it never downloads a browser).
 */
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found) {
    throw new Error(
      'Chromium not found: install it with `apt-get install -y chromium` (Debian) or set CHROMIUM_PATH.',
    );
  }
  return found;
}

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...CHROMIUM_FLAGS, ...extraArgs],
    headless: true,
  });
  console.log(
    `[e2e] browser: ${browser.browserType().name()} ${browser.version()} (${chromiumPath()})`,
  );
  return browser;
}

export const PHONE = {
  viewport: { width: 375, height: 812 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
};
export const DESKTOP = { viewport: { width: 1280, height: 800 } };

export async function newContext(
  browser: Browser,
  baseURL: string,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    acceptDownloads: true,
    locale: 'fr-FR',
    ...DESKTOP,
    ...options,
  });
}

/** Saves a screenshot under e2e/artifacts for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.resolve(import.meta.dirname, '../artifacts');
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/** Signs in on '/sign-in' and waits for the company's home ('/{slug}'). */
export async function signIn(page: Page, email: string, password: string, slug = 'demo') {
  await page.goto('/sign-in');
  await page.getByLabel('Adresse e-mail').fill(email);
  // Issue 33: the e-mail first ('Continuer'), then the password.
  await page.getByRole('button', { name: 'Continuer' }).click();
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Soumettre' }).click();
  await page.waitForURL(new RegExp(`/${slug}$`));
}

/** A form field by its label, exactly (Mantine appends ' *' to required labels). */
export function field(page: Page, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByLabel(new RegExp(`^${escaped}( \\*)?$`));
}
