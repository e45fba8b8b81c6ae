/**
 * A site's time zone, said when it is not the reader's (issue 28): "10:30 (Nouméa)",
 * "Heure de Nouméa". Plain logic, no DOM: `apps/web/test/zone-label.test.ts`.
 */
import { WALL_CLOCK_FORMAT } from '@sesame/shared';

/** The browser's own zone ('Europe/Paris'); undefined when the runtime does not say. */
export function browserZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** The wall-clock reading of `at` in `zone` (shared's formatter per zone); undefined for an unknown zone. */
function wallClock(zone: string, at: Date): string | undefined {
  try {
    return WALL_CLOCK_FORMAT(zone).format(at);
  } catch {
    return undefined;
  }
}

/**
 * Whether `zone` reads another time than the reader's `reader` zone at `at` (two names
 * of one clock, 'Europe/Paris' and 'Europe/Berlin', are the same time: nothing to say).
 */
export function zoneDiffers(
  zone: string | null | undefined,
  reader: string | undefined = browserZone(),
  at: Date = new Date(),
): boolean {
  if (!zone || !reader || zone === reader) return false;
  const mine = wallClock(reader, at);
  const theirs = wallClock(zone, at);
  return mine !== undefined && theirs !== undefined && mine !== theirs;
}

/** French names of the zones' cities that the IANA id writes without their accents. */
const FRENCH_CITIES: Record<string, string> = {
  Noumea: 'Nouméa',
  Reunion: 'La Réunion',
  Mexico_City: 'Mexico',
  Sao_Paulo: 'São Paulo',
  Bogota: 'Bogotá',
  Brussels: 'Bruxelles',
  London: 'Londres',
  Lisbon: 'Lisbonne',
  Vienna: 'Vienne',
  Warsaw: 'Varsovie',
  Moscow: 'Moscou',
  Algiers: 'Alger',
  Tunis: 'Tunis',
  Cairo: 'Le Caire',
  Dakar: 'Dakar',
  Guadeloupe: 'Guadeloupe',
  Martinique: 'Martinique',
  Cayenne: 'Cayenne',
  Tahiti: 'Tahiti',
  Singapore: 'Singapour',
  Montreal: 'Montréal',
  New_York: 'New York',
};

/** The city a zone is named after, in the reader's language ('Pacific/Noumea' → 'Nouméa'). */
export function zoneCity(zone: string, language = 'fr'): string {
  const last = zone.split('/').pop() ?? zone;
  if (language.startsWith('fr') && FRENCH_CITIES[last]) return FRENCH_CITIES[last];
  return last.replace(/_/g, ' ');
}

/**
 * A time shown at a site: as it is when the site's zone reads the reader's time,
 * else followed by the zone's city: '10:30 (Nouméa)'.
 */
export function withZone(
  text: string,
  zone: string | null | undefined,
  language = 'fr',
  reader: string | undefined = browserZone(),
  at: Date = new Date(),
): string {
  if (!text || !zone || !zoneDiffers(zone, reader, at)) return text;
  return `${text} (${zoneCity(zone, language)})`;
}
