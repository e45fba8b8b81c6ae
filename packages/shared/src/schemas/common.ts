import { z } from 'zod';
import { MAX_PAGE_SIZE, PAGE_SIZE } from '../constants';
import { countryCode } from '../countries';
import type { Say } from '../messages/catalogue';
import { fr } from '../messages/fr';
import { breaksTheLine, hasControlCharacter, withLineFeeds } from '../text-lines';
import { EMAIL_PATTERN, TEXT_MAX, isPhoneShaped } from './issues';
import { installProductMessages, keyed, sayIssue } from './product-messages';

export * from './issues';
export * from './product-messages';

// Every schema is built on the helpers below: once one is loaded, zod's own issues (too
// long, required, a bad format…) speak the product's words, on the server and in the
// browser alike (zod reads the setting when it reports an issue).
installProductMessages();

/** `.max(...atMost(n))`: at most n characters; over it, no later check reads the text. */
export const atMost = (max: number) =>
  [
    max,
    { ...keyed((m) => m.validation.tooLong(max), { key: 'tooLong', max }), abort: true },
  ] as const;

/**
 * A string of at most `max` characters. Over it, parsing stops at this check:
 * no later pattern or refinement reads the text.
 */
export const boundedString = (max: number, say: Say = (m) => m.validation.tooLong(max)) =>
  z.string().max(max, { ...keyed(say, { key: 'tooLong', max }), abort: true });

/**
 * `.refine(...oneLine)`: a single-line field (a name, a company, a host, a reason typed on
 * one line) holds no line break and no control character (text-lines.ts says which and
 * why). Checked after `.trim()`: a line break pasted at either end is dropped, as any
 * surrounding space is; one inside the text is refused.
 */
export const oneLine = [
  (text: string) => !breaksTheLine(text),
  keyed((m) => m.validation.controlChars, { key: 'controlChars' }),
] as const;

/**
 * `.overwrite(withLineFeeds).refine(...textLines)`: a text of several lines (a description,
 * a reason written in a text area) keeps its line breaks, stored as line feeds, and
 * holds no other control character.
 */
export const textLines = [
  (text: string) => !hasControlCharacter(text),
  keyed((m) => m.validation.controlCharsInText, { key: 'controlCharsInText' }),
] as const;

/** A form's text field left blank ('' or only spaces) counts as absent: multipart sends every field. */
export const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * A required field written on one line (a name, a city, a title): absent or blank, it says
 * `required` (the form's message naming the field); else at most `max` characters, trimmed,
 * on one line (`oneLine`). `required` is called for each check that says it.
 */
export const requiredLine = (required: () => ReturnType<typeof keyed>, max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string(required())
      .max(...atMost(max))
      .trim()
      .refine(...oneLine)
      .min(1, required()),
  );

/** A field written on one line that may stay blank (then absent); else checked as `requiredLine`. */
export const optionalLine = (max: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(...atMost(max))
      .trim()
      .refine(...oneLine)
      .optional(),
  );

/**
 * A required e-mail address (a company's, a staff member's): absent or blank, it says
 * `required`; else at most TEXT_MAX.email characters, trimmed, on one line and shaped as one
 * (EMAIL_PATTERN), else `invalid`, the form's own message.
 */
export const requiredEmail = (
  required: () => ReturnType<typeof keyed>,
  invalid: ReturnType<typeof keyed>,
) =>
  z.preprocess(
    blankToUndefined,
    z
      .string(required())
      .max(...atMost(TEXT_MAX.email))
      .trim()
      .refine(...oneLine)
      .regex(EMAIL_PATTERN, invalid),
  );

const asFormText = (v: unknown) =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v.trim() : String(v);

/**
 * A form field as trimmed text (JSON may send numbers or null, multipart sends
 * strings), bounded by `max` before anything else reads it, on one line (`oneLine`).
 */
export const formText = (max: number, say?: Say) =>
  z.preprocess(asFormText, boundedString(max, say).refine(...oneLine));

/** `formText` for a text written on several lines (a text area): line feeds kept (`textLines`). */
export const formLines = (max: number, say?: Say) =>
  z.preprocess(
    asFormText,
    boundedString(max, say)
      .overwrite(withLineFeeds)
      .refine(...textLines),
  );

/** A country that is none of the list's (neither a code nor a French or English name). */
export const COUNTRY_INVALID_MESSAGE = fr.validation.countryInvalid;

/**
 * A country field: what is sent (an ISO 3166-1 code, or a name in French or English, as
 * the spec's payloads send "Côte d'Ivoire") becomes its ISO code, the stored form. A blank
 * stays blank: `text` says whether the field is required.
 */
export const countryField = <T extends z.ZodType<string>>(text: T) =>
  text.transform((value, ctx) => {
    if (!value) return value;
    const code = countryCode(value);
    if (code) return code;
    ctx.addIssue({
      code: 'custom',
      ...sayIssue((m) => m.validation.countryInvalid, { key: 'countryInvalid', field: 'country' }),
    });
    return z.NEVER;
  });

/** The one message of a phone number that is not one, with its locale key (`common:validation.phoneInvalid`). */
export const phoneInvalidIssue = () =>
  keyed((m) => m.validation.phoneInvalid, { key: 'phoneInvalid' });

/**
 * A phone field, any of them (issue 27: a staff member's, a card holder's, a company's, as the
 * visitor's): a number as people write it ('+225 07 07 07 07 07', '07.07.07.07.07', '00 33 6 12
 * 34 56 78'), bounded, trimmed and shaped like one (`isPhoneShaped`). That is what a screen can
 * check without libphonenumber's 29 KB; the server then reads the number into E.164, the form
 * it stores, with `readPhones` (`@sesame/shared/phone`). Blank and required are the caller's.
 */
export const phoneText = () =>
  z
    .string()
    .max(...atMost(TEXT_MAX.phone))
    .trim()
    .refine(isPhoneShaped, phoneInvalidIssue());

export const uuidSchema = z.uuid();

/**
 * An optional query or body field naming a record by slug or id (`?company=`,
 * `?event=`) to narrow a list or an action to it: bounded before it is trimmed.
 */
export const slugOrIdFilter = z
  .string()
  .max(...atMost(TEXT_MAX.slug))
  .trim()
  .min(1)
  .optional();

/** `?page=&per_page=&q=` of every list (ARCHITECTURE §4). */
export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
  q: z.string().trim().max(TEXT_MAX.search).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export interface ListMeta {
  page: number;
  per_page: number;
  total: number;
}
export interface Paginated<T> {
  data: T[];
  meta: ListMeta;
}

export const paginatedSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    meta: z.object({ page: z.number(), per_page: z.number(), total: z.number() }),
  });

/** Error body of every failed call (ARCHITECTURE §4). */
export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
