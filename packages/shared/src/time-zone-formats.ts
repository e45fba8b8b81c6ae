/**
 * Dates shown or read in a company's time zone go through Intl.DateTimeFormat, and
 * building one costs far more than using it (the code check, the CSV export and the
 * log filters use one per row or per request). This keeps one per zone and shape.
 */
export function formatPerZone(
  locale: string,
  shape: Omit<Intl.DateTimeFormatOptions, 'timeZone'>,
): (timeZone: string) => Intl.DateTimeFormat {
  const formats = new Map<string, Intl.DateTimeFormat>();
  return (timeZone) => {
    let format = formats.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat(locale, { ...shape, timeZone });
      formats.set(timeZone, format);
    }
    return format;
  };
}

/** Every field of a wall-clock reading, 24-hour: what offset arithmetic reads back. */
export const WALL_CLOCK_FORMAT = formatPerZone('en-US', {
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
