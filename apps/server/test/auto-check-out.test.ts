/**
 * Issue 14: the company's 'fin de journée' checks out whoever is still inside, with the
 * method 'automatic', once — on one database shared by two server instances too — and
 * never a check opened after the day end of its own day before the next one.
 * Fixed clocks: the job is called with its `now`.
 */
import { describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { autoCheckOut } from '../src/checkins/auto-check-out';
import { openPostgres, type Db } from '../src/db/client';
import { userChecks, visitorChecks } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildQrUser, buildTenant, buildVisitor } from './helpers/factories';

const ctx = useTestApp();

async function openUserCheck(company: { id: string; siteId: string }, at: string) {
  const person = await buildQrUser(ctx.db, { company, dateExp: null });
  const [row] = await ctx.db
    .insert(userChecks)
    .values({
      companyId: company.id,
      siteId: company.siteId,
      qrUserId: person.id,
      checkInAt: new Date(at),
      checkInMethod: 'scan',
    })
    .returning();
  return row!;
}

async function checkOf(id: string) {
  const [row] = await ctx.db.select().from(userChecks).where(eq(userChecks.id, id));
  return row!;
}

describe(`automatic check-out (${testDatabaseKind})`, () => {
  it("closes an open check at its company's day end, in the company's zone, marked automatic", async () => {
    // Paris in November is UTC+1: an 18:00 day end is 17:00Z.
    const company = await buildCompany(ctx.db, { timezone: 'Europe/Paris', dayEnd: '18:00' });
    const morning = await openUserCheck(company, '2026-11-23T08:00:00Z');
    const left = await openUserCheck(company, '2026-11-23T09:00:00Z');
    await ctx.db
      .update(userChecks)
      .set({ checkOutAt: new Date('2026-11-23T10:00:00Z'), checkOutMethod: 'manual' })
      .where(eq(userChecks.id, left.id));

    // An undone arrival (checkins/undo.ts) is no presence: never checked out.
    const undone = await openUserCheck(company, '2026-11-23T08:30:00Z');
    await ctx.db
      .update(userChecks)
      .set({ undoneAt: new Date('2026-11-23T08:35:00Z'), undoReason: 'Erreur' })
      .where(eq(userChecks.id, undone.id));

    await autoCheckOut(ctx.db, new Date('2026-11-23T16:59:59Z'));
    expect((await checkOf(morning.id)).checkOutAt).toBeNull();

    await autoCheckOut(ctx.db, new Date('2026-11-23T17:00:30Z'));
    const closed = await checkOf(morning.id);
    expect(closed).toMatchObject({ checkOutMethod: 'automatic', checkOutBy: null });
    expect(closed.checkOutAt!.toISOString()).toBe('2026-11-23T17:00:00.000Z');
    // A check closed by hand keeps its own departure.
    expect(await checkOf(left.id)).toMatchObject({ checkOutMethod: 'manual' });
    expect(await checkOf(undone.id)).toMatchObject({ checkOutAt: null, checkOutMethod: null });
  });

  it('leaves a check opened after the day end of its day until the next day end', async () => {
    const company = await buildCompany(ctx.db, { timezone: 'Europe/Paris', dayEnd: '18:00' });
    const late = await openUserCheck(company, '2026-11-23T18:30:00Z'); // 19:30 in Paris
    await autoCheckOut(ctx.db, new Date('2026-11-23T19:00:00Z'));
    await autoCheckOut(ctx.db, new Date('2026-11-24T16:59:00Z'));
    expect((await checkOf(late.id)).checkOutAt).toBeNull();
    await autoCheckOut(ctx.db, new Date('2026-11-24T17:01:00Z'));
    expect((await checkOf(late.id)).checkOutAt!.toISOString()).toBe('2026-11-24T17:00:00.000Z');
  });

  it('uses 23:59 by default, for visitors too, and shows the method in the log and the CSV', async () => {
    const { company, staff } = await buildTenant(ctx.db); // Africa/Abidjan, UTC+0
    const visitor = await buildVisitor(ctx.db, { company });
    const [check] = await ctx.db
      .insert(visitorChecks)
      .values({
        companyId: company.id,
        siteId: visitor.siteId,
        visitorId: visitor.id,
        checkInAt: new Date('2030-01-10T08:00:00Z'),
        checkInMethod: 'scan',
      })
      .returning();
    await autoCheckOut(ctx.db, new Date('2030-01-10T23:58:00Z'));
    const [open] = await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.id, check!.id));
    expect(open!.checkOutAt).toBeNull();
    await autoCheckOut(ctx.db, new Date('2030-01-10T23:59:00Z'));

    const token = await tokenFor(ctx.app, staff.ROLE_SUPERVISOR.email);
    const range = 'from=2030-01-10T00:00:00Z&to=2030-01-11T00:00:00Z';
    const log = await as(ctx.app, token)({ method: 'GET', url: `/api/visitorlog?${range}` });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().data[0]).toMatchObject({
      check_out_time: '2030-01-10T23:59:00.000Z',
      check_out_method: 'automatic',
      check_out_by: null,
    });
    const csv = await as(ctx.app, token)({ method: 'GET', url: `/api/visitorlog/export?${range}` });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain(';Automatique;');
  });

  it('closes each check once when two instances run the job at the same time', async () => {
    const company = await buildCompany(ctx.db, { timezone: 'Europe/Paris', dayEnd: '18:00' });
    const checks = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        openUserCheck(company, `2026-11-23T${String(7 + (i % 9)).padStart(2, '0')}:00:00Z`),
      ),
    );
    // On PostgreSQL the second instance is a second pool on the same database.
    let other: Db = ctx.db;
    let closeOther = async () => {};
    if (ctx.handle.kind === 'postgres') {
      const pool = (ctx.db as unknown as { $client: { options: { connectionString: string } } })
        .$client;
      const second = await openPostgres(pool.options.connectionString, 4);
      other = second.db;
      closeOther = () => second.close();
    }
    try {
      const now = new Date('2026-11-23T18:00:00Z');
      const counts = await Promise.all(
        Array.from({ length: 6 }, (_, i) => autoCheckOut(i % 2 ? other : ctx.db, now)),
      );
      expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
      const rows = await ctx.db
        .select()
        .from(userChecks)
        .where(
          inArray(
            userChecks.id,
            checks.map((c) => c.id),
          ),
        );
      expect(rows.every((r) => r.checkOutMethod === 'automatic')).toBe(true);
      expect(new Set(rows.map((r) => r.checkOutAt!.toISOString()))).toEqual(
        new Set(['2026-11-23T17:00:00.000Z']),
      );
      expect(await autoCheckOut(other, new Date('2026-11-23T18:05:00Z'))).toBe(0);
    } finally {
      await closeOther();
    }
  });
});
