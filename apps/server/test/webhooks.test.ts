/**
 * Issue 34, webhooks, on PGlite and PostgreSQL, against a receiver started here: the
 * endpoints by role (the secret shown once); every event type caused through the product's
 * own paths arrives once, signed as Standard Webhooks says (checked below by this file's own
 * HMAC, not the server's), in order per visit, with no identity document, e-mail or phone;
 * a receiver down for a minute then back gets everything once, in order; a 410 switches the
 * endpoint off; the test event and "Renvoyer"; addresses Sésame must not reach.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS, type InvitationCreated } from '@sesame/shared';
import {
  visitorChecks,
  watchlistHolds,
  webhookDeliveries,
  webhookEndpoints,
} from '../src/db/schema';
import { safePost } from '../src/webhooks/safe-post';
import { forgetOldDeliveries } from '../src/webhooks/service';
import { WebhookWorker } from '../src/webhooks/worker';
import { dayOf } from '../src/time-zones';
import { as, startTestApp, tokenFor, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildRequest, buildTenant, buildVisitor } from './helpers/factories';

const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
type Tenant = Awaited<ReturnType<typeof buildTenant>>;

interface Received {
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  raw: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  answered: number;
}

/** A receiver: records every POST; `answer` says the status each path gets (200 by default). */
async function startReceiver() {
  const received: Received[] = [];
  const answer = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const status = answer.get(path) ?? 200;
      received.push({
        path,
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        raw,
        body: JSON.parse(raw),
        answered: status,
      });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 200 ? 'ok' : `status ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    answer,
    at: (path: string) => received.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Standard Webhooks' verification, written here from the specification: the key is the
 * base64 after `whsec_`; the signed content `${id}.${timestamp}.${body}`; the header holds
 * space-separated `v1,<base64>` signatures.
 */
function verifies(secret: string, message: Received): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${message.id}.${message.timestamp}.${message.raw}`)
    .digest('base64');
  return message.signature.split(' ').some((sig) => sig === `v1,${expected}`);
}

const todayDmy = () => dayOf(new Date(), 'UTC').split('-').reverse().join('/');

describe(`webhooks (${testDatabaseKind})`, () => {
  const ctx = {} as TestContext & { close(): Promise<void> };
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** The worker's clock, ahead of the real one by `shift`: moved to reach a retry's time. */
  let shift = 0;
  const clock = () => new Date(Date.now() + shift);
  const drain = () =>
    new WebhookWorker({ db: ctx.db, config: ctx.config, log: silent, clock }).drain();
  let tag = 0;

  beforeAll(async () => {
    receiver = await startReceiver();
    Object.assign(ctx, await startTestApp());
  });
  afterAll(async () => {
    await ctx.close?.();
    await receiver?.close();
  });

  const api = async (email: string) => as(ctx.app, await tokenFor(ctx.app, email));

  /** Adds an endpoint through the route; answers its id, secret and the path it posts to. */
  async function subscribe(tenant: Tenant, events: readonly string[] = WEBHOOK_EVENTS) {
    tag += 1;
    const path = `/hook-${tag}`;
    const admin = await api(tenant.staff.ROLE_SUPER_ADMIN.email);
    const res = await admin({
      method: 'POST',
      url: `/api/company/${tenant.company.id}/webhooks`,
      payload: { url: `${receiver.base}${path}`, events },
    });
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data as { id: string; secret: string };
    return { id: data.id, secret: data.secret, path, admin };
  }

  /** A request filed, then confirmed by the host side, checked in and out at the desk. */
  async function fullVisit(tenant: Tenant) {
    const visitor = await buildVisitor(ctx.db, {
      company: tenant.company,
      idNumber: 'CI-777888',
      contact: '0708091011',
      email: 'awa.secret@example.com',
    });
    const request = await buildRequest(ctx.db, { company: tenant.company, visitor });
    const admin = await api(tenant.staff.ROLE_SUPER_ADMIN.email);
    const confirm = await admin({
      method: 'PUT',
      url: `/api/requests/update/${request.id}`,
      payload: { status: 1, confirmed: 1 },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const desk = await api(tenant.staff.ROLE_EMPLOYEE.email);
    const scan = await desk({ method: 'GET', url: `/api/get-qr-data/${visitor.uidn}` });
    expect(scan.statusCode, scan.body).toBe(200);
    const [check] = await ctx.db
      .select()
      .from(visitorChecks)
      .where(eq(visitorChecks.visitorId, visitor.id));
    const out = await desk({ method: 'POST', url: `/api/on-site/${check!.id}/check-out` });
    expect(out.statusCode, out.body).toBe(200);
    return { visitor, request };
  }

  describe('endpoints', () => {
    let acme: Tenant;
    let globex: Tenant;
    beforeAll(async () => {
      acme = await buildTenant(ctx.db);
      globex = await buildTenant(ctx.db);
    });

    it('are the admin side’s: the secret is shown once (whsec_), sealed at rest; a manager is refused, another company’s is a 404', async () => {
      const { id, secret, admin } = await subscribe(acme, ['visit.requested']);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const [row] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
      expect(row!.secretSealed).not.toContain(secret.slice(6));
      const list = await admin({ method: 'GET', url: `/api/company/${acme.company.id}/webhooks` });
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(secret.slice(6));
      expect(list.json().data).toEqual([
        expect.objectContaining({ id, events: ['visit.requested'], enabled: true }),
      ]);

      const manager = await api(acme.staff.ROLE_MANAGER.email);
      expect(
        (await manager({ method: 'GET', url: `/api/company/${acme.company.id}/webhooks` }))
          .statusCode,
      ).toBe(403);
      const other = await api(globex.staff.ROLE_SUPER_ADMIN.email);
      expect(
        (await other({ method: 'GET', url: `/api/company/${acme.company.id}/webhooks` }))
          .statusCode,
      ).toBe(404);
      expect(
        (
          await other({
            method: 'DELETE',
            url: `/api/company/${globex.company.id}/webhooks/${id}`,
          })
        ).statusCode,
      ).toBe(404);
    });

    it('take the company’s own Standard Webhooks secret, and refuse a malformed one or URL', async () => {
      const admin = await api(acme.staff.ROLE_SUPER_ADMIN.email);
      const own = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
      const ok = await admin({
        method: 'POST',
        url: `/api/company/${acme.company.id}/webhooks`,
        payload: { url: `${receiver.base}/own`, events: ['visit.confirmed'], secret: own },
      });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json().data.secret).toBe(own);
      for (const payload of [
        { url: `${receiver.base}/x`, events: ['visit.confirmed'], secret: 'whsec_short' },
        { url: 'ftp://example.com/x', events: ['visit.confirmed'] },
        { url: `${receiver.base}/x`, events: [] },
        { url: `${receiver.base}/x`, events: ['visit.exploded'] },
      ]) {
        const res = await admin({
          method: 'POST',
          url: `/api/company/${acme.company.id}/webhooks`,
          payload,
        });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      }
    });
  });

  it('every event type arrives once, signed, in order per visit, without identity document, e-mail or phone', async () => {
    const acme = await buildTenant(ctx.db);
    const { secret, path } = await subscribe(acme);
    const { request } = await fullVisit(acme);

    // Declined: another request.
    const other = await buildVisitor(ctx.db, { company: acme.company });
    const otherRequest = await buildRequest(ctx.db, { company: acme.company, visitor: other });
    const admin = await api(acme.staff.ROLE_SUPER_ADMIN.email);
    const decline = await admin({
      method: 'PUT',
      url: `/api/requests/decline/${otherRequest.id}`,
      payload: { reason: 'Complet' },
    });
    expect(decline.statusCode, decline.body).toBe(200);

    // An invitation by a host.
    const hostApi = await api(acme.staff.ROLE_EMPLOYEE.email);
    const invited = await hostApi({
      method: 'POST',
      url: '/api/invitations',
      payload: {
        site_id: acme.company.siteId,
        date: todayDmy(),
        time: '09:00',
        end_time: '10:00',
        reason: 'Audit',
        language: 'fr',
        visitors: [
          { firstname: 'Ali', lastname: 'Ba', email: 'ali@example.com', organisation: 'X' },
        ],
      },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const invitation = invited.json<InvitationCreated>();

    // A watchlist match (a hold written as the screening writes it).
    const held = await buildVisitor(ctx.db, { company: acme.company });
    await ctx.db.insert(watchlistHolds).values({
      companyId: acme.company.id,
      siteId: acme.company.siteId,
      visitorId: held.id,
      source: 'request',
      matchedOn: 'name',
      similarity: 0.9,
    });

    // A roll call started and ended at the desk.
    const desk = await api(acme.staff.ROLE_EMPLOYEE.email);
    const started = await desk({ method: 'POST', url: '/api/roll-calls', payload: {} });
    expect(started.statusCode, started.body).toBe(201);
    const ended = await desk({
      method: 'POST',
      url: `/api/roll-calls/${started.json().data.id}/end`,
    });
    expect(ended.statusCode, ended.body).toBe(200);

    // Nothing leaves before the worker runs: the events wait in the outbox.
    expect(receiver.at(path)).toHaveLength(0);
    await drain();
    const got = receiver.at(path);
    const types = got.map((m) => m.body.type);
    // Each event once: two requests were filed (the declined one is the second).
    for (const type of WEBHOOK_EVENTS) {
      const expected = type === 'visit.requested' ? 2 : 1;
      expect(
        types.filter((t) => t === type),
        type,
      ).toHaveLength(expected);
    }
    expect(new Set(got.map((m) => m.id)).size).toBe(got.length);
    for (const message of got) {
      expect(verifies(secret, message), message.body.type).toBe(true);
      expect(message.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(Math.abs(Number(message.timestamp) - Date.now() / 1000)).toBeLessThan(60);
      expect(message.body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(message.raw).not.toContain('CI-777888');
      expect(message.raw).not.toContain('0708091011');
      expect(message.raw).not.toContain('awa.secret@example.com');
    }
    // One visit's story in the order it happened.
    const visitStory = got
      .filter((m) => m.body.data.visit_id === request.id)
      .map((m) => m.body.type);
    expect(visitStory).toEqual([
      'visit.requested',
      'visit.confirmed',
      'visitor.checked_in',
      'visitor.checked_out',
    ]);
    const invitationMessage = got.find((m) => m.body.type === 'invitation.created')!;
    expect(invitationMessage.body.data).toMatchObject({
      invitation_id: invitation.invitation_id,
      visits: [expect.objectContaining({ visitor: expect.objectContaining({ firstname: 'Ali' }) })],
    });
    const checkIn = got.find((m) => m.body.type === 'visitor.checked_in')!;
    expect(checkIn.body.data).toMatchObject({
      visit_id: request.id,
      site: { id: acme.company.siteId },
      method: expect.any(String),
    });

    // Delivered once: a second pass sends nothing more.
    expect(await drain()).toBe(0);
    expect(receiver.at(path)).toHaveLength(got.length);
  });

  it('a receiver down for a minute then back gets every event once, in order', async () => {
    const acme = await buildTenant(ctx.db);
    const { path, id, admin } = await subscribe(acme);
    receiver.answer.set(path, 503);
    const { request } = await fullVisit(acme);
    shift = 0;
    try {
      // Down: the oldest event is tried, the later ones wait behind it.
      await drain();
      expect(receiver.at(path).map((m) => m.body.type)).toEqual(['visit.requested']);
      for (const seconds of [10, 30, 55]) {
        shift = seconds * 1000;
        await drain();
      }
      expect(new Set(receiver.at(path).map((m) => m.body.type))).toEqual(
        new Set(['visit.requested']),
      );
      const log = await admin({
        method: 'GET',
        url: `/api/company/${acme.company.id}/webhooks/${id}/deliveries`,
      });
      expect(log.json().data.at(-1)).toMatchObject({
        type: 'visit.requested',
        state: 'retrying',
        response_status: 503,
        response_body: 'status 503',
      });

      // Back a minute later.
      receiver.answer.delete(path);
      shift = 5 * 60_000;
      await drain();
      const delivered = receiver.at(path).filter((m) => m.answered === 200);
      expect(delivered.map((m) => m.body.type)).toEqual([
        'visit.requested',
        'visit.confirmed',
        'visitor.checked_in',
        'visitor.checked_out',
      ]);
      expect(delivered.every((m) => m.body.data.visit_id === request.id)).toBe(true);
      expect(new Set(delivered.map((m) => m.id)).size).toBe(4);
      shift = 60 * 60_000;
      expect(await drain()).toBe(0);
    } finally {
      shift = 0;
      receiver.answer.delete(path);
    }
  });

  it('a 410 switches the endpoint off; switched on again, it hears new events', async () => {
    const acme = await buildTenant(ctx.db);
    const { path, id, admin } = await subscribe(acme, ['visit.requested']);
    receiver.answer.set(path, 410);
    const visitor = await buildVisitor(ctx.db, { company: acme.company });
    await buildRequest(ctx.db, { company: acme.company, visitor });
    await drain();
    const list = await admin({ method: 'GET', url: `/api/company/${acme.company.id}/webhooks` });
    expect(list.json().data[0]).toMatchObject({
      id,
      enabled: false,
      disabled_reason: 'gone',
      last_delivery_ok: false,
    });
    // Off: a new event writes nothing for it.
    const later = await buildVisitor(ctx.db, { company: acme.company });
    await buildRequest(ctx.db, { company: acme.company, visitor: later });
    const rows = await ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, id));
    expect(rows.map((r) => r.state)).toEqual(['failed']);

    receiver.answer.delete(path);
    const on = await admin({
      method: 'PATCH',
      url: `/api/company/${acme.company.id}/webhooks/${id}`,
      payload: { enabled: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data).toMatchObject({ enabled: true, disabled_reason: null });
    const third = await buildVisitor(ctx.db, { company: acme.company });
    await buildRequest(ctx.db, { company: acme.company, visitor: third });
    await drain();
    expect(receiver.at(path).at(-1)).toMatchObject({ answered: 200 });
  });

  it('"Envoyer un événement de test" and "Renvoyer" show in the log; a resend is the same message', async () => {
    const acme = await buildTenant(ctx.db);
    const { path, id, admin, secret } = await subscribe(acme, ['visit.confirmed']);
    const base = `/api/company/${acme.company.id}/webhooks/${id}`;
    const test = await admin({ method: 'POST', url: `${base}/test` });
    expect(test.statusCode, test.body).toBe(202);
    await drain();
    const [first] = receiver.at(path);
    expect(first!.body).toMatchObject({ type: 'webhook.test', data: { webhook_id: id } });
    expect(verifies(secret, first!)).toBe(true);

    const log = await admin({ method: 'GET', url: `${base}/deliveries` });
    expect(log.statusCode).toBe(200);
    const [delivery] = log.json().data;
    expect(delivery).toMatchObject({ type: 'webhook.test', state: 'delivered', attempts: 1 });
    const again = await admin({
      method: 'POST',
      url: `${base}/deliveries/${delivery.id}/resend`,
    });
    expect(again.statusCode, again.body).toBe(202);
    await drain();
    const both = receiver.at(path);
    expect(both).toHaveLength(2);
    expect(both[1]!.id).toBe(both[0]!.id);
    const after = await admin({ method: 'GET', url: `${base}/deliveries` });
    expect(after.json().meta.total).toBe(2);

    const globex = await buildTenant(ctx.db);
    const stranger = await api(globex.staff.ROLE_SUPER_ADMIN.email);
    expect(
      (
        await stranger({
          method: 'POST',
          url: `/api/company/${globex.company.id}/webhooks/${id}/deliveries/${delivery.id}/resend`,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('a person erased takes the deliveries that name them; finished deliveries leave the log after 30 days', async () => {
    const acme = await buildTenant(ctx.db);
    const { id } = await subscribe(acme, ['visit.requested', 'visit.confirmed']);
    const erased = await buildVisitor(ctx.db, { company: acme.company, firstname: 'Zoé' });
    await buildRequest(ctx.db, { company: acme.company, visitor: erased });
    const kept = await buildVisitor(ctx.db, { company: acme.company, firstname: 'Yao' });
    await buildRequest(ctx.db, { company: acme.company, visitor: kept });
    await drain();
    const manager = await api(acme.staff.ROLE_MANAGER.email);
    const gone = await manager({
      method: 'POST',
      url: `/api/privacy/visitor/${erased.id}/erase`,
    });
    expect(gone.statusCode, gone.body).toBe(200);
    const left = await ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, id));
    expect(left).toHaveLength(1);
    expect(JSON.stringify(left[0]!.payload)).toContain('Yao');
    expect(JSON.stringify(left)).not.toContain('Zoé');

    // 31 days on, the hourly sweep deletes the finished delivery.
    expect(await forgetOldDeliveries(ctx.db, new Date(Date.now() + 29 * 86_400_000))).toBe(0);
    expect(
      await forgetOldDeliveries(ctx.db, new Date(Date.now() + 31 * 86_400_000)),
    ).toBeGreaterThanOrEqual(1);
    expect(
      await ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id)),
    ).toEqual([]);
  });

  describe('addresses Sésame must not reach (WEBHOOK_ALLOW_PRIVATE off)', () => {
    const strict = {} as TestContext & { close(): Promise<void> };
    beforeAll(async () => {
      Object.assign(strict, await startTestApp({ webhookAllowPrivate: false }));
    });
    afterAll(async () => strict.close?.());

    it('refuses loopback, link-local, private and plain http at save', async () => {
      const acme = await buildTenant(strict.db);
      const admin = as(strict.app, await tokenFor(strict.app, acme.staff.ROLE_SUPER_ADMIN.email));
      const cases: [string, string][] = [
        ['http://example.com/hook', 'https://'],
        ['https://127.0.0.1/hook', 'privé'],
        ['https://169.254.169.254/latest/meta-data', 'privé'],
        ['https://10.1.2.3/hook', 'privé'],
        ['https://[::1]/hook', 'privé'],
        ['https://localhost/hook', 'privé'],
      ];
      for (const [url, said] of cases) {
        const res = await admin({
          method: 'POST',
          url: `/api/company/${acme.company.id}/webhooks`,
          payload: { url, events: ['visit.requested'] },
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().errors.url, url).toContain(said);
      }
    });

    it('refuses at send a name that resolves to a private address (no connection made)', async () => {
      const acme = await buildTenant(strict.db);
      const admin = as(strict.app, await tokenFor(strict.app, acme.staff.ROLE_SUPER_ADMIN.email));
      const res = await admin({
        method: 'POST',
        url: `/api/company/${acme.company.id}/webhooks`,
        payload: { url: 'https://hooks.internal.example/x', events: ['visit.requested'] },
      });
      expect(res.statusCode, res.body).toBe(201);
      const visitor = await buildVisitor(strict.db, { company: acme.company });
      await buildRequest(strict.db, { company: acme.company, visitor });
      const asked: string[] = [];
      const worker = new WebhookWorker({
        db: strict.db,
        config: strict.config,
        log: silent,
        resolve: (hostname, _options, callback) => {
          asked.push(hostname);
          callback(null, [{ address: '10.0.0.5', family: 4 }]);
        },
      });
      await worker.drain();
      expect(asked).toEqual(['hooks.internal.example']);
      const [row] = await strict.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, res.json().data.id));
      expect(row).toMatchObject({ state: 'failed', responseStatus: null });
      expect(row!.responseBody).toBe('private_address');
    });
  });

  it('gives up an attempt after its timeout, and reads at most 64 KB of an answer', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 2_000).unref();
        return;
      }
      res.writeHead(200);
      res.end('x'.repeat(200 * 1024));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const slow = await safePost(`${base}/slow`, '{}', { allowPrivate: true, timeoutMs: 300 });
      expect(slow.status).toBeNull();
      expect(slow.body).toContain('no answer within 300 ms');
      const big = await safePost(`${base}/big`, '{}', { allowPrivate: true });
      expect(big.status).toBe(200);
      expect(big.body.length).toBe(64 * 1024);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
