/**
 * The web app's index.html, as the server sends it for a screen (issue 19).
 *
 * A public page used to load in series: the entry script, then (once it ran) the page's
 * chunk, then (once that rendered) its first API calls. For the public pages, the page
 * names them in its <head>: a `modulepreload` for the page's chunk and the chunks it
 * imports (from Vite's build manifest, `dist/.vite/manifest.json`), a `preload` of its
 * CSS, and a `preload as="fetch"` for the API reads it starts with (the settings, the
 * company, ...), so all of them load beside the entry. The browser's fetch then takes the
 * preloaded answer. Only reads that change nothing are preloaded.
 *
 * Anything else (a staff screen, an unknown address, a slug that is not one) gets the
 * index.html Vite wrote, unchanged.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isReservedSlug, SLUG_PATTERN } from '@sesame/shared';
import { escapeHtml } from './mail/layout';

/** One chunk of Vite's manifest (the fields used here). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** A public screen: the address it answers, its page module, and the reads it starts with. */
interface PublicPage {
  pattern: RegExp;
  /** The page's source module, as the manifest names its chunk (none while it is in the entry). */
  module: string;
  /** The /api reads the page makes first, from the address's parts; undefined parts are skipped. */
  api: (parts: string[], defaultSlug: string) => (string | undefined)[];
}

const slug = (value: string | undefined) =>
  value !== undefined && SLUG_PATTERN.test(value) && !isReservedSlug(value) ? value : undefined;
const EVENT_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const company = (s: string | undefined) => s && `/api/company/${s}`;
const privacyNotice = (s: string | undefined) => s && `/api/public/privacy-notice/${s}`;

/** The public pages (spec §2), first match wins. The web app's routes: apps/web/src/features. */
export const PUBLIC_PAGES: PublicPage[] = [
  {
    // The login: it shows the default company's name and logo.
    pattern: /^\/(?:sign-in)?$/,
    module: 'src/features/auth/pages/LoginPage.tsx',
    api: (_, defaultSlug) => ['/api/settings', company(slug(defaultSlug))],
  },
  {
    // An event's registration form (JoinEvent).
    pattern: /^\/company\/([^/]+)\/event\/([^/]+)$/,
    module: 'src/features/events/pages/JoinEventPage.tsx',
    api: ([c, e]) => {
      const s = slug(c);
      return [
        '/api/settings',
        company(s),
        s && e && EVENT_SLUG.test(e) ? `/api/evenement/slug/${s}/${e}` : undefined,
        privacyNotice(s),
      ];
    },
  },
  {
    // The thank-you pages after a check-out or a member's check-in / check-out. Their first
    // read records nothing but is the visitor's log: only the settings are preloaded.
    pattern: /^\/success-(?:checkout|user-checkin|user-checkout)\/[^/]+$/,
    module: 'src/features/checkins/pages/ThankYouPage.tsx',
    api: () => ['/api/settings'],
  },
  {
    // The visitor form.
    pattern: /^\/([^/]+)\/meeting$/,
    module: 'src/features/visitors/pages/CreateVisitorPage.tsx',
    api: ([c]) => ['/api/settings', company(slug(c)), privacyNotice(slug(c))],
  },
  {
    // The meeting request and, with its id, the visitor's waiting page.
    pattern: /^\/([^/]+)\/request-meeting(?:\/([^/]+))?$/,
    module: 'src/features/visitors/pages/RequestMeetingPage.tsx',
    api: ([c, id]) => [
      '/api/settings',
      company(slug(c)),
      id && UUID.test(id) ? `/api/requests/status/${id}` : undefined,
    ],
  },
  {
    // The kiosk app (issue 29): its own chunk, and no read before the tablet's token is known
    // (else the company home below would take the address and preload the home page).
    pattern: /^\/kiosk\/?$/,
    module: 'src/features/kiosk/KioskPage.tsx',
    api: () => [],
  },
  {
    // A company's home.
    pattern: /^\/([^/]+)$/,
    module: 'src/features/home/pages/HomePage.tsx',
    api: ([c]) => (slug(c) ? ['/api/settings', company(slug(c))] : []),
  },
];

export interface IndexPage {
  html: string;
  /** True when the page carries preloads of its own (not Vite's index.html as it is). */
  tailored: boolean;
}

export class WebIndex {
  private readonly html: string;
  private readonly manifest: Manifest;
  /** The chunks index.html already loads (the entry and its static imports). */
  private readonly inEntry = new Set<string>();

  constructor(
    webDist: string,
    private readonly defaultSlug: string,
  ) {
    this.html = readFileSync(path.join(webDist, 'index.html'), 'utf8');
    let manifest: Manifest = {};
    try {
      // JSON.parse gives any: Vite's build manifest.
      manifest = JSON.parse(
        readFileSync(path.join(webDist, '.vite', 'manifest.json'), 'utf8'),
      ) as Manifest;
    } catch {
      // A build without a manifest: the pages load as they did, without preloads.
    }
    this.manifest = manifest;
    for (const [key, chunk] of Object.entries(manifest)) {
      if (chunk.isEntry) this.collect(key, this.inEntry);
    }
  }

  /** `key`'s chunk and every chunk it imports statically. */
  private collect(key: string, into: Set<string>) {
    if (into.has(key) || !this.manifest[key]) return;
    into.add(key);
    for (const imported of this.manifest[key].imports ?? []) this.collect(imported, into);
  }

  /** The <link>s for the screen at `pathname` (decoded path, no query). */
  links(pathname: string): string[] {
    const page = PUBLIC_PAGES.map((p) => ({ p, match: p.pattern.exec(pathname) })).find(
      (found) => found.match,
    );
    if (!page?.match) return [];
    const links: string[] = [];
    const chunks = new Set<string>();
    if (this.manifest[page.p.module] && !this.inEntry.has(page.p.module)) {
      this.collect(page.p.module, chunks);
    }
    for (const key of chunks) {
      if (this.inEntry.has(key)) continue;
      const chunk = this.manifest[key]!;
      links.push(`<link rel="modulepreload" crossorigin href="/${escapeHtml(chunk.file)}">`);
      for (const css of chunk.css ?? []) {
        links.push(`<link rel="preload" as="style" crossorigin href="/${escapeHtml(css)}">`);
      }
    }
    const parts = page.match.slice(1);
    for (const url of page.p.api(parts, this.defaultSlug)) {
      if (url) links.push(`<link rel="preload" as="fetch" crossorigin href="${escapeHtml(url)}">`);
    }
    return links;
  }

  /** index.html for the screen at `pathname`. */
  page(pathname: string): IndexPage {
    const links = this.links(pathname);
    if (!links.length) return { html: this.html, tailored: false };
    // Before the entry script, so the parser meets them first.
    const at = this.html.search(/<script\b/);
    const insertAt = at >= 0 ? at : this.html.indexOf('</head>');
    const html =
      this.html.slice(0, insertAt) + links.join('\n    ') + '\n    ' + this.html.slice(insertAt);
    return { html, tailored: true };
  }
}

/** The page compressed as the client accepts it (a few KB: brotli at a fast level). */
export function encodeFor(
  html: string,
  acceptEncoding: string | undefined,
): { body: Buffer; encoding?: 'br' | 'gzip' } {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  const raw = Buffer.from(html, 'utf8');
  if (/\bbr\b/.test(accepted)) {
    return {
      body: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
      encoding: 'br',
    };
  }
  if (/\bgzip\b/.test(accepted)) return { body: gzipSync(raw), encoding: 'gzip' };
  return { body: raw };
}
