/**
 * Phone numbers as people type them ('+225 07 07 07 07 07', '07.07.07.07.07',
 * '00 33 6 12 34 56 78') are stored in E.164 ('+2250707070707'), read by
 * libphonenumber-js with its length metadata. A number without a country code is
 * read in the product's home country, Côte d'Ivoire (the default time zone's).
 *
 * Server only (`@sesame/shared/phone`, outside the barrel): the library and its
 * metadata weigh 29 KB gzip, more than a public page can carry (ARCHITECTURE §9).
 * The forms check the shape (`isPhoneShaped`); the server reads the number.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { isPhoneShaped } from './schemas/common';

export const DEFAULT_PHONE_COUNTRY: CountryCode = 'CI';

/** The number in E.164, or null when it is not a possible phone number. */
export function toE164(input: string, country: CountryCode = DEFAULT_PHONE_COUNTRY): string | null {
  if (!isPhoneShaped(input)) return null;
  const written = input.trim().replace(/^00(?=\d)/, '+');
  const parsed = parsePhoneNumberFromString(written, country);
  return parsed?.isPossible() ? parsed.number : null;
}
