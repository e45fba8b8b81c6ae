/** Dates as the screens show them: French (or English) long dates in the company's time zone. */
export const DEFAULT_TIMEZONE = 'Africa/Abidjan';

function locale(lang?: string): string {
  return lang?.startsWith('en') ? 'en-GB' : 'fr-FR';
}

/** '2026-11-22T10:00:00Z' → '22 novembre 2026'. */
export function formatLongDate(
  iso: string | null | undefined,
  timeZone = DEFAULT_TIMEZONE,
  lang?: string,
): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale(lang), {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone,
  }).format(date);
}

/** '22 novembre 2026 à 10:00'. */
export function formatDateTime(
  iso: string | null | undefined,
  timeZone = DEFAULT_TIMEZONE,
  lang?: string,
): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale(lang), {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone,
  }).format(date);
}

/** '10:00'. */
export function formatTime(
  iso: string | null | undefined,
  timeZone = DEFAULT_TIMEZONE,
  lang?: string,
): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale(lang), {
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
  }).format(date);
}
