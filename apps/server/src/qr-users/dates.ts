/**
 * A QR user's expiry is a calendar day (dateExp, YYYY-MM-DD) in the company's
 * time zone; the code works until the end of that day. The database keeps the
 * instant (date_exp), so a check is one comparison: date_exp < now → refused.
 */

/** Offset of `zone` from UTC at `instant`, in milliseconds. */
function zoneOffsetMs(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The UTC instant of local midnight starting `y-m-d` in `zone`. */
function localMidnight(y: number, m: number, d: number, zone: string): number {
  const guess = Date.UTC(y, m - 1, d);
  const first = guess - zoneOffsetMs(guess, zone);
  // A second pass settles days whose offset changes around midnight (DST).
  return guess - zoneOffsetMs(first, zone);
}

/** The last millisecond of day `isoDate` (YYYY-MM-DD) in `zone`. */
export function endOfDay(isoDate: string, zone: string): Date {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(localMidnight(y, m, d + 1, zone) - 1);
}

/** The calendar day (YYYY-MM-DD) of `instant` in `zone`. */
export function dayOf(instant: Date, zone: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}
