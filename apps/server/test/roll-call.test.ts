/**
 * Issue 14: the evacuation roll call — it freezes who is on site at its start, marks
 * racing from several phones give exact counts, ending it keeps the record, every
 * change is announced on the live channel — on PGlite and on PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  ROLES,
  actsOnAllCompanies,
  mayPerform,
  type LiveEvent,
  type RollCall,
  type RollCallMarkAnswer,
} from '@sesame/shared';
import type { Principal } from '../src/auth/principal';
import { auditEvents, rollCallPeople, userChecks, visitorChecks } from '../src/db/schema';
import { LiveHub, isLiveEvent, type LiveMessage } from '../src/on-site/live';
import { hears } from '../src/on-site/routes';
import { as, tokenFor, useTestApp } from './helpers/app';
import { buildCompany, buildQrUser, buildTenant, buildVisitor } from './helpers/factories';

const ctx = useTestApp();

type Company = { id: string; slug: string; siteId: string };

async function checkInVisitor(company: Company, values: Record<string, unknown> = {}) {
  const visitor = await buildVisitor(ctx.db, { company, ...values });
  await ctx.db.insert(visitorChecks).values({
    companyId: company.id,
    siteId: visitor.siteId,
    visitorId: visitor.id,
    checkInMethod: 'scan',
  });
  return visitor;
}

async function checkInCard(company: Company) {
  const card = await buildQrUser(ctx.db, { company });
  await ctx.db.insert(userChecks).values({
    companyId: company.id,
    siteId: company.siteId,
    qrUserId: card.id,
    checkInMethod: 'scan',
  });
  return card;
}

async function start(token: string, company?: string) {
  const res = await as(
    ctx.app,
    token,
  )({ method: 'POST', url: '/api/roll-calls', payload: company ? { company } : {} });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: RollCall }>().data;
}

const mark = (token: string, rollCall: string, person: string, status: string) =>
  as(
    ctx.app,
    token,
  )({ method: 'PUT', url: `/api/roll-calls/${rollCall}/people/${person}`, payload: { status } });

describe('evacuation roll call', () => {
  it('freezes who is inside at its start: whoever arrives afterwards is not in it', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const other = await buildCompany(ctx.db);
    const visitor = await checkInVisitor(company, { firstname: 'Awa', lastname: 'Koné' });
    const card = await checkInCard(company);
    await checkInCard(other);
    const desk = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);

    const rollCall = await start(desk);
    expect(rollCall.company.id).toBe(company.id);
    expect(rollCall.started_by).toMatchObject({ id: staff.ROLE_EMPLOYEE.id });
    expect(rollCall.ended_at).toBeNull();
    expect(rollCall.counts).toEqual({ total: 2, safe: 0, missing: 0, unknown: 2 });
    expect(rollCall.people.map((p) => p.person_id).sort()).toEqual([visitor.id, card.id].sort());
    const awa = rollCall.people.find((p) => p.person_id === visitor.id)!;
    expect(awa).toMatchObject({ firstname: 'Awa', lastname: 'Koné', kind: 'visitor' });
    expect(awa.status).toBe('unknown');

    // Someone arrives after the start: not in this roll call.
    await checkInCard(company);
    const latest = await as(ctx.app, desk)({ method: 'GET', url: '/api/roll-calls/latest' });
    expect(latest.json<{ data: RollCall }>().data.counts.total).toBe(2);

    // One open roll call per company.
    const again = await as(ctx.app, desk)({ method: 'POST', url: '/api/roll-calls', payload: {} });
    expect(again.statusCode).toBe(409);
  });

  it('marks one tap at a time, undoes a mark, and ends with the record of who did what', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    await checkInVisitor(company);
    await checkInVisitor(company);
    const desk = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
    const supervisor = await tokenFor(ctx.app, staff.ROLE_SUPERVISOR.email);
    const rollCall = await start(desk);
    const [first, second] = rollCall.people;

    const safe = await mark(supervisor, rollCall.id, first!.id, 'safe');
    expect(safe.statusCode, safe.body).toBe(200);
    const answer = safe.json<RollCallMarkAnswer>();
    expect(answer.data).toMatchObject({
      status: 'safe',
      marked_by: { id: staff.ROLE_SUPERVISOR.id },
    });
    expect(answer.counts).toEqual({ total: 2, safe: 1, missing: 0, unknown: 1 });

    const missing = await mark(desk, rollCall.id, second!.id, 'missing');
    expect(missing.json<RollCallMarkAnswer>().counts).toMatchObject({ safe: 1, missing: 1 });
    // Tapping again undoes the mark.
    const undone = await mark(desk, rollCall.id, second!.id, 'unknown');
    expect(undone.json<RollCallMarkAnswer>().data).toMatchObject({
      status: 'unknown',
      marked_by: null,
      marked_at: null,
    });
    await mark(desk, rollCall.id, second!.id, 'missing');

    const ended = await as(
      ctx.app,
      desk,
    )({ method: 'POST', url: `/api/roll-calls/${rollCall.id}/end` });
    expect(ended.statusCode, ended.body).toBe(200);
    const record = ended.json<{ data: RollCall }>().data;
    expect(record.ended_by).toMatchObject({ id: staff.ROLE_EMPLOYEE.id });
    expect(new Date(record.ended_at!).getTime()).toBeGreaterThanOrEqual(
      new Date(record.started_at).getTime(),
    );
    expect(record.counts).toEqual({ total: 2, safe: 1, missing: 1, unknown: 0 });
    expect(record.people.find((p) => p.id === first!.id)!.marked_by).toMatchObject({
      id: staff.ROLE_SUPERVISOR.id,
    });
    expect(record.people.find((p) => p.id === second!.id)!.marked_by).toMatchObject({
      id: staff.ROLE_EMPLOYEE.id,
    });

    // Ended: no more marks, no second end; the record is still read, and audited.
    expect((await mark(desk, rollCall.id, first!.id, 'missing')).statusCode).toBe(409);
    expect(
      (await as(ctx.app, desk)({ method: 'POST', url: `/api/roll-calls/${rollCall.id}/end` }))
        .statusCode,
    ).toBe(409);
    const read = await as(ctx.app, desk)({ method: 'GET', url: `/api/roll-calls/${rollCall.id}` });
    expect(read.json<{ data: RollCall }>().data.counts.safe).toBe(1);
    const audited = await ctx.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.companyId, company.id));
    expect(audited.map((a) => a.action)).toEqual(
      expect.arrayContaining(['roll_call.started', 'roll_call.ended']),
    );
    // A new roll call may start once the last one ended.
    expect((await start(desk)).id).not.toBe(rollCall.id);
  });

  it('counts stay exact when several phones mark at once', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    for (let i = 0; i < 12; i++) await checkInCard(company);
    const callers = await Promise.all(
      (['ROLE_EMPLOYEE', 'ROLE_SUPERVISOR', 'ROLE_MANAGER', 'ROLE_ADMIN'] as const).map((role) =>
        tokenFor(ctx.app, staff[role].email),
      ),
    );
    const rollCall = await start(callers[0]!);
    // Every caller marks every person at once: safe for even rows, missing for odd ones.
    const answers = await Promise.all(
      rollCall.people.flatMap((person, i) =>
        callers.map((token) => mark(token, rollCall.id, person.id, i % 2 ? 'missing' : 'safe')),
      ),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const read = await as(
      ctx.app,
      callers[1]!,
    )({ method: 'GET', url: `/api/roll-calls/${rollCall.id}` });
    const counts = read.json<{ data: RollCall }>().data.counts;
    expect(counts).toEqual({ total: 12, safe: 6, missing: 6, unknown: 0 });
    const rows = await ctx.db
      .select()
      .from(rollCallPeople)
      .where(and(eq(rollCallPeople.rollCallId, rollCall.id), eq(rollCallPeople.status, 'safe')));
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row.markedBy).not.toBeNull();
  });

  it('announces its start, each mark and its end on the live channel', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    await checkInCard(company);
    const log = { warn: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;
    const hub = LiveHub.for(ctx.db, log);
    const heard: LiveMessage[] = [];
    const waiters: (() => void)[] = [];
    const unsubscribe = await hub.subscribe((message) => {
      heard.push(message);
      for (const wake of waiters.splice(0)) wake();
    });
    const until = async (test: (e: LiveEvent) => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!heard.some((m) => isLiveEvent(m) && test(m))) {
        if (Date.now() > deadline) throw new Error(`not heard: ${JSON.stringify(heard)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    };
    try {
      const desk = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
      const rollCall = await start(desk);
      const event = (op: string) => (e: LiveEvent) =>
        e.type === 'rollCall' && e.roll_call_id === rollCall.id && e.op === op;
      await until(event('started'));
      await mark(desk, rollCall.id, rollCall.people[0]!.id, 'safe');
      await until(event('marked'));
      await as(ctx.app, desk)({ method: 'POST', url: `/api/roll-calls/${rollCall.id}/end` });
      await until(event('ended'));
      expect(heard.find((m) => m.type === 'rollCall')).toMatchObject({ company_id: company.id });
    } finally {
      unsubscribe();
      await hub.close();
    }
  });

  it('is heard by whom the matrix lets run it, in their company (all companies: admin, Sésame)', () => {
    const event = {
      type: 'rollCall',
      company_id: 'a',
      site_id: null,
      roll_call_id: 'r',
      op: 'marked',
    } as const;
    const elsewhere = { ...event, company_id: 'b' };
    for (const role of ROLES) {
      const who = { role, companyId: 'a', siteIds: [] as string[] } as Principal;
      expect(hears(who, event, undefined), role).toBe(mayPerform(role, 'rollCall.run'));
      expect(hears(who, elsewhere, undefined), role).toBe(
        mayPerform(role, 'rollCall.run') && actsOnAllCompanies(role, 'rollCall.run'),
      );
    }
    expect(actsOnAllCompanies('ROLE_ADMIN', 'rollCall.run')).toBe(true);
    expect(actsOnAllCompanies('ROLE_SUPER_ADMIN', 'rollCall.run')).toBe(false);
  });

  it('401, 403 for a host, 400 for bad input, 404 for another company’s roll call', async () => {
    const a = await buildTenant(ctx.db);
    const b = await buildTenant(ctx.db);
    await checkInCard(b.company);
    const deskB = await tokenFor(ctx.app, b.staff.ROLE_EMPLOYEE.email);
    const rollCall = await start(deskB);
    const person = rollCall.people[0]!.id;
    const url = `/api/roll-calls/${rollCall.id}/people/${person}`;

    expect(
      (await ctx.app.inject({ method: 'PUT', url, payload: { status: 'safe' } })).statusCode,
    ).toBe(401);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/roll-calls' })).statusCode).toBe(401);
    const host = await tokenFor(ctx.app, a.staff.ROLE_USER.email);
    expect((await mark(host, rollCall.id, person, 'safe')).statusCode).toBe(403);
    expect(
      (await as(ctx.app, host)({ method: 'POST', url: '/api/roll-calls', payload: {} })).statusCode,
    ).toBe(403);

    const deskA = await tokenFor(ctx.app, a.staff.ROLE_EMPLOYEE.email);
    const bad = await mark(deskA, rollCall.id, person, 'perhaps');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Statut inconnu.');
    expect((await mark(deskA, 'nope', person, 'safe')).statusCode).toBe(400);
    const long = await as(
      ctx.app,
      deskA,
    )({ method: 'POST', url: '/api/roll-calls', payload: { company: 'x'.repeat(5000) } });
    expect(long.statusCode).toBe(400);

    // Another company's roll call: 404 for the front desk and a supervisor; an admin reaches it.
    expect((await mark(deskA, rollCall.id, person, 'safe')).statusCode).toBe(404);
    const supervisor = await tokenFor(ctx.app, a.staff.ROLE_SUPERVISOR.email);
    expect(
      (await as(ctx.app, supervisor)({ method: 'GET', url: `/api/roll-calls/${rollCall.id}` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await as(ctx.app, deskA)({ method: 'POST', url: `/api/roll-calls/${rollCall.id}/end` }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await as(
          ctx.app,
          deskA,
        )({ method: 'POST', url: '/api/roll-calls', payload: { company: b.company.slug } })
      ).statusCode,
    ).toBe(404);
    const [untouched] = await ctx.db
      .select()
      .from(rollCallPeople)
      .where(eq(rollCallPeople.id, person));
    expect(untouched!.status).toBe('unknown');

    const admin = await tokenFor(ctx.app, a.staff.ROLE_ADMIN.email);
    expect((await mark(admin, rollCall.id, person, 'safe')).statusCode).toBe(200);
    const latest = await as(
      ctx.app,
      admin,
    )({ method: 'GET', url: `/api/roll-calls/latest?company=${b.company.slug}` });
    expect(latest.json<{ data: RollCall }>().data.id).toBe(rollCall.id);
  });
});
