/**
 * The server's messages in every language (issue 18): `catalogue(lang)` gives one
 * language's words; a message travels as a `Say`, a choice of key that is written
 * only when the reader's language is known. The `*_MESSAGES` constants are the
 * French catalogue's sections, for the code (web screens, tests) that reads French.
 */
import { LANGUAGES, type Catalogue, type Language, type Say } from './catalogue';
import { en } from './en';
import { fr } from './fr';

export * from './catalogue';
export { megabytes } from './units';
export { fr as FRENCH_MESSAGES } from './fr';
export { en as ENGLISH_MESSAGES } from './en';

const CATALOGUES: Record<Language, Catalogue> = { fr, en };

export const catalogue = (lang: Language): Catalogue => CATALOGUES[lang];

/** The message in `lang`. */
export const sayIn = (lang: Language, say: Say): string => say(CATALOGUES[lang]);

/** Every language's catalogue, for tests that walk them. */
export const allCatalogues = (): [Language, Catalogue][] =>
  LANGUAGES.map((lang) => [lang, CATALOGUES[lang]]);

/** 'La taille du fichier ne doit pas dépasser N Mo.', N from the limit that applies. */
export const fileTooLargeMessage = (maxBytes: number) => fr.api.fileTooLargeMax(maxBytes);

/** The server's answers, in the product's voice (spec §8): the French catalogue's `api`. */
export const API_MESSAGES = fr.api;
