/**
 * An event's date and time are written in its company's time zone (DD/MM/YYYY,
 * HH:MM); these turn them into instants (time-zones.ts does the arithmetic).
 */
import { nextMidnight, zonedToUtc, type LocalDateTime } from '../time-zones';

/** 'DD/MM/YYYY' + 'HH:MM' → the parts (the shared schema has checked the shapes). */
export function parseEventDateTime(date: string, time: string): LocalDateTime {
  // The shared schema checked the shapes (DD/MM/YYYY and HH:MM): three and two numbers.
  const [day, month, year] = date.split('/').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return { year, month, day, hour, minute };
}

/** When the event starts. */
export function eventStartsAt(date: string, time: string, timeZone: string): Date {
  return zonedToUtc(parseEventDateTime(date, time), timeZone);
}

/**
 * Day ends already computed, by date and zone: event lists and registrations ask for
 * one per event, and the answer never changes while the process runs (the Intl
 * arithmetic is not cheap). Bounded: cleared when it grows past a few thousand days.
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

/** The first instant of the day after the event's 'DD/MM/YYYY' date, in `timeZone`. */
function computeDayEnd(date: string, timeZone: string): Date {
  const { year, month, day } = parseEventDateTime(date, '00:00');
  return nextMidnight(year, month, day, timeZone);
}

/** A day as the instants the code check compares (events.day_*, visitors.day_*). */
export interface DayBounds {
  dayStartsAt: Date;
  dayEndsAt: Date;
}

const DAY_TEXT = /^\d{2}\/\d{2}\/\d{4}$/;

/**
 * A 'DD/MM/YYYY' day in `timeZone`, from the midnight that starts it to the one that
 * starts the next day (nextMidnight: a daylight-saving gap or overlap included). Written
 * with each event and meeting, so that no query reads the text; null for text that is
 * no such date (a meeting without one is not limited to a day).
 */
export function dayBounds(date: string | null | undefined, timeZone: string): DayBounds | null {
  if (!date || !DAY_TEXT.test(date)) return null;
  const { year, month, day } = parseEventDateTime(date, '00:00');
  return {
    dayStartsAt: nextMidnight(year, month, day - 1, timeZone),
    dayEndsAt: eventDayEndsAt(date, timeZone),
  };
}

/** Whether the event's day is over in its company's time zone. */
export function isEventDayOver(date: string, timeZone: string, now = new Date()): boolean {
  return now.getTime() >= eventDayEndsAt(date, timeZone).getTime();
}
