/**
 * The interface's words (i18next). French is the default. What a public page needs
 * (PUBLIC_NAMESPACES) comes first: the French namespaces are in the first bundle, the
 * English ones in one chunk loaded before the first render when English is the language
 * (`i18nReady`, awaited by main.tsx). Every other namespace, and any language switched
 * to, loads on demand through a small backend: a staff screen's `useTranslation('ns')`
 * suspends until its namespace is there (the layout's Suspense shows the loader), so no
 * key is ever shown in place of a word. A language switch waits for every namespace
 * loaded so far in the new language before it changes anything on screen.
 */
import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { addCatalogue } from './language';

type Words = Record<string, unknown>;

/** locales/{lang}/{namespace}.json → namespace. */
const namespaceOf = (file: string) => /\/([\w-]+)\.json$/.exec(file)?.[1] ?? file;

/** Keep this list and the one in lib/i18n-en.ts and the pattern below the same. */
const frenchPublic = import.meta.glob<Words>(
  '../locales/fr/{common,auth,home,visitors,events,checkins,hostLoop,privacy}.json',
  { eager: true, import: 'default' },
);
const FRENCH_PUBLIC: Record<string, Words> = Object.fromEntries(
  Object.entries(frenchPublic).map(([file, words]) => [namespaceOf(file), words]),
);
/** The namespaces of the public pages (login, home, visitor and event forms, thank-you). */
export const PUBLIC_NAMESPACES: readonly string[] = Object.freeze(Object.keys(FRENCH_PUBLIC));

/** Every other namespace file, each its own chunk. */
const onDemand = import.meta.glob<Words>(
  [
    '../locales/*/*.json',
    '!../locales/*/{common,auth,home,visitors,events,checkins,hostLoop,privacy}.json',
  ],
  { import: 'default' },
);

async function load(lng: string, ns: string): Promise<Words> {
  if (PUBLIC_NAMESPACES.includes(ns)) {
    if (lng === 'fr') return FRENCH_PUBLIC[ns] ?? {};
    if (lng === 'en') {
      const english = await import('./i18n-en');
      addCatalogue('en', english.ENGLISH_MESSAGES);
      return english.default[`../locales/en/${ns}.json`] ?? {};
    }
  }
  const file = onDemand[`../locales/${lng}/${ns}.json`];
  return file ? file() : {};
}

const backend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (lng, ns, callback) => {
    load(lng, ns).then(
      (words) => callback(null, words as ResourceKey),
      (error: unknown) => callback(error as Error, false),
    );
  },
};

export const LANGUAGES = ['fr', 'en'] as const;
const stored = localStorage.getItem('lang');
const initial = stored === 'en' ? 'en' : 'fr';

/** Resolves once the first screen's words are there, in its language (main.tsx waits). */
export const i18nReady = i18n
  .use(backend)
  .use(initReactI18next)
  .init({
    lng: initial,
    fallbackLng: 'fr',
    defaultNS: 'common',
    // Loaded so far; i18next adds each namespace it loads, and a language switch loads
    // them all in the new language before it takes effect.
    ns: [...PUBLIC_NAMESPACES], // a copy: i18next pushes onto it
    resources: { fr: FRENCH_PUBLIC },
    // The French public words are here already; the backend brings the rest.
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
  });

// The page's language is the one shown (screen readers pronounce it so), from the start.
document.documentElement.lang = initial;

i18n.on('languageChanged', (lng) => {
  localStorage.setItem('lang', lng);
  document.documentElement.lang = lng;
});

export default i18n;
