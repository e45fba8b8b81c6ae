/**
 * The two languages hold the same keys: a key in French and not in English (or the
 * other way round) fails here, and so does a text whose {{variables}} differ between
 * the two, or a plural whose forms are missing in one language.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const LOCALES = join(import.meta.dirname, '../src/locales');
const LANGUAGES = ['fr', 'en'] as const;

type Tree = { [key: string]: string | Tree };

/** Every leaf as 'namespace:a.b.c' → text; the plural suffixes (lib/translator) fold into their base key. */
function leaves(lang: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (node: Tree, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const path = `${prefix}.${key}`;
      if (typeof value === 'string') {
        const base = path.replace(/_(zero|one|two|few|many|other)$/, '');
        out.set(base, [...(out.get(base) ?? []), value]);
      } else walk(value, path);
    }
  };
  for (const file of readdirSync(join(LOCALES, lang)).filter((f) => f.endsWith('.json'))) {
    const ns = file.replace(/\.json$/, '');
    walk(JSON.parse(readFileSync(join(LOCALES, lang, file), 'utf8')) as Tree, ns);
  }
  return out;
}

/** The {{variables}} a text uses (formats after a comma dropped), sorted, once each. */
const variables = (texts: string[]) =>
  [
    ...new Set(
      texts.flatMap((t) => [...t.matchAll(/\{\{\s*(\w+)(?:[\s,][^}]*)?\}\}/g)].map((m) => m[1])),
    ),
  ]
    .sort()
    .join(',');

const byLanguage = Object.fromEntries(LANGUAGES.map((l) => [l, leaves(l)])) as Record<
  (typeof LANGUAGES)[number],
  Map<string, string[]>
>;

describe('locale parity', () => {
  it('has the same namespace files in every language', () => {
    const files = (lang: string) => readdirSync(join(LOCALES, lang)).sort();
    expect(files('en')).toEqual(files('fr'));
  });

  for (const [lang, other] of [
    ['fr', 'en'],
    ['en', 'fr'],
  ] as const) {
    it(`every ${lang} key exists in ${other}`, () => {
      expect(byLanguage[lang].size).toBeGreaterThan(500);
      const missing = [...byLanguage[lang].keys()].filter((k) => !byLanguage[other].has(k));
      expect(missing).toEqual([]);
    });
  }

  it('uses the same interpolation variables in both languages', () => {
    const differing = [...byLanguage.fr.entries()]
      .filter(([key]) => byLanguage.en.has(key))
      .map(([key, fr]) => ({ key, fr: variables(fr), en: variables(byLanguage.en.get(key)!) }))
      .filter(({ fr, en }) => fr !== en);
    expect(differing).toEqual([]);
  });

  it('has no empty text', () => {
    const empty = LANGUAGES.flatMap((lang) =>
      [...byLanguage[lang].entries()]
        .filter(([, texts]) => texts.some((t) => t.trim() === ''))
        .map(([key]) => `${lang} ${key}`),
    );
    expect(empty).toEqual([]);
  });

  it('says a count with plural forms, never "(s)" (issue 27)', () => {
    const shortcuts = LANGUAGES.flatMap((lang) =>
      [...byLanguage[lang].entries()]
        .filter(([, texts]) => texts.some((t) => /\w\(s\)/.test(t)))
        .map(([key]) => `${lang} ${key}`),
    );
    expect(shortcuts).toEqual([]);
  });
});
