/**
 * Issue 34, the webhook worker's own rules, on PGlite and PostgreSQL, against receivers
 * started here (events written by migration 0032's triggers as the product's rows change):
 * a receiver closed for a minute then back gets everything once, in order; several workers
 * at once never send a delivery twice nor an endpoint's out of order; a worker that dies
 * holding a delivery is taken over after its lease; back-off for 24 hours then failed; an
 * attempt's timeout and the answer kept; the addresses refused at send (no connection made);
 * an endpoint switched off keeps its deliveries; a stop lets the attempt in hand finish.
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS } from '@sesame/shared';
import type { Db } from '../src/db/client';
import {
  visitRequests,
  visitorChecks,
  webhookDeliveries,
  webhookEndpoints,
} from '../src/db/schema';
import { SecretBox } from '../src/sso/secret-box';
import type { Resolver } from '../src/webhooks/safe-post';
import { WEBHOOK_WORKER, WebhookWorker, type WebhookWorkerOptions } from '../src/webhooks/worker';
import { as, startTestApp, tokenFor, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildRequest, buildTenant, buildVisitor } from './helpers/factories';
import {
  startWebhookReceiver,
  verifiesStandardWebhook as verifies,
  type WebhookReceiver,
} from './helpers/webhook-receiver';

const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
type Tenant = Awaited<ReturnType<typeof buildTenant>>;
type App = TestContext & { close(): Promise<void> };

const VISIT_STORY = [
  'visit.requested',
  'visit.confirmed',
  'visitor.checked_in',
  'visitor.checked_out',
] as const;

/** One visit's four events, written as the product writes its rows (the triggers emit them). */
async function visitStory(db: Db, tenant: Tenant) {
  const visitor = await buildVisitor(db, { company: tenant.company });
  const request = await buildRequest(db, { company: tenant.company, visitor });
  await db
    .update(visitRequests)
    .set({ status: 1, confirmed: true })
    .where(eq(visitRequests.id, request.id));
  const [check] = await db
    .insert(visitorChecks)
    .values({
      companyId: tenant.company.id,
      siteId: visitor.siteId,
      visitorId: visitor.id,
      checkInAt: new Date(),
      checkInMethod: 'scan',
    })
    .returning();
  await db
    .update(visitorChecks)
    .set({ checkOutAt: new Date(), checkOutMethod: 'scan' })
    .where(eq(visitorChecks.id, check!.id));
  return request.id;
}

const deliveriesOf = (db: Db, endpointId: string) =>
  db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(webhookDeliveries.seq);

describe(`webhook worker (${testDatabaseKind})`, () => {
  const ctx = {} as App;
  let receiver: WebhookReceiver;
  let tag = 0;

  /** A worker whose clock is `shiftMs` ahead of the real one. */
  const workerAt = (
    shiftMs: number,
    options: Partial<WebhookWorkerOptions> = {},
    app: App = ctx,
    resolve?: Resolver,
  ) =>
    new WebhookWorker(
      {
        db: app.db,
        config: app.config,
        log: silent,
        clock: () => new Date(Date.now() + shiftMs),
        ...(resolve ? { resolve } : {}),
      },
      options,
    );

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    Object.assign(ctx, await startTestApp());
  });
  afterAll(async () => {
    await ctx.close?.();
    await receiver?.close();
  });

  /** An endpoint added through the route, to `base` (this file's receiver by default). */
  async function subscribe(
    tenant: Tenant,
    events: readonly string[] = WEBHOOK_EVENTS,
    base = receiver.base,
  ) {
    tag += 1;
    const path = `/w-${tag}`;
    const admin = as(ctx.app, await tokenFor(ctx.app, tenant.staff.ROLE_SUPER_ADMIN.email));
    const res = await admin({
      method: 'POST',
      url: `/api/company/${tenant.company.id}/webhooks`,
      payload: { url: `${base}${path}`, events },
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data as { id: string; secret: string };
    return { id: data.id, secret: data.secret, path, admin };
  }

  it('a receiver closed for a minute, then listening again, gets every event once, in order', async () => {
    const own = await startWebhookReceiver();
    try {
      const acme = await buildTenant(ctx.db);
      const { id, path, secret } = await subscribe(acme, WEBHOOK_EVENTS, own.base);
      await own.stop();
      const first = await visitStory(ctx.db, acme);
      const second = await visitStory(ctx.db, acme);

      // Closed: each pass tries the oldest event only, and the back-off spaces the tries.
      for (const seconds of [0, 2, 6, 10, 25, 30, 45, 50]) {
        await workerAt(seconds * 1000).drain();
      }
      const [head, ...rest] = await deliveriesOf(ctx.db, id);
      expect(head).toMatchObject({ type: 'visit.requested', state: 'retrying', attempts: 3 });
      expect(head!.responseStatus).toBeNull();
      expect(head!.responseBody).toMatch(/ECONNREFUSED/);
      expect(rest.map((r) => [r.state, r.attempts])).toEqual(rest.map(() => ['pending', 0]));

      // Listening again a minute later.
      await own.restart();
      await workerAt(61_000).drain();
      const got = own.at(path);
      expect(got.map((m) => m.body.type)).toEqual([...VISIT_STORY, ...VISIT_STORY]);
      expect(got.map((m) => m.body.data.visit_id)).toEqual([
        ...VISIT_STORY.map(() => first),
        ...VISIT_STORY.map(() => second),
      ]);
      expect(new Set(got.map((m) => m.id)).size).toBe(8);
      expect(got.every((m) => verifies(secret, m))).toBe(true);
      expect((await deliveriesOf(ctx.db, id)).map((r) => r.state)).toEqual(
        got.map(() => 'delivered'),
      );
      // Nothing more, ever.
      await workerAt(2 * 60 * 60_000).drain();
      expect(own.at(path)).toHaveLength(8);
    } finally {
      await own.close();
    }
  });

  it('several workers at once send each delivery once, each endpoint’s in order, one waiting behind its retried head', async () => {
    const acme = await buildTenant(ctx.db);
    const endpoints = [await subscribe(acme), await subscribe(acme), await subscribe(acme)];
    const [slow, , failing] = endpoints;
    receiver.delayMs.set(slow!.path, 30);
    receiver.answer.set(failing!.path, 500);
    try {
      for (let i = 0; i < 4; i += 1) await visitStory(ctx.db, acme);
      await Promise.all([0, 1, 2, 3].map(() => workerAt(0).drain()));

      for (const endpoint of endpoints) {
        const rows = await deliveriesOf(ctx.db, endpoint.id);
        expect(rows).toHaveLength(16);
        const got = receiver.at(endpoint.path);
        if (endpoint === failing) {
          // Its head was tried once, by one worker; nothing behind it went.
          expect(got.map((m) => m.id)).toEqual([rows[0]!.messageId]);
          expect(rows.map((r) => r.state)).toEqual([
            'retrying',
            ...rows.slice(1).map(() => 'pending'),
          ]);
          continue;
        }
        expect(got.map((m) => m.id)).toEqual(rows.map((r) => r.messageId));
        expect(rows.every((r) => r.state === 'delivered' && r.attempts === 1)).toBe(true);
      }

      // The failing endpoint back: its sixteen, once each, in order, by whichever worker.
      receiver.answer.delete(failing!.path);
      await Promise.all([0, 1, 2].map(() => workerAt(10_000).drain()));
      const rows = await deliveriesOf(ctx.db, failing!.id);
      const delivered = receiver.at(failing!.path).filter((m) => m.answered === 200);
      expect(delivered.map((m) => m.id)).toEqual(rows.map((r) => r.messageId));
      expect(rows.map((r) => r.attempts)).toEqual([2, ...rows.slice(1).map(() => 1)]);
    } finally {
      receiver.delayMs.delete(slow!.path);
      receiver.answer.delete(failing!.path);
    }
  });

  it('a delivery held by a worker that died is taken over after its lease, and the late writer changes nothing', async () => {
    const acme = await buildTenant(ctx.db);
    const { id, path } = await subscribe(acme, ['visit.requested', 'visit.confirmed']);
    const visitor = await buildVisitor(ctx.db, { company: acme.company });
    const request = await buildRequest(ctx.db, { company: acme.company, visitor });
    await ctx.db
      .update(visitRequests)
      .set({ confirmed: true })
      .where(eq(visitRequests.id, request.id));

    const dead = workerAt(0);
    const held = await dead.claim();
    expect(held).toMatchObject({ type: 'visit.requested', state: 'sending', attempts: 1 });
    // While its lease runs, nobody sends it, nor what comes after it.
    expect(await workerAt(WEBHOOK_WORKER.leaseMs - 1_000).drain()).toBe(0);
    expect(receiver.at(path)).toHaveLength(0);
    // The lease over, another worker sends both, in order.
    expect(await workerAt(WEBHOOK_WORKER.leaseMs + 1_000).drain()).toBe(2);
    expect(receiver.at(path).map((m) => m.body.type)).toEqual([
      'visit.requested',
      'visit.confirmed',
    ]);
    // The first worker wakes up and finishes its attempt: its outcome is not written over.
    receiver.answer.set(path, 500);
    try {
      await dead.deliver(held!);
    } finally {
      receiver.answer.delete(path);
    }
    const rows = await deliveriesOf(ctx.db, id);
    expect(rows.map((r) => [r.state, r.attempts, r.responseStatus])).toEqual([
      ['delivered', 2, 200],
      ['delivered', 1, 200],
    ]);
  });

  it('retries with the back-off for 24 hours after the event, then gives up', async () => {
    const acme = await buildTenant(ctx.db);
    const { id, path, admin } = await subscribe(acme, ['visit.requested']);
    receiver.answer.set(path, 503);
    try {
      const visitor = await buildVisitor(ctx.db, { company: acme.company });
      await buildRequest(ctx.db, { company: acme.company, visitor });
      const [created] = await deliveriesOf(ctx.db, id);
      const start = created!.createdAt.getTime();

      // Each pass a millisecond after the delivery's next attempt is due.
      const waits: number[] = [];
      let shift = 0;
      for (let pass = 0; pass < 50; pass += 1) {
        await workerAt(shift).drain();
        const [row] = await deliveriesOf(ctx.db, id);
        if (row!.state === 'failed') break;
        expect(row!.state).toBe('retrying');
        waits.push(row!.nextAttemptAt.getTime() - row!.lastAttemptAt!.getTime());
        shift = row!.nextAttemptAt.getTime() - Date.now() + 1;
        // Never earlier than due: a pass just before sends nothing.
        expect(await workerAt(shift - 1_000).drain()).toBe(0);
      }
      const [last] = await deliveriesOf(ctx.db, id);
      expect(last!.state).toBe('failed');
      expect(last!.responseStatus).toBe(503);
      // The schedule, its last step repeated, while the next try stays within 24 hours.
      const expected: number[] = [];
      for (let at = 0, n = 1; ; n += 1) {
        const step = WEBHOOK_LIMITS.backoffMs[Math.min(n, WEBHOOK_LIMITS.backoffMs.length) - 1]!;
        if (at + step > WEBHOOK_LIMITS.retryWindowMs) break;
        expected.push(step);
        at += step;
      }
      expect(waits).toEqual(expected);
      expect(last!.attempts).toBe(expected.length + 1);
      expect(receiver.at(path)).toHaveLength(expected.length + 1);
      expect(last!.lastAttemptAt!.getTime() - start).toBeLessThanOrEqual(
        WEBHOOK_LIMITS.retryWindowMs + 60_000,
      );
      // Failed for good: later passes leave it.
      await workerAt(shift + 7 * 86_400_000).drain();
      expect(receiver.at(path)).toHaveLength(expected.length + 1);
      const log = await admin({
        method: 'GET',
        url: `/api/company/${acme.company.id}/webhooks/${id}/deliveries`,
      });
      expect(log.json().data[0]).toMatchObject({
        state: 'failed',
        attempts: expected.length + 1,
        next_attempt_at: null,
      });
    } finally {
      receiver.answer.delete(path);
    }
  });

  it('an attempt gives up after its timeout and is retried; the log keeps the answer’s first bytes', async () => {
    expect(WEBHOOK_WORKER.timeoutMs).toBe(5_000);
    const acme = await buildTenant(ctx.db);
    const slow = await subscribe(acme, ['visit.requested']);
    const big = await subscribe(acme, ['visit.requested']);
    receiver.delayMs.set(slow.path, 1_500);
    receiver.answer.set(big.path, 500);
    receiver.bigAnswer.set(big.path, 200 * 1024);
    try {
      const visitor = await buildVisitor(ctx.db, { company: acme.company });
      await buildRequest(ctx.db, { company: acme.company, visitor });
      const began = Date.now();
      await workerAt(0, { timeoutMs: 300 }).drain();
      expect(Date.now() - began).toBeLessThan(1_400);

      const [timedOut] = await deliveriesOf(ctx.db, slow.id);
      expect(timedOut).toMatchObject({
        state: 'retrying',
        attempts: 1,
        responseStatus: null,
        responseBody: 'no answer within 300 ms',
      });
      expect(timedOut!.nextAttemptAt.getTime() - timedOut!.lastAttemptAt!.getTime()).toBe(
        WEBHOOK_LIMITS.backoffMs[0],
      );

      const [cut] = await deliveriesOf(ctx.db, big.id);
      expect(cut).toMatchObject({ state: 'retrying', responseStatus: 500 });
      expect(cut!.responseBody).toBe('x'.repeat(WEBHOOK_LIMITS.answerKeptBytes));
      const log = await big.admin({
        method: 'GET',
        url: `/api/company/${acme.company.id}/webhooks/${big.id}/deliveries`,
      });
      expect(log.json().data[0].response_body).toHaveLength(WEBHOOK_LIMITS.answerKeptBytes);

      // Answered in time and in full, both are delivered.
      receiver.delayMs.delete(slow.path);
      receiver.answer.delete(big.path);
      await workerAt(10_000, { timeoutMs: 300 }).drain();
      expect((await deliveriesOf(ctx.db, slow.id))[0]!.state).toBe('delivered');
      const [done] = await deliveriesOf(ctx.db, big.id);
      expect(done).toMatchObject({ state: 'delivered', responseStatus: 200, attempts: 2 });
      expect(done!.responseBody).toHaveLength(WEBHOOK_LIMITS.answerKeptBytes);
    } finally {
      receiver.delayMs.delete(slow.path);
      receiver.answer.delete(big.path);
      receiver.bigAnswer.delete(big.path);
    }
  });

  it('an endpoint switched off keeps its waiting deliveries (the test event too) and sends them once switched on', async () => {
    const acme = await buildTenant(ctx.db);
    const { id, path, admin } = await subscribe(acme, ['visit.requested', 'visit.confirmed']);
    const base = `/api/company/${acme.company.id}/webhooks/${id}`;
    const visitor = await buildVisitor(ctx.db, { company: acme.company });
    const request = await buildRequest(ctx.db, { company: acme.company, visitor });
    const off = await admin({ method: 'PATCH', url: base, payload: { enabled: false } });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data).toMatchObject({ enabled: false, disabled_reason: 'manual' });
    // Switched off: what happens now is not written for it; the test event waits.
    await ctx.db
      .update(visitRequests)
      .set({ confirmed: true })
      .where(eq(visitRequests.id, request.id));
    expect((await admin({ method: 'POST', url: `${base}/test` })).statusCode).toBe(202);
    expect(await workerAt(0).drain()).toBe(0);
    expect(receiver.at(path)).toHaveLength(0);

    const on = await admin({ method: 'PATCH', url: base, payload: { enabled: true } });
    expect(on.statusCode, on.body).toBe(200);
    await workerAt(0).drain();
    expect(receiver.at(path).map((m) => m.body.type)).toEqual(['visit.requested', 'webhook.test']);
  });

  it('stopping lets the attempt in hand finish and claims nothing more', async () => {
    const acme = await buildTenant(ctx.db);
    const { id, path } = await subscribe(acme, ['visit.requested']);
    receiver.delayMs.set(path, 300);
    try {
      for (let i = 0; i < 2; i += 1) {
        const visitor = await buildVisitor(ctx.db, { company: acme.company });
        await buildRequest(ctx.db, { company: acme.company, visitor });
      }
      const worker = workerAt(0);
      const connectionsBefore = receiver.connections();
      worker.start();
      const deadline = Date.now() + 5_000;
      while (receiver.connections() === connectionsBefore && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(receiver.connections()).toBe(connectionsBefore + 1);
      await worker.stop();
      const rows = await deliveriesOf(ctx.db, id);
      expect(rows.map((r) => r.state)).toEqual(['delivered', 'pending']);
      await new Promise((resolve) => setTimeout(resolve, WEBHOOK_WORKER.pollMs + 200));
      expect(receiver.connections()).toBe(connectionsBefore + 1);
      expect(receiver.at(path)).toHaveLength(1);
    } finally {
      receiver.delayMs.delete(path);
    }
  });

  describe('addresses Sésame must not reach, at send (WEBHOOK_ALLOW_PRIVATE off)', () => {
    const strict = {} as App;
    beforeAll(async () => {
      Object.assign(strict, await startTestApp({ webhookAllowPrivate: false }));
    });
    afterAll(async () => strict.close?.());

    it('refuses loopback, the metadata address, plain http and names resolving to private addresses: no connection, failed at once', async () => {
      const acme = await buildTenant(strict.db);
      const box = new SecretBox(strict.config.ssoSecretKey, 'webhook-secret');
      // Written as if saved while the operator allowed private addresses, then stopped it.
      const urls = {
        loopback: `https://127.0.0.1:${receiver.port}/ssrf`,
        metadata: 'https://169.254.169.254/latest/meta-data/',
        plain: `http://public.example/hook`,
        rebound: `https://rebound.example:${receiver.port}/ssrf`,
        mixed: `https://mixed.example:${receiver.port}/ssrf`,
        internal: `https://internal.example:${receiver.port}/ssrf`,
      };
      const ids: Record<string, string> = {};
      for (const [name, url] of Object.entries(urls)) {
        const [row] = await strict.db
          .insert(webhookEndpoints)
          .values({
            companyId: acme.company.id,
            url,
            events: ['visit.requested'],
            secretSealed: box.seal(`whsec_${Buffer.alloc(32, 3).toString('base64')}`),
          })
          .returning();
        ids[name] = row!.id;
      }
      const visitor = await buildVisitor(strict.db, { company: acme.company });
      await buildRequest(strict.db, { company: acme.company, visitor });

      const asked: string[] = [];
      const resolve: Resolver = (hostname, _options, callback) => {
        asked.push(hostname);
        const answers: Record<string, string[]> = {
          // Where this file's receiver listens: it must never see a connection.
          'rebound.example': ['127.0.0.1'],
          // One public address beside a private one is refused all the same.
          'mixed.example': ['93.184.216.34', '192.168.1.20'],
          'internal.example': ['10.0.0.5'],
        };
        callback(
          null,
          (answers[hostname] ?? []).map((address) => ({ address, family: 4 })),
        );
      };
      const connectionsBefore = receiver.connections();
      expect(await workerAt(0, {}, strict, resolve).drain()).toBe(6);
      expect(receiver.connections()).toBe(connectionsBefore);
      expect(asked.sort()).toEqual(['internal.example', 'mixed.example', 'rebound.example']);

      const refusal = {
        loopback: 'private_address',
        metadata: 'private_address',
        plain: 'not_https',
        rebound: 'private_address',
        mixed: 'private_address',
        internal: 'private_address',
      };
      for (const [name, said] of Object.entries(refusal)) {
        const [row] = await deliveriesOf(strict.db, ids[name]!);
        expect(row, name).toMatchObject({
          state: 'failed',
          attempts: 1,
          responseStatus: null,
          responseBody: said,
        });
      }
      // Failed for good: not tried again later.
      expect(await workerAt(60 * 60_000, {}, strict, resolve).drain()).toBe(0);
      expect(asked).toHaveLength(3);
    });
  });
});
