/**
 * Issue 12 §3–5: a transient error never cancels a mail, each mail goes out once
 * even past its lease on a slow SMTP server or with the database out when `sent`
 * is recorded, a permanent refusal (5xx) stops the retries and is shown to staff,
 * who can press Renvoyer.
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_MESSAGES } from '@sesame/shared';
import { FaultySmtp } from '../faults/smtp';
import type { Database } from '../src/db/client';
import { mailOutbox } from '../src/db/schema';
import { enqueueVisitorCodeMail } from '../src/mail/outbox';
import { smtpTransport } from '../src/mail/transport';
import { MailWorker, permanentRefusal, type MailRetryOptions } from '../src/mail/worker';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildEvent, buildTenant, buildVisitor, queueCodeMail } from './helpers/factories';
import { until } from './helpers/poll';

const silent = pino({
  level: process.env.MAIL_DEBUG ? 'debug' : 'silent',
}) as unknown as FastifyBaseLogger;
const dropped = () => new Error('Connection terminated unexpectedly');

/** The database, with the next `n` calls of `method` failing like a dropped connection. */
function flaky(db: Database, faults: { select?: number; update?: number }): Database {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if ((prop === 'select' || prop === 'update') && (faults[prop] ?? 0) > 0) {
        faults[prop]! -= 1;
        return () => {
          throw dropped();
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

describe(`mail faults (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let other: Awaited<ReturnType<typeof buildTenant>>;
  const smtp = new FaultySmtp();

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    other = await buildTenant(ctx.db);
    await smtp.start();
  });
  afterAll(async () => {
    await smtp.stop();
  });

  const worker = (options: Partial<MailRetryOptions> = {}, db: Database = ctx.db) =>
    new MailWorker(
      { db, config: ctx.config, log: silent, transport: smtpTransport(smtp.url) },
      { baseDelayMs: 60_000, maxDelayMs: 60_000, ...options },
    );

  const queued = (email: string) => queueCodeMail(ctx.db, acme.company, email);
  const row = async (id: string) =>
    (await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
  /** The back-off is a minute: make the mail due now instead of waiting for it. */
  const due = (id: string) =>
    ctx.db
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date(0) })
      .where(eq(mailOutbox.id, id));
  const deliveredTo = (email: string) => smtp.deliveries.filter((d) => d.to.includes(email));

  it('a database error while rendering retries the mail; it is never cancelled', async () => {
    const { id } = await queued('render@example.com');
    const faults = { select: 1 };
    await worker({}, flaky(ctx.db, faults)).drain();
    expect(faults.select).toBe(0);
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await row(id)).lastError).toContain('Connection terminated');
    await due(id);
    expect(await worker().drain()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'sent' });
    expect(deliveredTo('render@example.com')).toHaveLength(1);
  });

  it('a mail whose visitor is gone is cancelled (the only cancellation)', async () => {
    const { visitor, id } = await queued('deleted@example.com');
    const token = await tokenFor(ctx.app, acme.staff.ROLE_ADMIN.email);
    const del = await as(
      ctx.app,
      token,
    )({ method: 'DELETE', url: `/api/visitor/delete/${visitor.id}` });
    expect(del.statusCode).toBe(200);
    await worker().drain();
    expect((await row(id)).status).toBe('cancelled');
  });

  it('the database out when `sent` is recorded: recorded once it is back, never sent again', async () => {
    const { id } = await queued('record@example.com');
    const faults = { update: 3 };
    await worker({ recordRetryMs: 1 }, flaky(ctx.db, faults)).drain();
    expect(faults.update).toBe(0);
    expect(await row(id)).toMatchObject({ status: 'sent' });
    await worker().drain();
    expect(deliveredTo('record@example.com')).toHaveLength(1);
  });

  it('a 451 is retried and delivered once; a 550 fails at once with the reason, shown to staff', async () => {
    const temp = await queued('later@example.com');
    smtp.refuse(451);
    await worker().drain();
    expect(await row(temp.id)).toMatchObject({ status: 'pending', attempts: 1 });
    smtp.refuse(null);
    await due(temp.id);
    expect(await worker().drain()).toBe(1);
    expect(await row(temp.id)).toMatchObject({ status: 'sent' });
    expect(deliveredTo('later@example.com')).toHaveLength(1);

    const perm = await queued('nobody@example.com');
    smtp.refuse(550);
    await worker().drain();
    smtp.refuse(null);
    expect(await row(perm.id)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await row(perm.id)).lastError).toContain('550');
    await worker().drain();
    expect(deliveredTo('nobody@example.com')).toHaveLength(0);

    const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
    const res = await as(
      ctx.app,
      token,
    )({ method: 'GET', url: `/api/mail/visitor/${perm.visitor.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0]).toMatchObject({ state: 'failed', to: 'nobody@example.com' });
    expect(res.json().data[0].last_error).toMatch(/550 5\.1\.1 Mailbox unavailable/);
  });

  it('two workers and a tarpitting SMTP server past the lease: each mail delivered once', async () => {
    const mails = await Promise.all([1, 2, 3].map((n) => queued(`tarpit-${n}@example.com`)));
    smtp.tarpit(600);
    const options = { leaseMs: 250, renewEveryMs: 50, pollMs: 10 };
    const a = worker(options);
    const b = worker(options);
    a.start();
    b.start();
    try {
      await until(
        async () => {
          const rows = await Promise.all(mails.map((m) => row(m.id)));
          return rows.every((r) => r.status === 'sent');
        },
        'three mails sent',
        30_000,
      );
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      smtp.tarpit(0);
    }
    for (const n of [1, 2, 3]) expect(deliveredTo(`tarpit-${n}@example.com`)).toHaveLength(1);
    const ids = mails.map((m) => `<outbox-${m.id}@sesame>`);
    expect(smtp.deliveries.filter((d) => ids.includes(d.messageId))).toHaveLength(3);
  });

  it('stop() finishes the mail in hand and claims no other', async () => {
    const first = await queued('stop-1@example.com');
    const second = await queued('stop-2@example.com');
    smtp.tarpit(200);
    const w = worker({ pollMs: 10 });
    w.start();
    await until(
      async () =>
        (await row(first.id)).status === 'sending' || (await row(second.id)).status === 'sending',
      'a send',
    );
    await w.stop();
    smtp.tarpit(0);
    const states = [(await row(first.id)).status, (await row(second.id)).status].sort();
    expect(states).toEqual(['pending', 'sent']);
  });

  describe('Renvoyer', () => {
    it('queues a failed mail again, and a waiting one only goes out sooner (never twice)', async () => {
      const perm = await queued('resend@example.com');
      smtp.refuse(550);
      await worker().drain();
      smtp.refuse(null);
      const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
      const call = as(ctx.app, token);
      const url = `/api/mail/visitor/${perm.visitor.id}/resend`;
      const first = await call({ method: 'POST', url });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({
        message: MAIL_MESSAGES.resent,
        data: { state: 'queued' },
      });
      const again = await call({ method: 'POST', url });
      expect(again.json().data.id).toBe(first.json().data.id);
      await worker().drain();
      expect(deliveredTo('resend@example.com')).toHaveLength(1);
      const list = await call({ method: 'GET', url: `/api/mail/visitor/${perm.visitor.id}` });
      expect(list.json().data.map((m: { state: string }) => m.state)).toEqual(['sent', 'failed']);
    });

    it('401 without a token, 400 for a bad id, 403 for a role without the right, 404 for another company, 409 without a mail', async () => {
      const { visitor } = await queued('ladder@example.com');
      const url = `/api/mail/visitor/${visitor.id}/resend`;
      expect((await ctx.app.inject({ method: 'POST', url })).statusCode).toBe(401);
      const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
      const bad = await as(
        ctx.app,
        token,
      )({ method: 'POST', url: '/api/mail/visitor/nope/resend' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe("L'identifiant du visiteur est invalide.");
      const sup = await tokenFor(ctx.app, acme.staff.ROLE_SUPERVISOR.email);
      expect((await as(ctx.app, sup)({ method: 'POST', url })).statusCode).toBe(403);
      const stranger = await tokenFor(ctx.app, other.staff.ROLE_EMPLOYEE.email);
      expect((await as(ctx.app, stranger)({ method: 'POST', url })).statusCode).toBe(404);
      expect(
        (await as(ctx.app, stranger)({ method: 'GET', url: `/api/mail/visitor/${visitor.id}` }))
          .statusCode,
      ).toBe(404);
      const bare = await buildVisitor(ctx.db, { company: acme.company });
      const none = await as(
        ctx.app,
        token,
      )({ method: 'POST', url: `/api/mail/visitor/${bare.id}/resend` });
      expect(none.statusCode).toBe(409);
      expect(none.json().message).toBe(MAIL_MESSAGES.nothingToResend);
    });

    it('the card view finds the mails by code, for staff of the company only', async () => {
      const { visitor } = await queued('bycode@example.com');
      const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
      const res = await as(
        ctx.app,
        token,
      )({ method: 'GET', url: `/api/mail/code/${visitor.uidn}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ visitor_id: visitor.id, data: [{ state: 'queued' }] });
      expect(
        (await ctx.app.inject({ method: 'GET', url: `/api/mail/code/${visitor.uidn}` })).statusCode,
      ).toBe(401);
      const stranger = await tokenFor(ctx.app, other.staff.ROLE_EMPLOYEE.email);
      expect(
        (await as(ctx.app, stranger)({ method: 'GET', url: `/api/mail/code/${visitor.uidn}` }))
          .statusCode,
      ).toBe(404);
    });

    it("an event participant's mail is shown to those who see the event", async () => {
      const event = await buildEvent(ctx.db, { company: acme.company });
      const visitor = await buildVisitor(ctx.db, { company: acme.company, eventId: event.id });
      await enqueueVisitorCodeMail(ctx.db, { companyId: acme.company.id, visitorId: visitor.id });
      const token = await tokenFor(ctx.app, acme.staff.ROLE_ADMIN.email);
      const res = await as(
        ctx.app,
        token,
      )({ method: 'GET', url: `/api/mail/visitor/${visitor.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().data[0].state).toBe('queued');
    });
  });

  it('tells a permanent refusal from a transient one', () => {
    expect(permanentRefusal({ responseCode: 550, response: '550 no such user' })).toBe(
      '550 no such user',
    );
    expect(permanentRefusal({ responseCode: 451, response: '451 later' })).toBeNull();
    expect(permanentRefusal(new Error('ECONNREFUSED'))).toBeNull();
  });
});
