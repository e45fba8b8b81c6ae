/**
 * Issue 32: concurrent code checks go to PostgreSQL together (db/call-batches.ts). What must
 * hold: a lone call goes alone; calls that wait go as one statement, in their order; a
 * statement PostgreSQL refused for one call's sake is run again call by call, and only that
 * call fails; a lost connection fails its calls without a second try; on PGlite and inside a
 * transaction nothing is batched. Then the code check itself: a batch writes each check,
 * the same code twice in one batch is one change, and a bad value fails its own scan only.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CheckResult } from '@sesame/shared';
import { checkVisitorCode } from '../src/checkins/toggle';
import { callBatches, type CallBatchOptions } from '../src/db/call-batches';
import { poolOf } from '../src/db/pool-of';
import { rowsOf } from '../src/db/rows';
import type { Database } from '../src/db/client';
import { visitorChecks } from '../src/db/schema';
import { tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildRequest, buildTenant, buildVisitor } from './helpers/factories';

const onPostgres = testDatabaseKind === 'postgres';

/** Ten divided by each value: zero makes PostgreSQL refuse the statement (division_by_zero). */
function tenDividedBy(options: Partial<CallBatchOptions> & { gate?: Promise<void> }) {
  const { gate, ...batching } = options;
  const singles: number[] = [];
  const batches: number[][] = [];
  let failNextBatch: Error | null = null;
  const run = callBatches<number, number>(
    async (db, n) => {
      singles.push(n);
      // A call of 0 held up until the gate opens: a statement that does not come back.
      if (gate && n === 0) {
        await gate;
        return 0;
      }
      if (!poolOf(db)) {
        const rows = await rowsOf(db, z.object({ v: z.number() }), sql`select 10 / ${n}::int as v`);
        return rows[0]!.v;
      }
      const { rows } = await poolOf(db)!.query<{ v: number }>('select 10 / $1::int as v', [n]);
      return rows[0]!.v;
    },
    async (db, values) => {
      batches.push(values);
      if (failNextBatch) {
        const error = failNextBatch;
        failNextBatch = null;
        throw error;
      }
      const { rows } = await poolOf(db)!.query<{ v: number }>(
        'select 10 / x as v from unnest($1::int[]) with ordinality as a(x, ord) order by ord',
        [values],
      );
      return rows.map((r) => r.v);
    },
    // Timers far away unless a test says otherwise: which calls go together is then certain.
    { maxInFlight: 2, maxSize: 32, maxWaitMs: 60_000, ...batching },
  );
  return {
    run,
    singles,
    batches,
    failBatchWith: (error: Error) => {
      failNextBatch = error;
    },
  };
}

/** `values`, each called in the same tick: what does not go at once waits for a batch. */
const allAtOnce = (
  run: (db: Database, n: number) => Promise<number>,
  db: Database,
  values: number[],
) => Promise.allSettled(values.map((n) => run(db, n)));

describe('concurrent calls go together (db/call-batches.ts)', () => {
  const ctx = useTestApp();

  it.skipIf(!onPostgres)('sends a lone call alone, as the single statement', async () => {
    const calls = tenDividedBy({ maxInFlight: 2, maxSize: 32 });
    await expect(calls.run(ctx.db, 5)).resolves.toBe(2);
    expect(calls.singles).toEqual([5]);
    expect(calls.batches).toEqual([]);
  });

  it.skipIf(!onPostgres)(
    'sends the calls that waited as one statement, in their order, at most maxSize',
    async () => {
      const calls = tenDividedBy({ maxInFlight: 1, maxSize: 4 });
      const results = await allAtOnce(calls.run, ctx.db, [1, 2, 5, 10, 1, 2, 5, 10, 1, 2]);
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason))).toEqual([
        10, 5, 2, 1, 10, 5, 2, 1, 10, 5,
      ]);
      // The first went at once; the nine that waited went four, four, then one (alone).
      expect(calls.batches).toEqual([
        [2, 5, 10, 1],
        [2, 5, 10, 1],
      ]);
      expect(calls.singles).toEqual([1, 2]);
    },
  );

  it.skipIf(!onPostgres)(
    "runs a refused statement's calls again alone: only the call at fault fails",
    async () => {
      const calls = tenDividedBy({ maxInFlight: 1, maxSize: 32 });
      const results = await allAtOnce(calls.run, ctx.db, [1, 2, 0, 5]);
      expect(calls.batches).toEqual([[2, 0, 5]]);
      expect(calls.singles).toEqual([1, 2, 0, 5]);
      expect(results[0]).toEqual({ status: 'fulfilled', value: 10 });
      expect(results[1]).toEqual({ status: 'fulfilled', value: 5 });
      expect(results[2]!.status).toBe('rejected');
      const reason = (results[2] as PromiseRejectedResult).reason as pg.DatabaseError;
      expect(reason).toBeInstanceOf(pg.DatabaseError);
      expect(reason.code).toBe('22012');
      expect(results[3]).toEqual({ status: 'fulfilled', value: 2 });
    },
  );

  it.skipIf(!onPostgres)(
    'fails every call of a statement whose connection failed, without a second try',
    async () => {
      const calls = tenDividedBy({ maxInFlight: 1, maxSize: 32 });
      calls.failBatchWith(new Error('Connection terminated unexpectedly'));
      const results = await allAtOnce(calls.run, ctx.db, [1, 2, 5]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
      expect(calls.singles).toEqual([1]);
      // A timeout or a server shutting down is PostgreSQL's error, yet no statement's fault.
      const shutdown = Object.assign(new pg.DatabaseError('terminating connection', 0, 'error'), {
        code: '57P01',
      });
      calls.failBatchWith(shutdown);
      const again = await allAtOnce(calls.run, ctx.db, [1, 2, 5]);
      expect(again.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
      expect(calls.singles).toEqual([1, 1]);
      // And the lane goes on: the next calls are answered.
      await expect(calls.run(ctx.db, 2)).resolves.toBe(5);
    },
  );

  it.skipIf(!onPostgres)(
    'sends the waiting calls after maxWaitMs when the statements on their way do not come back',
    async () => {
      let open = () => {};
      const gate = new Promise<void>((resolve) => (open = resolve));
      const calls = tenDividedBy({ maxInFlight: 1, maxWaitMs: 20, gate });
      const held = calls.run(ctx.db, 0);
      let heldDone = false;
      void held.then(() => (heldDone = true));
      // These wait behind the held call, then go as one statement without it.
      await expect(Promise.all([calls.run(ctx.db, 2), calls.run(ctx.db, 5)])).resolves.toEqual([
        5, 2,
      ]);
      expect(heldDone).toBe(false);
      expect(calls.batches).toEqual([[2, 5]]);
      open();
      await expect(held).resolves.toBe(0);
      // The lane is whole again: a lone call goes at once.
      await expect(calls.run(ctx.db, 10)).resolves.toBe(1);
      expect(calls.singles).toEqual([0, 10]);
    },
  );

  it('sends every call alone on PGlite and inside a transaction', async () => {
    const calls = tenDividedBy({ maxInFlight: 1, maxSize: 32 });
    await ctx.db.transaction(async (tx) => {
      const results = await allAtOnce(calls.run, tx as unknown as Database, [1, 2, 5]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    });
    if (!onPostgres) {
      const results = await allAtOnce(calls.run, ctx.db, [1, 2, 5]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    }
    expect(calls.batches).toEqual([]);
  });
});

describe('the code check in batches', () => {
  const ctx = useTestApp();

  /** Today, as the visitor form writes a date (DD/MM/YYYY), in UTC. */
  const today = () => {
    const d = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
  };

  async function scene(visitorCount: number) {
    const tenant = await buildTenant(ctx.db);
    const visitors = [];
    for (let k = 0; k < visitorCount; k++) {
      const visitor = await buildVisitor(ctx.db, { company: tenant.company, requestDate: today() });
      await buildRequest(ctx.db, { company: tenant.company, visitor, status: 1, confirmed: true });
      visitors.push(visitor);
    }
    const token = await tokenFor(ctx.app, tenant.staff.ROLE_EMPLOYEE.email);
    const caller = (await ctx.app.tokens.verify(token))!;
    const scan = (uidn: string, site?: string) =>
      checkVisitorCode(ctx.db, uidn, {
        caller,
        method: 'scan',
        repeatWindowMs: 60_000,
        ...(site ? { site } : {}),
      });
    return { tenant, visitors, scan };
  }

  it('checks in thirty visitors scanned at once, each once, several in one transaction', async () => {
    const { visitors, scan } = await scene(30);
    const results = await Promise.all(visitors.map((v) => scan(v.uidn)));
    expect(results.map((r: CheckResult) => [r.status, r.action])).toEqual(
      visitors.map(() => ['success', 'check_in']),
    );
    const ids = visitors.map((v) => v.id);
    const checks = await ctx.db
      .select()
      .from(visitorChecks)
      .where(inArray(visitorChecks.visitorId, ids));
    expect(checks).toHaveLength(30);
    expect(new Set(checks.map((c) => c.visitorId)).size).toBe(30);
    if (onPostgres) {
      // Rows one transaction wrote share its id: thirty checks in fewer than thirty commits.
      const { rows } = await poolOf(ctx.db)!.query<{ commits: number }>(
        'select count(distinct xmin::text)::int as commits from visitor_checks where visitor_id = any($1::uuid[])',
        [ids],
      );
      expect(rows[0]!.commits).toBeLessThan(30);
    }
  });

  it('makes one change of a code scanned twice in one batch, and reports the second as a repeat', async () => {
    const { visitors, scan } = await scene(4);
    const [a, b, c, d] = visitors.map((v) => v.uidn) as [string, string, string, string];
    // a and b go at once; c, d, c wait and go together.
    const results = await Promise.all([scan(a), scan(b), scan(c), scan(d), scan(c)]);
    expect(results.map((r) => r.status)).toEqual([
      'success',
      'success',
      'success',
      'success',
      'repeat',
    ]);
    expect(results[4]).toMatchObject({ action: 'check_in' });
    const checks = await ctx.db
      .select()
      .from(visitorChecks)
      .where(eq(visitorChecks.visitorId, visitors[2]!.id));
    expect(checks).toHaveLength(1);
    expect(checks[0]!.checkOutAt).toBeNull();
    if (onPostgres) {
      // c's and d's checks were written by one statement: one transaction.
      const { rows } = await poolOf(ctx.db)!.query<{ commits: number }>(
        'select count(distinct xmin::text)::int as commits from visitor_checks where visitor_id = any($1::uuid[])',
        [[visitors[2]!.id, visitors[3]!.id]],
      );
      expect(rows[0]!.commits).toBe(1);
    }
  });

  it("fails the scan whose value PostgreSQL refuses, and writes the others'", async () => {
    const { tenant, visitors, scan } = await scene(5);
    const site = tenant.company.siteId;
    // Not a uuid: refused by the statement's cast, after the route's own checks were skipped.
    const results = await Promise.allSettled(
      visitors.map((v, k) => scan(v.uidn, k === 3 ? 'not-a-site' : site)),
    );
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const written = await ctx.db
      .select()
      .from(visitorChecks)
      .where(
        inArray(
          visitorChecks.visitorId,
          visitors.map((v) => v.id),
        ),
      );
    expect(written.map((c) => c.visitorId).sort()).toEqual(
      visitors
        .filter((_, k) => k !== 3)
        .map((v) => v.id)
        .sort(),
    );
  });
});
