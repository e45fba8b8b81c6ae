import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  API_MESSAGES,
  CHECK_MESSAGES,
  type CheckResult,
  type UserCheckRow,
  type VisitorLogRow,
} from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { checkVisitorCode } from '../src/checkins/toggle';
import { companies, sites, userChecks, users, visitorChecks } from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { as, callAs, multipart, tokenFor, useTestApp, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildEvent,
  buildQrUser,
  buildRequest,
  buildTenant,
  buildUser,
  buildVisitor,
} from './helpers/factories';

const generous = { ...DEFAULT_RATE_LIMITS, codeLookupPerWindow: 100_000 };
type Tenant = Awaited<ReturnType<typeof buildTenant>>;

/** Today, as the visitor form writes a date (DD/MM/YYYY), in Abidjan (UTC). */
function formDate(offsetDays = 0): string {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

function caller(ctx: TestContext) {
  const call = callAs(ctx);
  return (
    url: string,
    email?: string,
    options: { method?: 'GET' | 'POST'; payload?: object } = {},
  ) => call({ method: options.method ?? 'GET', url, payload: options.payload }, email);
}

/** A visitor of `tenant` whose meeting is today and confirmed. */
async function confirmedVisitor(ctx: TestContext, tenant: Tenant, values = {}) {
  const visitor = await buildVisitor(ctx.db, {
    company: tenant.company,
    requestDate: formDate(),
    ...values,
  });
  await buildRequest(ctx.db, {
    company: tenant.company,
    visitor,
    status: 1,
    confirmed: true,
  });
  return visitor;
}

describe(`check-in and check-out (${testDatabaseKind})`, () => {
  const ctx = useTestApp({ rateLimits: generous, repeatScanWindowMs: 0 });
  let acme: Tenant;
  let globex: Tenant;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    call = caller(ctx);
  });

  describe('GET /api/get-qr-data/{uidn}', () => {
    it('answers 401 without a token', async () => {
      const visitor = await confirmedVisitor(ctx, acme);
      const res = await call(`/api/get-qr-data/${visitor.uidn}`);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(API_MESSAGES.unauthenticated);
    });

    it('answers 403 to a role that does not scan (supervisor)', async () => {
      const visitor = await confirmedVisitor(ctx, acme);
      const res = await call(`/api/get-qr-data/${visitor.uidn}`, acme.staff.ROLE_SUPERVISOR.email);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(API_MESSAGES.forbidden);
    });

    it('answers 401 once the session is revoked or the account disabled, and changes nothing', async () => {
      const visitor = await confirmedVisitor(ctx, acme);
      const scan = (token: string) =>
        as(ctx.app, token)({ method: 'GET', url: `/api/get-qr-data/${visitor.uidn}` });

      const loggedOut = await buildUser(ctx.db, { company: acme.company });
      const revoked = await tokenFor(ctx.app, loggedOut.email);
      expect((await as(ctx.app, revoked)({ method: 'POST', url: '/api/logout' })).statusCode).toBe(
        200,
      );
      const afterLogout = await scan(revoked);
      expect(afterLogout.statusCode).toBe(401);
      expect(afterLogout.json().message).toBe(API_MESSAGES.unauthenticated);

      const leaver = await buildUser(ctx.db, { company: acme.company });
      const stillSigned = await tokenFor(ctx.app, leaver.email);
      await ctx.db.update(users).set({ status: false }).where(eq(users.id, leaver.id));
      expect((await scan(stillSigned)).statusCode).toBe(401);

      expect((await scan('not-a-token-at-all')).statusCode).toBe(401);
      expect(
        await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.visitorId, visitor.id)),
      ).toHaveLength(0);
    });

    it('reads the active role as the first known role of the list', async () => {
      const visitor = await confirmedVisitor(ctx, acme);
      // A supervisor who also holds the employee role acts as a supervisor: no scanning.
      const supervisor = await buildUser(ctx.db, {
        company: acme.company,
        roles: ['ROLE_UNKNOWN', 'ROLE_SUPERVISOR', 'ROLE_EMPLOYEE'],
      });
      const refused = await call(`/api/get-qr-data/${visitor.uidn}`, supervisor.email);
      expect(refused.statusCode).toBe(403);
      const desk = await buildUser(ctx.db, {
        company: acme.company,
        roles: ['ROLE_UNKNOWN', 'ROLE_EMPLOYEE', 'ROLE_SUPERVISOR'],
      });
      const allowed = await call(`/api/get-qr-data/${visitor.uidn}`, desk.email);
      expect(allowed.statusCode).toBe(200);
      expect(allowed.json<CheckResult>().action).toBe('check_in');
    });

    it("answers 404 for an unknown code and for another company's code alike", async () => {
      const unknown = await call('/api/get-qr-data/ZZZZ-ZZZZ-ZZZZ', acme.staff.ROLE_EMPLOYEE.email);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(CHECK_MESSAGES.unknownCode);
      const theirs = await confirmedVisitor(ctx, globex);
      const other = await call(`/api/get-qr-data/${theirs.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
      expect(other.statusCode).toBe(404);
      expect(other.json().message).toBe(CHECK_MESSAGES.unknownCode);
      expect(
        await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.visitorId, theirs.id)),
      ).toHaveLength(0);
    });

    it('checks in, then out, recording who and how', async () => {
      const visitor = await confirmedVisitor(ctx, acme);
      const receptionist = acme.staff.ROLE_EMPLOYEE;
      const first = await call(`/api/get-qr-data/${visitor.uidn}`, receptionist.email);
      expect(first.statusCode).toBe(200);
      const checkIn = first.json<CheckResult>();
      expect(checkIn).toMatchObject({
        status: 'success',
        action: 'check_in',
        redirectUrl: `/success-checkin/${visitor.uidn}`,
        message: CHECK_MESSAGES.checkedIn('Awa Koné'),
      });

      // Typed by hand: lower case, no dashes, type=1.
      const typed = visitor.uidn.replace(/-/g, '').toLowerCase();
      const second = await call(`/api/get-qr-data/${typed}?type=1`, receptionist.email);
      expect(second.statusCode).toBe(200);
      expect(second.json<CheckResult>()).toMatchObject({
        status: 'success',
        action: 'check_out',
        redirectUrl: `/success-checkout/${visitor.uidn}`,
      });

      const [check] = await ctx.db
        .select()
        .from(visitorChecks)
        .where(eq(visitorChecks.visitorId, visitor.id));
      expect(check).toMatchObject({
        checkInMethod: 'scan',
        checkOutMethod: 'manual',
        checkInBy: receptionist.id,
        checkOutBy: receptionist.id,
      });
      expect(check!.checkOutAt).not.toBeNull();
    });

    it('refuses a request not yet confirmed, and changes nothing', async () => {
      const visitor = await buildVisitor(ctx.db, {
        company: acme.company,
        requestDate: formDate(),
      });
      await buildRequest(ctx.db, { company: acme.company, visitor });
      const res = await call(`/api/get-qr-data/${visitor.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(CHECK_MESSAGES.notConfirmed);
      expect(
        await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.visitorId, visitor.id)),
      ).toHaveLength(0);
    });

    it('refuses to let in a visitor whose meeting day is over, but lets one inside leave', async () => {
      const late = await confirmedVisitor(ctx, acme, { requestDate: formDate(-2) });
      const refused = await call(`/api/get-qr-data/${late.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(CHECK_MESSAGES.meetingDayOver);

      const inside = await confirmedVisitor(ctx, acme, { requestDate: formDate(-1) });
      await ctx.db.insert(visitorChecks).values({
        companyId: acme.company.id,
        siteId: inside.siteId,
        visitorId: inside.id,
        checkInAt: new Date(Date.now() - 86_400_000),
        checkInMethod: 'scan',
      });
      const out = await call(`/api/get-qr-data/${inside.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
      expect(out.statusCode).toBe(200);
      expect(out.json<CheckResult>().action).toBe('check_out');
    });

    it("refuses an event guest once the event's day is over", async () => {
      const event = await buildEvent(ctx.db, { company: acme.company, dateEvent: formDate(-3) });
      const guest = await confirmedVisitor(ctx, acme, { eventId: event.id });
      const res = await call(`/api/get-qr-data/${guest.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(CHECK_MESSAGES.eventOver);
    });

    it('lets the admin check a visitor of any company', async () => {
      const visitor = await confirmedVisitor(ctx, globex);
      const res = await call(`/api/get-qr-data/${visitor.uidn}`, acme.staff.ROLE_ADMIN.email);
      expect(res.statusCode).toBe(200);
    });

    it('answers 400, not 500, to a malformed code or type', async () => {
      const res = await call('/api/get-qr-data/ABCD?type=x', acme.staff.ROLE_EMPLOYEE.email);
      expect(res.statusCode).toBe(400);
    });

    it('keeps 50 racing scans consistent: each success is one change, never two open checks', async () => {
      const visitor = await confirmedVisitor(ctx, acme);
      const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
      const responses = await Promise.all(
        Array.from({ length: 50 }, () =>
          as(ctx.app, token)({ method: 'GET', url: `/api/get-qr-data/${visitor.uidn}` }),
        ),
      );
      expect(responses.every((r) => r.statusCode === 200)).toBe(true);
      const successes = responses.filter((r) => r.json<CheckResult>().status === 'success');
      const checks = await ctx.db
        .select()
        .from(visitorChecks)
        .where(eq(visitorChecks.visitorId, visitor.id));
      expect(checks.filter((c) => c.checkOutAt === null).length).toBeLessThanOrEqual(1);
      // Every check-in and every check-out reported as a success is in the log, and no other.
      const changes = checks.length + checks.filter((c) => c.checkOutAt !== null).length;
      expect(successes).toHaveLength(changes);
    });
  });

  describe("a visitor's code opens the door only on its day (issue 11 §4)", () => {
    const checksOf = (visitorId: string) =>
      ctx.db.select().from(visitorChecks).where(eq(visitorChecks.visitorId, visitorId));

    it('refuses a meeting ten days ahead, and records nothing', async () => {
      const early = await confirmedVisitor(ctx, acme, { requestDate: formDate(10) });
      const res = await call(`/api/get-qr-data/${early.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(CHECK_MESSAGES.meetingNotYet(formDate(10)));
      expect(await checksOf(early.id)).toHaveLength(0);
    });

    it('refuses an event registration twenty days ahead, and records nothing', async () => {
      const event = await buildEvent(ctx.db, { company: acme.company, dateEvent: formDate(20) });
      const guest = await confirmedVisitor(ctx, acme, { eventId: event.id });
      const res = await call(`/api/get-qr-data/${guest.uidn}`, acme.staff.ROLE_MANAGER.email);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(CHECK_MESSAGES.eventNotYet(formDate(20)));
      expect(await checksOf(guest.id)).toHaveLength(0);
    });

    it('lets in a meeting and an event guest on their day', async () => {
      const meeting = await confirmedVisitor(ctx, acme, { requestDate: formDate() });
      const event = await buildEvent(ctx.db, { company: acme.company, dateEvent: formDate() });
      const guest = await confirmedVisitor(ctx, acme, { eventId: event.id });
      for (const visitor of [meeting, guest]) {
        const res = await call(`/api/get-qr-data/${visitor.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
        expect(res.statusCode).toBe(200);
        expect(res.json<CheckResult>()).toMatchObject({ status: 'success', action: 'check_in' });
        expect(await checksOf(visitor.id)).toHaveLength(1);
      }
    });

    it('always lets someone already inside out, whatever their day', async () => {
      const inside = await confirmedVisitor(ctx, acme, { requestDate: formDate(10) });
      await ctx.db.insert(visitorChecks).values({
        companyId: acme.company.id,
        siteId: inside.siteId,
        visitorId: inside.id,
        checkInAt: new Date(Date.now() - 3_600_000),
        checkInMethod: 'scan',
      });
      const out = await call(`/api/get-qr-data/${inside.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
      expect(out.statusCode).toBe(200);
      expect(out.json<CheckResult>()).toMatchObject({ status: 'success', action: 'check_out' });
    });

    it("opens from the site's early-arrival minutes before the day, in the site's zone", async () => {
      // A Paris site; the meeting is on 15/03/2030, which starts there at 23:00 UTC the day before.
      const company = await buildTenant(ctx.db);
      await ctx.db
        .update(sites)
        .set({ timezone: 'Europe/Paris' })
        .where(eq(sites.id, company.company.siteId));
      const token = await tokenFor(ctx.app, company.staff.ROLE_EMPLOYEE.email);
      const caller = (await ctx.app.tokens.verify(token))!;
      const scanAt = async (iso: string) => {
        const visitor = await confirmedVisitor(ctx, company, { requestDate: '15/03/2030' });
        const now = new Date(iso);
        return checkVisitorCode(ctx.db, visitor.uidn, {
          caller,
          method: 'scan',
          repeatWindowMs: 0,
          now,
        }).then(
          (result) => result.action,
          (error: { statusCode?: number; message: string }) =>
            `${error.statusCode} ${error.message}`,
        );
      };
      const notYet = `409 ${CHECK_MESSAGES.meetingNotYet('15/03/2030')}`;
      const setEarly = (minutes: number) =>
        ctx.db
          .update(sites)
          .set({ arrivalEarlyMinutes: minutes })
          .where(eq(sites.id, company.company.siteId));

      // Default 0: not before the day's first instant in Paris.
      expect(await scanAt('2030-03-14T22:59:00Z')).toBe(notYet);
      expect(await scanAt('2030-03-14T23:00:00Z')).toBe('check_in');
      expect(await scanAt('2030-03-15T22:59:00Z')).toBe('check_in');
      expect(await scanAt('2030-03-15T23:00:00Z')).toBe(`409 ${CHECK_MESSAGES.meetingDayOver}`);

      await setEarly(30);
      expect(await scanAt('2030-03-14T22:29:00Z')).toBe(notYet);
      expect(await scanAt('2030-03-14T22:30:00Z')).toBe('check_in');
      // The early minutes do not stretch the day's end.
      expect(await scanAt('2030-03-15T23:00:00Z')).toBe(`409 ${CHECK_MESSAGES.meetingDayOver}`);
    });
  });

  describe('GET /api/get-qr-user-data/{uidn}', () => {
    it('checks a member in and out, and answers 401/403/404 like get-qr-data', async () => {
      const member = await buildQrUser(ctx.db, { company: acme.company, kind: 'member' });
      expect((await call(`/api/get-qr-user-data/${member.uidn}`)).statusCode).toBe(401);
      expect(
        (await call(`/api/get-qr-user-data/${member.uidn}`, acme.staff.ROLE_SUPERVISOR.email))
          .statusCode,
      ).toBe(403);
      expect(
        (await call(`/api/get-qr-user-data/${member.uidn}`, globex.staff.ROLE_EMPLOYEE.email))
          .statusCode,
      ).toBe(404);
      const inRes = await call(
        `/api/get-qr-user-data/${member.uidn}`,
        acme.staff.ROLE_MANAGER.email,
      );
      expect(inRes.json<CheckResult>()).toMatchObject({
        status: 'success',
        action: 'check_in',
        redirectUrl: `/success-user-checkin/${member.uidn}`,
      });
      const outRes = await call(
        `/api/get-qr-user-data/${member.uidn}`,
        acme.staff.ROLE_MANAGER.email,
      );
      expect(outRes.json<CheckResult>()).toMatchObject({
        action: 'check_out',
        redirectUrl: `/success-user-checkout/${member.uidn}`,
      });
    });

    it('refuses an expired QR code with its expiry date', async () => {
      const expired = await buildQrUser(ctx.db, {
        company: acme.company,
        dateExp: new Date('2020-03-15T23:59:59.999Z'),
      });
      const res = await call(
        `/api/get-qr-user-data/${expired.uidn}`,
        acme.staff.ROLE_EMPLOYEE.email,
      );
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(CHECK_MESSAGES.expired('15/03/2020'));
      expect(
        await ctx.db.select().from(userChecks).where(eq(userChecks.qrUserId, expired.id)),
      ).toHaveLength(0);
    });

    it("refuses a re-issued card's old code", async () => {
      const old = await buildQrUser(ctx.db, { company: acme.company, revokedAt: new Date() });
      const res = await call(`/api/get-qr-user-data/${old.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(CHECK_MESSAGES.replaced);
    });
  });

  describe('POST /api/kiosk/check', () => {
    /** A company with e-mail presence on, its agent, and a member created with a photo. */
    async function kioskCompany() {
      const company = await buildCompany(ctx.db, { kioskEmailEnabled: true });
      const agent = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
      const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
      const token = await tokenFor(ctx.app, manager.email);
      const photo = await qrPng('photo');
      const created = await as(
        ctx.app,
        token,
      )({
        method: 'POST',
        url: '/api/create-member',
        ...multipart(
          {
            firstname: 'Awa',
            lastname: 'Traoré',
            email: `awa-${company.slug}@example.com`,
            contact: '0102030405',
            title: 'Directrice',
            type: 'permanent',
            company_id: company.id,
          },
          { user_document: { filename: 'awa.png', contentType: 'image/png', bytes: photo } },
        ),
      });
      expect(created.statusCode).toBe(201);
      const member = created.json<{ data: { id: string; uidn: string; email: string } }>().data;
      return { company, agent, member, photo };
    }

    const userChecksOf = (qrUserId: string) =>
      ctx.db.select().from(userChecks).where(eq(userChecks.qrUserId, qrUserId));

    it('is off by default: a clear refusal, and nothing recorded', async () => {
      const [row] = await ctx.db
        .select({ on: companies.kioskEmailEnabled })
        .from(companies)
        .where(eq(companies.id, acme.company.id));
      expect(row!.on).toBe(false);
      const member = await buildQrUser(ctx.db, { company: acme.company, kind: 'member' });
      for (const email of [member.email!, 'nobody@example.com']) {
        const res = await call('/api/kiosk/check', acme.staff.ROLE_EMPLOYEE.email, {
          method: 'POST',
          payload: { email },
        });
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toBe(CHECK_MESSAGES.kioskEmailOff);
      }
      expect(await userChecksOf(member.id)).toEqual([]);
      // The guards before it are unchanged: no token 401, a role that may not record 403.
      const anonymous = await call('/api/kiosk/check', undefined, {
        method: 'POST',
        payload: { email: member.email },
      });
      expect(anonymous.statusCode).toBe(401);
      const user = await call('/api/kiosk/check', acme.staff.ROLE_USER.email, {
        method: 'POST',
        payload: { email: member.email },
      });
      expect(user.statusCode).toBe(403);
    });

    it("when on: toggles a member of the caller's company by e-mail, with their photo, and no one else's", async () => {
      const north = await kioskCompany();
      const south = await kioskCompany();
      const body = { email: north.member.email.toUpperCase() };
      const first = await call('/api/kiosk/check', north.agent.email, {
        method: 'POST',
        payload: body,
      });
      expect(first.statusCode).toBe(200);
      const answer = first.json();
      expect(answer).toMatchObject({
        status: 'success',
        action: 'check_in',
        uidn: north.member.uidn,
        person: { firstname: 'Awa', lastname: 'Traoré' },
      });
      // The photo, signed for the agent's session: the agent's own credential loads it.
      expect(answer.photo).toMatch(/^\/api\/files\/[0-9a-f-]{36}\?session=/);
      const image = await call(answer.photo, north.agent.email);
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.rawPayload.equals(north.photo)).toBe(true);
      const [check] = await userChecksOf(north.member.id);
      expect(check!.checkInMethod).toBe('kiosk');

      const out = await call('/api/kiosk/check', north.agent.email, {
        method: 'POST',
        payload: body,
      });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toMatchObject({ status: 'success', action: 'check_out' });
      expect(out.json().photo).toMatch(/^\/api\/files\//);
      const [closed] = await userChecksOf(north.member.id);
      expect(closed!.checkOutMethod).toBe('kiosk');

      // Another company's agent, e-mail presence on there too, does not reach this member.
      const elsewhere = await call('/api/kiosk/check', south.agent.email, {
        method: 'POST',
        payload: body,
      });
      expect(elsewhere.statusCode).toBe(404);
      expect(elsewhere.json().message).toBe(CHECK_MESSAGES.unknownEmail);
      expect(await userChecksOf(north.member.id)).toHaveLength(1);

      const bad = await call('/api/kiosk/check', north.agent.email, {
        method: 'POST',
        payload: { email: 'not-an-email' },
      });
      expect(bad.statusCode).toBe(400);
    });

    it('when on: a member whose document is not an image has no photo', async () => {
      const company = await buildCompany(ctx.db, { kioskEmailEnabled: true });
      const agent = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
      const member = await buildQrUser(ctx.db, { company, kind: 'member' });
      const res = await call('/api/kiosk/check', agent.email, {
        method: 'POST',
        payload: { email: member.email },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ action: 'check_in', photo: null });
    });
  });

  describe('logs', () => {
    beforeAll(async () => {
      // One closed and one open check in each company.
      for (const tenant of [acme, globex]) {
        const a = await confirmedVisitor(ctx, tenant, {
          firstname: 'Logged',
          lastname: `In-${tenant.company.slug}`,
          organisationName: `Employer of ${tenant.company.slug}`,
        });
        await ctx.db.insert(visitorChecks).values([
          {
            companyId: tenant.company.id,
            siteId: a.siteId,
            visitorId: a.id,
            checkInAt: new Date('2030-01-10T08:00:00Z'),
            checkOutAt: new Date('2030-01-10T09:30:00Z'),
            checkInMethod: 'scan',
            checkOutMethod: 'manual',
            checkInBy: tenant.staff.ROLE_EMPLOYEE.id,
          },
        ]);
        const member = await buildQrUser(ctx.db, {
          company: tenant.company,
          kind: 'member',
          firstname: 'Attendee',
          lastname: tenant.company.slug,
        });
        await ctx.db.insert(userChecks).values({
          companyId: tenant.company.id,
          siteId: tenant.company.siteId,
          qrUserId: member.id,
          checkInAt: new Date('2030-01-10T07:00:00Z'),
          checkInMethod: 'kiosk',
        });
      }
    });

    it('visitor log: 401, 403, own company for others, every company for admin, range and search', async () => {
      expect((await call('/api/visitorlog')).statusCode).toBe(401);
      expect((await call('/api/visitorlog', acme.staff.ROLE_EMPLOYEE.email)).statusCode).toBe(403);

      const range = 'from=2030-01-10T00:00:00Z&to=2030-01-11T00:00:00Z';
      const own = await call(`/api/visitorlog?${range}`, acme.staff.ROLE_SUPERVISOR.email);
      expect(own.statusCode).toBe(200);
      const ownRows = own.json<{ data: VisitorLogRow[] }>().data;
      expect(ownRows).toHaveLength(1);
      expect(ownRows[0]).toMatchObject({
        visitor_name: 'Logged',
        visitor_lastname: `In-${acme.company.slug}`,
        // Issue 27: the visitor's own organisation, which the list shows under the name
        // (the company visited is `company`).
        organisation_name: `Employer of ${acme.company.slug}`,
        company: { slug: acme.company.slug },
        check_in_time: '2030-01-10T08:00:00.000Z',
        check_out_time: '2030-01-10T09:30:00.000Z',
        check_in_method: 'scan',
        check_out_method: 'manual',
      });
      expect(ownRows[0]!.check_in_by).toContain(acme.staff.ROLE_EMPLOYEE.name);

      const all = await call(`/api/visitorlog?${range}`, acme.staff.ROLE_ADMIN.email);
      expect(all.json<{ meta: { total: number } }>().meta.total).toBe(2);

      const searched = await call(
        `/api/visitorlog?${range}&q=${encodeURIComponent(`in-${globex.company.slug}`)}`,
        acme.staff.ROLE_ADMIN.email,
      );
      expect(searched.json<{ data: VisitorLogRow[] }>().data.map((r) => r.company.slug)).toEqual([
        globex.company.slug,
      ]);

      const bad = await call('/api/visitorlog?from=yesterday', acme.staff.ROLE_ADMIN.email);
      expect(bad.statusCode).toBe(400);
    });

    it("visitor log of a company: another company's answers 404 except for admin", async () => {
      const mine = await call(
        `/api/visitorLog/${acme.company.slug}`,
        acme.staff.ROLE_MANAGER.email,
      );
      expect(mine.statusCode).toBe(200);
      const theirs = await call(
        `/api/visitorLog/${globex.company.slug}`,
        acme.staff.ROLE_MANAGER.email,
      );
      expect(theirs.statusCode).toBe(404);
      const admin = await call(
        `/api/visitorLog/${globex.company.slug}`,
        acme.staff.ROLE_ADMIN.email,
      );
      expect(admin.statusCode).toBe(200);
    });

    it('exports the filtered visitor log as CSV for French Excel', async () => {
      const res = await call(
        '/api/visitorlog/export?from=2030-01-10T00:00:00Z&to=2030-01-11T00:00:00Z',
        acme.staff.ROLE_SUPERVISOR.email,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.headers['content-disposition']).toContain('attachment;');
      const body = res.rawPayload;
      expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = body.toString('utf8').slice(1).trim().split('\r\n');
      expect(lines[0]).toBe(
        "Prénom;Nom;E-mail;Code;Entreprise;Site;Arrivée;Départ;Mode d'arrivée;Mode de départ;Arrivée enregistrée par;Départ enregistré par;Annulation",
      );
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(';10/01/2030 08:00;10/01/2030 09:30;Scan QR;Saisie manuelle;');
    });

    it('user attendance: scope per role, checks inside the range', async () => {
      expect((await call('/api/userCheckInList', acme.staff.ROLE_EMPLOYEE.email)).statusCode).toBe(
        403,
      );
      const range = 'from=2030-01-10T00:00:00Z&to=2030-01-11T00:00:00Z';
      const own = await call(
        `/api/userCheckInList?${range}&q=Attendee`,
        acme.staff.ROLE_MANAGER.email,
      );
      expect(own.statusCode).toBe(200);
      const rows = own.json<{ data: UserCheckRow[] }>().data;
      expect(rows).toHaveLength(1);
      expect(rows[0]!.user_name).toBe(`Attendee ${acme.company.slug}`);
      expect(rows[0]!.check_logs).toEqual([
        { check_in: '2030-01-10T07:00:00.000Z', check_out: null },
      ]);

      const admin = await call(
        `/api/userCheckInList?${range}&q=Attendee`,
        acme.staff.ROLE_ADMIN.email,
      );
      expect(admin.json<{ data: UserCheckRow[] }>().data).toHaveLength(2);

      const outside = await call(
        '/api/userCheckInList?from=2031-01-01T00:00:00Z&q=Attendee',
        acme.staff.ROLE_MANAGER.email,
      );
      expect(outside.json<{ data: UserCheckRow[] }>().data[0]!.check_logs).toEqual([]);
    });

    it('user log: one row per check, own company', async () => {
      const res = await call('/api/userLog?q=Attendee', acme.staff.ROLE_SUPERVISOR.email);
      expect(res.statusCode).toBe(200);
      const rows = res.json<{ data: { user_name: string; check_in_method: string }[] }>().data;
      expect(rows).toEqual([
        expect.objectContaining({
          user_name: `Attendee ${acme.company.slug}`,
          check_in_method: 'kiosk',
        }),
      ]);
    });

    it('thank-you data: name and latest check for anyone holding the code, the image for staff only', async () => {
      const visitor = await confirmedVisitor(ctx, acme);
      await call(`/api/get-qr-data/${visitor.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
      const anonymous = await call(`/api/visitorLog-checkIn/${visitor.uidn}`);
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.json().data).toMatchObject({
        firstname: 'Awa',
        lastname: 'Koné',
        image: null,
      });
      expect(anonymous.json().data.checks).toHaveLength(1);
      expect((await call('/api/visitorLog-checkIn/ZZZZ-ZZZZ-ZZZZ')).statusCode).toBe(404);
    });

    it.each([
      ['visitor', '/api/get-qr-data', '/api/visitorLog-checkIn'],
      ['QR user', '/api/get-qr-user-data', '/api/userLog-checkIn'],
    ] as const)(
      "a %s's code shows its holder's card and latest check to anyone, the history to the company's staff only",
      async (kind, checkUrl, presenceUrl) => {
        const holder =
          kind === 'visitor'
            ? await confirmedVisitor(ctx, acme)
            : await buildQrUser(ctx.db, { company: acme.company });
        const scan = () => call(`${checkUrl}/${holder.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
        type Presence = {
          firstname: string;
          company: { name: string };
          checks: { check_in_time: string; check_out_time: string | null }[];
        };
        const presence = async (email?: string) => {
          const res = await call(`${presenceUrl}/${holder.uidn}`, email);
          expect(res.statusCode).toBe(200);
          return res.json<{ data: Presence }>().data;
        };

        // In, then out: the check-out thank-you page reads when they left.
        expect((await scan()).json().action).toBe('check_in');
        expect((await scan()).json().action).toBe('check_out');
        const left = await presence();
        expect(left.checks).toHaveLength(1);
        expect(left.checks[0]!.check_out_time).not.toBeNull();

        // In again: two checks now. Anyone holding the code sees the card and the latest only.
        expect((await scan()).json().action).toBe('check_in');
        const anonymous = await presence();
        expect(anonymous).toMatchObject({
          firstname: holder.firstname,
          company: { name: acme.company.name },
        });
        expect(anonymous.checks).toEqual([
          { check_in_time: expect.any(String), check_out_time: null },
        ]);
        const otherCompany = await presence(globex.staff.ROLE_MANAGER.email);
        expect(otherCompany.checks).toEqual(anonymous.checks);
        // The company's staff see the history, newest first.
        const staff = await presence(acme.staff.ROLE_SUPERVISOR.email);
        expect(staff.checks).toHaveLength(2);
        expect(staff.checks[0]).toEqual(anonymous.checks[0]);
        expect(staff.checks[1]!.check_out_time).toBe(left.checks[0]!.check_out_time);
      },
    );
  });
});

describe(`repeated scans (${testDatabaseKind})`, () => {
  const ctx = useTestApp({ rateLimits: generous, repeatScanWindowMs: 60_000 });

  it('a second scan within the window reports the check-in instead of checking out', async () => {
    const acme = await buildTenant(ctx.db);
    const call = caller(ctx);
    const visitor = await confirmedVisitor(ctx, acme);
    const first = await call(`/api/get-qr-data/${visitor.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
    expect(first.json<CheckResult>().status).toBe('success');
    const again = await call(`/api/get-qr-data/${visitor.uidn}`, acme.staff.ROLE_EMPLOYEE.email);
    expect(again.statusCode).toBe(200);
    const repeat = again.json<CheckResult>();
    expect(repeat.status).toBe('repeat');
    expect(repeat.action).toBe('check_in');
    expect(repeat.redirectUrl).toBeUndefined();
    expect(repeat.message).toMatch(
      /^Awa Koné est déjà enregistré\(e\) à l'arrivée à \d{2}:\d{2}\.$/,
    );
    const checks = await ctx.db
      .select()
      .from(visitorChecks)
      .where(eq(visitorChecks.visitorId, visitor.id));
    expect(checks).toHaveLength(1);
    expect(checks[0]!.checkOutAt).toBeNull();
  });

  it('50 scans of one code racing make exactly one change', async () => {
    const acme = await buildTenant(ctx.db);
    const visitor = await confirmedVisitor(ctx, acme);
    const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        as(ctx.app, token)({ method: 'GET', url: `/api/get-qr-data/${visitor.uidn}` }),
      ),
    );
    const statuses = responses.map((r) => r.json<CheckResult>().status);
    expect(statuses.filter((s) => s === 'success')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'repeat')).toHaveLength(49);
    const checks = await ctx.db
      .select()
      .from(visitorChecks)
      .where(eq(visitorChecks.visitorId, visitor.id));
    expect(checks).toHaveLength(1);
  });
});
