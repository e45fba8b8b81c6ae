/**
 * The set-up every browser journey shares: the built Sésame on a free port (with a
 * real SMTP server when the journey reads mails), Chromium, the demo company's staff
 * the journey signs in as; all of it closed after the file's tests. Called inside a
 * `describe`, it registers that suite's beforeAll and afterAll; the suite's own hooks,
 * registered after it, run after this set-up and before this closing.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, newContext, signIn } from './browser';
import { createDemoStaff, startServer, type RunningServer, type StaffMember } from './server';
import { startSmtp, type TestSmtp } from './smtp';

export interface SesameOptions {
  /** Settings for the server, over startServer's. */
  env?: Record<string, string>;
  /** Start a real SMTP server and send Sésame's mails to it (SMTP_URL). */
  smtp?: boolean;
  /** Staff of the demo company, created through the API as the admin. */
  staff?: StaffMember[];
  /** How long the set-up may take, when more than the project's hook timeout. */
  timeout?: number;
}

type ContextOptions = Parameters<typeof newContext>[2];

export interface Sesame {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** The SMTP server (with `smtp: true` only). */
  readonly smtp: TestSmtp;
  /** A new page in a context of its own (desktop, French unless `options` say otherwise). */
  page(options?: ContextOptions): Promise<Page>;
  /** A new page, signed in on '/sign-in' and landed on the company's home ('/{slug}'). */
  signedIn(
    email: string,
    password: string,
    options?: ContextOptions & { slug?: string },
  ): Promise<Page>;
}

function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) {
    throw new Error(`useSesame: no ${what} yet (read it in a test or a hook, not at load time)`);
  }
  return value;
}

export function useSesame(options: SesameOptions = {}): Sesame {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let smtp: TestSmtp | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (options.smtp) smtp = await startSmtp();
    server = await startServer({ ...(smtp ? { SMTP_URL: smtp.url } : {}), ...options.env });
    browser = await launchBrowser();
    for (const person of options.staff ?? []) await createDemoStaff(server, person);
  }, options.timeout);

  afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close();
    await browser?.close();
    await server?.stop();
    await smtp?.stop();
  });

  const sesame: Sesame = {
    get server() {
      return started(server, 'server');
    },
    get browser() {
      return started(browser, 'browser');
    },
    get smtp() {
      return started(smtp, 'SMTP server (useSesame({ smtp: true }))');
    },
    async page(contextOptions) {
      const context = await newContext(sesame.browser, sesame.server.url, contextOptions);
      contexts.push(context);
      return context.newPage();
    },
    async signedIn(email, password, { slug, ...contextOptions } = {}) {
      const page = await sesame.page(contextOptions);
      await signIn(page, email, password, slug);
      return page;
    },
  };
  return sesame;
}
