/**
 * The end of a meeting's or event's day is computed twice: in TypeScript for event
 * registrations (events/time.ts) and inside the code check's single SQL statement
 * (checkins/check-statement.ts). These hold the two readings equal, daylight-saving
 * days and rolled-over dates included, on the database under test.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayEndSql, dayStartSql } from '../src/checkins/check-statement';
import type { DatabaseHandle } from '../src/db/client';
import { eventDayEndsAt } from '../src/events/time';
import { endOfDay } from '../src/qr-users/dates';
import { nextMidnight } from '../src/time-zones';
import { createTestDatabase, testDatabaseKind } from './helpers/db';

const ZONES = [
  'Africa/Abidjan',
  'Europe/Paris',
  'America/New_York',
  'Asia/Kolkata',
  'Pacific/Chatham',
  // Daylight-saving changes at midnight: the day's end falls in a gap or an overlap.
  'America/Santiago',
  'America/Havana',
  'Asia/Beirut',
];

const DATES = [
  '23/11/2026',
  '01/01/2026',
  '29/02/2028',
  '31/12/2026',
  // The days before and after daylight-saving changes in these zones.
  '29/03/2026',
  '28/03/2026',
  '24/10/2026',
  '25/10/2026',
  '07/03/2026',
  '08/03/2026',
  '31/10/2026',
  '01/11/2026',
  '04/04/2026',
  '05/04/2026',
  '05/09/2026',
  '06/09/2026',
  // Out-of-range days and months roll forward, as the form never sends them but the column allows.
  '31/02/2026',
  '00/05/2026',
  '15/13/2026',
];

describe(`the day's end, in TypeScript and in SQL (${testDatabaseKind})`, () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('agrees for every zone and date', async () => {
    const mismatches: string[] = [];
    for (const zone of ZONES) {
      for (const date of DATES) {
        const result = await database.db.execute<{ end: Date | string }>(
          sql`select ${dayEndSql(sql`${date}::text`, sql`${zone}::text`)} as "end"`,
        );
        const fromSql = new Date(result.rows[0]!.end).toISOString();
        const fromTs = eventDayEndsAt(date, zone).toISOString();
        if (fromSql !== fromTs) mismatches.push(`${zone} ${date}: SQL ${fromSql}, TS ${fromTs}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("agrees on the day's start (the code check's early edge) for every zone and date", async () => {
    const mismatches: string[] = [];
    for (const zone of ZONES) {
      for (const date of DATES) {
        const result = await database.db.execute<{ start: Date | string }>(
          sql`select ${dayStartSql(sql`${date}::text`, sql`${zone}::text`)} as "start"`,
        );
        const fromSql = new Date(result.rows[0]!.start).toISOString();
        const [d, m, y] = date.split('/').map(Number) as [number, number, number];
        const fromTs = nextMidnight(y, m, d - 1, zone).toISOString();
        if (fromSql !== fromTs) mismatches.push(`${zone} ${date}: SQL ${fromSql}, TS ${fromTs}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('ends a day at the change when daylight saving skips midnight, at the first midnight when it repeats', () => {
    // Santiago, 06/09/2026: 00:00 (-04) jumps to 01:00 (-03).
    expect(eventDayEndsAt('05/09/2026', 'America/Santiago').toISOString()).toBe(
      '2026-09-06T04:00:00.000Z',
    );
    // Havana, 08/03/2026: 00:00 (-05) jumps to 01:00 (-04).
    expect(eventDayEndsAt('07/03/2026', 'America/Havana').toISOString()).toBe(
      '2026-03-08T05:00:00.000Z',
    );
    // Havana, 01/11/2026: 01:00 (-04) falls back to 00:00 (-05); the first midnight ends the day.
    expect(eventDayEndsAt('31/10/2026', 'America/Havana').toISOString()).toBe(
      '2026-11-01T04:00:00.000Z',
    );
    expect(eventDayEndsAt('23/11/2026', 'Africa/Abidjan').toISOString()).toBe(
      '2026-11-24T00:00:00.000Z',
    );
  });

  it("ends a QR code's expiry day at the last millisecond before that next midnight", () => {
    expect(endOfDay('2026-11-23', 'Europe/Paris').toISOString()).toBe('2026-11-23T22:59:59.999Z');
    expect(endOfDay('2026-11-23', 'Africa/Abidjan').toISOString()).toBe('2026-11-23T23:59:59.999Z');
    // Santiago, 06/09/2026: midnight is skipped; the 5th ends at the change.
    expect(endOfDay('2026-09-05', 'America/Santiago').toISOString()).toBe(
      '2026-09-06T03:59:59.999Z',
    );
    // Havana, 01/11/2026: midnight comes twice; the 31st ends before the first.
    expect(endOfDay('2026-10-31', 'America/Havana').toISOString()).toBe('2026-11-01T03:59:59.999Z');
    for (const zone of ZONES) {
      for (const date of DATES.filter((d) => /^(0[1-9]|[12]\d|3[01])\/(0[1-9]|1[0-2])/.test(d))) {
        const [day, month, year] = date.split('/');
        expect(endOfDay(`${year}-${month}-${day}`, zone).getTime()).toBe(
          eventDayEndsAt(date, zone).getTime() - 1,
        );
      }
    }
  });
});
