/**
 * Countries (spec §2, §5: about 195, Côte d'Ivoire first) are stored and sent as
 * ISO 3166-1 alpha-2 codes; their names come from `Intl.DisplayNames` in the reader's
 * language, so no hand-written list of names has to be kept in two languages.
 */

/** The forms' 195 countries: the UN's members and observers. */
export const COUNTRY_CODES = [
  'AD',
  'AE',
  'AF',
  'AG',
  'AL',
  'AM',
  'AO',
  'AR',
  'AT',
  'AU',
  'AZ',
  'BA',
  'BB',
  'BD',
  'BE',
  'BF',
  'BG',
  'BH',
  'BI',
  'BJ',
  'BN',
  'BO',
  'BR',
  'BS',
  'BT',
  'BW',
  'BY',
  'BZ',
  'CA',
  'CD',
  'CF',
  'CG',
  'CH',
  'CI',
  'CL',
  'CM',
  'CN',
  'CO',
  'CR',
  'CU',
  'CV',
  'CY',
  'CZ',
  'DE',
  'DJ',
  'DK',
  'DM',
  'DO',
  'DZ',
  'EC',
  'EE',
  'EG',
  'ER',
  'ES',
  'ET',
  'FI',
  'FJ',
  'FM',
  'FR',
  'GA',
  'GB',
  'GD',
  'GE',
  'GH',
  'GM',
  'GN',
  'GQ',
  'GR',
  'GT',
  'GW',
  'GY',
  'HN',
  'HR',
  'HT',
  'HU',
  'ID',
  'IE',
  'IL',
  'IN',
  'IQ',
  'IR',
  'IS',
  'IT',
  'JM',
  'JO',
  'JP',
  'KE',
  'KG',
  'KH',
  'KI',
  'KM',
  'KN',
  'KP',
  'KR',
  'KW',
  'KZ',
  'LA',
  'LB',
  'LC',
  'LI',
  'LK',
  'LR',
  'LS',
  'LT',
  'LU',
  'LV',
  'LY',
  'MA',
  'MC',
  'MD',
  'ME',
  'MG',
  'MH',
  'MK',
  'ML',
  'MM',
  'MN',
  'MR',
  'MT',
  'MU',
  'MV',
  'MW',
  'MX',
  'MY',
  'MZ',
  'NA',
  'NE',
  'NG',
  'NI',
  'NL',
  'NO',
  'NP',
  'NR',
  'NZ',
  'OM',
  'PA',
  'PE',
  'PG',
  'PH',
  'PK',
  'PL',
  'PS',
  'PT',
  'PW',
  'PY',
  'QA',
  'RO',
  'RS',
  'RU',
  'RW',
  'SA',
  'SB',
  'SC',
  'SD',
  'SE',
  'SG',
  'SI',
  'SK',
  'SL',
  'SM',
  'SN',
  'SO',
  'SR',
  'SS',
  'ST',
  'SV',
  'SY',
  'SZ',
  'TD',
  'TG',
  'TH',
  'TJ',
  'TL',
  'TM',
  'TN',
  'TO',
  'TR',
  'TT',
  'TV',
  'TZ',
  'UA',
  'UG',
  'US',
  'UY',
  'UZ',
  'VA',
  'VC',
  'VE',
  'VN',
  'VU',
  'WS',
  'YE',
  'ZA',
  'ZM',
  'ZW',
] as const;

export type CountryIsoCode = (typeof COUNTRY_CODES)[number];

/** The product's home country, first in every country list (spec §2). */
export const HOME_COUNTRY: CountryIsoCode = 'CI';

const KNOWN = new Set<string>(COUNTRY_CODES);

export const isCountryCode = (value: string): value is CountryIsoCode => KNOWN.has(value);

/** One `Intl.DisplayNames` per language: building one reads locale data. */
const displayNames = new Map<string, Intl.DisplayNames>();

function namesIn(language: string): Intl.DisplayNames {
  let names = displayNames.get(language);
  if (!names) {
    names = new Intl.DisplayNames([language, 'fr'], { type: 'region', fallback: 'code' });
    displayNames.set(language, names);
  }
  return names;
}

/**
 * What a person reads for a stored country: a code's name in `language`; any other value
 * (a name stored before countries were codes and not recognised) as it was written.
 */
export function countryName(value: string | null | undefined, language: string): string {
  if (!value) return '';
  return isCountryCode(value) ? (namesIn(language).of(value) ?? value) : value;
}

/** A form's country choices: Côte d'Ivoire first, the rest by their name in `language`. */
export function countryOptions(language: string): { value: CountryIsoCode; label: string }[] {
  const collator = new Intl.Collator(language);
  const rest = COUNTRY_CODES.filter((code) => code !== HOME_COUNTRY)
    .map((code) => ({ value: code, label: countryName(code, language) }))
    .sort((a, b) => collator.compare(a.label, b.label));
  return [{ value: HOME_COUNTRY, label: countryName(HOME_COUNTRY, language) }, ...rest];
}

/**
 * A name compared without case, accents, apostrophe style or punctuation:
 * "Côte d’ivoire", "COTE D'IVOIRE" and "cote-d'ivoire" are one key. The apostrophes
 * (’ ‘ ʼ ` ´) are written escaped: the server's bundle stays ASCII (apps/server/scripts/build.ts).
 */
function countryKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\u2019\u2018\u02BC`\u00B4]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .trim();
}

/**
 * Names people write that `Intl` does not give: the names of the French list the forms
 * used before codes (stored rows hold them, migration 0019 converts them) and common
 * English ones.
 */
const OTHER_NAMES: Readonly<Record<string, CountryIsoCode>> = {
  Birmanie: 'MM',
  Burma: 'MM',
  Congo: 'CG',
  'République du Congo': 'CG',
  'Republic of the Congo': 'CG',
  'République démocratique du Congo': 'CD',
  'Democratic Republic of the Congo': 'CD',
  RDC: 'CD',
  DRC: 'CD',
  Kirghizistan: 'KG',
  Palestine: 'PS',
  'République tchèque': 'CZ',
  'Czech Republic': 'CZ',
  Vatican: 'VA',
  'Ivory Coast': 'CI',
  'East Timor': 'TL',
  Swaziland: 'SZ',
  'Cabo Verde': 'CV',
  'United States of America': 'US',
  USA: 'US',
  UK: 'GB',
  'Saint Kitts and Nevis': 'KN',
  'Saint Lucia': 'LC',
  'Saint Vincent and the Grenadines': 'VC',
  'Sao Tome and Principe': 'ST',
  'Antigua and Barbuda': 'AG',
  'Bosnia and Herzegovina': 'BA',
  'Trinidad and Tobago': 'TT',
};

/** The languages whose names the server reads as well as codes (the product's two). */
const NAME_LANGUAGES = ['fr', 'en'];

let byKey: Map<string, CountryIsoCode> | undefined;

function nameIndex(): Map<string, CountryIsoCode> {
  if (byKey) return byKey;
  const index = new Map<string, CountryIsoCode>();
  const add = (name: string, code: CountryIsoCode) => {
    const key = countryKey(name);
    if (key && !index.has(key)) index.set(key, code);
  };
  for (const language of NAME_LANGUAGES) {
    for (const code of COUNTRY_CODES) {
      const name = countryName(code, language);
      add(name, code);
      // "Myanmar (Birmanie)": either part alone names it too.
      const parts = /^([^()]+)\(([^()]+)\)$/.exec(name);
      if (parts?.[1] && parts[2]) {
        add(parts[1], code);
        add(parts[2], code);
      }
    }
  }
  for (const [name, code] of Object.entries(OTHER_NAMES)) add(name, code);
  byKey = index;
  return index;
}

/**
 * The ISO code of what a form or an API call sent: a code (any case), or a country's
 * name in French or English (the spec's payloads send "Côte d'Ivoire"); `null` when
 * it names no country of the list.
 */
export function countryCode(input: string): CountryIsoCode | null {
  const written = input.trim();
  const upper = written.toUpperCase();
  if (isCountryCode(upper)) return upper;
  return nameIndex().get(countryKey(written)) ?? null;
}
