/**
 * The site a mail's meeting is at (issue 28), and how its times are said. A mail's
 * reader has no known zone: the date and time are the site's, and the mail names the
 * zone whenever the company has more than one site (or the site's zone is not its main
 * site's); a company of one site writes its times as it always did.
 */
import { LOCALE, type Language } from './layout';

export interface MailSite {
  name: string;
  /** IANA zone: the meeting's date and time are read in it. */
  timeZone: string;
  /** One line: street, zip and city; null when the site has none. */
  address: string | null;
  /** Where the site's front desk reads its mail; null when the site names none. */
  frontDeskEmail: string | null;
  /** Whether its mails name the site and the zone (several sites, or another zone than the main site's). */
  named: boolean;
}

const names = new Map<string, string>();

/**
 * The zone as its reader says it, from Intl: 'heure normale de la Nouvelle-Calédonie',
 * 'Central European Time'. A generic name (no summer/winter variant), so it holds for
 * any date; the IANA name when Intl has none.
 */
export function zoneName(timeZone: string, lang: Language): string {
  const key = `${lang}|${timeZone}`;
  let name = names.get(key);
  if (name === undefined) {
    try {
      name =
        new Intl.DateTimeFormat(LOCALE[lang], { timeZone, timeZoneName: 'longGeneric' })
          .formatToParts(new Date())
          .find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
    } catch {
      name = timeZone;
    }
    names.set(key, name);
  }
  return name;
}

/** 'HH:MM', followed by its zone in brackets when the site's mails name it. */
export function timeAtSite(
  time: string | null | undefined,
  site: Pick<MailSite, 'timeZone' | 'named'> | null | undefined,
  lang: Language,
): string | null {
  if (!time) return null;
  return site?.named ? `${time} (${zoneName(site.timeZone, lang)})` : time;
}
