/**
 * Public pages' JavaScript as a phone receives it (ARCHITECTURE §9: at most 150 KB
 * compressed before the page is usable; the aim is 130 KB).
 *
 * The web app is built from the current sources into a temporary folder, with hidden
 * source maps and the same precompressed copies as `npm run build`, and served by the
 * compiled server (so `npm run build` must have built the server). Each public page is
 * opened signed out in Chromium, as a 375 px phone with an empty cache; every script
 * requested until the page is usable (the load event fired, its heading shown, and a
 * form's submit button when it is a form) is counted:
 * - brotli: the bytes the server sent (the response's encoded body, `content-encoding: br`:
 *   Chromium asks for br, the server sends the precompressed .br);
 * - gzip: what a client without brotli would get (the .gz copy, or the file when too small);
 * - the number of files.
 * Then the page's top modules and packages, from the source maps of the chunks it loaded
 * (minified bytes; ≈br is that share of the page's brotli bytes), so a regression names itself.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Request } from 'playwright-core';
import { launchBrowser, PHONE } from '../e2e/support/browser';
import { apiToken, ROOT, startServer, type RunningServer } from '../e2e/support/server';
import { createOpenEvent } from '../e2e/support/events';
import { createConfirmedVisitor, filePendingRequest } from '../e2e/support/visitors';

const BUDGET_KB = 150;
const AIM_KB = 130;
/** How many modules each page lists (`BENCH_SIZE_TOP=40` for a closer look). */
const TOP_MODULES = Number(process.env.BENCH_SIZE_TOP) || 12;
const WEB = path.join(ROOT, 'apps/web');

interface PublicPage {
  name: string;
  path: string;
  /** A form page is usable when its submit button is shown too. */
  form?: boolean;
}

async function publicPages(server: RunningServer): Promise<PublicPage[]> {
  const admin = await apiToken(server);
  const { uidn } = await createConfirmedVisitor(server, admin, {
    firstname: 'Aïcha',
    lastname: 'Bamba',
    email: 'aicha.bamba@example.com',
  });
  // A request waiting for its host: the visitor's waiting page.
  const { requestId } = await filePendingRequest(server);
  // An open event: its registration form.
  const { slug } = await createOpenEvent(server, admin);
  return [
    { name: 'login', path: '/sign-in', form: true },
    { name: 'home', path: '/demo' },
    { name: 'visitor form', path: '/demo/meeting', form: true },
    { name: 'event form', path: `/company/demo/event/${slug}`, form: true },
    { name: 'thank-you', path: `/success-checkout/${uidn}` },
    { name: 'waiting page', path: `/demo/request-meeting/${requestId}` },
    // The kiosk app on a tablet not yet paired (issue 29): its pairing form.
    { name: 'kiosk', path: '/kiosk', form: true },
  ];
}

/** Per chunk file, its modules' rendered lengths (Vite's JSON modules have no source map). */
type ChunkModules = Map<string, { id: string; length: number }[]>;

/** `vite build` of apps/web into `outDir`, with hidden source maps, then the .br/.gz copies. */
async function buildInto(outDir: string): Promise<ChunkModules> {
  const chunks: ChunkModules = new Map();
  const recordModules = {
    name: 'sesame-size-modules',
    generateBundle(
      _options: unknown,
      bundle: Record<
        string,
        { type: string; fileName: string; modules?: Record<string, { renderedLength: number }> }
      >,
    ) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk' || !output.modules) continue;
        chunks.set(
          `/${output.fileName}`,
          Object.entries(output.modules).map(([id, m]) => ({ id, length: m.renderedLength })),
        );
      }
    },
  };
  const vitePath = createRequire(path.join(WEB, 'package.json')).resolve('vite');
  const vite = (await import(pathToFileURL(vitePath).href)) as {
    build: (config: Record<string, unknown>) => Promise<unknown>;
  };
  await vite.build({
    root: WEB,
    logLevel: 'warn',
    plugins: [recordModules],
    build: { outDir, emptyOutDir: true, sourcemap: 'hidden', reportCompressedSize: false },
  });
  const { precompress } = (await import(
    pathToFileURL(path.join(WEB, 'scripts/precompress.ts')).href
  )) as typeof import('../apps/web/scripts/precompress');
  await precompress(outDir);
  return chunks;
}

// ---- Source maps: which module each minified byte came from ----

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** One mappings segment's VLQ fields. */
function decodeSegment(segment: string): number[] {
  const fields: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char);
    if (digit === undefined) throw new Error(`bad source map character ${char}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
}

/** Minified bytes of `code` per source (as named by the map, relative to ROOT). */
export function bytesPerSource(
  code: string,
  map: { sources: string[]; mappings: string },
  mapDir: string,
  modules: { id: string; length: number }[],
): Map<string, number> {
  const names = map.sources.map((source) =>
    source.startsWith('\0') || !source.includes('/')
      ? source.replace(/^\0/, '')
      : path.relative(ROOT, path.resolve(mapDir, source)),
  );
  const result = new Map<string, number>();
  const add = (name: string, text: string) =>
    result.set(name, (result.get(name) ?? 0) + Buffer.byteLength(text));
  const lines = code.split('\n');
  const mappingLines = map.mappings.split(';');
  let source = 0;
  for (const [index, line] of lines.entries()) {
    let column = 0;
    const segments: { column: number; source: number | undefined }[] = [];
    for (const segment of (mappingLines[index] ?? '').split(',')) {
      if (!segment) continue;
      const fields = decodeSegment(segment);
      column += fields[0]!;
      if (fields.length >= 4) source += fields[1]!;
      segments.push({ column, source: fields.length >= 4 ? source : undefined });
    }
    let start = 0;
    let owner: number | undefined;
    for (const segment of segments) {
      add(owner === undefined ? '(unmapped)' : names[owner]!, line.slice(start, segment.column));
      start = segment.column;
      owner = segment.source;
    }
    add(owner === undefined ? '(unmapped)' : names[owner]!, `${line.slice(start)}\n`);
  }
  // Modules the map does not name (JSON) take the unmapped bytes, up to their rendered length.
  const named = new Set(names);
  let unmapped = result.get('(unmapped)') ?? 0;
  for (const { id, length } of modules) {
    const name = path.relative(ROOT, id);
    if (named.has(name) || id.startsWith('\0') || unmapped <= 0) continue;
    const bytes = Math.min(length, unmapped);
    result.set(name, (result.get(name) ?? 0) + bytes);
    unmapped -= bytes;
  }
  if (result.has('(unmapped)')) result.set('(unmapped)', unmapped);
  return result;
}

/** 'node_modules/@mantine/core/esm/x.mjs' → '@mantine/core'; the app's own code by workspace. */
export function packageOf(file: string): string {
  const modules = file.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = file.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const app = /^(apps\/\w+|packages\/\w+)\//.exec(file);
  return app ? app[1]! : file;
}

function moduleLabel(file: string): string {
  const modules = file.lastIndexOf('node_modules/');
  const label = modules >= 0 ? file.slice(modules + 'node_modules/'.length) : file;
  return label.length > 72 ? `…${label.slice(-71)}` : label;
}

// ---- Measuring one page ----

interface Loaded {
  file: string;
  brotli: number;
  gzip: number;
  encoding: string;
}

async function sizeOnDisk(file: string): Promise<number | undefined> {
  return existsSync(file) ? (await stat(file)).size : undefined;
}

async function measure(
  page: import('playwright-core').Page,
  url: string,
  target: PublicPage,
  dist: string,
): Promise<Loaded[]> {
  const scripts: Request[] = [];
  const onRequest = (request: Request) => {
    if (new URL(request.url()).pathname.endsWith('.js')) scripts.push(request);
  };
  page.on('request', onRequest);
  await page.goto(url, { waitUntil: 'load' });
  await page.locator('main h1').first().waitFor({ state: 'visible', timeout: 30_000 });
  if (target.form) {
    await page
      .locator('main form button[type="submit"]')
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
  }
  // Usable: what was asked for until now counts, once it has arrived.
  page.off('request', onRequest);
  const loaded: Loaded[] = [];
  for (const request of scripts) {
    const response = await request.response();
    if (!response) continue;
    await response.finished();
    const file = new URL(request.url()).pathname;
    const onDisk = path.join(dist, file);
    const raw = (await sizeOnDisk(onDisk)) ?? 0;
    const sizes = await request.sizes();
    loaded.push({
      file,
      brotli: sizes.responseBodySize,
      gzip: (await sizeOnDisk(`${onDisk}.gz`)) ?? raw,
      encoding: (await response.allHeaders())['content-encoding'] ?? 'identity',
    });
  }
  return loaded;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

export async function run(): Promise<void> {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'sesame-size-'));
  const maps = new Map<string, Map<string, number>>();
  const mapsOf = async (file: string) => {
    let found = maps.get(file);
    if (!found) {
      const js = path.join(dist, file);
      const code = await readFile(js, 'utf8');
      const map = existsSync(`${js}.map`)
        ? (JSON.parse(await readFile(`${js}.map`, 'utf8')) as {
            sources: string[];
            mappings: string;
          })
        : { sources: [], mappings: '' };
      found = bytesPerSource(code, map, path.dirname(js), chunkModules.get(file) ?? []);
      maps.set(file, found);
    }
    return found;
  };

  console.log('building the web app into a temporary folder (source maps, .br/.gz)…');
  const chunkModules = await buildInto(dist);
  const server = await startServer({ WEB_DIST: dist });
  const browser = await launchBrowser();
  const rows: string[] = [];
  const details: string[] = [];
  try {
    const pages = await publicPages(server);
    for (const target of pages) {
      const context = await browser.newContext({ ...PHONE, locale: 'fr-FR' });
      const page = await context.newPage();
      const loaded = await measure(page, `${server.url}${target.path}`, target, dist);
      await context.close();

      const brotli = loaded.reduce((sum, l) => sum + l.brotli, 0);
      const gzip = loaded.reduce((sum, l) => sum + l.gzip, 0);
      const notBrotli = loaded.filter((l) => l.encoding !== 'br');
      const verdict =
        brotli / 1024 > BUDGET_KB ? 'OVER' : brotli / 1024 > AIM_KB ? 'ok (over the aim)' : 'ok';
      rows.push(
        `${target.name.padEnd(14)} ${String(loaded.length).padStart(5)}   ${kb(brotli).padStart(9)}   ${kb(gzip).padStart(7)}   ${verdict}` +
          (notBrotli.length ? `  (${notBrotli.length} sent uncompressed: under 1 KB)` : ''),
      );

      // What the page is made of.
      const perModule = new Map<string, number>();
      for (const { file } of loaded) {
        for (const [source, bytes] of await mapsOf(file))
          perModule.set(source, (perModule.get(source) ?? 0) + bytes);
      }
      const minified = [...perModule.values()].reduce((a, b) => a + b, 0);
      const perPackage = new Map<string, number>();
      for (const [source, bytes] of perModule) {
        const pkg = packageOf(source);
        perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + bytes);
      }
      const share = (bytes: number) => `≈br ${kb((bytes / minified) * brotli).padStart(5)}`;
      details.push(
        `\n${target.name} (${target.path.replace(/\/[^/]{16,}$/, '/…')}): ${loaded.length} files, ${kb(minified)} KB minified`,
        `  packages: ${[...perPackage]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([pkg, bytes]) => `${pkg} ${kb(bytes)}`)
          .join(', ')}`,
        ...[...perModule]
          .sort((a, b) => b[1] - a[1])
          .slice(0, TOP_MODULES)
          .map(
            ([source, bytes]) =>
              `  ${kb(bytes).padStart(6)} KB  ${share(bytes)}  ${moduleLabel(source)}`,
          ),
      );
    }
  } finally {
    await browser.close();
    await server.stop();
    await rm(dist, { recursive: true, force: true });
  }
  console.log(
    `\nJavaScript until usable, as sent (budget ${BUDGET_KB} KB, aim ${AIM_KB} KB)\n` +
      `page           files   brotli KB   gzip KB`,
  );
  for (const row of rows) console.log(row);
  console.log(
    `\nTop modules per page (minified KB from the source maps; ≈br: its share of brotli)`,
  );
  for (const line of details) console.log(line);
}
