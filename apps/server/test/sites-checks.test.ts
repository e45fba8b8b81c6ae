/**
 * Issue 28: checks happen at a site. One company, two sites 19 hours apart (Nouméa,
 * UTC+11, and Los Angeles, UTC-8/-7): a visitor's code opens on its day in its own site's
 * zone; a QR member's check is recorded at the desk's site; a visitor is refused at the
 * other site's desk; a front desk limited to one site cannot scan at the other; each
 * site's day end closes its own checks. Fixed clocks where a day matters (`now` given to
 * the check and to the job).
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { API_MESSAGES, CHECK_MESSAGES, catalogue, type CheckResult } from '@sesame/shared';
import { autoCheckOut } from '../src/checkins/auto-check-out';
import { checkVisitorCode } from '../src/checkins/toggle';
import { userChecks, visitorChecks } from '../src/db/schema';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { callAs, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildQrUser,
  buildRequest,
  buildSite,
  buildUser,
  buildVisitor,
} from './helpers/factories';

const ctx = useTestApp({
  rateLimits: { ...DEFAULT_RATE_LIMITS, codeLookupPerWindow: 100_000 },
  repeatScanWindowMs: 0,
});
const fr = catalogue('fr');

/** Today in `timeZone`, as the visitor form writes a date (DD/MM/YYYY). */
function todayIn(timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).formatToParts(new Date());
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('day')}/${part('month')}/${part('year')}`;
}

/** A company whose main site is in Nouméa, and its second site in Los Angeles, with their staff. */
async function twoSites() {
  const company = await buildCompany(ctx.db, {
    timezone: 'Pacific/Noumea',
    dayEnd: '18:00',
  });
  const noumea = { id: company.siteId, name: company.name, timezone: 'Pacific/Noumea' };
  const la = await buildSite(ctx.db, {
    company,
    name: `Los Angeles ${company.slug}`,
    timezone: 'America/Los_Angeles',
    dayEnd: '17:00',
  });
  const desk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
  const laDesk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE', homeSiteId: la.id });
  // The Nouméa front desk: limited to its site.
  const noumeaOnly = await buildUser(ctx.db, {
    company,
    role: 'ROLE_EMPLOYEE',
    homeSiteId: noumea.id,
    siteIds: [noumea.id],
  });
  return { company, noumea, la, desk, laDesk, noumeaOnly };
}

/** A confirmed visitor of `siteId`, their meeting on `date`. */
async function visitorAt(company: { id: string }, siteId: string, date: string) {
  const visitor = await buildVisitor(ctx.db, { company, siteId, requestDate: date });
  await buildRequest(ctx.db, { company, visitor, status: 1, confirmed: true });
  return visitor;
}

const visitorChecksOf = (visitorId: string) =>
  ctx.db.select().from(visitorChecks).where(eq(visitorChecks.visitorId, visitorId));
const userChecksOf = (qrUserId: string) =>
  ctx.db.select().from(userChecks).where(eq(userChecks.qrUserId, qrUserId));

describe(`checks at a site (issue 28, ${testDatabaseKind})`, () => {
  const call = callAs(ctx);
  const get = (url: string, email: string) => call({ method: 'GET', url }, email);

  it("opens a visitor's code on its day in its own site's zone, not the other site's", async () => {
    const { company, noumea, la, desk } = await twoSites();
    const caller = (await ctx.app.tokens.verify(await tokenFor(ctx.app, desk.email)))!;
    // Both visitors come on 15/03/2030, one to each site.
    const scanAt = async (siteId: string, iso: string) => {
      const visitor = await visitorAt(company, siteId, '15/03/2030');
      const result = await checkVisitorCode(ctx.db, visitor.uidn, {
        caller,
        method: 'scan',
        repeatWindowMs: 0,
        now: new Date(iso),
      }).then(
        (answer) => answer.action,
        (error: { statusCode?: number; message: string }) => `${error.statusCode} ${error.message}`,
      );
      const checks = await visitorChecksOf(visitor.id);
      return { result, sites: checks.map((check) => check.siteId) };
    };
    const notYet = `409 ${CHECK_MESSAGES.meetingNotYet('15/03/2030')}`;
    const over = `409 ${CHECK_MESSAGES.meetingDayOver}`;

    // 14/03 20:00 UTC: 15/03 07:00 in Nouméa (their day), 14/03 13:00 in Los Angeles (tomorrow).
    expect(await scanAt(noumea.id, '2030-03-14T20:00:00Z')).toEqual({
      result: 'check_in',
      sites: [noumea.id],
    });
    expect(await scanAt(la.id, '2030-03-14T20:00:00Z')).toEqual({ result: notYet, sites: [] });
    // The day's first instant in each zone: 13:00 UTC the day before in Nouméa, 07:00 UTC in LA.
    expect((await scanAt(noumea.id, '2030-03-14T12:59:00Z')).result).toBe(notYet);
    expect((await scanAt(noumea.id, '2030-03-14T13:00:00Z')).result).toBe('check_in');
    expect((await scanAt(la.id, '2030-03-15T06:59:00Z')).result).toBe(notYet);
    expect(await scanAt(la.id, '2030-03-15T07:00:00Z')).toEqual({
      result: 'check_in',
      sites: [la.id],
    });
    // 15/03 14:00 UTC: Nouméa's 15/03 is over, Los Angeles's has begun.
    expect((await scanAt(noumea.id, '2030-03-15T14:00:00Z')).result).toBe(over);
    expect((await scanAt(la.id, '2030-03-15T14:00:00Z')).result).toBe('check_in');
  });

  it("records a member's check at the desk's site: ?site=, else the scanner's home site, else the main site", async () => {
    const { company, noumea, la, desk, laDesk } = await twoSites();
    const member = await buildQrUser(ctx.db, { company, kind: 'member' });

    const atLa = await get(`/api/get-qr-user-data/${member.uidn}?site=${la.id}`, desk.email);
    expect(atLa.statusCode, atLa.body).toBe(200);
    expect(atLa.json<CheckResult>()).toMatchObject({ status: 'success', action: 'check_in' });
    expect((await userChecksOf(member.id)).map((check) => check.siteId)).toEqual([la.id]);
    // Out at the same site (the check it closes keeps its site).
    const out = await get(`/api/get-qr-user-data/${member.uidn}?site=${la.id}`, desk.email);
    expect(out.json<CheckResult>().action).toBe('check_out');

    // No site named: the scanner's home site (Los Angeles), or the main site (Nouméa).
    expect((await get(`/api/get-qr-user-data/${member.uidn}`, laDesk.email)).statusCode).toBe(200);
    await get(`/api/get-qr-user-data/${member.uidn}`, laDesk.email);
    expect((await get(`/api/get-qr-user-data/${member.uidn}`, desk.email)).statusCode).toBe(200);
    const checks = await ctx.db
      .select()
      .from(userChecks)
      .where(eq(userChecks.qrUserId, member.id))
      .orderBy(userChecks.checkInAt);
    expect(checks.map((check) => check.siteId)).toEqual([la.id, la.id, noumea.id]);
  });

  it("refuses a visitor at the other site's desk, in French, and records nothing", async () => {
    const { company, noumea, la, desk } = await twoSites();
    const visitor = await visitorAt(company, noumea.id, todayIn('Pacific/Noumea'));

    const refused = await get(`/api/get-qr-data/${visitor.uidn}?site=${la.id}`, desk.email);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(fr.site.otherSite(noumea.name));
    expect(refused.json().message).toBe(`Ce code est attendu sur le site « ${noumea.name} ».`);
    expect(await visitorChecksOf(visitor.id)).toHaveLength(0);

    // At their own site's desk (named or not) they come in there.
    const welcomed = await get(`/api/get-qr-data/${visitor.uidn}?site=${noumea.id}`, desk.email);
    expect(welcomed.statusCode, welcomed.body).toBe(200);
    expect(welcomed.json<CheckResult>().action).toBe('check_in');
    // Inside, they cannot be checked out at the other site's desk either.
    const wrongDesk = await get(`/api/get-qr-data/${visitor.uidn}?site=${la.id}`, desk.email);
    expect(wrongDesk.statusCode).toBe(409);
    const checks = await visitorChecksOf(visitor.id);
    expect(checks.map((check) => [check.siteId, check.checkOutAt])).toEqual([[noumea.id, null]]);
    expect((await get(`/api/get-qr-data/${visitor.uidn}`, desk.email)).json().action).toBe(
      'check_out',
    );
  });

  it('keeps a front desk limited to one site from scanning at the other (403) or its visitors', async () => {
    const { company, noumea, la, noumeaOnly } = await twoSites();
    const member = await buildQrUser(ctx.db, { company, kind: 'member' });
    const laVisitor = await visitorAt(company, la.id, todayIn('America/Los_Angeles'));

    for (const url of [
      `/api/get-qr-user-data/${member.uidn}?site=${la.id}`,
      `/api/get-qr-data/${laVisitor.uidn}?site=${la.id}`,
    ]) {
      const res = await get(url, noumeaOnly.email);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().message).toBe(fr.site.notYours);
    }
    const kiosk = await call(
      {
        method: 'POST',
        url: `/api/kiosk/check?site=${la.id}`,
        payload: { email: member.email },
      },
      noumeaOnly.email,
    );
    expect(kiosk.statusCode).toBe(403);
    // Not naming the site does not help: that visitor is expected at the other site.
    const unnamed = await get(`/api/get-qr-data/${laVisitor.uidn}`, noumeaOnly.email);
    expect(unnamed.statusCode).toBe(409);
    expect(unnamed.json().message).toBe(fr.site.otherSite(la.name));
    expect(await visitorChecksOf(laVisitor.id)).toHaveLength(0);
    expect(await userChecksOf(member.id)).toHaveLength(0);

    // At their own site they scan as before; the member's check is theirs.
    const own = await get(`/api/get-qr-user-data/${member.uidn}`, noumeaOnly.email);
    expect(own.statusCode, own.body).toBe(200);
    expect((await userChecksOf(member.id)).map((check) => check.siteId)).toEqual([noumea.id]);

    // Another company's site is unknown here (404); a malformed one is a 400.
    const other = await buildCompany(ctx.db);
    const foreign = await get(
      `/api/get-qr-user-data/${member.uidn}?site=${other.siteId}`,
      noumeaOnly.email,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(API_MESSAGES.notFound);
    const malformed = await get(
      `/api/get-qr-user-data/${member.uidn}?site=nowhere`,
      noumeaOnly.email,
    );
    expect(malformed.statusCode).toBe(400);
    expect(await userChecksOf(member.id)).toHaveLength(1);
  });

  // Last: the job closes every check open in the database whose day end has passed.
  it("closes each site's checks at that site's own day end, in its zone", async () => {
    const { company, noumea, la } = await twoSites();
    const member = await buildQrUser(ctx.db, { company, kind: 'member' });
    const other = await buildQrUser(ctx.db, { company, kind: 'member' });
    const laVisitor = await visitorAt(company, la.id, '10/01/2030');
    // 10/01 20:00 UTC: 11/01 07:00 in Nouméa (day end 18:00 = 07:00 UTC on the 11th),
    // 10/01 12:00 in Los Angeles (day end 17:00 = 01:00 UTC on the 11th).
    const arrival = new Date('2030-01-10T20:00:00Z');
    const [atNoumea] = await ctx.db
      .insert(userChecks)
      .values({
        companyId: company.id,
        siteId: noumea.id,
        qrUserId: member.id,
        checkInAt: arrival,
        checkInMethod: 'scan',
      })
      .returning();
    const [atLa] = await ctx.db
      .insert(userChecks)
      .values({
        companyId: company.id,
        siteId: la.id,
        qrUserId: other.id,
        checkInAt: arrival,
        checkInMethod: 'scan',
      })
      .returning();
    const [visitorAtLa] = await ctx.db
      .insert(visitorChecks)
      .values({
        companyId: company.id,
        siteId: la.id,
        visitorId: laVisitor.id,
        checkInAt: arrival,
        checkInMethod: 'scan',
      })
      .returning();
    const outOf = async () => {
      const users = await ctx.db
        .select()
        .from(userChecks)
        .where(and(eq(userChecks.companyId, company.id)));
      const visitors = await ctx.db
        .select()
        .from(visitorChecks)
        .where(eq(visitorChecks.id, visitorAtLa!.id));
      const at = (id: string) =>
        [...users, ...visitors].find((check) => check.id === id)!.checkOutAt?.toISOString() ?? null;
      return { noumea: at(atNoumea!.id), la: at(atLa!.id), visitor: at(visitorAtLa!.id) };
    };

    await autoCheckOut(ctx.db, new Date('2030-01-11T00:59:00Z'));
    expect(await outOf()).toEqual({ noumea: null, la: null, visitor: null });
    await autoCheckOut(ctx.db, new Date('2030-01-11T02:00:00Z'));
    expect(await outOf()).toEqual({
      noumea: null,
      la: '2030-01-11T01:00:00.000Z',
      visitor: '2030-01-11T01:00:00.000Z',
    });
    await autoCheckOut(ctx.db, new Date('2030-01-11T08:00:00Z'));
    expect(await outOf()).toEqual({
      noumea: '2030-01-11T07:00:00.000Z',
      la: '2030-01-11T01:00:00.000Z',
      visitor: '2030-01-11T01:00:00.000Z',
    });
    const [closed] = await userChecksOf(member.id);
    expect(closed).toMatchObject({ checkOutMethod: 'automatic', siteId: noumea.id });
  });
});
