/**
 * The interface's language as the server reads it (issue 18): every call to /api
 * says it in `Accept-Language`, so the server's messages, toasts and CSV headers
 * come back in the language on screen. Reads i18next's own instance, which
 * lib/i18n.ts sets up, so this module needs no page to load.
 */
import i18next from 'i18next';
import { asLanguage, type Catalogue, type Language } from '@sesame/shared';

export const interfaceLanguage = (): Language => asLanguage(i18next.language?.slice(0, 2));

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
