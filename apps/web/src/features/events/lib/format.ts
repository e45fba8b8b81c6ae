/**
 * Event dates as the screens show them (spec §2: French times, in the company's
 * time zone). `date_event` and `time_event` are already the company's wall clock.
 */
import { countryName } from '@sesame/shared';
import { DEFAULT_TIMEZONE, formatDayWords, formatLongDate } from '../../../lib/format';

function locale(lang?: string): string {
  return lang?.startsWith('en') ? 'en-GB' : 'fr-FR';
}

/** '24/12/2030' → '24 décembre 2030' (unchanged when unreadable). */
export function formatEventDate(ddmmyyyy: string | null | undefined, lang?: string): string {
  return formatDayWords(ddmmyyyy, lang);
}

/** '24/12/2030' → 'mardi 24 décembre 2030' (the poster and the join form). */
export function formatEventDay(ddmmyyyy: string | null | undefined, lang?: string): string {
  return formatDayWords(ddmmyyyy, lang, { weekday: true });
}

/** '18:30' → '18:30' in French, '6:30 pm' in English. */
export function formatEventTime(hhmm: string | null | undefined, lang?: string): string {
  if (!hhmm) return '';
  const [h, m] = hhmm.split(':').map(Number);
  if (h === undefined || m === undefined || Number.isNaN(h) || Number.isNaN(m)) return hhmm;
  return new Intl.DateTimeFormat(locale(lang), {
    hour: '2-digit',
    minute: '2-digit',
    hour12: lang?.startsWith('en') ? true : false,
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(2000, 0, 1, h, m)));
}

/** A creation date (ISO, UTC) as a long date in the company's time zone. */
export function formatCreatedAt(iso: string, timeZone: string | undefined, lang?: string): string {
  return formatLongDate(iso, timeZone ?? DEFAULT_TIMEZONE, lang);
}

/** One line of address: 'Rue 12, Abidjan, Lagunes 01 BP 1, Côte d’Ivoire'. */
export function formatAddress(
  event: {
    address_name: string;
    city: string | null;
    state: string | null;
    zipcode: string | null;
    country: string | null;
  },
  lang: string,
): string {
  const region = [event.state, event.zipcode].filter(Boolean).join(' ');
  const country = countryName(event.country, lang);
  return [event.address_name, event.city, region, country].filter(Boolean).join(', ');
}
