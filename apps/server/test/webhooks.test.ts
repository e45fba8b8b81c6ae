/**
 * Issue 34, webhooks, on PGlite and PostgreSQL, against a receiver started here: the
 * endpoints by role (the secret shown once); every event type caused through the product's
 * own routes arrives once, signed as Standard Webhooks says (checked by the test helper's own
 * HMAC, not the server's), in order per visit, with no identity document, e-mail or phone;
 * a receiver down for a minute then back gets everything once, in order; a 410 switches the
 * endpoint off; the test event and "Renvoyer"; addresses Sésame must not reach. The worker's
 * own rules (a closed receiver, two instances, the 24 hours, the timeout) are in
 * webhooks-worker.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRENCH_MESSAGES as fr, WEBHOOK_EVENTS, type InvitationCreated } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { auditEvents, visitors, webhookDeliveries, webhookEndpoints } from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { safePost } from '../src/webhooks/safe-post';
import { forgetOldDeliveries } from '../src/webhooks/service';
import { WebhookWorker } from '../src/webhooks/worker';
import { dayOf } from '../src/time-zones';
import { as, multipart, startTestApp, tokenFor, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildRequest, buildTenant, buildVisitor, visitorFormFields } from './helpers/factories';
import {
  startWebhookReceiver,
  verifiesStandardWebhook as verifies,
  type WebhookReceiver,
} from './helpers/webhook-receiver';

const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
type Tenant = Awaited<ReturnType<typeof buildTenant>>;

const todayDmy = () => dayOf(new Date(), 'UTC').split('-').reverse().join('/');

describe(`webhooks (${testDatabaseKind})`, () => {
  const ctx = {} as TestContext & { close(): Promise<void> };
  let receiver: WebhookReceiver;
  /** The worker's clock, ahead of the real one by `shift`: moved to reach a retry's time. */
  let shift = 0;
  const clock = () => new Date(Date.now() + shift);
  const drain = () =>
    new WebhookWorker({ db: ctx.db, config: ctx.config, log: silent, clock }).drain();
  let tag = 0;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    Object.assign(
      ctx,
      await startTestApp({
        rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 10_000 },
        // A code scanned twice in a row checks in, then out.
        repeatScanWindowMs: 0,
      }),
    );
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

  /**
   * A meeting asked for as a visitor does, anonymously: the visitor form (with its identity
   * document's picture) for today, then the request.
   */
  async function requestPublicly(tenant: Tenant, person: Record<string, string> = {}) {
    const png = await qrPng('identity document');
    const form = await ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(
        visitorFormFields({
          company_id: tenant.company.slug,
          request_date: todayDmy(),
          request_time: '10:30',
          ...person,
        }),
        { request_image: { filename: 'id.png', contentType: 'image/png', bytes: png } },
      ),
    });
    expect(form.statusCode, form.body).toBe(200);
    const visitorId = form.json().data.visitor_id as string;
    const filed = await ctx.app.inject({
      method: 'POST',
      url: '/api/requests/create',
      payload: { visitor_id: visitorId, host: 'M. Diallo', reason: 'Entretien' },
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const [visitor] = await ctx.db.select().from(visitors).where(eq(visitors.id, visitorId));
    return { visitor: visitor!, requestId: filed.json().data.id as string };
  }

  /** A meeting asked for publicly, confirmed by the company, its code scanned in then out. */
  async function fullVisit(tenant: Tenant, person: Record<string, string> = {}) {
    const { visitor, requestId } = await requestPublicly(tenant, person);
    const admin = await api(tenant.staff.ROLE_SUPER_ADMIN.email);
    const confirm = await admin({
      method: 'PUT',
      url: `/api/requests/update/${requestId}`,
      payload: { status: 1, confirmed: 1 },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const desk = await api(tenant.staff.ROLE_EMPLOYEE.email);
    for (const action of ['check_in', 'check_out']) {
      const scan = await desk({ method: 'GET', url: `/api/get-qr-data/${visitor.uidn}` });
      expect(scan.statusCode, scan.body).toBe(200);
      expect(scan.json().action).toBe(action);
    }
    return { visitor, requestId };
  }

  describe('endpoints', () => {
    let acme: Tenant;
    let globex: Tenant;
    beforeAll(async () => {
      acme = await buildTenant(ctx.db);
      globex = await buildTenant(ctx.db);
    });

    it('are the super admin’s and the platform admin’s: the secret is shown once (whsec_), sealed at rest, audited without it; a manager or an employee is refused, another company’s is a 404', async () => {
      const { id, secret, admin } = await subscribe(acme, ['visit.requested']);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
      const [row] = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
      expect(row!.secretSealed).not.toContain(secret.slice(6));
      const list = await admin({ method: 'GET', url: `/api/company/${acme.company.id}/webhooks` });
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(secret.slice(6));
      expect(list.json().data).toEqual([
        expect.objectContaining({ id, events: ['visit.requested'], enabled: true }),
      ]);
      expect(list.json().data[0]).not.toHaveProperty('secret');
      const [created] = await ctx.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.subjectId, id), eq(auditEvents.action, 'webhook.created')));
      expect(created!.actorUserId).toBe(acme.staff.ROLE_SUPER_ADMIN.id);
      expect(JSON.stringify(created!.detail)).not.toContain(secret.slice(6));

      // The platform's admin keeps them too.
      const platform = await api(acme.staff.ROLE_ADMIN.email);
      const seen = await platform({
        method: 'GET',
        url: `/api/company/${acme.company.id}/webhooks`,
      });
      expect(seen.statusCode, seen.body).toBe(200);
      expect(seen.json().data).toHaveLength(1);
      const added = await platform({
        method: 'POST',
        url: `/api/company/${acme.company.id}/webhooks`,
        payload: { url: `${receiver.base}/platform`, events: ['roll_call.started'] },
      });
      expect(added.statusCode, added.body).toBe(201);
      const gone = await platform({
        method: 'DELETE',
        url: `/api/company/${acme.company.id}/webhooks/${added.json().data.id}`,
      });
      expect(gone.statusCode, gone.body).toBe(200);
      expect(
        await ctx.db
          .select({ action: auditEvents.action })
          .from(auditEvents)
          .where(eq(auditEvents.subjectId, added.json().data.id)),
      ).toEqual(
        expect.arrayContaining([{ action: 'webhook.created' }, { action: 'webhook.deleted' }]),
      );

      const base = `/api/company/${acme.company.id}/webhooks`;
      for (const role of ['ROLE_MANAGER', 'ROLE_EMPLOYEE'] as const) {
        const refused = await api(acme.staff[role].email);
        for (const [method, url] of [
          ['GET', base],
          ['POST', base],
          ['DELETE', `${base}/${id}`],
          ['POST', `${base}/${id}/test`],
          ['GET', `${base}/${id}/deliveries`],
        ] as const) {
          const res = await refused({
            method,
            url,
            ...(method === 'POST' && url === base
              ? { payload: { url: `${receiver.base}/no`, events: ['visit.requested'] } }
              : {}),
          });
          expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
        }
      }
      const other = await api(globex.staff.ROLE_SUPER_ADMIN.email);
      expect((await other({ method: 'GET', url: base })).statusCode).toBe(404);
      const theirs = `/api/company/${globex.company.id}/webhooks/${id}`;
      for (const [method, url] of [
        ['DELETE', theirs],
        ['PATCH', theirs],
        ['POST', `${theirs}/test`],
        ['GET', `${theirs}/deliveries`],
      ] as const) {
        const res = await other({
          method,
          url,
          ...(method === 'PATCH' ? { payload: { enabled: false } } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      const [still] = await ctx.db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, id));
      expect(still!.enabled).toBe(true);
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
      const cases: [Record<string, unknown>, string, string][] = [
        [
          { url: `${receiver.base}/x`, events: ['visit.confirmed'], secret: 'whsec_short' },
          'secret',
          fr.integrations.secretInvalid,
        ],
        [
          {
            url: `${receiver.base}/x`,
            events: ['visit.confirmed'],
            secret: Buffer.alloc(32, 7).toString('base64'),
          },
          'secret',
          fr.integrations.secretInvalid,
        ],
        [
          { url: 'ftp://example.com/x', events: ['visit.confirmed'] },
          'url',
          fr.integrations.urlInvalid,
        ],
        [{ url: `${receiver.base}/x`, events: [] }, 'events', fr.integrations.eventsRequired],
        // An unknown event: refused on its item, as every list field is.
        [{ url: `${receiver.base}/x`, events: ['visit.exploded'] }, 'events.0', ''],
      ];
      for (const [payload, field, said] of cases) {
        const res = await admin({
          method: 'POST',
          url: `/api/company/${acme.company.id}/webhooks`,
          payload,
        });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().errors?.[field], JSON.stringify(payload)).toBeTruthy();
        if (said) expect(res.json().errors[field]).toBe(said);
      }
    });
  });

  it('every event type, caused through the product’s routes, arrives once, signed, in order per visit, without identity document, e-mail or phone', async () => {
    const acme = await buildTenant(ctx.db);
    const { secret, path } = await subscribe(acme);

    // Asked for publicly, confirmed, scanned in and out.
    const { visitor, requestId } = await fullVisit(acme, {
      id_number: 'CI-777888',
      contact: '0708091011',
      email: 'awa.secret@example.com',
    });

    // Declined: another public request.
    const other = await requestPublicly(acme, { firstname: 'Koffi', lastname: 'Yao' });
    const admin = await api(acme.staff.ROLE_SUPER_ADMIN.email);
    const decline = await admin({
      method: 'PUT',
      url: `/api/requests/decline/${other.requestId}`,
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

    // A watchlist match: an entry by the company, then a public request by that person.
    const manager = await api(acme.staff.ROLE_MANAGER.email);
    const entry = await manager({
      method: 'POST',
      url: `/api/company/${acme.company.id}/watchlist`,
      payload: { reason: 'Incident du 3 mars', until: '', email: 'banned@example.com' },
    });
    expect(entry.statusCode, entry.body).toBe(201);
    const held = await requestPublicly(acme, {
      firstname: 'Jean',
      lastname: 'Bon',
      email: 'banned@example.com',
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
    // Each event once: three requests were filed publicly (the full visit, the declined
    // one, the watchlisted one); the invited visit is told by invitation.created.
    for (const type of WEBHOOK_EVENTS) {
      const expected = type === 'visit.requested' ? 3 : 1;
      expect(
        types.filter((t) => t === type),
        type,
      ).toHaveLength(expected);
    }
    expect(got).toHaveLength(WEBHOOK_EVENTS.length + 2);
    expect(new Set(got.map((m) => m.id)).size).toBe(got.length);
    for (const message of got) {
      expect(verifies(secret, message), message.body.type).toBe(true);
      expect(verifies(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, message)).toBe(false);
      expect(message.contentType).toBe('application/json');
      expect(message.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(Math.abs(Number(message.timestamp) - Date.now() / 1000)).toBeLessThan(60);
      expect(message.body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Object.keys(message.body).sort()).toEqual(['data', 'timestamp', 'type']);
      for (const secretOfThePerson of [
        'CI-777888',
        '0708091011',
        'awa.secret@example.com',
        'banned@example.com',
        'ali@example.com',
        visitor.requestImageId!,
        visitor.uidn,
      ]) {
        expect(message.raw, message.body.type).not.toContain(secretOfThePerson);
      }
    }
    // Each visit's story in the order it happened.
    const storyOf = (visitId: string) =>
      got.filter((m) => m.body.data.visit_id === visitId).map((m) => m.body.type);
    expect(storyOf(requestId)).toEqual([
      'visit.requested',
      'visit.confirmed',
      'visitor.checked_in',
      'visitor.checked_out',
    ]);
    expect(storyOf(other.requestId)).toEqual(['visit.requested', 'visit.declined']);
    expect(storyOf(held.requestId)).toEqual(['visit.requested', 'watchlist.matched']);

    const byType = (type: string) => got.find((m) => m.body.type === type)!.body.data;
    expect(byType('visitor.checked_in')).toMatchObject({
      visit_id: requestId,
      visitor: { id: visitor.id, firstname: 'Awa', lastname: 'Koné' },
      site: { id: acme.company.siteId },
      method: 'scan',
    });
    expect(byType('visit.declined')).toMatchObject({
      visitor: { firstname: 'Koffi', lastname: 'Yao' },
      status: 'declined',
    });
    expect(byType('watchlist.matched')).toMatchObject({
      visit_id: held.requestId,
      matched_on: 'email',
      visitor: { firstname: 'Jean', lastname: 'Bon' },
    });
    expect(byType('invitation.created')).toMatchObject({
      invitation_id: invitation.invitation_id,
      site: { id: acme.company.siteId },
      visits: [expect.objectContaining({ visitor: expect.objectContaining({ firstname: 'Ali' }) })],
    });
    expect(byType('roll_call.ended')).toMatchObject({
      roll_call_id: started.json().data.id,
      ended_at: expect.any(String),
    });

    // Delivered once: a second pass, even hours later, sends nothing more.
    shift = 3 * 60 * 60_000;
    try {
      expect(await drain()).toBe(0);
    } finally {
      shift = 0;
    }
    expect(receiver.at(path)).toHaveLength(got.length);
  });

  it('an endpoint hears only the events it chose, and a company only its own', async () => {
    const acme = await buildTenant(ctx.db);
    const globex = await buildTenant(ctx.db);
    const mine = await subscribe(acme, ['visit.confirmed']);
    const theirs = await subscribe(globex);
    const { requestId } = await fullVisit(acme);
    await drain();
    expect(receiver.at(mine.path).map((m) => [m.body.type, m.body.data.visit_id])).toEqual([
      ['visit.confirmed', requestId],
    ]);
    expect(receiver.at(theirs.path)).toEqual([]);
  });

  it('a receiver down for a minute then back gets every event once, in order', async () => {
    const acme = await buildTenant(ctx.db);
    const { path, id, admin } = await subscribe(acme);
    receiver.answer.set(path, 503);
    const { requestId } = await fullVisit(acme);
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
      expect(
        log
          .json()
          .data.slice(0, -1)
          .map((d: { state: string }) => d.state),
      ).toEqual(['pending', 'pending', 'pending']);

      // Back a minute later: the next pass delivers everything.
      receiver.answer.delete(path);
      shift = 70_000;
      await drain();
      const delivered = receiver.at(path).filter((m) => m.answered === 200);
      expect(delivered.map((m) => m.body.type)).toEqual([
        'visit.requested',
        'visit.confirmed',
        'visitor.checked_in',
        'visitor.checked_out',
      ]);
      expect(delivered.every((m) => m.body.data.visit_id === requestId)).toBe(true);
      expect(new Set(delivered.map((m) => m.id)).size).toBe(4);
      // The retried message kept its id: the receiver can tell a retry from a new event.
      expect(new Set(receiver.at(path).map((m) => m.id)).size).toBe(4);
      shift = 60 * 60_000;
      expect(await drain()).toBe(0);
      const after = await admin({
        method: 'GET',
        url: `/api/company/${acme.company.id}/webhooks/${id}/deliveries`,
      });
      expect(after.json().data.map((d: { state: string }) => d.state)).toEqual([
        'delivered',
        'delivered',
        'delivered',
        'delivered',
      ]);
      expect(after.json().data.at(-1).attempts).toBeGreaterThanOrEqual(3);
    } finally {
      shift = 0;
      receiver.answer.delete(path);
    }
  });

  it('a 410 switches the endpoint off and the log says so; switched on again, it hears new events', async () => {
    const acme = await buildTenant(ctx.db);
    const { path, id, admin } = await subscribe(acme, ['visit.requested']);
    receiver.answer.set(path, 410);
    const visitor = await buildVisitor(ctx.db, { company: acme.company });
    await buildRequest(ctx.db, { company: acme.company, visitor });
    await drain();
    expect(receiver.at(path)).toHaveLength(1);
    const list = await admin({ method: 'GET', url: `/api/company/${acme.company.id}/webhooks` });
    expect(list.json().data[0]).toMatchObject({
      id,
      enabled: false,
      disabled_reason: 'gone',
      last_delivery_ok: false,
    });
    const log = await admin({
      method: 'GET',
      url: `/api/company/${acme.company.id}/webhooks/${id}/deliveries`,
    });
    expect(log.json().data).toEqual([
      expect.objectContaining({
        type: 'visit.requested',
        state: 'failed',
        attempts: 1,
        response_status: 410,
        response_body: 'status 410',
        next_attempt_at: null,
      }),
    ]);
    // Off: a new event writes nothing for it, and nothing more is sent.
    const later = await buildVisitor(ctx.db, { company: acme.company });
    await buildRequest(ctx.db, { company: acme.company, visitor: later });
    await drain();
    expect(receiver.at(path)).toHaveLength(1);
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
    const [switched] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, id), eq(auditEvents.action, 'webhook.updated')));
    expect(switched!.detail).toEqual({ enabled: true });
    const third = await buildVisitor(ctx.db, { company: acme.company });
    await buildRequest(ctx.db, { company: acme.company, visitor: third });
    await drain();
    expect(receiver.at(path)).toHaveLength(2);
    expect(receiver.at(path).at(-1)).toMatchObject({ answered: 200 });
  });

  it('"Envoyer un événement de test" and "Renvoyer" show in the log; a resend is the same message', async () => {
    const acme = await buildTenant(ctx.db);
    const { path, id, admin, secret } = await subscribe(acme, ['visit.confirmed']);
    const base = `/api/company/${acme.company.id}/webhooks/${id}`;
    const test = await admin({ method: 'POST', url: `${base}/test` });
    expect(test.statusCode, test.body).toBe(202);
    expect(test.json().message).toBe(fr.integrations.testQueued);
    const queued = await admin({ method: 'GET', url: `${base}/deliveries` });
    expect(queued.json().data).toEqual([
      expect.objectContaining({ type: 'webhook.test', state: 'pending', attempts: 0 }),
    ]);
    await drain();
    const [first] = receiver.at(path);
    expect(first!.body).toMatchObject({ type: 'webhook.test', data: { webhook_id: id } });
    expect(verifies(secret, first!)).toBe(true);

    const log = await admin({ method: 'GET', url: `${base}/deliveries` });
    expect(log.statusCode).toBe(200);
    const [delivery] = log.json().data;
    expect(delivery).toMatchObject({
      type: 'webhook.test',
      state: 'delivered',
      attempts: 1,
      response_status: 200,
      response_body: 'ok',
      last_attempt_at: expect.any(String),
    });
    const again = await admin({
      method: 'POST',
      url: `${base}/deliveries/${delivery.id}/resend`,
    });
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().message).toBe(fr.integrations.resendQueued);
    await drain();
    const both = receiver.at(path);
    expect(both).toHaveLength(2);
    expect(both[1]!.id).toBe(both[0]!.id);
    expect(both[1]!.raw).toBe(both[0]!.raw);
    expect(verifies(secret, both[1]!)).toBe(true);
    const after = await admin({ method: 'GET', url: `${base}/deliveries` });
    expect(after.json().meta.total).toBe(2);
    // Newest first: the resend, then the original.
    expect(after.json().data.map((d: { id: string }) => d.id)[1]).toBe(delivery.id);
    expect(after.json().data[0]).toMatchObject({
      message_id: delivery.message_id,
      state: 'delivered',
    });
    const [resent] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, id), eq(auditEvents.action, 'webhook.resent')));
    expect(resent!.detail).toMatchObject({ messageId: delivery.message_id, type: 'webhook.test' });

    // Paged: one per page, newest first.
    const page = await admin({ method: 'GET', url: `${base}/deliveries?per_page=1&page=2` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.map((d: { id: string }) => d.id)).toEqual([delivery.id]);

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
        // 127.0.0.1 written otherwise, and an IPv4-mapped IPv6 address.
        ['https://2130706433/hook', 'privé'],
        ['https://0x7f.1/hook', 'privé'],
        ['https://[::ffff:127.0.0.1]/hook', 'privé'],
        ['https://[::ffff:a9fe:a9fe]/latest/meta-data', 'privé'],
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
