/**
 * Staff screens in a real browser against a mocked API (issue 34's screens' tests): the web
 * app is built as it ships (Vite, into a temporary folder), served by a small static server,
 * and opened in Debian's Chromium (playwright-core) signed in as the person a test names.
 * Every `/api/…` call is answered by the test's `MockApi`, which keeps what it was sent, so a
 * test clicks through a page and checks both what it shows and what it asked the server.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page, type Route } from 'playwright-core';
import type { UserInfo } from '@sesame/shared';

const WEB = path.resolve(import.meta.dirname, '../..');
const VITE = path.join(WEB, 'node_modules/vite/bin/vite.js');

/** The flags the project launches Chromium with (STACK-NOTES). */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 900 };

/** One call the page made. */
export interface ApiCall {
  method: string;
  /** `/api/…` without the query. */
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface Answer {
  status?: number;
  body?: unknown;
}

type Handler = (call: ApiCall) => Answer | undefined;

/**
 * The API as a test describes it: `on('GET', '/api/…', answer)`, the latest declared first;
 * a call nobody answers is a 404 and is kept in `unanswered`.
 */
export class MockApi {
  readonly calls: ApiCall[] = [];
  readonly unanswered: ApiCall[] = [];
  private handlers: { method: string; path: string | RegExp; handler: Handler }[] = [];

  on(method: string, route: string | RegExp, answer: Answer | Handler): this {
    const handler: Handler = typeof answer === 'function' ? answer : () => answer;
    this.handlers.unshift({ method, path: route, handler });
    return this;
  }

  /** The calls of `method` whose path is `route` (or matches it). */
  sent(method: string, route: string | RegExp): ApiCall[] {
    return this.calls.filter((c) => c.method === method && matches(route, c.path));
  }

  /** The answers declared so far, the latest first. */
  handlersList(): readonly { method: string; path: string | RegExp; handler: Handler }[] {
    return this.handlers;
  }

  clear(): this {
    this.handlers = [];
    return this;
  }

  answer(call: ApiCall): Answer {
    for (const { method, path: route, handler } of this.handlers) {
      if (method !== call.method || !matches(route, call.path)) continue;
      const answer = handler(call);
      if (answer) return answer;
    }
    this.unanswered.push(call);
    return { status: 404, body: { message: 'Introuvable.' } };
  }
}

const matches = (route: string | RegExp, path: string) =>
  typeof route === 'string' ? route === path : route.test(path);

/** A signed-in person of the company `acme`. */
export function personOf(role: UserInfo['roles'][number], over: Partial<UserInfo> = {}): UserInfo {
  return {
    id: '5b0c6a8e-3f1d-4d8e-9c2a-1f0e2d3c4b5a',
    name: 'Koné',
    firstname: 'Awa',
    email: 'awa.kone@acme.test',
    roles: [role],
    company_id: '0d7f5c3e-8a2b-4c1d-9e6f-7a8b9c0d1e2f',
    company: 'acme',
    company_name: 'Acme',
    home_site_id: null,
    site_ids: [],
    password_managed: false,
    ...over,
  };
}

/** What every staff page asks besides its own data: the person, the company, its sites. */
function withLayout(api: MockApi, user: UserInfo, origin: string): MockApi {
  const company = {
    id: user.company_id,
    name: user.company_name,
    slug: user.company,
    logo_url: null,
    timezone: 'Europe/Paris',
  };
  // Declared before the test's own answers: the latest declared is asked first.
  const own = [...api.handlersList()];
  api
    .clear()
    .on('GET', '/api/settings', {
      body: { default_company_slug: user.company, public_url: origin },
    })
    .on('GET', '/api/user/info', { body: user })
    .on('GET', `/api/company/${user.company}`, { body: { data: company } })
    .on('GET', /^\/api\/company\/[^/]+\/sites$/, { body: { data: [] } });
  for (const handler of own.reverse()) api.on(handler.method, handler.path, handler.handler);
  return api;
}

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed:\n${output}`)),
    );
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};

/** The built app's files; any other address is the app's page (the router takes it). */
function serve(dist: string): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const file = path.join(dist, path.normalize(url.pathname));
    const found = file.startsWith(dist) && path.extname(file) !== '' && existsSync(file);
    const target = found ? file : path.join(dist, 'index.html');
    readFile(target).then(
      (bytes) => {
        response.writeHead(200, {
          'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream',
        });
        response.end(bytes);
      },
      () => {
        response.writeHead(500);
        response.end();
      },
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export interface Screens {
  /** Opens `path` signed in as `user`, every `/api` call answered by `api`. */
  open(
    path: string,
    api: MockApi,
    options?: { user?: UserInfo; viewport?: { width: number; height: number } },
  ): Promise<Page>;
  close(): Promise<void>;
}

/** Builds the web app and starts the browser (about 5 s). */
export async function startScreens(): Promise<Screens> {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'sesame-screens-'));
  await run(
    process.execPath,
    [VITE, 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'],
    WEB,
  );
  const server = await serve(dist);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser: Browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
    headless: true,
  });

  return {
    async open(route, api, options = {}) {
      const user = options.user ?? personOf('ROLE_SUPER_ADMIN');
      withLayout(api, user, origin);
      const context = await browser.newContext({
        baseURL: origin,
        locale: 'fr-FR',
        timezoneId: 'Europe/Paris',
        viewport: options.viewport ?? DESKTOP,
      });
      await context.addInitScript(
        ([info]) => {
          localStorage.setItem('token', 'screens-test-token-0123456789');
          localStorage.setItem('userInfo', JSON.stringify(info));
          localStorage.setItem('roles_list', JSON.stringify(info.roles));
          localStorage.setItem('lang', 'fr');
        },
        [user] as const,
      );
      await context.route('**/api/**', async (route: Route) => {
        const request = route.request();
        const url = new URL(request.url());
        const text = request.postData();
        let body: unknown = undefined;
        if (text) {
          try {
            body = JSON.parse(text);
          } catch {
            body = text;
          }
        }
        const call: ApiCall = {
          method: request.method(),
          path: url.pathname,
          query: url.searchParams,
          body,
        };
        api.calls.push(call);
        const answer = api.answer(call);
        await route.fulfill({
          status: answer.status ?? 200,
          contentType: 'application/json',
          body: answer.body === undefined ? '' : JSON.stringify(answer.body),
        });
      });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(route);
      return page;
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
      await rm(dist, { recursive: true, force: true });
    },
  };
}

/** Whether the page is wider than its window (a phone scrolling sideways). */
export const overflowsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
