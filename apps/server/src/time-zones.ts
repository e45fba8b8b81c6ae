/**
 * Time-zone arithmetic with Intl alone (no date library on the server). A company
 * has a time zone; dates people type (an event's day and time, a QR code's expiry
 * day) are read in it. Events (events/time.ts) and QR-user expiry (qr-users/dates.ts)
 * both build on these.
 */
import { formatPerZone, WALL_CLOCK_FORMAT } from '@sesame/shared';

export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** The wall-clock reading of `instant` in `timeZone`. */
export function wallClock(instant: Date, timeZone: string): LocalDateTime & { second: number } {
  const parts = WALL_CLOCK_FORMAT(timeZone).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** How far `timeZone` is ahead of UTC at `instant`, in milliseconds. */
function offsetMs(instant: Date, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant a wall-clock time in `timeZone` names. In a daylight-saving gap the
 * time is read with the offset before the change; in an overlap, the first of the two.
 */
export function zonedToUtc(local: LocalDateTime, timeZone: string): Date {
  const guess = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  const first = offsetMs(new Date(guess), timeZone);
  const candidate = guess - first;
  const second = offsetMs(new Date(candidate), timeZone);
  return new Date(second === first ? candidate : guess - second);
}

/**
 * The first instant of the day after `year-month-day` in `timeZone` (out-of-range
 * days and months roll forward, as Date.UTC does). Where daylight saving changes at
 * midnight this is not simply "00:00 read with some offset": in a gap (00:00 → 01:00)
 * the day ends at the change, and in an overlap (01:00 → 00:00) at the first of the
 * two midnights. So every offset in force around that midnight gives a candidate, and
 * the day ends at the earliest candidate whose wall clock already reads the next day.
 * (No zone changes its offset twice within 16 hours.)
 */
export function nextMidnight(year: number, month: number, day: number, timeZone: string): Date {
  // The next midnight as if the zone were UTC.
  const midnight = Date.UTC(year, month - 1, day + 1);
  const around = 16 * 3_600_000;
  const offsets = new Set([
    offsetMs(new Date(midnight - around), timeZone),
    offsetMs(new Date(midnight + around), timeZone),
  ]);
  const readsNextDay = (instant: number) => {
    const w = wallClock(new Date(instant), timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) >= midnight;
  };
  const candidates = [...offsets].map((offset) => midnight - offset).filter(readsNextDay);
  return new Date(Math.min(...candidates));
}

// en-CA formats as YYYY-MM-DD.
const dayFormat = formatPerZone('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar day (YYYY-MM-DD) of `instant` in `timeZone`. */
export function dayOf(instant: Date, timeZone: string): string {
  return dayFormat(timeZone).format(instant);
}
