/**
 * The zod-free half of the shared schemas' helpers: field bounds, the issue keys the
 * screens translate, phone shapes. A module that needs only these (the web app's entry:
 * its form layer, its navbar) does not bring zod with it; `common.ts` re-exports them for
 * the schemas. The French words themselves (a check's message, zod's own issues) are
 * product-messages.ts: the entry does not carry the French catalogue either.
 */
import { PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from '../constants';
import type { Say } from '../messages/catalogue';

/**
 * The longest text each kind of field takes (ARCHITECTURE §6). Every string an
 * input schema reads is bounded by one of these, and the bound is checked before
 * any pattern, so no request can make a pattern read a megabyte.
 */
export const TEXT_MAX = {
  /** RFC 5321's longest forward path. */
  email: 254,
  /** A first name, a last name, a company name, a title. */
  name: 100,
  /** A phone number as typed, spaces and dashes included, before it is read as digits. */
  phone: 40,
  /** An identity document's number, a zip code, a company's legal id. */
  identifier: 50,
  /** An organisation, a host, a place, a city, a country: one line of text. */
  line: 200,
  address: 300,
  /** A reason, a note: free text. */
  freeText: 1000,
  /** A company's description, shown on its pages. */
  description: 2000,
  /** A company's or an event's name (a slug is made of it). */
  companyName: 120,
  password: 200,
  /** A code (uidn) as typed or scanned, dashes included. */
  code: 40,
  /** A company's slug or id, an event's slug. */
  slug: 100,
  /** A list's search box. */
  search: 200,
  /** A date or a time as the forms send them (DD/MM/YYYY, HH:MM, ISO 8601). */
  date: 40,
} as const;

/**
 * A simple e-mail shape, as the spec's forms check it: something, one @, then
 * dot-separated labels. Written so that no two quantifiers can trade characters:
 * it runs in linear time on any input (lint rule regexp/no-super-linear-backtracking).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

/** The largest value of a PostgreSQL `integer` column: a larger number is bad input, not a 500. */
export const SQL_INTEGER_MAX = 2_147_483_647;

/**
 * What a screen needs to say an issue in its own language: a locale key, the field
 * the message names (its label is the screen's), and the numbers it quotes.
 */
export interface IssueParams {
  key: string;
  field?: string;
  [value: string]: string | number | undefined;
}

/** Where an issue keeps its message's key (see `keyed`): hidden, so params read as before. */
const SAY = Symbol('sesame.say');

/**
 * Params that also carry the message's key, for the server to say the issue in
 * its reader's language. zod hands an issue's `params` object on as it is, so a
 * non-enumerable property on it survives to the error, and no screen nor JSON sees it.
 */
export function withSay<P extends object>(params: P, say: Say): P {
  Object.defineProperty(params, SAY, { value: say, enumerable: false });
  return params;
}

/** The message key an issue carries, if any (its `params`, or fastify's wrapped `params.params`). */
export function issueSay(issue: object): Say | undefined {
  const params = (issue as { params?: Record<PropertyKey, unknown> }).params;
  const say = params?.[SAY] ?? (params?.params as Record<PropertyKey, unknown> | undefined)?.[SAY];
  return typeof say === 'function' ? (say as Say) : undefined;
}

/** The key and values an issue carries (see `keyed`), if any. */
export function issueParams(issue: object): IssueParams | undefined {
  const params = (issue as { params?: Partial<IssueParams> }).params;
  return typeof params?.key === 'string' ? (params as IssueParams) : undefined;
}

/** What a phone number is written with: digits, one leading '+', spaces, dots, dashes, brackets, slashes. */
const PHONE_CHARACTERS = /^\+?[\d\s().\-/]+$/;

/**
 * A phone number as typed, international or not ('+225 07 07 07 07 07'): its
 * characters, and 8 to 15 digits (E.164's longest). This is the shape a screen
 * checks; the server then reads the number itself with libphonenumber into E.164,
 * its stored form (`toE164`, `readPhones`, `@sesame/shared/phone`).
 */
export function isPhoneShaped(typed: string): boolean {
  const written = typed.trim();
  if (!PHONE_CHARACTERS.test(written)) return false;
  const digits = written.replace(/\D/g, '').length;
  return digits >= PHONE_MIN_DIGITS && digits <= PHONE_MAX_DIGITS;
}

/** What a phone field keeps as one types: the characters a number is written with. */
export function phoneCharacters(typed: string): string {
  return typed.replace(/[^\d\s().+\-/]/g, '');
}
