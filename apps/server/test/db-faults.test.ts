/**
 * Issue 12 §1–2: a connection PostgreSQL drops while a request or a transaction
 * holds it must not end the process; the request answers 503 and the next one,
 * once the database is back, succeeds. Runs on PostgreSQL only (PGlite has no
 * network), through the fault suite's TCP proxy.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { AVAILABILITY_MESSAGES } from '@sesame/shared';
import { TcpProxy } from '../faults/tcp-proxy';
import { buildApp } from '../src/app';
import { isDatabaseUnavailable } from '../src/db/availability';
import { openPostgres, type DatabaseHandle } from '../src/db/client';
import { withDatabase } from './global-setup';
import { testConfig, tokenFor, as } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildUser } from './helpers/factories';

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

describe.runIf(testDatabaseKind === 'postgres')(
  'database faults (PostgreSQL through a proxy)',
  () => {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `sesame_f_${randomBytes(5).toString('hex')}`;
    let proxy: TcpProxy;
    let handle: DatabaseHandle;
    let app: FastifyInstance;
    let dataDir: string;
    let token: string;

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')!}`);
      await admin.end();
      const target = new URL(url);
      proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const port = await proxy.listen();
      const proxied = new URL(withDatabase(url, name));
      proxied.port = String(port);
      handle = await openPostgres(proxied.toString(), 5, { connectMs: 1_000, statementMs: 2_000 });
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-faults-'));
      app = await buildApp({ config: testConfig(dataDir), db: handle.db, logger: false });
      await app.ready();
      const company = await buildCompany(handle.db);
      const admin2 = await buildUser(handle.db, { company, role: 'ROLE_ADMIN' });
      token = await tokenFor(app, admin2.email);
    });

    afterAll(async () => {
      await app?.close();
      await handle?.close();
      await proxy?.close();
      await rm(dataDir, { recursive: true, force: true });
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    });

    it('a connection dropped inside a transaction fails that transaction, not the process', async () => {
      const failure = await handle.db
        .transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          proxy.reset();
          await tx.execute(sql`select 2`);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeDefined();
      expect(isDatabaseUnavailable(failure)).toBe(true);
      // The pool replaced the broken client: the next query works.
      const rows = await handle.db.execute(sql`select 3 as n`);
      expect(rows.rows[0]).toEqual({ n: 3 });
    });

    it('a request caught by a reset answers 503 with a readable message, then the next succeeds', async () => {
      const call = as(app, token);
      proxy.cut();
      const pending = call({ method: 'GET', url: '/api/user/list' });
      await until(
        async () => (proxy.swallowedBytes > 0 ? true : undefined),
        'the query to be sent',
      );
      proxy.reset();
      proxy.heal();
      const res = await pending;
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: AVAILABILITY_MESSAGES.databaseUnavailable });
      expect(res.body).not.toMatch(/at .*\.ts|stack/i);
      const ok = await call({ method: 'GET', url: '/api/user/list' });
      expect(ok.statusCode).toBe(200);
    });

    it('a partition ends in 503 within the statement timeout; /api/health answers within its budget', async () => {
      const call = as(app, token);
      proxy.cut();
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);
      const res = await call({ method: 'GET', url: '/api/user/list' });
      expect(res.statusCode).toBe(503);
      proxy.heal();
      const ok = await until(async () => {
        const r = await call({ method: 'GET', url: '/api/user/list' });
        return r.statusCode === 200 ? r : undefined;
      }, 'recovery');
      expect(ok.statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    });

    it('a refused database answers 503 (connection timeout), then recovers', async () => {
      proxy.refuse();
      const res = await as(app, token)({ method: 'GET', url: '/api/user/list' });
      expect(res.statusCode).toBe(503);
      proxy.heal();
      const ok = await until(async () => {
        const r = await as(app, token)({ method: 'GET', url: '/api/user/list' });
        return r.statusCode === 200 ? r : undefined;
      }, 'recovery');
      expect(ok.statusCode).toBe(200);
    });
  },
);

describe('isDatabaseUnavailable', () => {
  it('recognises dropped connections and timeouts, wrapped or not, and nothing else', () => {
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isDatabaseUnavailable({ message: 'Failed query', cause: { code: 'ECONNREFUSED' } }),
    ).toBe(true);
    expect(isDatabaseUnavailable({ code: '57014' })).toBe(true);
    expect(isDatabaseUnavailable({ code: '23505' })).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});
