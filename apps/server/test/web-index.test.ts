/**
 * index.html for a public page names that page's chunks and first API reads (issue 19),
 * from the web build's manifest; any other address gets Vite's index.html as it is.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_PAGES } from '../src/web-index';
import { startTestApp } from './helpers/app';

const INDEX = `<!doctype html>
<html lang="fr">
  <head>
    <title>Sésame</title>
    <script type="module" crossorigin src="/assets/index-E.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/shared-S.js">
    <link rel="stylesheet" crossorigin href="/assets/index-E.css">
  </head>
  <body><div id="root"></div></body>
</html>
`;

/** A manifest of the shape Vite writes: the entry, the visitor form and its imports. */
const MANIFEST = {
  'index.html': {
    file: 'assets/index-E.js',
    isEntry: true,
    imports: ['_shared-S.js'],
    dynamicImports: ['src/features/visitors/pages/CreateVisitorPage.tsx'],
    css: ['assets/index-E.css'],
  },
  '_shared-S.js': { file: 'assets/shared-S.js' },
  'src/features/visitors/pages/CreateVisitorPage.tsx': {
    file: 'assets/CreateVisitorPage-V.js',
    isDynamicEntry: true,
    imports: ['index.html', '_shared-S.js', '_VisitorForm-F.js'],
  },
  '_VisitorForm-F.js': {
    file: 'assets/VisitorForm-F.js',
    imports: ['_shared-S.js'],
    css: ['assets/VisitorForm-F.css'],
  },
  'src/features/events/pages/JoinEventPage.tsx': {
    file: 'assets/JoinEventPage-J.js',
    isDynamicEntry: true,
    imports: ['index.html', '_VisitorForm-F.js'],
  },
};

let web: string;
let ctx: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  web = await mkdtemp(path.join(os.tmpdir(), 'sesame-web-'));
  await mkdir(path.join(web, '.vite'));
  await writeFile(path.join(web, 'index.html'), INDEX);
  await writeFile(path.join(web, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  ctx = await startTestApp({ webDist: web });
});
afterAll(async () => {
  await ctx?.close();
  await rm(web, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

describe("a public page's index.html", () => {
  it("the visitor form preloads its chunk, the chunks it imports, their CSS and the company's reads", async () => {
    const res = await get('/demo/meeting');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    const html = res.body;
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/CreateVisitorPage-V.js">',
    );
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/VisitorForm-F.js">',
    );
    expect(html).toContain(
      '<link rel="preload" as="style" crossorigin href="/assets/VisitorForm-F.css">',
    );
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="/api/company/demo">');
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="/api/settings">');
    expect(html).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/public/privacy-notice/demo">',
    );
    // What index.html already loads is not named twice; the entry's own tags stay.
    expect(html.match(/shared-S\.js/g)).toHaveLength(1);
    expect(html).not.toContain('href="/assets/index-E.js"');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-E.js"></script>');
    // The preloads come before the entry script.
    expect(html.indexOf('CreateVisitorPage-V.js')).toBeLessThan(html.indexOf('index-E.js'));
  });

  it('is sent compressed to a browser that accepts it', async () => {
    const res = ctx.app.inject({
      method: 'GET',
      url: '/demo/meeting?x=1',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    const answer = await res;
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    const html = brotliDecompressSync(answer.rawPayload).toString('utf8');
    expect(html).toContain('href="/assets/CreateVisitorPage-V.js"');
  });

  it("the event form preloads the event's read", async () => {
    const html = (await get('/company/demo/event/forum-2026')).body;
    expect(html).toContain('href="/assets/JoinEventPage-J.js"');
    expect(html).toContain('href="/api/evenement/slug/demo/forum-2026"');
    expect(html).toContain('href="/api/company/demo"');
  });

  it("the login preloads the default company's read; a company's home its own", async () => {
    expect((await get('/sign-in')).body).toContain('href="/api/company/demo"');
    expect((await get('/')).body).toContain('href="/api/company/demo"');
    const home = (await get('/acme')).body;
    expect(home).toContain('href="/api/company/acme"');
    expect(home).toContain('href="/api/settings"');
  });

  it('the waiting page preloads its status; the thank-you page only the settings', async () => {
    const id = '01a20e7c-09d4-7b9d-b9f7-6e8568345816';
    expect((await get(`/demo/request-meeting/${id}`)).body).toContain(
      `href="/api/requests/status/${id}"`,
    );
    const thanks = (await get('/success-checkout/AAAA-BBBB-CCCC')).body;
    expect(thanks).toContain('href="/api/settings"');
    expect(thanks).not.toContain('visitorLog');
  });
});

describe('any other address gets the web app unchanged', () => {
  it.each(['/nowhere/at/all', '/demo/list-events', '/menu', '/favicon.ico', '/sign-in/extra'])(
    '%s',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
    },
  );

  it('a slug that cannot be one is not read ahead, and nothing of it reaches the page', async () => {
    const res = await get('/%22%3E%3Cscript%3E/meeting');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('href="/assets/CreateVisitorPage-V.js"');
    expect(res.body).not.toContain('/api/company/');
    expect(res.body).not.toContain('<script>');
    const reserved = await get('/sign-in/meeting');
    expect(reserved.body).not.toContain('/api/company/sign-in');
  });

  it('/api addresses still answer 404 in JSON', async () => {
    const res = await get('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty('message');
  });
});

it("every public page's module is a page of the web app (a renamed page would lose its preloads)", () => {
  const web = path.resolve(import.meta.dirname, '../../web');
  for (const page of PUBLIC_PAGES)
    expect(existsSync(path.join(web, page.module)), page.module).toBe(true);
});
