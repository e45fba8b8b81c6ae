/**
 * A QR user's expiry is a calendar day (dateExp, YYYY-MM-DD) in the company's
 * time zone; the code works until the end of that day. The database keeps the
 * instant (date_exp), so a check is one comparison: date_exp < now → refused.
 */
import { nextMidnight } from '../time-zones';

/** The last millisecond of day `isoDate` (YYYY-MM-DD) in `zone`. */
export function endOfDay(isoDate: string, zone: string): Date {
  // The schema checked the shape (YYYY-MM-DD): three numbers.
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(nextMidnight(y, m, d, zone).getTime() - 1);
}
