/**
 * The interface's words (lib/translator.ts). French is the default.
 * - French: `common` (the layout's words) is in the first bundle. A public page brings the
 *   other namespaces it shows with its own code (`withFrenchWords`, called by its module),
 *   so a page downloads its words and no other page's, in the same files as its code (the
 *   server names them in index.html with the page's chunk). test/public-bundle.test.ts
 *   fails when a public page shows a namespace its code does not bring.
 * - English: the public pages' namespaces come in one chunk, loaded before the first render
 *   when English is the language (`i18nReady`, awaited by main.tsx).
 * - Every other namespace, and any language switched to, loads on demand: a staff screen's
 *   `useTranslation('ns')` suspends until its namespace is there (the layout's Suspense
 *   shows the loader), so no key is ever shown in place of a word. A language switch waits
 *   for every namespace used so far in the new language before it changes anything.
 */
import { use, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { addCatalogue, readLanguageFrom } from './language';
import { Translator, type TFunction, type Words } from './translator';
import common from '../locales/fr/common.json';

export type { TFunction } from './translator';

/** Keep this list and the one in lib/i18n-en.ts the same. */
export const PUBLIC_NAMESPACES: readonly string[] = Object.freeze([
  'common',
  'auth',
  'home',
  'visitors',
  'events',
  'checkins',
  'hostLoop',
  'privacy',
  'invitation',
  'signing',
]);

/** Every namespace file but French `common`, each its own chunk. */
const onDemand = import.meta.glob<Words>(['../locales/*/*.json', '!../locales/fr/common.json'], {
  import: 'default',
});

async function load(language: string, ns: string): Promise<Words> {
  if (language === 'en' && PUBLIC_NAMESPACES.includes(ns)) {
    const english = await import('./i18n-en');
    addCatalogue('en', english.ENGLISH_MESSAGES);
    return english.default[`../locales/en/${ns}.json`] ?? {};
  }
  const file = onDemand[`../locales/${language}/${ns}.json`];
  return file ? file() : {};
}

export const LANGUAGES = ['fr', 'en'] as const;
// In the browser; unit tests import screens (route tables) without a DOM.
const storage = typeof localStorage === 'undefined' ? undefined : localStorage;
const page = typeof document === 'undefined' ? undefined : document.documentElement;
const initial = storage?.getItem('lang') === 'en' ? 'en' : 'fr';

const i18n = new Translator({
  language: initial,
  fallbackLanguage: 'fr',
  defaultNamespace: 'common',
  load,
});
i18n.add('fr', 'common', common);
readLanguageFrom(() => i18n.language);

/** Resolves once the first screen's words are there, in its language (main.tsx waits). */
export const i18nReady: Promise<void> =
  (initial === 'fr' ? undefined : i18n.ensure(PUBLIC_NAMESPACES)) ?? Promise.resolve();

/**
 * A page's French words, given by its module as it loads (`import visitors from
 * '…/locales/fr/visitors.json'`): they arrive with its code, so it renders at once.
 */
export function withFrenchWords(namespaces: Record<string, Words>) {
  for (const [ns, words] of Object.entries(namespaces)) {
    if (!i18n.has('fr', ns)) i18n.add('fr', ns, words);
  }
}

// The page's language is the one shown (screen readers pronounce it so), from the start.
if (page) page.lang = initial;

i18n.subscribe(() => {
  storage?.setItem('lang', i18n.language);
  if (page) page.lang = i18n.language;
});

export interface TranslationOptions {
  /** False: render at once with `ready` false rather than suspend while words load. */
  useSuspense?: boolean;
}

/**
 * The words of `namespaces` (the first is where a bare key is looked up first) in the
 * language on screen; the component renders again when the language changes.
 */
export function useTranslation(
  namespaces?: string | readonly string[],
  options: TranslationOptions = {},
): { t: TFunction; i18n: Translator; ready: boolean } {
  const language = useSyncExternalStore(i18n.subscribe, () => i18n.language);
  const list =
    namespaces === undefined ? [] : typeof namespaces === 'string' ? [namespaces] : namespaces;
  const id = list.join('+') || i18n.defaultNamespace;
  const pending = i18n.ensure(id.split('+'), language);
  // Without Suspense, render again once the words are there.
  const [, setArrived] = useState(0);
  useEffect(() => {
    if (!pending) return;
    let current = true;
    pending.then(
      () => current && setArrived((n) => n + 1),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [pending]);
  const t = useMemo(() => i18n.fixedT(id.split('+')), [id, language]); // eslint-disable-line react-hooks/exhaustive-deps -- a new `t` for each language
  // Suspends last, after every other hook: a component whose words arrive while React
  // replays it after `use` would otherwise run its hooks in another order (React #467).
  if (pending && options.useSuspense !== false) use(pending);
  return { t, i18n, ready: !pending };
}

export default i18n;
