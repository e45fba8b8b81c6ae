/**
 * Issue 32: the live feed behind a real PgBouncer in transaction mode. A LISTEN through it
 * is accepted and then hears nothing (its server connection went back to the pool), so:
 * - DATABASE_URL through PgBouncer without DATABASE_LISTEN_URL: the start check says in
 *   one sentence what is wrong, and /api/ready answers 503 for the listener;
 * - with DATABASE_LISTEN_URL at PostgreSQL's direct address: the check passes, /api/ready
 *   is 200, a live screen hears a check written through PgBouncer, and the app's named
 *   statements (sign-in, the code check) work through it.
 * PostgreSQL only (PGlite has no pooler).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openPostgres, type Database, type DatabaseHandle } from '../src/db/client';
import * as schema from '../src/db/schema';
import { userChecks } from '../src/db/schema';
import { as, testConfig, tokenFor } from './helpers/app';
import { createTestDatabase, testDatabaseKind } from './helpers/db';
import { buildQrUser, buildTenant } from './helpers/factories';
import { openLiveStream } from './helpers/live-stream';
import { startPgBouncer, type TestPgBouncer } from './helpers/pgbouncer';

const onPostgres = testDatabaseKind === 'postgres';

/** An app whose log lines (JSON) are kept, to read what it said at start. */
async function appWithLog(db: Database, overrides: Parameters<typeof testConfig>[1]) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-listen-'));
  const lines: string[] = [];
  const app = await buildApp({
    config: testConfig(dataDir, overrides),
    db,
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
  });
  return {
    app,
    errors: () =>
      lines
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((entry) => entry.level >= 50)
        .map((entry) => entry.msg),
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe.runIf(onPostgres)('the live feed behind PgBouncer in transaction mode', () => {
  let direct: DatabaseHandle;
  let directUrl: string;
  let bouncer: TestPgBouncer;

  beforeAll(async () => {
    direct = await createTestDatabase();
    directUrl = (direct.db as unknown as { $client: { options: { connectionString: string } } })
      .$client.options.connectionString;
    bouncer = await startPgBouncer({ target: directUrl });
  });
  afterAll(async () => {
    await bouncer?.stop();
    await direct?.close();
  });

  it('without DATABASE_LISTEN_URL: the start check says why in one sentence, and /api/ready is 503 for the listener', async () => {
    const pooled = new pg.Pool({ connectionString: bouncer.url(), max: 4 });
    const db = drizzle(pooled, { schema }) as unknown as Database;
    const server = await appWithLog(db, { databaseUrl: bouncer.url() });
    try {
      expect(await server.app.liveHub.verify()).toBe(false);
      expect(server.errors()).toEqual([
        "The live screens receive nothing: DATABASE_URL seems to point at a pooler in transaction mode; set DATABASE_LISTEN_URL to PostgreSQL's direct address.",
      ]);
      const ready = await server.app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 'not ready',
        database: 'ok',
        listener: 'deaf',
        message: expect.stringContaining('listener deaf'),
      });
      // Liveness stays a liveness check: the process answers and the database does.
      expect((await server.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await server.close();
      await pooled.end();
    }
  });

  it('with DATABASE_LISTEN_URL direct: ready, and a check written through PgBouncer reaches a live screen', async () => {
    // As main.ts opens it: the pool through PgBouncer, the migrations and LISTEN direct.
    const handle = await openPostgres(bouncer.url(), 10, undefined, directUrl);
    const server = await appWithLog(handle.db, {
      databaseUrl: bouncer.url(),
      databaseListenUrl: directUrl,
    });
    let stream: Awaited<ReturnType<typeof openLiveStream>> | undefined;
    try {
      const app: FastifyInstance = server.app;
      expect(await app.liveHub.verify()).toBe(true);
      expect(server.errors()).toEqual([]);
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.json()).toEqual({
        status: 'ready',
        database: 'ok',
        storage: 'ok',
        listener: 'ok',
      });
      expect(ready.statusCode).toBe(200);

      const { company, staff } = await buildTenant(handle.db);
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const token = await tokenFor(app, staff.ROLE_EMPLOYEE.email);
      stream = await openLiveStream(base, token);

      const card = await buildQrUser(handle.db, { company });
      await handle.db.insert(userChecks).values({
        companyId: company.id,
        siteId: company.siteId,
        qrUserId: card.id,
        checkInMethod: 'scan',
      });
      await stream.next((event) => event.type === 'presence' && event.person_id === card.id);

      // Many requests at once: PgBouncer lends each whichever server connection is free, and
      // the statements the app prepares by name elsewhere (the session's, the code check's)
      // must work on every one of them.
      const cards = await Promise.all(
        Array.from({ length: 12 }, () => buildQrUser(handle.db, { company })),
      );
      const call = as(app, token);
      const answers = await Promise.all([
        ...cards.map((other) =>
          call({ method: 'GET', url: `/api/get-qr-user-data/${other.uidn}` }),
        ),
        ...cards.map(() => call({ method: 'GET', url: '/api/user/info' })),
      ]);
      expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
      for (const other of cards)
        await stream.next((event) => event.type === 'presence' && event.person_id === other.id);
    } finally {
      stream?.close();
      await server.close();
      await handle.close();
    }
  });
});
