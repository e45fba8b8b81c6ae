/**
 * An event's date and time are written in its company's time zone (DD/MM/YYYY,
 * HH:MM); these turn them into instants with Intl alone (no date library on the server).
 */

interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock reading of `instant` in `timeZone`. */
export function wallClock(instant: Date, timeZone: string): LocalDateTime & { second: number } {
  const parts = formatterFor(timeZone).formatToParts(instant);
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

/** 'DD/MM/YYYY' + 'HH:MM' → the parts (the shared schema has checked the shapes). */
export function parseEventDateTime(date: string, time: string): LocalDateTime {
  const [day, month, year] = date.split('/').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return { year, month, day, hour, minute };
}

/** When the event starts. */
export function eventStartsAt(date: string, time: string, timeZone: string): Date {
  return zonedToUtc(parseEventDateTime(date, time), timeZone);
}

/**
 * Day ends already computed, by date and zone. Every code check asks for one, and the
 * answer never changes while the process runs; the Intl arithmetic was a few percent
 * of the server's CPU per check. Bounded: cleared when it grows past a few thousand days.
 */
const dayEnds = new Map<string, Date>();
const DAY_ENDS_KEPT = 4096;

/** The end of the event's day (the next midnight in the company's zone): registrations stop then. */
export function eventDayEndsAt(date: string, timeZone: string): Date {
  const key = `${date}|${timeZone}`;
  let end = dayEnds.get(key);
  if (!end) {
    if (dayEnds.size >= DAY_ENDS_KEPT) dayEnds.clear();
    end = computeDayEnd(date, timeZone);
    dayEnds.set(key, end);
  }
  return new Date(end);
}

/**
 * The first instant of the day after `date` in `timeZone`. Where daylight saving
 * changes at midnight this is not simply "00:00 read with some offset": in a gap
 * (00:00 → 01:00) the day ends at the change, and in an overlap (01:00 → 00:00)
 * at the first of the two midnights. So every offset in force around that midnight
 * gives a candidate, and the day ends at the earliest candidate whose wall clock
 * already reads the next day. (No zone changes its offset twice within 16 hours.)
 */
function computeDayEnd(date: string, timeZone: string): Date {
  const { year, month, day } = parseEventDateTime(date, '00:00');
  // The next midnight as if the zone were UTC; rolled over like Date.UTC does.
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

/** Whether the event's day is over in its company's time zone. */
export function isEventDayOver(date: string, timeZone: string, now = new Date()): boolean {
  return now.getTime() >= eventDayEndsAt(date, timeZone).getTime();
}
