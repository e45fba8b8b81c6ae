/**
 * One catalogue per language of what the server says (issue 18). The French one
 * (fr.ts) is the reference: the `Catalogue` type is its shape with any wording,
 * so English (en.ts) must have each key, each function taking the same arguments.
 */
import type { fr } from './fr';

/** The languages Sésame speaks; French is the default (the spec's). */
export const LANGUAGES = ['fr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'fr';

export const isLanguage = (value: unknown): value is Language =>
  (LANGUAGES as readonly unknown[]).includes(value);

/** A language as stored (a column, a form field): anything unknown is French. */
export const asLanguage = (value: unknown): Language =>
  isLanguage(value) ? value : DEFAULT_LANGUAGE;

/** The French catalogue's shape, its literal texts widened to any text. */
type Wording<T> = T extends string
  ? string
  : T extends (...args: infer A) => string
    ? (...args: A) => string
    : { readonly [K in keyof T]: Wording<T[K]> };

export type Catalogue = Wording<typeof fr>;

/**
 * A message chosen by key, said once the reader's language is known:
 * `(m) => m.visitor.emailInvalid`, `(m) => m.check.checkedIn(name)`.
 */
export type Say = (m: Catalogue) => string;
