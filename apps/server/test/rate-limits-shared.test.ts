/**
 * Issue 32: the per-route rate limits are counted where every instance sees them — in
 * PostgreSQL, or in Redis when REDIS_URL is set — so two instances enforce a route's limit
 * once between them. Each instance here is a whole app (buildApp) with its own connection
 * pool, as two processes would be; they share only the database or the Redis. A store
 * that fails lets the request through (fail open) and says so in the log.
 * On PGlite (one process) the counters stay in memory: only the Redis parts and the
 * in-process limit run there.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { DEFAULT_RATE_LIMITS, type Config } from '../src/config';
import { openPostgres, type Database, type DatabaseHandle } from '../src/db/client';
import { rateLimitHits } from '../src/db/schema';
import { sweepExpiredCounters } from '../src/rate-limits/sweep';
import { testConfig } from './helpers/app';
import { createTestDatabase, testDatabaseKind } from './helpers/db';
import { until } from './helpers/poll';

const onPostgres = testDatabaseKind === 'postgres';
const REDIS_URL = 'redis://127.0.0.1:6379';
/** This run's keys in the machine's Redis, removed at the end. */
const redisPrefix = `sesame-test-${randomBytes(6).toString('hex')}-`;
const redisUrl = (port = 6379) => `redis://127.0.0.1:${port}?keyPrefix=${redisPrefix}`;

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

interface Instance {
  app: FastifyInstance;
  logs: LogLine[];
}

interface Pair {
  a: Instance;
  b: Instance;
  db: Database;
  close(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${redisPrefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

/** An app on `db` whose log lines are kept. */
async function instance(db: Database, overrides: Partial<Config>): Promise<Instance> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-rl-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const logs: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logs.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const app = await buildApp({
    config: testConfig(dataDir, overrides),
    db,
    logger: { level: 'info', stream },
  });
  await app.ready();
  return { app, logs };
}

/**
 * Two instances on one fresh database: on PostgreSQL each with its own pool, as two
 * processes; on PGlite (one process only) both on its one connection.
 */
async function twoInstances(
  limits: { max: number; windowMs: number },
  overrides: Partial<Config> = {},
): Promise<Pair> {
  const first = await createTestDatabase();
  let second: DatabaseHandle | undefined;
  const client: unknown = (first.db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    const url = client.options.connectionString;
    if (!url) throw new Error('the test database has no connection string');
    second = await openPostgres(url, 5);
  }
  const config: Partial<Config> = {
    rateLimits: {
      ...DEFAULT_RATE_LIMITS,
      codeLookupPerWindow: limits.max,
      windowMs: limits.windowMs,
    },
    ...overrides,
  };
  const a = await instance(first.db, config);
  const b = await instance(second?.db ?? first.db, config);
  const pair: Pair = {
    a,
    b,
    db: first.db,
    close: async () => {
      await a.app.close();
      await b.app.close();
      await second?.close();
      await first.close();
    },
  };
  cleanups.push(pair.close);
  return pair;
}

/** Two public routes limited by `codeLookupPerWindow`; neither needs a record to answer. */
const card = (app: FastifyInstance, remoteAddress = '203.0.113.7') =>
  app.inject({ method: 'GET', url: '/api/visitor/card/NOT-A-CODE', remoteAddress });
const status = (app: FastifyInstance) =>
  app.inject({
    method: 'GET',
    url: `/api/requests/status/${randomUUID()}`,
    remoteAddress: '203.0.113.7',
  });

const remaining = (res: LightMyRequestResponse) => Number(res.headers['x-ratelimit-remaining']);

/**
 * `max` requests split across both instances pass, each counted once by both (the remaining
 * count goes down by one whichever answers); the next is refused by either.
 */
async function expectSharedLimit(pair: Pair, max: number) {
  for (let i = 1; i <= max; i++) {
    const res = await card(i % 2 === 1 ? pair.a.app : pair.b.app);
    expect(res.statusCode, res.body).toBe(404);
    expect(remaining(res)).toBe(max - i);
  }
  for (const { app } of [pair.a, pair.b]) {
    const refused = await card(app);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  }
}

const chosen = (instance: Instance) =>
  instance.logs.find((line) => line.msg === 'rate-limit counters chosen')?.rateLimitCounters;

describe(`rate limits shared by every instance (${testDatabaseKind})`, () => {
  const MAX = 4;

  it.runIf(onPostgres)('two instances on one PostgreSQL share a route’s limit', async () => {
    const pair = await twoInstances({ max: MAX, windowMs: 60_000 });
    expect(chosen(pair.a)).toBe('postgres');
    await expectSharedLimit(pair, MAX);
    // One row for the route and client, whichever instance counted.
    const rows = await pair.db.select().from(rateLimitHits);
    expect(rows.map((row) => [row.key, row.hits])).toEqual([
      ['GET /api/visitor/card/:uidn|203.0.113.7', MAX + 2],
    ]);

    // Another route counts on its own: its first request passes on both instances.
    const other = await status(pair.b.app);
    expect(other.statusCode).not.toBe(429);
    expect(remaining(other)).toBe(MAX - 1);
    expect(remaining(await status(pair.a.app))).toBe(MAX - 2);
  });

  it.runIf(onPostgres)('a window that has ended opens a new one', async () => {
    const pair = await twoInstances({ max: MAX, windowMs: 1_000 });
    // Until refused (a slow machine may cross a window boundary on the way; it then counts on).
    const refused = await until(async () => {
      const res = await card(pair.a.app);
      return res.statusCode === 429 ? res : null;
    }, 'the limit to refuse');
    // Retry-After is in whole seconds, rounded up: the window is over by then.
    const waitSeconds = Number(refused.headers['retry-after']);
    expect(waitSeconds).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, waitSeconds * 1_000 + 50));
    // Counted afresh, on the other instance too.
    const again = await card(pair.b.app);
    expect(again.statusCode).toBe(404);
    expect(remaining(again)).toBe(MAX - 1);
  });

  it.runIf(onPostgres)(
    'a database failure while counting lets the request through, and is logged once',
    async () => {
      const pair = await twoInstances({ max: 2, windowMs: 60_000 });
      expect((await card(pair.a.app)).statusCode).toBe(404);
      await pair.db.execute(sql`drop table rate_limit_hits`);
      // Beyond the limit, uncounted: the route answers as it would.
      for (let i = 0; i < 4; i++) expect((await card(pair.a.app)).statusCode).toBe(404);
      const warnings = pair.a.logs.filter((line) => line.level === 40);
      expect(warnings.map((line) => line.msg)).toEqual([
        'Rate-limit counters in PostgreSQL are unavailable: requests go through uncounted until it answers again',
      ]);
      await pair.db.execute(sql`create unlogged table rate_limit_hits (
        key text primary key, hits integer not null, resets_at timestamptz not null)`);
      const counted = await card(pair.a.app);
      expect(remaining(counted)).toBe(1);
      const back = pair.a.logs.find((line) => line.msg.endsWith('answer again'));
      expect(back?.uncounted).toBe(4);
    },
  );

  it('two instances on one Redis share a route’s limit, and two routes do not', async () => {
    const pair = await twoInstances({ max: MAX, windowMs: 60_000 }, { redisUrl: redisUrl() });
    expect(chosen(pair.b)).toBe('redis');
    await expectSharedLimit(pair, MAX);
    expect(remaining(await status(pair.a.app))).toBe(MAX - 1);
    expect(remaining(await status(pair.b.app))).toBe(MAX - 2);
    // Nothing in PostgreSQL: the counts are in Redis, under this deployment's prefix.
    expect(await pair.db.select().from(rateLimitHits)).toEqual([]);
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${redisPrefix}*`);
    redis.disconnect();
    expect(keys.sort()).toEqual([
      `${redisPrefix}sesame-rl-GET/api/requests/status/:id-203.0.113.7`,
      `${redisPrefix}sesame-rl-GET/api/visitor/card/:uidn-203.0.113.7`,
    ]);
  });

  it('a Redis that goes away lets requests through, logged once, and counting resumes when it is back', async () => {
    // A relay in front of the machine's Redis, which the test can cut and restore.
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((socket) => {
      const upstream = net.connect(6379, '127.0.0.1');
      for (const end of [socket, upstream]) {
        sockets.add(end);
        end.on('error', () => end.destroy());
        end.on('close', () => sockets.delete(end));
      }
      socket.pipe(upstream).pipe(socket);
    });
    const listen = (port: number) =>
      new Promise<number>((resolve) =>
        relay.listen(port, '127.0.0.1', () => resolve((relay.address() as net.AddressInfo).port)),
      );
    const port = await listen(0);
    cleanups.push(() => new Promise((resolve) => relay.close(() => resolve())));
    const pair = await twoInstances({ max: 2, windowMs: 60_000 }, { redisUrl: redisUrl(port) });
    expect(remaining(await card(pair.a.app, '198.51.100.9'))).toBe(1);

    await new Promise<void>((resolve) => {
      relay.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
    for (let i = 0; i < 4; i++)
      expect((await card(pair.a.app, '198.51.100.9')).statusCode).toBe(404);
    const warnings = pair.a.logs.filter((line) => line.level === 40).map((line) => line.msg);
    expect(warnings).toEqual([
      'Rate-limit counters in Redis are unavailable: requests go through uncounted until it answers again',
    ]);

    await listen(port);
    // The client reconnects on its own; the count taken before the cut is still there.
    const counted = await until(async () => {
      const res = await card(pair.a.app, '198.51.100.9');
      return res.statusCode === 429 ? res : null;
    }, 'the count to resume');
    expect(counted.statusCode).toBe(429);
    expect(
      pair.a.logs.some((line) => line.msg === 'Rate-limit counters in Redis answer again'),
    ).toBe(true);
  });

  it.runIf(!onPostgres)('on PGlite (one process) the limit is counted in memory', async () => {
    const pair = await twoInstances({ max: MAX, windowMs: 60_000 });
    expect(chosen(pair.a)).toBe('memory');
    for (let i = 1; i <= MAX; i++) expect(remaining(await card(pair.a.app))).toBe(MAX - i);
    expect((await card(pair.a.app)).statusCode).toBe(429);
  });

  it('the sweep deletes expired counters only, a batch at a time', async () => {
    const pair = await twoInstances({ max: MAX, windowMs: 60_000 });
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 60 * 60_000);
    await pair.db
      .insert(rateLimitHits)
      .values([
        ...Array.from({ length: 5 }, (_, i) => ({ key: `old|${i}`, hits: 3, resetsAt: past })),
        { key: 'live|1', hits: 1, resetsAt: future },
      ]);
    expect(await sweepExpiredCounters(pair.db, undefined, 2)).toBe(5);
    const left = await pair.db.select({ key: rateLimitHits.key }).from(rateLimitHits);
    expect(left).toEqual([{ key: 'live|1' }]);
  });
});
