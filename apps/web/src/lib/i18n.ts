import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Every namespace file: locales/{lang}/{namespace}.json. French is the default. */
const files = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', {
  eager: true,
});
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [file, module] of Object.entries(files)) {
  const match = /locales\/(\w+)\/([\w-]+)\.json$/.exec(file);
  if (!match) continue;
  const [, lang, ns] = match as unknown as [string, string, string];
  (resources[lang] ??= {})[ns] = module.default;
}

export const LANGUAGES = ['fr', 'en'] as const;
const stored = localStorage.getItem('lang');
const initial = stored === 'en' ? 'en' : 'fr';

void i18n.use(initReactI18next).init({
  resources,
  lng: initial,
  fallbackLng: 'fr',
  defaultNS: 'common',
  ns: Object.keys(resources.fr ?? {}),
  interpolation: { escapeValue: false },
});

// The page's language is the one shown (screen readers pronounce it so), from the start.
document.documentElement.lang = initial;

i18n.on('languageChanged', (lng) => {
  localStorage.setItem('lang', lng);
  document.documentElement.lang = lng;
});

export default i18n;
