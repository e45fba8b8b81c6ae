/**
 * The interface's language as the server reads it (issue 18): every call to /api
 * says it in `Accept-Language`, so the server's messages, toasts and CSV headers
 * come back in the language on screen. lib/i18n.ts tells this module where the language
 * on screen is read (its translator), so this module needs no page to load.
 */
import { asLanguage, type Catalogue, type Language } from '@sesame/shared';

let languageOnScreen: () => string | undefined = () => undefined;

/** Where the language on screen is read from (lib/i18n's translator). */
export const readLanguageFrom = (source: () => string | undefined) => {
  languageOnScreen = source;
};

export const interfaceLanguage = (): Language => asLanguage(languageOnScreen()?.slice(0, 2));

/** The header every /api call carries. */
export const languageHeader = (): { 'accept-language': Language } => ({
  'accept-language': interfaceLanguage(),
});

/**
 * The shared catalogues loaded besides French, which the form layer has in its own chunk
 * (schema-errors.ts): English arrives with the English words (lib/i18n puts it here
 * before anything shows in English), so a page read in French never downloads it.
 */
const otherCatalogues: Partial<Record<Language, Catalogue>> = {};

export const addCatalogue = (lang: Language, words: Catalogue) => {
  otherCatalogues[lang] = words;
};

/** The shared catalogue in the interface's language; undefined means French. */
export const interfaceCatalogue = (): Catalogue | undefined => otherCatalogues[interfaceLanguage()];
