/**
 * Issue 14: the front desk undoes a person's last arrival or departure within
 * UNDO_WINDOW_MINUTES, with a reason; the check stays in the history with who undid it
 * and why. A fixed clock (Date faked; the database's clock is never read for the window).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  ROLES,
  UNDO_MESSAGES,
  UNDO_WINDOW_MINUTES,
  mayPerform,
  type ExpectedPage,
  type LiveEvent,
  type OnSitePage,
  type UserLogRow,
} from '@sesame/shared';
import { auditEvents, userChecks, visitorChecks } from '../src/db/schema';
import { LiveHub } from '../src/on-site/live';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildQrUser, buildRequest, buildTenant, buildVisitor } from './helpers/factories';

const ctx = useTestApp();
const NOW = new Date('2031-03-10T10:00:00Z');
const minutesAgo = (n: number) => new Date(NOW.getTime() - n * 60_000);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

async function setup() {
  const tenant = await buildTenant(ctx.db);
  const desk = await tokenFor(ctx.app, tenant.staff.ROLE_EMPLOYEE.email);
  const person = await buildQrUser(ctx.db, { company: tenant.company, dateExp: null });
  return { ...tenant, desk, person };
}

async function insertCheck(
  company: { id: string; siteId: string },
  person: { id: string },
  values: Partial<typeof userChecks.$inferInsert>,
) {
  const [row] = await ctx.db
    .insert(userChecks)
    .values({
      companyId: company.id,
      siteId: company.siteId,
      qrUserId: person.id,
      checkInMethod: 'scan',
      ...values,
    })
    .returning();
  return row!;
}

const undo = (
  token: string,
  checkId: string,
  payload: Record<string, unknown> = { reason: 'Scan par erreur' },
) => as(ctx.app, token)({ method: 'POST', url: `/api/checks/${checkId}/undo`, payload });

async function checkRow(id: string) {
  const [row] = await ctx.db.select().from(userChecks).where(eq(userChecks.id, id));
  return row!;
}

async function logRow(token: string, id: string) {
  const res = await as(
    ctx.app,
    token,
  )({
    method: 'GET',
    url: '/api/userLog?from=2031-03-10T00:00:00Z&to=2031-03-11T00:00:00Z&per_page=100',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: UserLogRow[] }>().data.find((r) => r.id === id);
}

describe(`undo a check (${testDatabaseKind})`, () => {
  it('undoes an arrival: kept in the history, struck through, no longer on site; a new scan checks in', async () => {
    const { staff, desk, person } = await setup();
    const scan = await as(
      ctx.app,
      desk,
    )({ method: 'GET', url: `/api/get-qr-user-data/${person.uidn}` });
    expect(scan.json()).toMatchObject({ action: 'check_in' });
    const [check] = await ctx.db
      .select()
      .from(userChecks)
      .where(eq(userChecks.qrUserId, person.id));

    vi.setSystemTime(new Date(NOW.getTime() + 5 * 60_000));
    const res = await undo(desk, check!.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ undone: 'arrival' });

    const row = await checkRow(check!.id);
    expect(row).toMatchObject({
      undoneBy: staff.ROLE_EMPLOYEE.id,
      undoReason: 'Scan par erreur',
      checkOutAt: null,
    });
    expect(row.undoneAt!.toISOString()).toBe('2031-03-10T10:05:00.000Z');

    const onSite = await as(ctx.app, desk)({ method: 'GET', url: '/api/on-site?per_page=100' });
    expect(onSite.json<OnSitePage>().data.map((r) => r.check_id)).not.toContain(check!.id);

    const admin = await tokenFor(ctx.app, staff.ROLE_ADMIN.email);
    expect(await logRow(admin, check!.id)).toMatchObject({
      check_in_method: 'scan',
      undone: { at: '2031-03-10T10:05:00.000Z', reason: 'Scan par erreur' },
      departure_undone: null,
    });
    expect((await logRow(admin, check!.id))!.undone!.by).toContain(staff.ROLE_EMPLOYEE.name);

    const audits = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'check.undone'), eq(auditEvents.subjectId, person.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.detail).toEqual({ check_id: check!.id, undone: 'arrival' });

    // The undone arrival is no repeat: the next scan is a new arrival.
    const again = await as(
      ctx.app,
      desk,
    )({ method: 'GET', url: `/api/get-qr-user-data/${person.uidn}` });
    expect(again.json()).toMatchObject({ action: 'check_in', status: 'success' });
    // Already undone: refused.
    expect((await undo(desk, check!.id)).json()).toMatchObject({
      message: UNDO_MESSAGES.alreadyUndone,
    });
  });

  it('undoes a departure: the person is inside again, the departure kept with who undid it and why', async () => {
    const { company, staff, desk, person } = await setup();
    const check = await insertCheck(company, person, {
      checkInAt: minutesAgo(60),
      checkOutAt: minutesAgo(2),
      checkOutMethod: 'manual',
      checkOutBy: staff.ROLE_SUPERVISOR.id,
    });
    const res = await undo(desk, check.id, { reason: '  Sorti par erreur  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ undone: 'departure' });

    const row = await checkRow(check.id);
    expect(row).toMatchObject({
      checkOutAt: null,
      checkOutMethod: null,
      checkOutBy: null,
      undoneAt: null,
      undoneOutMethod: 'manual',
      undoneOutBy: staff.ROLE_SUPERVISOR.id,
      outUndoneBy: staff.ROLE_EMPLOYEE.id,
      outUndoReason: 'Sorti par erreur',
    });
    expect(row.undoneOutAt!.toISOString()).toBe(minutesAgo(2).toISOString());

    const onSite = await as(ctx.app, desk)({ method: 'GET', url: '/api/on-site?per_page=100' });
    expect(onSite.json<OnSitePage>().data.map((r) => r.check_id)).toContain(check.id);
    const admin = await tokenFor(ctx.app, staff.ROLE_ADMIN.email);
    expect(await logRow(admin, check.id)).toMatchObject({
      check_out_time: null,
      undone: null,
      departure_undone: {
        departure_time: minutesAgo(2).toISOString(),
        departure_method: 'manual',
        at: NOW.toISOString(),
        reason: 'Sorti par erreur',
      },
    });
  });

  it(`refuses after ${UNDO_WINDOW_MINUTES} minutes, and any check but the person's last`, async () => {
    const { company, desk, person } = await setup();
    const old = await insertCheck(company, person, {
      checkInAt: minutesAgo(120),
      checkOutAt: minutesAgo(100),
      checkOutMethod: 'scan',
    });
    const late = await insertCheck(company, person, {
      checkInAt: minutesAgo(30),
      checkOutAt: minutesAgo(UNDO_WINDOW_MINUTES + 1),
      checkOutMethod: 'scan',
    });
    const tooLate = await undo(desk, late.id);
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json()).toMatchObject({ message: UNDO_MESSAGES.tooLate });
    expect((await checkRow(late.id)).checkOutAt).not.toBeNull();

    const open = await insertCheck(company, person, {
      checkInAt: minutesAgo(UNDO_WINDOW_MINUTES - 1),
    });
    expect((await undo(desk, open.id)).statusCode).toBe(200);
    // The last check still counting is now `late`, out of the window; `old` is not the last.
    vi.setSystemTime(minutesAgo(95));
    const notLast = await undo(desk, old.id);
    expect(notLast.statusCode).toBe(409);
    expect(notLast.json()).toMatchObject({ message: UNDO_MESSAGES.notLatest });
  });

  it('keeps an undone visitor check in the CSV export, with who undid it and why', async () => {
    const { company, staff, desk } = await setup();
    const visitor = await buildVisitor(ctx.db, { company, lastname: 'Annulé' });
    const [check] = await ctx.db
      .insert(visitorChecks)
      .values({
        companyId: company.id,
        siteId: visitor.siteId,
        visitorId: visitor.id,
        checkInAt: minutesAgo(3),
        checkInMethod: 'manual',
      })
      .returning();
    expect((await undo(desk, check!.id, { reason: 'Mauvaise personne' })).statusCode).toBe(200);
    const supervisor = await tokenFor(ctx.app, staff.ROLE_SUPERVISOR.email);
    const csv = await as(
      ctx.app,
      supervisor,
    )({
      method: 'GET',
      url: '/api/visitorlog/export?from=2031-03-10T00:00:00Z&to=2031-03-11T00:00:00Z',
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain(';Annulation\r\n');
    expect(csv.body).toContain(
      `Arrivée annulée par ${staff.ROLE_EMPLOYEE.firstname} ${staff.ROLE_EMPLOYEE.name} : Mauvaise personne`,
    );
  });

  it('needs a reason, bounded; 401, 403 for a role that may not record checks, 404 for another company', async () => {
    const { company, staff, desk, person } = await setup();
    const check = await insertCheck(company, person, { checkInAt: minutesAgo(1) });
    expect((await undo('', check.id)).statusCode).toBe(401);
    for (const payload of [{}, { reason: '   ' }]) {
      const res = await undo(desk, check.id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toHaveProperty('reason');
    }
    expect((await undo(desk, check.id, { reason: '   ' })).json().message).toBe(
      UNDO_MESSAGES.reasonRequired,
    );
    expect((await undo(desk, check.id, { reason: 'x'.repeat(5000) })).statusCode).toBe(400);

    const role = ROLES.find((r) => !mayPerform(r, 'checks.record') && r in staff)!;
    const forbidden = await undo(await tokenFor(ctx.app, staff[role].email), check.id);
    expect(forbidden.statusCode).toBe(403);

    const other = await setup();
    expect((await undo(other.desk, check.id)).statusCode).toBe(404);
    expect((await undo(desk, '0190e4a6-0000-7000-8000-000000000000')).statusCode).toBe(404);
    expect((await checkRow(check.id)).undoneAt).toBeNull();
  });
});

/** The presence events the database announces (what every live screen hears), as they come. */
async function listenPresence() {
  const hub = LiveHub.for(ctx.db, ctx.app.log);
  const heard: Extract<LiveEvent, { type: 'presence' }>[] = [];
  const unsubscribe = await hub.subscribe((message) => {
    if (message.type === 'presence') heard.push(message);
  });
  return {
    heard,
    /** The events about `personId` once `count` of them have come (or what came in 5 s). */
    async of(personId: string, count: number) {
      const deadline = performance.now() + 5_000;
      const about = () => heard.filter((e) => e.person_id === personId);
      while (about().length < count && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return about().map((e) => e.op);
    },
    async close() {
      unsubscribe();
      await hub.close();
    },
  };
}

describe(`an undo on the live screens (issue 27, ${testDatabaseKind})`, () => {
  async function expectedIds(token: string) {
    const res = await as(ctx.app, token)({ method: 'GET', url: '/api/on-site/expected' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ExpectedPage>().data.map((r) => r.person_id);
  }
  async function onSiteIds(token: string) {
    const res = await as(ctx.app, token)({ method: 'GET', url: '/api/on-site?per_page=100' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<OnSitePage>().data.map((r) => r.person_id);
  }
  const at = (minutes: number) => vi.setSystemTime(new Date(NOW.getTime() + minutes * 60_000));

  it('announces an undone arrival as such, not as a departure, and its visitor is expected today again', async () => {
    const { company, desk } = await setup();
    const visitor = await buildVisitor(ctx.db, { company, lastname: 'Attendue' });
    await buildRequest(ctx.db, { company, visitor, confirmed: true, status: 1 });
    const live = await listenPresence();
    try {
      expect(await expectedIds(desk)).toContain(visitor.id);

      const scan = await as(
        ctx.app,
        desk,
      )({ method: 'GET', url: `/api/get-qr-data/${visitor.uidn}` });
      expect(scan.json(), scan.body).toMatchObject({ action: 'check_in' });
      expect(await live.of(visitor.id, 1)).toEqual(['in']);
      expect(await expectedIds(desk)).not.toContain(visitor.id);
      expect(await onSiteIds(desk)).toContain(visitor.id);

      const [check] = await ctx.db
        .select()
        .from(visitorChecks)
        .where(eq(visitorChecks.visitorId, visitor.id));
      at(2);
      expect((await undo(desk, check!.id)).json()).toMatchObject({ undone: 'arrival' });

      // Told apart from a departure ('out'), which is what a screen said before.
      expect(await live.of(visitor.id, 2)).toEqual(['in', 'arrival_undone']);
      expect(live.heard.at(-1)).toEqual({
        type: 'presence',
        company_id: company.id,
        site_id: visitor.siteId,
        person_id: visitor.id,
        table: 'visitor',
        op: 'arrival_undone',
      });
      expect(await onSiteIds(desk)).not.toContain(visitor.id);
      // The mistaken arrival does not count: the visitor is still to come.
      expect(await expectedIds(desk)).toContain(visitor.id);

      // When they do come, they leave the expected list again.
      const back = await as(
        ctx.app,
        desk,
      )({ method: 'GET', url: `/api/get-qr-data/${visitor.uidn}` });
      expect(back.json(), back.body).toMatchObject({ action: 'check_in' });
      expect(await live.of(visitor.id, 3)).toEqual(['in', 'arrival_undone', 'in']);
      expect(await expectedIds(desk)).not.toContain(visitor.id);
    } finally {
      await live.close();
    }
  });

  it('announces an undone departure as such, not as an arrival; the person is inside, not expected', async () => {
    const { company, desk } = await setup();
    const visitor = await buildVisitor(ctx.db, { company, lastname: 'Revenue' });
    await buildRequest(ctx.db, { company, visitor, confirmed: true, status: 1 });
    const live = await listenPresence();
    try {
      const url = `/api/get-qr-data/${visitor.uidn}`;
      expect((await as(ctx.app, desk)({ method: 'GET', url })).json()).toMatchObject({
        action: 'check_in',
      });
      // Past the repeat-scan window: the next scan is the departure.
      at(5);
      expect((await as(ctx.app, desk)({ method: 'GET', url })).json()).toMatchObject({
        action: 'check_out',
      });
      expect(await live.of(visitor.id, 2)).toEqual(['in', 'out']);

      const [check] = await ctx.db
        .select()
        .from(visitorChecks)
        .where(eq(visitorChecks.visitorId, visitor.id));
      at(6);
      expect((await undo(desk, check!.id)).json()).toMatchObject({ undone: 'departure' });
      expect(await live.of(visitor.id, 3)).toEqual(['in', 'out', 'departure_undone']);
      expect(await onSiteIds(desk)).toContain(visitor.id);
      expect(await expectedIds(desk)).not.toContain(visitor.id);
    } finally {
      await live.close();
    }
  });
});
