/**
 * Issue 14: who is on site (presence derived from the check history by one rule),
 * expected today, checking out from the list, and the live stream — on PGlite and on
 * PostgreSQL, where a check made through a second server instance reaches the first
 * one's screens through LISTEN/NOTIFY.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import {
  ROLES,
  actsOnAllCompanies,
  mayPerform,
  type ExpectedPage,
  type OnSitePage,
  type Role,
} from '@sesame/shared';
import type { Principal } from '../src/auth/principal';
import { LISTENER_NAME } from '../src/on-site/live';
import { hears } from '../src/on-site/routes';
import { buildApp } from '../src/app';
import { openPostgres, type DatabaseHandle } from '../src/db/client';
import { userChecks, visitorChecks } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { openLiveStream } from './helpers/live-stream';
import {
  buildCompany,
  buildEvent,
  buildQrUser,
  buildRequest,
  buildTenant,
  buildUser,
  buildVisitor,
} from './helpers/factories';

const ctx = useTestApp();

type Company = { id: string; slug: string };

/** A visitor of today with a confirmed meeting, ready to check in. */
async function confirmedVisitor(company: Company, values: Record<string, unknown> = {}) {
  const visitor = await buildVisitor(ctx.db, { company, ...values });
  const request = await buildRequest(ctx.db, { company, visitor, confirmed: true, status: 1 });
  return Object.assign(visitor, { requestId: request.id });
}

async function scan(app: FastifyInstance, token: string, url: string) {
  const res = await as(app, token)({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ status: string; action: string }>();
}

async function onSite(token: string, query = '') {
  const res = await as(ctx.app, token)({ method: 'GET', url: `/api/on-site${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OnSitePage>();
}

describe('on site now: presence from the check history', () => {
  it('lists whoever holds an open check, of every kind, counted, newest first; not after they leave', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const desk = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
    const visitor = await confirmedVisitor(company, { firstname: 'Aya', lastname: 'Visiteuse' });
    const event = await buildEvent(ctx.db, {
      company,
      dateEvent: new Date().toISOString().slice(0, 10).split('-').reverse().join('/'),
    });
    const guest = await confirmedVisitor(company, { eventId: event.id, lastname: 'Invitée' });
    const permanent = await buildQrUser(ctx.db, { company, lastname: 'Permanent' });
    const member = await buildQrUser(ctx.db, { company, kind: 'member', lastname: 'Membre' });

    await scan(ctx.app, desk, `/api/get-qr-data/${visitor.uidn}`);
    await scan(ctx.app, desk, `/api/get-qr-data/${guest.uidn}`);
    await scan(ctx.app, desk, `/api/get-qr-user-data/${permanent.uidn}`);
    await scan(ctx.app, desk, `/api/get-qr-user-data/${member.uidn}`);

    const page = await onSite(desk, '?per_page=100');
    expect(page.meta.counts).toEqual({ visitor: 1, event_guest: 1, qr_user: 1, member: 1 });
    expect(page.meta.total).toBe(4);
    expect(page.data.map((r) => [r.kind, r.lastname])).toEqual([
      ['member', 'Membre'],
      ['qr_user', 'Permanent'],
      ['event_guest', 'Invitée'],
      ['visitor', 'Visiteuse'],
    ]);
    const row = page.data.find((r) => r.kind === 'visitor')!;
    expect(row).toMatchObject({ host: 'M. Diallo', organisation: 'Acme', event: null });
    expect(page.data.find((r) => r.kind === 'event_guest')!.event).toBe(event.name);
    // A meeting's visitor carries their request (its badge, issue 29); nobody else does.
    expect(row.request_id).toBe(visitor.requestId);
    expect(page.data.filter((r) => r.request_id !== null)).toHaveLength(1);

    // Search and kind narrow the page, never the counts.
    const searched = await onSite(desk, '?q=visiteuse');
    expect(searched.data.map((r) => r.lastname)).toEqual(['Visiteuse']);
    expect(searched.meta.total).toBe(1);
    expect(searched.meta.counts.member).toBe(1);
    expect((await onSite(desk, '?kind=member')).data.map((r) => r.lastname)).toEqual(['Membre']);

    // A check closed is a departure: the person is no longer inside.
    await ctx.db
      .update(userChecks)
      .set({ checkOutAt: new Date(), checkOutMethod: 'scan' })
      .where(eq(userChecks.qrUserId, member.id));
    const after = await onSite(desk, '?per_page=100');
    expect(after.data.map((r) => r.lastname)).not.toContain('Membre');
    expect(after.meta.counts.member).toBe(0);
  });

  it('never shows another company’s people; only admin and Sésame see every company', async () => {
    const a = await buildTenant(ctx.db);
    const b = await buildTenant(ctx.db);
    const inB = await buildQrUser(ctx.db, { company: b.company, lastname: 'Ailleurs' });
    await ctx.db.insert(userChecks).values({
      companyId: b.company.id,
      siteId: b.company.siteId,
      qrUserId: inB.id,
      checkInMethod: 'scan',
    });

    for (const role of ['ROLE_EMPLOYEE', 'ROLE_SUPERVISOR', 'ROLE_MANAGER'] as const) {
      const token = await tokenFor(ctx.app, a.staff[role].email);
      const page = await onSite(token, '?per_page=100');
      expect(
        page.data.map((r) => r.lastname),
        role,
      ).not.toContain('Ailleurs');
      const asked = await as(
        ctx.app,
        token,
      )({
        method: 'GET',
        url: `/api/on-site?company=${b.company.slug}`,
      });
      expect(asked.statusCode, role).toBe(404);
      const expected = await as(
        ctx.app,
        token,
      )({
        method: 'GET',
        url: `/api/on-site/expected?company=${b.company.slug}`,
      });
      expect(expected.statusCode, role).toBe(404);
    }
    for (const role of ['ROLE_ADMIN', 'ROLE_SESAME'] as const) {
      const token = await tokenFor(ctx.app, a.staff[role].email);
      const page = await onSite(token, `?company=${b.company.slug}`);
      expect(
        page.data.map((r) => r.lastname),
        role,
      ).toContain('Ailleurs');
    }
    // The super admin has 'Sur place' since issue 27; a plain user (a host) has not.
    for (const role of ['ROLE_USER'] as const) {
      const token = await tokenFor(ctx.app, a.staff[role].email);
      const res = await as(ctx.app, token)({ method: 'GET', url: '/api/on-site' });
      expect(res.statusCode, role).toBe(403);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/on-site' })).statusCode).toBe(401);
    const bad = await as(
      ctx.app,
      await tokenFor(ctx.app, a.staff.ROLE_EMPLOYEE.email),
    )({ method: 'GET', url: `/api/on-site?q=${'x'.repeat(201)}` });
    expect(bad.statusCode).toBe(400);
  });
});

describe('checking a person out from the list', () => {
  it('records a manual check-out by the caller, through the code check, even right after arrival', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const desk = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
    const visitor = await confirmedVisitor(company);
    await scan(ctx.app, desk, `/api/get-qr-data/${visitor.uidn}`);
    const [row] = (await onSite(desk)).data;

    const supervisor = await tokenFor(ctx.app, staff.ROLE_SUPERVISOR.email);
    const res = await as(
      ctx.app,
      supervisor,
    )({
      method: 'POST',
      url: `/api/on-site/${row!.check_id}/check-out`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'success', action: 'check_out' });
    const [check] = await ctx.db
      .select()
      .from(visitorChecks)
      .where(eq(visitorChecks.visitorId, visitor.id));
    expect(check).toMatchObject({
      checkOutMethod: 'manual',
      checkOutBy: staff.ROLE_SUPERVISOR.id,
    });
    expect(check!.checkOutAt).not.toBeNull();
    expect((await onSite(desk)).meta.total).toBe(0);

    // Gone already: that check is no longer on the list.
    const again = await as(
      ctx.app,
      supervisor,
    )({
      method: 'POST',
      url: `/api/on-site/${row!.check_id}/check-out`,
    });
    expect(again.statusCode).toBe(404);
  });

  it('401, 403 for a host, 400 for a bad id, 404 for another company’s check', async () => {
    const a = await buildTenant(ctx.db);
    const other = await buildCompany(ctx.db);
    const card = await buildQrUser(ctx.db, { company: other });
    const [check] = await ctx.db
      .insert(userChecks)
      .values({
        companyId: other.id,
        siteId: other.siteId,
        qrUserId: card.id,
        checkInMethod: 'scan',
      })
      .returning();
    const url = `/api/on-site/${check!.id}/check-out`;
    expect((await ctx.app.inject({ method: 'POST', url })).statusCode).toBe(401);
    const host = await tokenFor(ctx.app, a.staff.ROLE_USER.email);
    expect((await as(ctx.app, host)({ method: 'POST', url })).statusCode).toBe(403);
    const desk = await tokenFor(ctx.app, a.staff.ROLE_EMPLOYEE.email);
    expect(
      (await as(ctx.app, desk)({ method: 'POST', url: '/api/on-site/nope/check-out' })).statusCode,
    ).toBe(400);
    expect((await as(ctx.app, desk)({ method: 'POST', url })).statusCode).toBe(404);
    const [still] = await ctx.db.select().from(userChecks).where(eq(userChecks.id, check!.id));
    expect(still!.checkOutAt).toBeNull();
  });
});

describe('expected today', () => {
  it('lists confirmed meetings and registrations of today not yet arrived, by time', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const desk = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
    const late = await confirmedVisitor(company, { lastname: 'Tard', requestTime: '15:00' });
    const early = await confirmedVisitor(company, { lastname: 'Tôt', requestTime: '09:00' });
    const unconfirmed = await buildVisitor(ctx.db, { company, lastname: 'EnAttente' });
    await buildRequest(ctx.db, { company, visitor: unconfirmed });
    await confirmedVisitor(company, { lastname: 'Demain', requestDate: '01/01/2099' });

    const list = async () => {
      const res = await as(ctx.app, desk)({ method: 'GET', url: '/api/on-site/expected' });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ExpectedPage>();
    };
    expect((await list()).data.map((r) => [r.lastname, r.time])).toEqual([
      ['Tôt', '09:00'],
      ['Tard', '15:00'],
    ]);
    await scan(ctx.app, desk, `/api/get-qr-data/${early.uidn}`);
    expect((await list()).data.map((r) => r.lastname)).toEqual(['Tard']);
    expect(late.id).toBeTruthy();

    // An event of today: its registrations are expected at the event's time.
    const event = await buildEvent(ctx.db, {
      company,
      dateEvent: new Date().toISOString().slice(0, 10).split('-').reverse().join('/'),
      timeEvent: '11:00',
    });
    await confirmedVisitor(company, { eventId: event.id, lastname: 'Invitée', requestDate: null });
    expect((await list()).data.map((r) => [r.lastname, r.kind, r.time, r.event])).toEqual([
      ['Invitée', 'event_guest', '11:00', event.name],
      ['Tard', 'visitor', '15:00', null],
    ]);
  });
});

describe('the request list (issue 14)', () => {
  it('shows pending requests first, then the newest', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const desk = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
    const pending = await buildVisitor(ctx.db, { company, lastname: 'Ancienne' });
    await buildRequest(ctx.db, { company, visitor: pending });
    const confirmed = await buildVisitor(ctx.db, { company, lastname: 'Confirmée' });
    await buildRequest(ctx.db, { company, visitor: confirmed, confirmed: true, status: 1 });
    const res = await as(
      ctx.app,
      desk,
    )({
      method: 'GET',
      url: `/api/requests/list/${company.slug}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<{ data: { visitor: { lastname: string } }[] }>().data;
    expect(rows.map((r) => r.visitor.lastname)).toEqual(['Ancienne', 'Confirmée']);
  });
});

describe('who hears what on the live stream', () => {
  const own = 'company-a';
  const presence = {
    type: 'presence',
    company_id: own,
    site_id: 'site-1',
    person_id: 'p',
    table: 'user',
    op: 'in',
  } as const;
  const request = {
    type: 'request',
    company_id: own,
    site_id: 'site-1',
    request_id: 'r',
    op: 'created',
  } as const;
  const elsewhere = { ...presence, company_id: 'company-b' };
  const who = (role: Role, siteIds: string[] = []) =>
    ({ role, companyId: own, siteIds }) as unknown as Principal;

  it('follows the matrix: each event to whom its list reaches', () => {
    for (const role of ROLES) {
      expect(hears(who(role), presence, undefined), role).toBe(mayPerform(role, 'onSite.list'));
      expect(hears(who(role), request, undefined), role).toBe(mayPerform(role, 'requests.list'));
      expect(hears(who(role), elsewhere, undefined), role).toBe(
        mayPerform(role, 'onSite.list') && actsOnAllCompanies(role, 'onSite.list'),
      );
    }
    expect(hears(who('ROLE_ADMIN'), elsewhere, own)).toBe(false);
  });

  it('a screen opened on a site, and a person limited to sites, hear those sites only (issue 28)', () => {
    const atTwo = { ...presence, site_id: 'site-2' };
    const everySite = {
      type: 'rollCall',
      company_id: own,
      site_id: null,
      roll_call_id: 'rc',
      op: 'started',
    } as const;
    const desk = who('ROLE_EMPLOYEE');
    expect(hears(desk, presence, undefined, 'site-1')).toBe(true);
    expect(hears(desk, atTwo, undefined, 'site-1')).toBe(false);
    expect(hears(desk, atTwo, undefined)).toBe(true);
    // A roll call of every site reaches every site's screens.
    const manager = who('ROLE_MANAGER');
    expect(hears(manager, everySite, undefined, 'site-1')).toBe(true);

    const limited = who('ROLE_EMPLOYEE', ['site-1']);
    expect(hears(limited, presence, undefined)).toBe(true);
    expect(hears(limited, atTwo, undefined)).toBe(false);
    expect(hears(limited, request, undefined)).toBe(true);
    expect(hears(who('ROLE_MANAGER', ['site-1']), everySite, undefined)).toBe(true);
    expect(
      hears(who('ROLE_MANAGER', ['site-1']), { ...everySite, site_id: 'site-2' }, undefined),
    ).toBe(false);
    // Limits are within their own company: never another company's events.
    expect(hears(who('ROLE_ADMIN', ['site-1']), elsewhere, undefined)).toBe(false);
  });
});

// ── The live stream ─────────────────────────────────────────────────────────

describe('live stream (Server-Sent Events from LISTEN/NOTIFY)', () => {
  let base = '';
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('is refused without a session and to a client that does not accept it; a host may listen', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/live' })).statusCode).toBe(401);
    const { staff } = await buildTenant(ctx.db);
    // A host (ROLE_USER) listens since issue 30, for their own invitations' news only
    // (hears(), invitations-desk.test.ts): past the role check, a JSON client is a 406.
    const host = await tokenFor(ctx.app, staff.ROLE_USER.email);
    const hostJson = await as(
      ctx.app,
      host,
    )({
      method: 'GET',
      url: '/api/live',
      headers: { accept: 'application/json' },
    });
    expect(hostJson.statusCode).toBe(406);
    const desk = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
    const res = await as(
      ctx.app,
      desk,
    )({
      method: 'GET',
      url: '/api/live',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(406);
  });

  it('delivers a check made through another instance on the same database, only to its company', async () => {
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const a = await buildTenant(ctx.db);
    const b = await buildTenant(ctx.db);
    const deskA = await tokenFor(ctx.app, a.staff.ROLE_EMPLOYEE.email);
    const stream = await openLiveStream(base, deskA);
    cleanups.push(async () => stream.close());

    // The scan goes through a second server instance when the database is PostgreSQL
    // (PGlite is one process's database: the same instance then).
    let other: FastifyInstance = ctx.app;
    if (ctx.handle.kind === 'postgres') {
      const pool = (ctx.db as unknown as { $client: pg.Pool }).$client;
      const url = (pool as unknown as { options: { connectionString: string } }).options
        .connectionString;
      const second: DatabaseHandle = await openPostgres(url, 4);
      other = await buildApp({ config: ctx.config, db: second.db, logger: false });
      await other.ready();
      cleanups.push(async () => {
        await other.close();
        await second.close();
      });
    }
    const deskB = await tokenFor(other, b.staff.ROLE_EMPLOYEE.email);
    const visitorB = await confirmedVisitor(b.company);
    await scan(other, deskB, `/api/get-qr-data/${visitorB.uidn}`);
    const deskAOther = await tokenFor(other, a.staff.ROLE_EMPLOYEE.email);
    const visitorA = await confirmedVisitor(a.company);
    await scan(other, deskAOther, `/api/get-qr-data/${visitorA.uidn}`);

    const arrival = await stream.next((e) => e.type === 'presence' && e.person_id === visitorA.id);
    expect(arrival).toMatchObject({ company_id: a.company.id, table: 'visitor', op: 'in' });
    // Company B's arrival was committed first, and never reached A's screen.
    expect(stream.seen.some((e) => e.company_id === b.company.id)).toBe(false);

    await scan(
      other,
      deskAOther,
      `/api/get-qr-user-data/${(await buildQrUser(ctx.db, { company: a.company })).uidn}`,
    );
    await stream.next((e) => e.type === 'presence' && e.table === 'user' && e.op === 'in');

    // A new meeting request is heard too (the request list's live refresh).
    const visitor = await buildVisitor(ctx.db, { company: a.company });
    const request = await buildRequest(ctx.db, { company: a.company, visitor });
    const filed = await stream.next((e) => e.type === 'request' && e.request_id === request.id);
    expect(filed).toMatchObject({ op: 'created' });
  });

  it('an admin narrowed to one company hears that company only', async () => {
    const a = await buildTenant(ctx.db);
    const b = await buildCompany(ctx.db);
    const admin = await tokenFor(ctx.app, a.staff.ROLE_ADMIN.email);
    const stream = await openLiveStream(base, admin, `?company=${b.slug}`);
    cleanups.push(async () => stream.close());
    const inA = await buildQrUser(ctx.db, { company: a.company });
    const inB = await buildQrUser(ctx.db, { company: b });
    await ctx.db.insert(userChecks).values({
      companyId: a.company.id,
      siteId: a.company.siteId,
      qrUserId: inA.id,
      checkInMethod: 'scan',
    });
    await ctx.db
      .insert(userChecks)
      .values({ companyId: b.id, siteId: b.siteId, qrUserId: inB.id, checkInMethod: 'scan' });
    await stream.next((e) => e.type === 'presence' && e.person_id === inB.id);
    expect(stream.seen.some((e) => e.company_id === a.company.id)).toBe(false);
    const employee = await buildUser(ctx.db, { company: a.company, role: 'ROLE_EMPLOYEE' });
    expect(employee.id).toBeTruthy();
  });

  it.runIf(testDatabaseKind === 'postgres')(
    'reopens its LISTEN connection when PostgreSQL drops it, and tells screens to resync',
    async () => {
      const a = await buildTenant(ctx.db);
      const desk = await tokenFor(ctx.app, a.staff.ROLE_EMPLOYEE.email);
      const stream = await openLiveStream(base, desk);
      cleanups.push(async () => stream.close());
      const pool = (ctx.db as unknown as { $client: pg.Pool }).$client;
      const killed = await pool.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name = $1`,
        [LISTENER_NAME],
      );
      expect(killed.rowCount).toBeGreaterThan(0);
      await stream.heard('resync', 10_000);
      const card = await buildQrUser(ctx.db, { company: a.company });
      await ctx.db.insert(userChecks).values({
        companyId: a.company.id,
        siteId: a.company.siteId,
        qrUserId: card.id,
        checkInMethod: 'scan',
      });
      await stream.next((e) => e.type === 'presence' && e.person_id === card.id);
    },
  );
});
