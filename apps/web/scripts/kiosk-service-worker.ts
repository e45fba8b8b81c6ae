/**
 * The kiosk's service worker (issue 29), written at build time by this Vite plugin as
 * `dist/kiosk-sw.js`. It keeps exactly the files `/kiosk` needs — its page (the server's
 * index.html for it), the entry and what it imports, the kiosk chunk and what it loads, the
 * kiosk's words in English, its manifest and icons — so the installed kiosk opens without the
 * network. It is registered with the scope `/kiosk` (features/kiosk/lib/device.ts) and:
 * - never touches `/api/…` (every call goes to the network, nothing is cached);
 * - answers the `/kiosk` page from the network first, from its copy only when offline;
 * - answers the files it keeps (hashed, never changed) from its copy;
 * - leaves every other request alone, so the staff app is never served from it.
 * A new build lists other files: the worker's text changes, the browser installs it, and the
 * old copy is deleted once it takes over.
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

export const KIOSK_SW_FILE = 'kiosk-sw.js';
const KIOSK_PAGE = /features[\\/]kiosk[\\/]KioskPage\.tsx$/;
/** The kiosk's words in English and the public pages' English (the layout's words), for a visitor who switches. */
const ENGLISH = /(locales[\\/]en[\\/]kiosk\.json|lib[\\/]i18n-en\.ts)$/;
const PUBLIC_FILES = [
  '/kiosk.webmanifest',
  '/kiosk-icon-192.png',
  '/kiosk-icon-512.png',
  '/kiosk-icon-maskable-512.png',
  '/favicon.svg',
];

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  dynamicImports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/** The worker's source for these files (paths from the site's root). */
export function serviceWorkerSource(files: string[]): string {
  const version = createHash('sha256').update(files.join('\n')).digest('hex').slice(0, 16);
  return `// Sésame — the kiosk's service worker (apps/web/scripts/kiosk-service-worker.ts).
const CACHE = 'sesame-kiosk-${version}';
const PAGE = '/kiosk';
const FILES = ${JSON.stringify(files)};
const KEPT = new Set(FILES);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((url) => new Request(url, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith('sesame-kiosk-') && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** The network, given up after a few seconds (a network that hangs is no network). */
function fromNetwork(request) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), 4000);
    fetch(request).then(
      (response) => {
        clearTimeout(timer);
        resolve(response);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    if (url.pathname !== PAGE && url.pathname !== PAGE + '/') return;
    event.respondWith(
      fromNetwork(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            void caches.open(CACHE).then((cache) => cache.put(PAGE, copy));
          }
          return response;
        })
        .catch(() => caches.match(PAGE, { cacheName: CACHE }).then((kept) => kept || Response.error())),
    );
    return;
  }
  if (!KEPT.has(url.pathname)) return;
  event.respondWith(
    caches.match(url.pathname, { cacheName: CACHE }).then((kept) => kept || fetch(request)),
  );
});
`;
}

/** The files the kiosk needs, from the bundle's chunks. */
export function kioskFiles(chunks: ChunkLike[]): string[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const files = new Set<string>();
  const add = (fileName: string, dynamic: boolean) => {
    const chunk = byFile.get(fileName);
    if (!chunk || files.has(fileName)) return;
    files.add(fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const imported of chunk.imports) add(imported, dynamic);
    if (dynamic) for (const imported of chunk.dynamicImports) add(imported, dynamic);
  };
  for (const chunk of chunks) {
    if (chunk.isEntry) add(chunk.fileName, false);
  }
  for (const chunk of chunks) {
    const id = chunk.facadeModuleId ?? '';
    if (KIOSK_PAGE.test(id)) add(chunk.fileName, true);
    else if (ENGLISH.test(id)) add(chunk.fileName, false);
  }
  return ['/kiosk', ...[...files].sort().map((file) => `/${file}`), ...PUBLIC_FILES];
}

export function kioskServiceWorker(): Plugin {
  return {
    name: 'sesame-kiosk-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (output): output is ChunkLike & typeof output => output.type === 'chunk',
      ) as unknown as ChunkLike[];
      if (!chunks.some((chunk) => KIOSK_PAGE.test(chunk.facadeModuleId ?? ''))) {
        this.error(
          'kiosk service worker: the kiosk page (features/kiosk/KioskPage.tsx) is not a chunk of its own',
        );
      }
      this.emitFile({
        type: 'asset',
        fileName: KIOSK_SW_FILE,
        source: serviceWorkerSource(kioskFiles(chunks)),
      });
    },
  };
}
