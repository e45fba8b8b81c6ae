/**
 * A meeting's or event's day is stored as two instants (day_starts_at, day_ends_at),
 * written in TypeScript when the row is created (dayBounds, events/time.ts) and read by
 * the code check's statement; rows that existed before were filled once by migration
 * 0013 in SQL. These hold the two readings equal, daylight-saving days and rolled-over
 * dates included, on the database under test, and check that the writers store them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, type DatabaseHandle } from '../src/db/client';
import { events, visitors } from '../src/db/schema';
import { dayBounds, eventDayEndsAt } from '../src/events/time';
import { insertEvent } from '../src/events/service';
import { endOfDay } from '../src/qr-users/dates';
import { nextMidnight } from '../src/time-zones';
import { createTestDatabase, testDatabaseKind } from './helpers/db';
import { buildCompany, buildEvent, buildUser, buildVisitor } from './helpers/factories';

/**
 * Migration 0013's backfill: its UPDATEs that compute the day from the text. The zone was
 * the company's then; it is the record's site's now (issue 28), so the join reads the site.
 */
const BACKFILL = readFileSync(
  path.join(MIGRATIONS_FOLDER, '0013_day_bounds_timestamptz.sql'),
  'utf8',
)
  .split('--> statement-breakpoint')
  .map((statement) => statement.trim())
  .filter((statement) => statement.startsWith('UPDATE') && statement.includes('make_timestamp'))
  .map((statement) =>
    statement.replace(
      'JOIN "companies" AS c ON c.id = x.company_id',
      'JOIN "sites" AS c ON c.id = x.site_id',
    ),
  );

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

describe(`a day's instants, in TypeScript and in SQL (${testDatabaseKind})`, () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it("migration 0013's backfill gives the instants the server writes, for every zone and date", async () => {
    const db = database.db;
    expect(BACKFILL).toHaveLength(2);
    for (const statement of BACKFILL) expect(statement).toContain('JOIN "sites"');
    const built: { id: string; zone: string; date: string }[] = [];
    for (const zone of ZONES) {
      const company = await buildCompany(db, { timezone: zone });
      for (const date of DATES) {
        const event = await buildEvent(db, { company, dateEvent: date });
        const visitor = await buildVisitor(db, { company, requestDate: date });
        built.push({ id: event.id, zone, date }, { id: visitor.id, zone, date });
      }
    }
    // As rows written before the columns existed: the migration fills them.
    await db.update(events).set({ dayStartsAt: new Date(0), dayEndsAt: new Date(0) });
    await db.update(visitors).set({ dayStartsAt: null, dayEndsAt: null });
    for (const statement of BACKFILL) await db.execute(sql.raw(statement));

    const stored = new Map<string, { start: number; end: number }>();
    for (const table of [events, visitors]) {
      const rows = await db
        .select({ id: table.id, start: table.dayStartsAt, end: table.dayEndsAt })
        .from(table);
      for (const r of rows) stored.set(r.id, { start: r.start!.getTime(), end: r.end!.getTime() });
    }
    const mismatches: string[] = [];
    for (const { id, zone, date } of built) {
      const ts = dayBounds(date, zone)!;
      const fromSql = stored.get(id)!;
      if (fromSql.start !== ts.dayStartsAt.getTime() || fromSql.end !== ts.dayEndsAt.getTime())
        mismatches.push(
          `${zone} ${date}: SQL ${new Date(fromSql.start).toISOString()}–${new Date(fromSql.end).toISOString()}, ` +
            `TS ${ts.dayStartsAt.toISOString()}–${ts.dayEndsAt.toISOString()}`,
        );
    }
    expect(mismatches).toEqual([]);
  });

  it('a day starts where the day before ends, and ends where eventDayEndsAt says', () => {
    for (const zone of ZONES) {
      for (const date of DATES) {
        const [d, m, y] = date.split('/').map(Number) as [number, number, number];
        const day = dayBounds(date, zone)!;
        expect(day.dayStartsAt.getTime()).toBe(nextMidnight(y, m, d - 1, zone).getTime());
        expect(day.dayEndsAt.getTime()).toBe(eventDayEndsAt(date, zone).getTime());
        expect(day.dayStartsAt.getTime()).toBeLessThan(day.dayEndsAt.getTime());
      }
    }
    expect(dayBounds(null, 'Europe/Paris')).toBeNull();
    expect(dayBounds('2026-11-23', 'Europe/Paris')).toBeNull();
  });

  it("an event is stored with its day in its site's zone", async () => {
    const db = database.db;
    const company = await buildCompany(db, { timezone: 'America/Santiago' });
    const admin = await buildUser(db, { company, role: 'ROLE_ADMIN' });
    const event = await insertEvent(
      db,
      {
        company_id: company.slug,
        name: 'Salon',
        location: 'Salle A',
        address_name: 'Plateau',
        city: '',
        country: '',
        state: '',
        zipcode: '',
        date_event: '05/09/2026',
        time_event: '10:00',
        departement_id: 1,
      },
      {
        companyId: company.id,
        site: { id: company.siteId, timezone: company.timezone },
        startsAt: new Date(),
        createdBy: admin.id,
      },
    );
    const [row] = await db.select().from(events).where(eq(events.id, event.id));
    // Santiago, 06/09/2026: midnight is skipped; the 5th ends at the change.
    expect(row!.dayStartsAt.toISOString()).toBe('2026-09-05T04:00:00.000Z');
    expect(row!.dayEndsAt.toISOString()).toBe('2026-09-06T04:00:00.000Z');
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
