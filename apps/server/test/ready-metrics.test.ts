/**
 * Issue 32: /api/ready (database, storage, listener: 200, else 503 naming what is not ok)
 * and /metrics (Prometheus text behind METRICS_TOKEN: 404 without it, 401 with a wrong
 * one). On PGlite and PostgreSQL; the database cut through a proxy on PostgreSQL only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { TcpProxy } from '../faults/tcp-proxy';
import { buildApp } from '../src/app';
import { openPostgres, type Database } from '../src/db/client';
import { createMetrics, OUTBOX_SCRAPE_LIMIT_MS } from '../src/metrics/registry';
import { enqueueOnce, VISITOR_REMINDER_MAIL } from '../src/mail/outbox';
import { withDatabase } from './global-setup';
import { as, testConfig, tokenFor, useTestApp } from './helpers/app';
import { createTestDatabase, testDatabaseKind } from './helpers/db';
import { buildQrUser, buildTenant } from './helpers/factories';

const METRICS_TOKEN = 'metrics-token-for-the-scraper-0123456789';
const ctx = useTestApp({ metricsToken: METRICS_TOKEN });

/** One sample's value in the text format, or undefined when the line is absent. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    // `a="x",b="y"`: our label values hold no `",`.
    const found = Object.fromEntries(
      (match[2] ?? '')
        .split('",')
        .filter(Boolean)
        .map((pair) => {
          const at = pair.indexOf('="');
          return [pair.slice(0, at), pair.slice(at + 2).replace(/"$/, '')];
        }),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value))
      return Number(match[3]);
  }
  return undefined;
}

const scrape = async (token = METRICS_TOKEN) =>
  ctx.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

beforeAll(async () => {
  // What main.ts does at start.
  expect(await ctx.app.liveHub.verify()).toBe(true);
});

describe('/api/ready', () => {
  it('is 200 when the database, the storage and the live feed are ok', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', database: 'ok', storage: 'ok', listener: 'ok' });
  });

  it('is 503 naming the storage when its check fails, and 200 again once it answers', async () => {
    const storage = ctx.app.storage;
    const check = vi.spyOn(storage, 'check').mockRejectedValue(new Error('the bucket is gone'));
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'not ready',
        database: 'ok',
        storage: 'unreachable',
        listener: 'ok',
        message: 'not ready: storage unreachable',
      });
    } finally {
      check.mockRestore();
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('is 503 naming the database when it is gone; /api/health says so too', async () => {
    const handle = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-ready-'));
    const app = await buildApp({ config: testConfig(dataDir), db: handle.db, logger: false });
    try {
      await app.ready();
      await handle.close();
      const res = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'not ready',
        database: 'unreachable',
        storage: 'ok',
        message: expect.stringContaining('database unreachable'),
      });
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
    } finally {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(testDatabaseKind === 'postgres')(
    'answers 503 within its budget when the database is cut (no answer, no error), and 200 once healed',
    async () => {
      const url = process.env.TEST_DATABASE_URL!;
      const name = `sesame_r_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')!}`);
      await admin.end();
      const target = new URL(url);
      const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const proxied = new URL(withDatabase(url, name));
      proxied.port = String(await proxy.listen());
      const handle = await openPostgres(proxied.toString(), 4, {
        connectMs: 1_000,
        statementMs: 2_000,
      });
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-ready-'));
      const app = await buildApp({ config: testConfig(dataDir), db: handle.db, logger: false });
      try {
        expect(await app.liveHub.verify()).toBe(true);
        proxy.cut();
        const cut = await app.inject({ method: 'GET', url: '/api/ready' });
        expect(cut.statusCode).toBe(503);
        expect(cut.json()).toMatchObject({ database: 'unreachable', storage: 'ok' });
        proxy.reset();
        proxy.heal();
        let healed = cut;
        for (let i = 0; i < 200 && healed.statusCode !== 200; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          healed = await app.inject({ method: 'GET', url: '/api/ready' });
        }
        expect(healed.json()).toEqual({
          status: 'ready',
          database: 'ok',
          storage: 'ok',
          listener: 'ok',
        });
      } finally {
        await app.close();
        await handle.close();
        await proxy.close();
        await rm(dataDir, { recursive: true, force: true });
        const dropper = new pg.Client({ connectionString: url });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      }
    },
  );
});

describe('/metrics', () => {
  it('does not exist without METRICS_TOKEN, and refuses a missing or wrong token', async () => {
    const config = ctx.app.config;
    config.metricsToken = undefined;
    try {
      const absent = await scrape();
      expect(absent.statusCode).toBe(404);
      expect(absent.body).not.toContain('sesame_');
    } finally {
      config.metricsToken = METRICS_TOKEN;
    }
    for (const token of ['', 'wrong', `${METRICS_TOKEN}x`, METRICS_TOKEN.slice(0, -1)]) {
      const refused = await scrape(token);
      expect(refused.statusCode).toBe(401);
      expect(refused.body).not.toContain('sesame_');
    }
  });

  it('counts requests by route pattern and status, never by URL, and code checks by outcome', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const token = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
    const card = await buildQrUser(ctx.db, { company });
    const route = '/api/get-qr-user-data/:uidn';
    const before = await scrape();
    const had = (status: string) =>
      sample(before.body, 'sesame_http_requests_total', {
        method: 'GET',
        route,
        status_code: status,
      }) ?? 0;
    const checkedIn = sample(before.body, 'sesame_code_checks_total', { outcome: 'check_in' }) ?? 0;
    const unknown = sample(before.body, 'sesame_code_checks_total', { outcome: 'unknown' }) ?? 0;

    const call = as(ctx.app, token);
    expect(
      (await call({ method: 'GET', url: `/api/get-qr-user-data/${card.uidn}` })).statusCode,
    ).toBe(200);
    expect(
      (await call({ method: 'GET', url: '/api/get-qr-user-data/NO-SUCH-CODE-1' })).statusCode,
    ).toBe(404);

    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(
      sample(text, 'sesame_http_requests_total', { method: 'GET', route, status_code: '200' }),
    ).toBe(had('200') + 1);
    expect(
      sample(text, 'sesame_http_requests_total', { method: 'GET', route, status_code: '404' }),
    ).toBe(had('404') + 1);
    expect(
      sample(text, 'sesame_http_request_duration_seconds_count', { method: 'GET', route }),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'sesame_code_checks_total', { outcome: 'check_in' })).toBe(checkedIn + 1);
    expect(sample(text, 'sesame_code_checks_total', { outcome: 'unknown' })).toBe(unknown + 1);
    // No code, id or token in any label.
    expect(text).not.toContain(card.uidn);
    expect(text).not.toContain('NO-SUCH-CODE-1');
    expect(text).not.toContain(token);
    expect(text).not.toContain(METRICS_TOKEN);
    // The rest is there: live streams, the listener, default process figures.
    expect(sample(text, 'sesame_live_streams_open')).toBe(0);
    expect(sample(text, 'sesame_live_listener_up')).toBe(1);
    expect(sample(text, 'sesame_process_resident_memory_bytes')).toBeGreaterThan(0);
    if (testDatabaseKind === 'postgres') {
      expect(sample(text, 'sesame_db_pool_max')).toBeGreaterThan(0);
      // Read before the scrape's own outbox query asks for a connection.
      expect(sample(text, 'sesame_db_pool_waiting')).toBe(0);
      expect(sample(text, 'sesame_db_pool_open')).toBeGreaterThan(0);
    } else {
      expect(sample(text, 'sesame_db_pool_max')).toBeUndefined();
    }
  });

  it('reads the outbox at each scrape: its depth and the age of its oldest mail', async () => {
    const { company } = await buildTenant(ctx.db);
    const before = await scrape();
    const depth = sample(before.body, 'sesame_mail_outbox_pending');
    expect(depth).toBeGreaterThanOrEqual(0);
    await enqueueOnce(ctx.db, {
      companyId: company.id,
      kind: VISITOR_REMINDER_MAIL,
      toAddress: 'someone@example.com',
      payload: { visitorId: '00000000-0000-0000-0000-000000000000' },
      dedupeKey: `metrics-test:${randomBytes(4).toString('hex')}`,
    });
    const after = (await scrape()).body;
    expect(sample(after, 'sesame_mail_outbox_pending')).toBe(depth! + 1);
    expect(sample(after, 'sesame_mail_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(
      0,
    );
    expect(sample(after, 'sesame_mail_outbox_scrape_ok')).toBe(1);
  });

  it('answers a scrape when the outbox does not answer: its gauges left out, scrape_ok 0', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // A database that takes the outbox's statement and never answers it.
      const stalled = { execute: () => new Promise<never>(() => undefined) } as unknown as Database;
      const metrics = await createMetrics(
        { db: stalled, liveStreams: () => 0, listening: () => true },
        true,
      );
      const text = metrics.registry!.metrics();
      await vi.advanceTimersByTimeAsync(OUTBOX_SCRAPE_LIMIT_MS);
      const body = await text;
      expect(sample(body, 'sesame_mail_outbox_scrape_ok')).toBe(0);
      expect(sample(body, 'sesame_mail_outbox_pending')).toBe(0);
      expect(sample(body, 'sesame_live_streams_open')).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
