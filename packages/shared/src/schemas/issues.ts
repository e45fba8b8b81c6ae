/**
 * The zod-free half of the shared schemas' helpers: field bounds, the issue keys the
 * screens translate, the product's words for zod's issues, phone shapes. A module that
 * needs only these (the web app's entry: its form layer, its navbar) does not bring zod's
 * schemas with it; `common.ts` re-exports them for the schemas.
 */
import { config, type $ZodRawIssue } from 'zod/v4/core';
import { PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from '../constants';
import type { Say } from '../messages/catalogue';
import { fr } from '../messages/fr';

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

/**
 * A check's message and its key: the issue's `message` is the French text; its
 * `params` carry `{ key, field, … }` for the screens to translate (never the French
 * text as a lookup key), and the catalogue key the server says in the request's
 * language. zod copies `params` only from custom issues, so the error map stamps
 * them on the raw issue, which zod then finalises.
 * Use as a check's options: `.min(1, keyed(…))`, `z.uuid(keyed(…))`, `.refine(f, keyed(…))`.
 */
export const keyed = (say: Say, params: IssueParams) => {
  const stamped = withSay({ ...params }, say);
  return {
    error: (issue: object) => {
      Object.assign(issue, { params: stamped });
      return say(fr);
    },
  };
};

/** A check's message with no locale key for the screens (they show the server's words). */
export const said = (say: Say) => ({
  error: (issue: object) => {
    Object.assign(issue, { params: withSay({}, say) });
    return say(fr);
  },
});

/** A custom issue's message and params (`ctx.addIssue({ code, path, ...sayIssue(…) })`). */
export const sayIssue = (say: Say, params: IssueParams) => ({
  message: say(fr),
  params: withSay({ ...params }, say),
});

/** The key and values an issue carries (see `keyed`), if any. */
export function issueParams(issue: object): IssueParams | undefined {
  const params = (issue as { params?: Partial<IssueParams> }).params;
  return typeof params?.key === 'string' ? (params as IssueParams) : undefined;
}

/** The product's message for a text longer than its field allows. */
export const tooLongMessage = (max: number) => fr.validation.tooLong(max);

/** No schema answers in zod's English: each default issue gets the product's own words. */
function productSay(issue: $ZodRawIssue): Say {
  switch (issue.code) {
    case 'too_big': {
      const max = String(issue.maximum);
      return issue.origin === 'string'
        ? (m) => m.validation.tooLong(Number(max))
        : (m) => m.validation.tooBig(max);
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin !== 'string') return (m) => m.validation.tooSmall(min);
      return Number(min) <= 1 ? (m) => m.validation.required : (m) => m.validation.tooShort(min);
    }
    case 'invalid_format':
      if (issue.format === 'uuid' || issue.format === 'guid') return (m) => m.validation.idInvalid;
      if (issue.format === 'email') return (m) => m.validation.emailInvalid;
      if (issue.format === 'datetime' || issue.format === 'date')
        return (m) => m.validation.dateInvalid;
      return (m) => m.validation.formatInvalid;
    case 'invalid_type':
      return issue.input === undefined ? (m) => m.validation.required : (m) => m.api.badRequest;
    case 'invalid_value':
      return (m) => m.validation.valueRefused;
    default:
      return (m) => m.api.badRequest;
  }
}

function productMessage(issue: $ZodRawIssue): string {
  const say = productSay(issue);
  // A custom issue may bring params of its own: the key goes beside them.
  const params = (issue as { params?: object }).params;
  Object.assign(issue, { params: withSay(params ? { ...params } : {}, say) });
  return say(fr);
}

/**
 * Installs the product's messages as zod's defaults. The server calls it before
 * it compiles a schema, the web app before it renders; a schema's own message
 * still wins over these.
 */
export function installProductMessages(): void {
  config({ customError: productMessage });
}
export const PHONE_PATTERN = new RegExp(`^\\d{${PHONE_MIN_DIGITS},${PHONE_MAX_DIGITS}}$`);

/** What a phone number is written with: digits, one leading '+', spaces, dots, dashes, brackets, slashes. */
const PHONE_CHARACTERS = /^\+?[\d\s().\-/]+$/;

/**
 * A phone number as typed, international or not ('+225 07 07 07 07 07'): its
 * characters, and 8 to 15 digits. The server then reads it into E.164
 * (`toE164`, `@sesame/shared/phone`).
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
