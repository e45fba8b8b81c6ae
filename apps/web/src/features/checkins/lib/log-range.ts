/**
 * The logs' date-time range. The picker gives wall-clock times ('YYYY-MM-DD HH:mm:ss')
 * that a person reads in the company's time zone, as the lists show their times; the
 * API takes instants (ISO 8601 UTC), so each end is placed in that zone here.
 */
import { WALL_CLOCK_FORMAT } from '@sesame/shared';

/** [start, end] as the range picker gives them; null for an end not chosen. */
export type WallRange = [string | null, string | null];

export const EMPTY_RANGE: WallRange = [null, null];

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/;

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in ms. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of WALL_CLOCK_FORMAT(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** '2026-11-22 10:30:00' read in `timeZone` → its instant; null for anything else. */
export function wallTimeToInstant(wall: string, timeZone: string): Date | null {
  const match = WALL_TIME.exec(wall);
  if (!match) return null;
  // Seconds are optional: an absent group reads as 0, not NaN.
  const [, y, mo, d, h, mi, s] = match.map((part) => Number(part ?? 0));
  const asUtc = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
  if (Number.isNaN(asUtc)) return null;
  // Two passes settle the offset across a daylight-saving change.
  let instant = asUtc - zoneOffset(asUtc, timeZone);
  instant = asUtc - zoneOffset(instant, timeZone);
  return new Date(instant);
}

/**
 * The `from` / `to` of a log query. The end's minute counts whole: '18:00' keeps a
 * check-in at 18:00:40.
 */
export function rangeToQuery(range: WallRange, timeZone: string): { from?: string; to?: string } {
  const [start, end] = range;
  const from = start ? wallTimeToInstant(start, timeZone) : null;
  const to = end ? wallTimeToInstant(end, timeZone) : null;
  return {
    from: from?.toISOString(),
    to: to ? new Date(to.getTime() + 59_999).toISOString() : undefined,
  };
}

/**
 * A newly picked end day starts at 23:59 (the picker would put 00:00, which leaves
 * the whole day out); times a person set stay as they are.
 */
export function withEndOfDay(next: WallRange, previous: WallRange): WallRange {
  const [start, end] = next;
  if (end && !previous[1] && /[ T]00:00(:00)?$/.test(end)) {
    return [start, `${end.slice(0, 10)} 23:59:00`];
  }
  return next;
}

/** '2026-11-22 10:30:00' → '22/11/2026 10:30', as the range field shows it. */
export function formatWallTime(wall: string): string {
  const match = WALL_TIME.exec(wall);
  if (!match) return wall;
  const [, y, mo, d, h, mi] = match;
  return `${d}/${mo}/${y} ${h}:${mi}`;
}
