/**
 * Phone numbers as people type them ('+225 07 07 07 07 07', '07.07.07.07.07',
 * '00 33 6 12 34 56 78') are stored in E.164 ('+2250707070707'), read by
 * libphonenumber-js with its length metadata. A number without a country code is
 * read in the product's home country, Côte d'Ivoire (the default time zone's).
 *
 * One rule for every phone field (issue 27): a visitor's, a staff member's, a card
 * holder's, a company's. The forms check the shape (`phoneText`, `isPhoneShaped`);
 * the server reads the number here, a visitor's in `createVisitor`, the others through
 * `readPhones` around the route's shared schema.
 *
 * Server only (`@sesame/shared/phone`, outside the barrel): the library and its
 * metadata weigh 29 KB gzip, more than a public page can carry (ARCHITECTURE §9).
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { z } from 'zod';
import { isPhoneShaped, sayIssue } from './schemas/common';

export const DEFAULT_PHONE_COUNTRY: CountryCode = 'CI';

/** The number in E.164, or null when it is not a possible phone number. */
export function toE164(input: string, country: CountryCode = DEFAULT_PHONE_COUNTRY): string | null {
  if (!isPhoneShaped(input)) return null;
  const written = input.trim().replace(/^00(?=\d)/, '+');
  const parsed = parsePhoneNumberFromString(written, country);
  return parsed?.isPossible() ? parsed.number : null;
}

/**
 * `schema`, then its phone `fields` read into E.164: what the server parses a form with.
 * A number shaped like one but not possible (eight digits in Côte d'Ivoire, '+225 07 07 07 07')
 * is an issue under its field, with the message every phone field says; an absent or
 * blank field stays as the schema left it (the schema says whether it is required).
 */
export function readPhones<T extends z.ZodType<Record<string, unknown>>>(
  schema: T,
  ...fields: (keyof z.output<T> & string)[]
) {
  return schema.transform((parsed, ctx): z.output<T> => {
    const read: Record<string, unknown> = { ...parsed };
    for (const field of fields) {
      const typed = parsed[field];
      if (typeof typed !== 'string' || typed === '') continue;
      const number = toE164(typed);
      if (number) read[field] = number;
      else {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          ...sayIssue((m) => m.validation.phoneInvalid, { key: 'phoneInvalid' }),
        });
      }
    }
    return read as z.output<T>;
  });
}
