/** Dates as the screens show them: French (or English) long dates in the company's time zone. */
export const DEFAULT_TIMEZONE = 'Africa/Abidjan';

/** Today in a time zone, as the calendars read it ('YYYY-MM-DD'). */
export function todayIn(timeZone: string, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

function locale(lang?: string): string {
  return lang?.startsWith('en') ? 'en-GB' : 'fr-FR';
}

/**
 * A calendar day as the forms write it ('24/12/2030') in words: '24 décembre 2030', with
 * `weekday` 'mardi 24 décembre 2030' (an event's day, a visit's). Unchanged when unreadable.
 */
export function formatDayWords(
  ddmmyyyy: string | null | undefined,
  lang?: string,
  options: { weekday?: boolean } = {},
): string {
  if (!ddmmyyyy) return '';
  const [dd, mm, yyyy] = ddmmyyyy.split('/').map(Number);
  if (!dd || !mm || !yyyy) return ddmmyyyy;
  return new Intl.DateTimeFormat(locale(lang), {
    ...(options.weekday ? { weekday: 'long' as const } : {}),
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(yyyy, mm - 1, dd)));
}

/** A formatter for one shape: empty for a missing or unreadable instant. */
function instantFormat(shape: Intl.DateTimeFormatOptions) {
  return (iso: string | null | undefined, timeZone = DEFAULT_TIMEZONE, lang?: string): string => {
    if (!iso) return '';
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return '';
    return new Intl.DateTimeFormat(locale(lang), { ...shape, timeZone }).format(date);
  };
}

/** '2026-11-22T10:00:00Z' → '22 novembre 2026'. */
export const formatLongDate = instantFormat({ day: 'numeric', month: 'long', year: 'numeric' });

/** '22/11/2026' (a table's column, where a long date would widen it). */
export const formatShortDate = instantFormat({ day: '2-digit', month: '2-digit', year: 'numeric' });

/** '22 novembre 2026 à 10:00'. */
export const formatDateTime = instantFormat({ dateStyle: 'long', timeStyle: 'short' });

/** '10:00'. */
export const formatTime = instantFormat({ hour: '2-digit', minute: '2-digit' });
