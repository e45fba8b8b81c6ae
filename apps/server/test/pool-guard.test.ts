/**
 * Issue 26 §0: a connection that dies between the pool's checkout and BEGIN must not
 * cost the pool a slot, and a pool that ran dry anyway is repaired. PostgreSQL only
 * (PGlite has no pool). Each test opens its own small pool on a clone of the template.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { buildApp } from '../src/app';
import { isDatabaseUnavailable } from '../src/db/availability';
import { openPostgres, type DatabaseHandle } from '../src/db/client';
import { connectionIsDead, PoolWatch, poolStats } from '../src/db/pool-guard';
import { withDatabase } from './global-setup';
import { testConfig, tokenFor, as } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildUser } from './helpers/factories';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The socket under a checked-out client, destroyed before its first statement. */
function killOnCheckout(pool: pg.Pool): { times: number } {
  const killed = { times: 0 };
  pool.on('acquire', (client) => {
    killed.times++;
    (
      client as unknown as { connection: { stream: { destroy(): void } } }
    ).connection.stream.destroy();
  });
  return killed;
}

function poolOf(handle: DatabaseHandle): pg.Pool {
  return (handle.db as unknown as { $client: pg.Pool }).$client;
}

describe.runIf(testDatabaseKind === 'postgres')(
  'the PostgreSQL pool under dying connections',
  () => {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `sesame_p_${randomBytes(5).toString('hex')}`;
    let databaseUrl: string;

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')!}`);
      await admin.end();
      databaseUrl = withDatabase(url, name);
    });

    afterAll(async () => {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    });

    it('drizzle-orm alone loses the client when BEGIN fails (the upstream fault this guards against)', async () => {
      const pool = new pg.Pool({
        connectionString: databaseUrl,
        max: 2,
        connectionTimeoutMillis: 500,
      });
      pool.on('error', () => undefined);
      pool.on('connect', (client) => client.on('error', () => undefined));
      const db = drizzle(pool);
      const killed = killOnCheckout(pool);
      for (let i = 0; i < 2; i++) {
        await expect(db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();
      }
      expect(killed.times).toBe(2);
      // Both slots are still counted as checked out, though nobody holds them.
      expect(poolStats(pool)).toMatchObject({ open: 2, idle: 0 });
      await expect(pool.query('select 1')).rejects.toThrow(/timeout exceeded/);
      // The test's own cleanup: give the leaked clients back so the pool can end.
      await Promise.race([pool.end(), sleep(200)]);
    });

    it('a BEGIN that fails on a dead connection gives the slot back, every time', async () => {
      const handle = await openPostgres(databaseUrl, 2, { connectMs: 500, statementMs: 2_000 });
      try {
        const pool = poolOf(handle);
        const killed = killOnCheckout(pool);
        for (let i = 0; i < 6; i++) {
          const failure = await handle.db
            .transaction(async (tx) => tx.execute(sql`select 1`))
            .then(
              () => undefined,
              (error: unknown) => error,
            );
          expect(isDatabaseUnavailable(failure)).toBe(true);
        }
        expect(killed.times).toBe(6);
        pool.removeAllListeners('acquire');
        // The dead clients were destroyed, not put back: nothing is held, nothing waits.
        expect(poolStats(pool)).toMatchObject({ open: 0, waiting: 0 });
        const n = await handle.db.transaction(async (tx) => tx.execute(sql`select 7 as n`));
        expect(n.rows[0]).toEqual({ n: 7 });
        expect(poolStats(pool)).toMatchObject({ open: 1, idle: 1 });
      } finally {
        await handle.close();
      }
    });

    it('an ordinary failure inside the body rolls back and keeps the healthy client', async () => {
      const handle = await openPostgres(databaseUrl, 2);
      try {
        const pool = poolOf(handle);
        await expect(
          handle.db.transaction(async (tx) => {
            await tx.execute(sql`create temporary table probe (n int primary key)`);
            await tx.execute(sql`insert into probe values (1), (1)`);
          }),
        ).rejects.toThrow();
        expect(poolStats(pool)).toMatchObject({ open: 1, idle: 1, waiting: 0 });
        // Rolled back: the temporary table never existed.
        const after = await handle.db.execute(sql`select to_regclass('pg_temp.probe') as t`);
        expect(after.rows[0]).toEqual({ t: null });
        // Nested transactions (savepoints) still go through drizzle's own code.
        const nested = await handle.db.transaction(async (tx) =>
          tx.transaction(async (inner) => inner.execute(sql`select 5 as n`)),
        );
        expect(nested.rows[0]).toEqual({ n: 5 });
      } finally {
        await handle.close();
      }
    });

    it('a dry pool is noticed and its dead clients are taken back', async () => {
      const pool = new pg.Pool({
        connectionString: databaseUrl,
        max: 2,
        connectionTimeoutMillis: 5_000,
      });
      pool.on('error', () => undefined);
      pool.on('connect', (client) => client.on('error', () => undefined));
      const reclaims: number[] = [];
      const watch = new PoolWatch(pool, {
        everyMs: 60_000,
        stalledMs: 1_000,
        onReclaim: (n) => reclaims.push(n),
      });
      try {
        // Two clients checked out and lost by their holders, their connections then killed.
        const leaked = [await pool.connect(), await pool.connect()];
        const pids = leaked.map((c) => (c as unknown as { processID: number }).processID);
        const admin = new pg.Client({ connectionString: databaseUrl });
        await admin.connect();
        await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) pid', [pids]);
        await admin.end();
        for (let i = 0; i < 50 && !leaked.every(connectionIsDead); i++) await sleep(20);
        expect(leaked.every(connectionIsDead)).toBe(true);

        const waiter = pool.query('select 11 as n');
        await sleep(20);
        const now = Date.now();
        // Not yet: a pool that just ran dry may only be busy.
        expect(watch.look(now)).toBe(0);
        expect(watch.look(now + 1_000)).toBe(2);
        expect(reclaims).toEqual([2]);
        expect((await waiter).rows[0]).toEqual({ n: 11 });
        // A holder that gives its client back late does not throw.
        expect(() => leaked[0]!.release()).not.toThrow();
        expect(poolStats(pool).waiting).toBe(0);
      } finally {
        watch.stop();
        await pool.end();
      }
    });

    it('connections terminated every 100 ms under load: the server serves again within 5 s', async () => {
      const handle = await openPostgres(databaseUrl, 5, { connectMs: 1_000, statementMs: 2_000 });
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-pool-'));
      const app = await buildApp({ config: testConfig(dataDir), db: handle.db, logger: false });
      try {
        await app.ready();
        const company = await buildCompany(handle.db);
        const admin = await buildUser(handle.db, { company, role: 'ROLE_ADMIN' });
        const call = as(app, await tokenFor(app, admin.email));
        const pool = poolOf(handle);
        const before = poolStats(pool);
        const repairs: string[] = [];
        const onWarning = (warning: Error) => {
          if (/run dry/.test(warning.message)) repairs.push(warning.message);
        };
        process.on('warning', onWarning);

        let stop = false;
        const statuses: number[] = [];
        const worker = async () => {
          while (!stop) {
            // Reads and transactions alike (the list reads, the transaction writes).
            const res = await call({ method: 'GET', url: '/api/user/list' });
            statuses.push(res.statusCode);
            await handle.db
              .transaction(async (tx) => tx.execute(sql`select 1`))
              .catch(() => undefined);
          }
        };
        const load = Promise.all(Array.from({ length: 8 }, worker));
        const killer = new pg.Client({ connectionString: databaseUrl });
        await killer.connect();
        const until = Date.now() + 3_000;
        while (Date.now() < until) {
          await killer.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          );
          await sleep(100);
        }
        await killer.end();
        const backAt = Date.now();
        let health = 0;
        while (Date.now() - backAt < 5_000) {
          health = (await app.inject({ method: 'GET', url: '/api/health' })).statusCode;
          if (health === 200) break;
          await sleep(50);
        }
        stop = true;
        await load;
        process.off('warning', onWarning);
        expect(health).toBe(200);
        // The transactions gave every client back themselves: the watch had nothing to repair.
        expect(repairs).toEqual([]);
        expect(statuses).not.toContain(500);
        expect((await call({ method: 'GET', url: '/api/user/list' })).statusCode).toBe(200);
        const after = poolStats(pool);
        expect(after.max).toBe(before.max);
        expect(after.waiting).toBe(0);
        // Every open slot is a client the pool can hand out again.
        expect(after.open).toBe(after.idle);
      } finally {
        await app.close();
        await handle.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  },
);
