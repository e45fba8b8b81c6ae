/**
 * Every page has its own title (issue 18): '<page> — <company> — Sésame'. The browser
 * journey e2e/languages.e2e.ts reads the titles on screen; this holds the formatting and
 * the route table's title keys.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from '../src/app/routes';
import { BRAND, formatPageTitle, routeTitleKey } from '../src/lib/page-title';

const LOCALES = join(import.meta.dirname, '../src/locales');

/** The text of 'ns:a.b' in a language, if it is a plain text. */
function text(lang: string, key: string): string | undefined {
  const [ns, path] = key.split(':') as [string, string];
  let node: unknown = JSON.parse(readFileSync(join(LOCALES, lang, `${ns}.json`), 'utf8'));
  for (const part of path.split('.')) {
    node =
      typeof node === 'object' && node !== null
        ? (node as Record<string, unknown>)[part]
        : undefined;
  }
  return typeof node === 'string' ? node : undefined;
}

/** Every route that shows a page: a path, and a screen (the slugless redirects aside). */
function pages(list: RouteObject[]): RouteObject[] {
  return list.flatMap((route) => [
    ...(route.path !== undefined || route.index ? (route.path?.endsWith('/*') ? [] : [route]) : []),
    ...pages(route.children ?? []),
  ]);
}

describe('formatPageTitle', () => {
  it('says the page, the company, then Sésame', () => {
    expect(formatPageTitle({ page: 'Liste des visiteurs', company: 'Demo' })).toBe(
      'Liste des visiteurs — Demo — Sésame',
    );
  });

  it('leaves out a part not known, and says Sésame alone only when nothing else is', () => {
    expect(formatPageTitle({ page: 'Connexion', company: null })).toBe('Connexion — Sésame');
    expect(formatPageTitle({ page: ' ', company: 'Demo' })).toBe('Demo — Sésame');
    expect(formatPageTitle({})).toBe(BRAND);
  });
});

describe('routeTitleKey', () => {
  it("takes the deepest matched route's title", () => {
    expect(
      routeTitleKey([
        { handle: undefined },
        { handle: { title: 'common:notFound.title' } },
        { handle: { staff: true, title: 'menu:title' } },
        { handle: null },
      ]),
    ).toBe('menu:title');
    expect(routeTitleKey([{ handle: { staff: true } }])).toBeUndefined();
  });
});

describe("the route table's titles", () => {
  const all = pages(routes);

  it('names every page, in French and in English, without a variable left to fill', () => {
    expect(all.length).toBeGreaterThan(40);
    const problems: string[] = [];
    for (const route of all) {
      const key = routeTitleKey([{ handle: route.handle }]);
      const where = route.path ?? '(index)';
      if (!key) {
        problems.push(`${where}: no title`);
        continue;
      }
      for (const lang of ['fr', 'en']) {
        const value = text(lang, key);
        if (!value) problems.push(`${where}: ${key} has no ${lang} text`);
        else if (value.includes('{{')) problems.push(`${where}: ${key} needs a variable`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives distinct screens distinct titles', () => {
    // The same screen under several addresses shares its title (the scan page, the
    // thank-you page, the login); every other title names one screen only.
    const shared = new Set(['auth:title', 'checkins:scan.title', 'checkins:thanks.pageTitle']);
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const route of all) {
      const key = routeTitleKey([{ handle: route.handle }]);
      if (!key || shared.has(key)) continue;
      const fr = text('fr', key) ?? key;
      const other = seen.get(fr);
      if (other && other !== route.path) clashes.push(`${route.path} and ${other}: ${fr}`);
      seen.set(fr, route.path ?? '');
    }
    expect(clashes).toEqual([]);
  });
});
