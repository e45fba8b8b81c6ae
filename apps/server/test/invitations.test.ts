/**
 * Issue 30: a host's invitations through the API, on PGlite and PostgreSQL — a code valid
 * on its invitation's days only (a single day, a weekly rule, a day cancelled, every day
 * left cancelled, the whole invitation or one visitor of a group cancelled), at the desk and
 * at the kiosk; what creating one checks and writes; a change of schedule; cancellations;
 * who reaches whose invitation; and what the host lists ("Mes visiteurs").
 */
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InvitationCreated, InvitedVisit, Role } from '@sesame/shared';
import { ROLES, invitationInputSchema, mayPerform, sayIn } from '@sesame/shared';
import { checkVisitorCode } from '../src/checkins/toggle';
import {
  auditEvents,
  invitationDays,
  invitations,
  mailOutbox,
  sites,
  visitRequests,
  visitors,
} from '../src/db/schema';
import { createInvitation } from '../src/invitations/service';
import { dayOf } from '../src/time-zones';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildSite, buildTenant, buildUser } from './helpers/factories';
import { pairedKiosk, utcDay } from './helpers/kiosk';

const fr = sayIn.bind(null, 'fr');

type Tenant = Awaited<ReturnType<typeof buildTenant>>;

describe(`invitations (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Tenant;
  let siteId: string;
  let hostToken: string;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    const [site] = await ctx.db.select().from(sites).where(eq(sites.companyId, acme.company.id));
    siteId = site!.id;
    hostToken = await tokenFor(ctx.app, acme.staff.ROLE_USER.email);
  });

  const invite = async (payload: Record<string, unknown>, token = hostToken) =>
    as(ctx.app, token)({ method: 'POST', url: '/api/invitations', payload });

  const scan = async (code: string, iso: string) => {
    const desk = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
    const caller = (await ctx.app.tokens.verify(desk))!;
    return checkVisitorCode(ctx.db, code, {
      caller,
      method: 'scan',
      repeatWindowMs: 0,
      now: new Date(iso),
    }).then(
      (answer) => answer.action,
      (error: { statusCode?: number }) => `refused ${error.statusCode}`,
    );
  };

  it('opens a weekly invitation’s code on its days only, not on a cancelled one', async () => {
    // Mondays and Thursdays from Monday 4 March 2030 until 14 March: 4, 7, 11, 14.
    const res = await invite({
      site_id: siteId,
      date: '04/03/2030',
      time: '09:00',
      end_time: '10:00',
      reason: 'Audit',
      rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300314',
      visitors: [
        { firstname: 'Awa', lastname: 'Koné', email: 'awa@example.com', organisation: 'Orange' },
        { firstname: 'Yao', lastname: 'Kouassi', phone: '+225 07 07 07 07 07' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<InvitationCreated & { message: string }>();
    expect(created.days).toEqual(['2030-03-04', '2030-03-07', '2030-03-11', '2030-03-14']);
    expect(created.visitors).toHaveLength(2);
    const code = created.visitors[0]!.code;
    const mails = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'invitation'));
    expect(mails.filter((m) => m.toAddress === 'awa@example.com')).toHaveLength(1);

    const cancel = await as(
      ctx.app,
      hostToken,
    )({
      method: 'POST',
      url: `/api/invitations/${created.invitation_id}/cancel`,
      payload: { day: '2030-03-11' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);

    // Tuesday 5 March: not a day of it (the next day is the 7th).
    expect(await scan(code, '2030-03-05T10:00:00Z')).toBe('refused 409');
    expect(await scan(code, '2030-03-04T10:00:00Z')).toBe('check_in');
    expect(await scan(code, '2030-03-04T11:00:00Z')).toBe('check_out');
    expect(await scan(code, '2030-03-11T10:00:00Z')).toBe('refused 409');
    expect(await scan(code, '2030-03-14T10:00:00Z')).toBe('check_in');
    expect(await scan(code, '2030-03-15T10:00:00Z')).toBe('check_out');

    const mine = await as(ctx.app, hostToken)({ method: 'GET', url: '/api/invitations/mine' });
    expect(mine.statusCode, mine.body).toBe(200);
    const listed = mine.json<{ data: InvitedVisit[] }>().data;
    expect(listed.map((row) => row.lastname).sort()).toEqual(['Koné', 'Kouassi']);
  });

  it('hides a host’s invitation from another host, not from who reads the requests', async () => {
    const res = await invite({
      site_id: siteId,
      date: '04/03/2030',
      time: '09:00',
      end_time: '10:00',
      visitors: [{ firstname: 'Ali', lastname: 'Traoré', email: 'ali@example.com' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const { invitation_id } = res.json<InvitationCreated>();
    const other = await buildUser(ctx.db, { company: acme.company, role: 'ROLE_USER' });
    const otherToken = await tokenFor(ctx.app, other.email);
    const put = (token: string) =>
      as(
        ctx.app,
        token,
      )({
        method: 'PUT',
        url: `/api/invitations/${invitation_id}`,
        payload: { site_id: siteId, date: '05/03/2030', time: '09:00', end_time: '10:00' },
      });
    expect((await put(otherToken)).statusCode).toBe(404);
    const admin = await tokenFor(ctx.app, acme.staff.ROLE_ADMIN.email);
    expect((await put(admin)).statusCode).toBe(200);
  });

  // ---------------------------------------------------------------------------------------
  // A tenant of its own per test below, so what one test writes or counts is its own.

  type SiteRow = typeof sites.$inferSelect;
  interface Place {
    tenant: Tenant;
    companyId: string;
    site: SiteRow;
    siteId: string;
    /** The ROLE_USER host's token. */
    host: string;
  }

  const tokens = new Map<string, string>();
  const tokenOf = async (email: string) => {
    const token = tokens.get(email) ?? (await tokenFor(ctx.app, email));
    tokens.set(email, token);
    return token;
  };
  const api = (token: string) => as(ctx.app, token);

  const place = async (): Promise<Place> => {
    const tenant = await buildTenant(ctx.db);
    const [site] = await ctx.db.select().from(sites).where(eq(sites.id, tenant.company.siteId));
    return {
      tenant,
      companyId: tenant.company.id,
      site: site!,
      siteId: site!.id,
      host: await tokenOf(tenant.staff.ROLE_USER.email),
    };
  };

  const guest = (lastname: string, extra: Record<string, unknown> = {}) => ({
    firstname: 'Awa',
    lastname,
    email: `${lastname.toLowerCase()}@example.com`,
    ...extra,
  });

  const body = (siteId: string, overrides: Record<string, unknown> = {}) => ({
    site_id: siteId,
    date: '04/03/2030',
    time: '09:00',
    end_time: '10:00',
    reason: 'Réunion',
    visitors: [guest('Kone')],
    ...overrides,
  });

  const created = async (token: string, payload: Record<string, unknown>) => {
    const res = await api(token)({ method: 'POST', url: '/api/invitations', payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<InvitationCreated & { message: string }>();
  };

  const cancel = (token: string, id: string, payload: Record<string, unknown> = {}) =>
    api(token)({ method: 'POST', url: `/api/invitations/${id}/cancel`, payload });

  const put = (token: string, id: string, payload: Record<string, unknown>) =>
    api(token)({ method: 'PUT', url: `/api/invitations/${id}`, payload });

  /** `?…` lists the caller's own; `company?…` every host's (GET /api/invitations/company). */
  const mine = async (token: string, query = '') => {
    const url = query.startsWith('company')
      ? `/api/invitations/${query}`
      : `/api/invitations/mine${query}`;
    const res = await api(token)({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{
      data: InvitedVisit[];
      meta: { page: number; per_page: number; total: number };
    }>();
  };

  /** The desk's check of `code` at `iso`: what was done, or the refusal's status and words. */
  const deskCheck = async (where: Place, code: string, iso: string | Date) => {
    const desk = await tokenOf(where.tenant.staff.ROLE_EMPLOYEE.email);
    const caller = (await ctx.app.tokens.verify(desk))!;
    return checkVisitorCode(ctx.db, code, {
      caller,
      method: 'scan',
      repeatWindowMs: 0,
      now: typeof iso === 'string' ? new Date(iso) : iso,
    }).then(
      (answer) => answer.action as string,
      (error: { statusCode?: number; message?: string }) => `${error.statusCode} ${error.message}`,
    );
  };

  /** An invitation written by the service as if `now` were then (an invitation under way, or over). */
  const invitedAt = async (where: Place, payload: Record<string, unknown>, now: Date) => {
    const host = where.tenant.staff.ROLE_USER;
    return ctx.db.transaction((tx) =>
      createInvitation(tx, {
        host: {
          userId: host.id,
          companyId: where.companyId,
          name: `${host.firstname} ${host.name}`,
        },
        site: where.site,
        invitation: invitationInputSchema.parse(payload),
        now,
      }),
    );
  };

  /** What a company holds of invitations, to show a refusal wrote nothing. */
  const holdings = async (companyId: string) => {
    const n = async (rows: Promise<{ n: number }[]>) => Number((await rows)[0]!.n);
    return {
      invitations: await n(
        ctx.db.select({ n: count() }).from(invitations).where(eq(invitations.companyId, companyId)),
      ),
      days: await n(
        ctx.db
          .select({ n: count() })
          .from(invitationDays)
          .where(eq(invitationDays.companyId, companyId)),
      ),
      visitors: await n(
        ctx.db.select({ n: count() }).from(visitors).where(eq(visitors.companyId, companyId)),
      ),
      requests: await n(
        ctx.db
          .select({ n: count() })
          .from(visitRequests)
          .where(eq(visitRequests.companyId, companyId)),
      ),
      mails: await n(
        ctx.db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.companyId, companyId)),
      ),
      audit: await n(
        ctx.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.companyId, companyId)),
      ),
    };
  };

  const mailsOf = (invitationId: string, kind: string) =>
    ctx.db
      .select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.kind, kind),
          sql`${mailOutbox.payload}->>'invitationId' = ${invitationId}`,
        ),
      );

  const auditOf = (companyId: string, action: string) =>
    ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, companyId), eq(auditEvents.action, action)));

  const sequenceOf = async (id: string) =>
    (await ctx.db.select().from(invitations).where(eq(invitations.id, id)))[0]!.sequence;

  const notYet = (date: string) => `409 ${fr((m) => m.check.meetingNotYet(date))}`;
  const over = `409 ${fr((m) => m.check.meetingDayOver)}`;
  const notConfirmed = `409 ${fr((m) => m.check.notConfirmed)}`;

  describe('the code opens the door on the invitation’s days only', () => {
    it('a single day: not yet the day before (naming it), in and out that day, over the day after', async () => {
      const where = await place();
      const {
        visitors: [awa],
      } = await created(where.host, body(where.siteId, { date: '06/03/2030' }));
      expect(await deskCheck(where, awa!.code, '2030-03-05T10:00:00Z')).toBe(notYet('06/03/2030'));
      expect(await deskCheck(where, awa!.code, '2030-03-06T08:30:00Z')).toBe('check_in');
      expect(await deskCheck(where, awa!.code, '2030-03-06T11:00:00Z')).toBe('check_out');
      expect(await deskCheck(where, awa!.code, '2030-03-07T10:00:00Z')).toBe(over);
    });

    it('a weekly rule with a day cancelled: a day off names the next day still standing', async () => {
      const where = await place();
      const invitation = await created(
        where.host,
        body(where.siteId, { rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300314' }),
      );
      const code = invitation.visitors[0]!.code;
      expect(
        (await cancel(where.host, invitation.invitation_id, { day: '2030-03-07' })).statusCode,
      ).toBe(200);
      expect(await deskCheck(where, code, '2030-03-03T10:00:00Z')).toBe(notYet('04/03/2030'));
      expect(await deskCheck(where, code, '2030-03-05T10:00:00Z')).toBe(notYet('11/03/2030'));
      expect(await deskCheck(where, code, '2030-03-07T10:00:00Z')).toBe(notYet('11/03/2030'));
      expect(await deskCheck(where, code, '2030-03-11T10:00:00Z')).toBe('check_in');
      expect(await deskCheck(where, code, '2030-03-11T12:00:00Z')).toBe('check_out');
      expect(await deskCheck(where, code, '2030-03-12T10:00:00Z')).toBe(notYet('14/03/2030'));
      expect(await deskCheck(where, code, '2030-03-15T10:00:00Z')).toBe(over);
    });

    it('in the site’s zone: a day far east of UTC starts there, the day before in UTC', async () => {
      const where = await place();
      const far = await buildSite(ctx.db, {
        company: where.tenant.company,
        timezone: 'Pacific/Kiritimati',
      });
      const {
        visitors: [awa],
      } = await created(where.host, body(far.id, { date: '06/03/2030' }));
      // Midnight of 6 March at UTC+14 is 10:00 UTC on the 5th.
      expect(await deskCheck(where, awa!.code, '2030-03-05T09:00:00Z')).toBe(notYet('06/03/2030'));
      expect(await deskCheck(where, awa!.code, '2030-03-05T11:00:00Z')).toBe('check_in');
      expect(await deskCheck(where, awa!.code, '2030-03-05T12:00:00Z')).toBe('check_out');
      expect(await deskCheck(where, awa!.code, '2030-03-06T10:30:00Z')).toBe(over);
    });

    it('a rule whose first date is none of its days starts on its first day', async () => {
      const where = await place();
      // Tuesday 5 March, every Monday and Thursday: the 7th, 11th and 14th.
      const invitation = await created(
        where.host,
        body(where.siteId, { date: '05/03/2030', rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300314' }),
      );
      expect(invitation.days).toEqual(['2030-03-07', '2030-03-11', '2030-03-14']);
      const [person] = await ctx.db
        .select()
        .from(visitors)
        .where(eq(visitors.id, invitation.visitors[0]!.visitor_id));
      expect(person).toMatchObject({ requestDate: '07/03/2030' });
      expect(person!.dayStartsAt?.toISOString()).toBe('2030-03-07T00:00:00.000Z');
      const code = invitation.visitors[0]!.code;
      expect(await deskCheck(where, code, '2030-03-05T10:00:00Z')).toBe(notYet('07/03/2030'));
      expect(await deskCheck(where, code, '2030-03-07T10:00:00Z')).toBe('check_in');
    });

    it('every day left cancelled: over, though the visitor’s own span has not ended', async () => {
      const where = await place();
      const invitation = await created(
        where.host,
        body(where.siteId, { rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300314' }),
      );
      for (const day of ['2030-03-07', '2030-03-11', '2030-03-14']) {
        expect((await cancel(where.host, invitation.invitation_id, { day })).statusCode).toBe(200);
      }
      const code = invitation.visitors[0]!.code;
      expect(await deskCheck(where, code, '2030-03-05T10:00:00Z')).toBe(over);
      expect(await deskCheck(where, code, '2030-03-11T10:00:00Z')).toBe(over);
      expect(await deskCheck(where, code, '2030-03-04T10:00:00Z')).toBe('check_in');
    });

    it('the whole invitation cancelled: every code refused; one visitor of a group: theirs only', async () => {
      const where = await place();
      const whole = await created(
        where.host,
        body(where.siteId, { visitors: [guest('A'), guest('B')] }),
      );
      expect((await cancel(where.host, whole.invitation_id)).statusCode).toBe(200);
      for (const visitor of whole.visitors) {
        expect(await deskCheck(where, visitor.code, '2030-03-04T10:00:00Z')).toBe(notConfirmed);
      }

      const group = await created(
        where.host,
        body(where.siteId, { visitors: [guest('C'), guest('D'), guest('E')] }),
      );
      const [c, d, e] = group.visitors;
      const res = await cancel(where.host, group.invitation_id, { request_id: d!.request_id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe(fr((m) => m.invitation.cancelled));
      expect(await deskCheck(where, d!.code, '2030-03-04T10:00:00Z')).toBe(notConfirmed);
      expect(await deskCheck(where, c!.code, '2030-03-04T10:00:00Z')).toBe('check_in');
      expect(await deskCheck(where, e!.code, '2030-03-04T10:00:00Z')).toBe('check_in');
    });

    it('at the kiosk too: in on its day, not on another day, not once cancelled', async () => {
      const where = await place();
      const kiosk = await pairedKiosk(
        ctx,
        where.tenant.staff.ROLE_MANAGER.email,
        where.tenant.company,
        where.siteId,
      );
      const today = await created(
        where.host,
        body(where.siteId, { date: utcDay(0), visitors: [guest('Today'), guest('Gone')] }),
      );
      const later = await created(where.host, body(where.siteId, { date: utcDay(2) }));
      expect(
        (
          await cancel(where.host, today.invitation_id, {
            request_id: today.visitors[1]!.request_id,
          })
        ).statusCode,
      ).toBe(200);
      const checkIn = (code: string) =>
        kiosk.call({ method: 'POST', url: '/api/kiosk/check-in', payload: { code } });
      const inside = await checkIn(today.visitors[0]!.code);
      expect(inside.statusCode, inside.body).toBe(200);
      expect(inside.json().data).toMatchObject({
        status: 'in',
        request_id: today.visitors[0]!.request_id,
      });
      const early = await checkIn(later.visitors[0]!.code);
      expect(early.statusCode).toBe(409);
      expect(early.json().message).toBe(fr((m) => m.kiosk.notHere));
      const cancelled = await checkIn(today.visitors[1]!.code);
      expect(cancelled.statusCode).toBe(409);
    });
  });

  describe('creating', () => {
    it('refuses what it cannot run, with the field, and writes nothing', async () => {
      const where = await place();
      const elsewhere = await place();
      const archived = await buildSite(ctx.db, {
        company: where.tenant.company,
        archivedAt: new Date(),
      });
      const far = await buildSite(ctx.db, {
        company: where.tenant.company,
        timezone: 'Pacific/Kiritimati',
      });
      const farToday = dayOf(new Date(), 'Pacific/Kiritimati');
      const farYesterday = new Date(Date.parse(`${farToday}T12:00:00Z`) - 86_400_000)
        .toISOString()
        .slice(0, 10)
        .split('-')
        .reverse()
        .join('/');
      const limited = await buildUser(ctx.db, {
        company: where.tenant.company,
        role: 'ROLE_USER',
        siteIds: [where.siteId],
      });
      // Signed in before counting: a sign-in is audited.
      const limitedToken = await tokenOf(limited.email);
      const before = await holdings(where.companyId);
      const refused = async (
        overrides: Record<string, unknown>,
        field: string,
        message: string,
      ) => {
        const res = await api(where.host)({
          method: 'POST',
          url: '/api/invitations',
          payload: body(where.siteId, overrides),
        });
        expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
        expect(res.json().errors?.[field], res.body).toBe(message);
      };
      await refused(
        { site_id: far.id, date: farYesterday },
        'date',
        fr((m) => m.invitation.datePast),
      );
      await refused(
        { date: '01/01/2020' },
        'date',
        fr((m) => m.invitation.datePast),
      );
      await refused(
        { end_time: '08:00' },
        'end_time',
        fr((m) => m.invitation.endBeforeStart),
      );
      await refused(
        { end_time: '09:00' },
        'end_time',
        fr((m) => m.invitation.endBeforeStart),
      );
      await refused(
        { rrule: 'FREQ=WEEKLY;BYDAY=MO' },
        'rrule',
        fr((m) => m.invitation.ruleInvalid),
      );
      await refused(
        { rrule: 'FREQ=MONTHLY;COUNT=3' },
        'rrule',
        fr((m) => m.invitation.ruleInvalid),
      );
      const tooLong = fr((m) => m.invitation.ruleTooLong(260));
      await refused({ rrule: 'FREQ=DAILY;COUNT=261' }, 'rrule', tooLong);
      await refused({ rrule: 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20310310' }, 'rrule', tooLong);
      await refused({ rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;COUNT=60' }, 'rrule', tooLong);
      await refused(
        { rrule: 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20300302' },
        'rrule',
        fr((m) => m.invitation.ruleNoDay),
      );
      await refused(
        { visitors: [] },
        'visitors',
        fr((m) => m.invitation.visitorsRequired),
      );
      await refused(
        { visitors: Array.from({ length: 1001 }, (_, i) => guest(`N${i}`)) },
        'visitors',
        fr((m) => m.invitation.tooManyVisitors(1000)),
      );
      await refused(
        { visitors: [{ firstname: 'Awa', lastname: 'Koné', organisation: 'Orange' }] },
        'visitors.0.email',
        fr((m) => m.invitation.contactRequired),
      );
      await refused(
        {
          visitors: [
            guest('Ok'),
            guest('Ok2'),
            { firstname: 'Yao', lastname: 'K', phone: '+999 1234 5678' },
          ],
        },
        'visitors.2.phone',
        fr((m) => m.validation.phoneInvalid),
      );
      await refused(
        { site_id: elsewhere.siteId },
        'site_id',
        fr((m) => m.site.choose),
      );
      await refused(
        { site_id: archived.id },
        'site_id',
        fr((m) => m.site.archivedSite),
      );

      const beyond = await api(limitedToken)({
        method: 'POST',
        url: '/api/invitations',
        payload: body(far.id),
      });
      expect(beyond.statusCode, beyond.body).toBe(403);
      expect(beyond.json().message).toBe(fr((m) => m.site.notYours));

      expect(await holdings(where.companyId)).toEqual(before);
      expect(await holdings(elsewhere.companyId)).toMatchObject({ invitations: 0, visitors: 0 });
    });

    it('takes the first day that is today at the site, wherever the site is', async () => {
      const where = await place();
      for (const timezone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        const site = await buildSite(ctx.db, { company: where.tenant.company, timezone });
        const today = dayOf(new Date(), timezone).split('-').reverse().join('/');
        const invitation = await created(where.host, body(site.id, { date: today }));
        expect(invitation.days).toEqual([dayOf(new Date(), timezone)]);
      }
    });

    it('writes a confirmed request per visitor, their days and language, a mail to each e-mail, an audit each', async () => {
      const where = await place();
      const host = where.tenant.staff.ROLE_USER;
      const before = Date.now();
      const invitation = await created(
        where.host,
        body(where.siteId, {
          language: 'en',
          reason: 'Audit annuel',
          rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300314',
          visitors: [
            guest('Kone', { organisation: 'Orange CI' }),
            { firstname: 'Yao', lastname: 'Kouassi', phone: '07 07 07 07 07' },
            { firstname: 'Jane', lastname: 'Doe', email: 'Jane.DOE@Example.com' },
          ],
        }),
      );
      expect(invitation.message).toBe(fr((m) => m.invitation.created(3)));
      expect(invitation.days).toEqual(['2030-03-04', '2030-03-07', '2030-03-11', '2030-03-14']);

      const [row] = await ctx.db
        .select()
        .from(invitations)
        .where(eq(invitations.id, invitation.invitation_id));
      expect(row).toMatchObject({
        companyId: where.companyId,
        siteId: where.siteId,
        hostUserId: host.id,
        reason: 'Audit annuel',
        language: 'en',
        firstDate: '04/03/2030',
        time: '09:00',
        endTime: '10:00',
        rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300314',
        sequence: 0,
        cancelledAt: null,
      });
      const days = await ctx.db
        .select()
        .from(invitationDays)
        .where(eq(invitationDays.invitationId, invitation.invitation_id))
        .orderBy(invitationDays.day);
      expect(days.map((d) => [d.day, d.startsAt.toISOString(), d.endsAt.toISOString()])).toEqual([
        ['2030-03-04', '2030-03-04T00:00:00.000Z', '2030-03-05T00:00:00.000Z'],
        ['2030-03-07', '2030-03-07T00:00:00.000Z', '2030-03-08T00:00:00.000Z'],
        ['2030-03-11', '2030-03-11T00:00:00.000Z', '2030-03-12T00:00:00.000Z'],
        ['2030-03-14', '2030-03-14T00:00:00.000Z', '2030-03-15T00:00:00.000Z'],
      ]);

      const visitorIds = invitation.visitors.map((v) => v.visitor_id);
      const people = await ctx.db.select().from(visitors).where(inArray(visitors.id, visitorIds));
      expect(people).toHaveLength(3);
      for (const person of people) {
        expect(person).toMatchObject({
          companyId: where.companyId,
          siteId: where.siteId,
          idNumber: '',
          requestDate: '04/03/2030',
          requestTime: '09:00',
          language: 'en',
        });
        expect(person.dayStartsAt?.toISOString()).toBe('2030-03-04T00:00:00.000Z');
        expect(person.dayEndsAt?.toISOString()).toBe('2030-03-15T00:00:00.000Z');
        const answered = invitation.visitors.find((v) => v.visitor_id === person.id)!;
        expect(answered.code).toBe(person.uidn);
      }
      const byName = new Map(people.map((p) => [p.lastname, p]));
      expect(byName.get('Kone')).toMatchObject({
        email: 'kone@example.com',
        contact: '',
        organisationName: 'Orange CI',
      });
      expect(byName.get('Kouassi')).toMatchObject({ email: '', contact: '+2250707070707' });
      expect(byName.get('Doe')).toMatchObject({ email: 'jane.doe@example.com' });

      const requests = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.invitationId, invitation.invitation_id));
      expect(requests).toHaveLength(3);
      for (const request of requests) {
        expect(request).toMatchObject({
          companyId: where.companyId,
          status: 1,
          confirmed: true,
          decidedBy: host.id,
          hostUserId: host.id,
          host: `${host.firstname} ${host.name}`,
          reason: 'Audit annuel',
          cancelledAt: null,
          hereAt: null,
        });
        expect(request.decidedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
      }
      expect(new Set(requests.map((r) => r.id))).toEqual(
        new Set(invitation.visitors.map((v) => v.request_id)),
      );

      const mails = await mailsOf(invitation.invitation_id, 'invitation');
      expect(mails.map((m) => m.toAddress).sort()).toEqual([
        'jane.doe@example.com',
        'kone@example.com',
      ]);
      const kone = invitation.visitors.find((v) => v.lastname === 'Kone')!;
      expect(mails.find((m) => m.toAddress === 'kone@example.com')?.payload).toEqual({
        visitorId: kone.visitor_id,
        requestId: kone.request_id,
        invitationId: invitation.invitation_id,
        sequence: 0,
      });

      const audit = await auditOf(where.companyId, 'invitation.created');
      expect(audit.map((a) => a.subjectId).sort()).toEqual([...visitorIds].sort());
      for (const entry of audit) {
        expect(entry).toMatchObject({ actorUserId: host.id, subjectType: 'visitor' });
        expect(entry.detail).toMatchObject({
          invitationId: invitation.invitation_id,
          siteId: where.siteId,
          days: 4,
        });
      }
    });
  });

  describe('changing the schedule', () => {
    it('rewrites the days (a cancelled one stays cancelled), moves the sequence on, tells the visitors still invited', async () => {
      const where = await place();
      const other = await buildSite(ctx.db, {
        company: where.tenant.company,
        timezone: 'Africa/Abidjan',
      });
      const invitation = await created(
        where.host,
        body(where.siteId, {
          rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300314',
          visitors: [
            guest('A'),
            guest('B'),
            guest('C'),
            { firstname: 'P', lastname: 'Phone', phone: '0707070707' },
          ],
        }),
      );
      const id = invitation.invitation_id;
      const [a, b, c, phoneOnly] = invitation.visitors;
      expect((await cancel(where.host, id, { request_id: c!.request_id })).statusCode).toBe(200);
      expect((await cancel(where.host, id, { day: '2030-03-11' })).statusCode).toBe(200);
      expect(await sequenceOf(id)).toBe(2);

      const res = await put(where.host, id, {
        site_id: other.id,
        date: '04/03/2030',
        time: '14:00',
        end_time: '15:30',
        reason: 'Revue',
        language: 'en',
        rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300321',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe(fr((m) => m.invitation.updated));
      expect(await sequenceOf(id)).toBe(3);

      const days = await ctx.db
        .select()
        .from(invitationDays)
        .where(eq(invitationDays.invitationId, id))
        .orderBy(invitationDays.day);
      expect(days.map((d) => [d.day, d.cancelledAt !== null])).toEqual([
        ['2030-03-04', false],
        ['2030-03-07', false],
        ['2030-03-11', true],
        ['2030-03-14', false],
        ['2030-03-18', false],
        ['2030-03-21', false],
      ]);
      const [row] = await ctx.db.select().from(invitations).where(eq(invitations.id, id));
      expect(row).toMatchObject({
        siteId: other.id,
        time: '14:00',
        endTime: '15:30',
        reason: 'Revue',
        language: 'en',
        rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300321',
      });

      const updates = await mailsOf(id, 'invitation_update');
      expect(updates.map((m) => m.toAddress).sort()).toEqual(['a@example.com', 'b@example.com']);
      for (const mail of updates)
        expect(mail.payload).toMatchObject({ sequence: 3, invitationId: id });

      const people = await ctx.db
        .select()
        .from(visitors)
        .where(
          inArray(
            visitors.id,
            invitation.visitors.map((v) => v.visitor_id),
          ),
        );
      for (const standing of [a, b, phoneOnly]) {
        const person = people.find((p) => p.id === standing!.visitor_id)!;
        expect(person).toMatchObject({
          siteId: other.id,
          requestDate: '04/03/2030',
          requestTime: '14:00',
          language: 'en',
        });
        expect(person.dayEndsAt?.toISOString()).toBe('2030-03-22T00:00:00.000Z');
      }
      // The visitor cancelled before keeps what they were told last.
      expect(people.find((p) => p.id === c!.visitor_id)).toMatchObject({
        siteId: where.siteId,
        requestTime: '09:00',
      });
      const standingRequests = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.invitationId, id));
      expect(standingRequests.find((r) => r.id === a!.request_id)?.reason).toBe('Revue');
      expect(await auditOf(where.companyId, 'invitation.updated')).toHaveLength(3);

      // The new days open the door; the cancelled one still does not.
      expect(await deskCheck(where, a!.code, '2030-03-18T10:00:00Z')).toBe('check_in');
      expect(await deskCheck(where, b!.code, '2030-03-11T10:00:00Z')).toBe(notYet('14/03/2030'));
    });

    it('refuses a cancelled invitation, a past first day, another company’s site; writes nothing then', async () => {
      const where = await place();
      const stranger = await place();
      const invitation = await created(where.host, body(where.siteId));
      const id = invitation.invitation_id;
      const schedule = {
        site_id: where.siteId,
        date: '05/03/2030',
        time: '09:00',
        end_time: '10:00',
      };
      const past = await put(where.host, id, { ...schedule, date: '01/01/2020' });
      expect(past.statusCode).toBe(400);
      expect(past.json().errors?.date).toBe(fr((m) => m.invitation.datePast));
      const foreign = await put(where.host, id, { ...schedule, site_id: stranger.siteId });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().errors?.site_id).toBe(fr((m) => m.site.choose));
      expect(await sequenceOf(id)).toBe(0);

      expect((await cancel(where.host, id)).statusCode).toBe(200);
      const before = await holdings(where.companyId);
      const res = await put(where.host, id, schedule);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(fr((m) => m.invitation.alreadyCancelled));
      expect(await holdings(where.companyId)).toEqual(before);
      expect(await sequenceOf(id)).toBe(1);
    });

    it('changes an invitation under way, its first day past but its days not over', async () => {
      const where = await place();
      const start = new Date(Date.now() - 3 * 86_400_000);
      const firstDay = dayOf(start, 'UTC').split('-').reverse().join('/');
      const invitation = await invitedAt(
        where,
        body(where.siteId, { date: firstDay, rrule: 'FREQ=DAILY;COUNT=7' }),
        start,
      );
      const res = await put(where.host, invitation.invitation_id, {
        site_id: where.siteId,
        date: firstDay,
        time: '09:00',
        end_time: '11:00',
        rrule: 'FREQ=DAILY;COUNT=7',
      });
      expect(res.statusCode, res.body).toBe(200);
      const [row] = await ctx.db
        .select()
        .from(invitations)
        .where(eq(invitations.id, invitation.invitation_id));
      expect(row).toMatchObject({ endTime: '11:00', firstDate: firstDay, sequence: 1 });
      const days = await ctx.db
        .select()
        .from(invitationDays)
        .where(eq(invitationDays.invitationId, invitation.invitation_id));
      expect(days).toHaveLength(7);
      // Moving it to another day already past is still refused.
      const earlier = dayOf(new Date(Date.now() - 5 * 86_400_000), 'UTC')
        .split('-')
        .reverse()
        .join('/');
      const moved = await put(where.host, invitation.invitation_id, {
        site_id: where.siteId,
        date: earlier,
        time: '09:00',
        end_time: '11:00',
      });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().errors?.date).toBe(fr((m) => m.invitation.datePast));
    });
  });

  describe('cancelling', () => {
    it('one visitor, one day, then the whole: each told once, the sequence moved on each time, audited', async () => {
      const where = await place();
      const invitation = await created(
        where.host,
        body(where.siteId, {
          rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300314',
          visitors: [guest('A'), guest('B'), guest('C')],
        }),
      );
      const id = invitation.invitation_id;
      const [a, b, c] = invitation.visitors;

      expect((await cancel(where.host, id, { request_id: c!.request_id })).statusCode).toBe(200);
      expect(await sequenceOf(id)).toBe(1);
      const day = await cancel(where.host, id, { day: '2030-03-07' });
      expect(day.statusCode, day.body).toBe(200);
      expect(day.json().message).toBe(fr((m) => m.invitation.dayCancelled));
      expect(await sequenceOf(id)).toBe(2);
      const whole = await cancel(where.host, id);
      expect(whole.statusCode, whole.body).toBe(200);
      expect(whole.json().message).toBe(fr((m) => m.invitation.cancelled));
      expect(await sequenceOf(id)).toBe(3);

      const mails = await mailsOf(id, 'invitation_cancel');
      const told = mails
        .map((m) => [m.toAddress, m.payload as { sequence: number; day?: string }])
        .map(
          ([to, p]) =>
            `${to as string} ${(p as { sequence: number }).sequence} ${(p as { day?: string }).day ?? '-'}`,
        )
        .sort();
      expect(told).toEqual([
        'a@example.com 2 2030-03-07',
        'a@example.com 3 -',
        'b@example.com 2 2030-03-07',
        'b@example.com 3 -',
        'c@example.com 1 -',
      ]);

      const [row] = await ctx.db.select().from(invitations).where(eq(invitations.id, id));
      expect(row!.cancelledAt).not.toBeNull();
      const requests = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.invitationId, id));
      for (const request of requests) {
        expect(request).toMatchObject({ confirmed: false, status: 2 });
        expect(request.cancelledAt).not.toBeNull();
      }
      const audit = await auditOf(where.companyId, 'invitation.cancelled');
      expect(audit.map((e) => e.subjectId).sort()).toEqual(
        [a!.visitor_id, a!.visitor_id, b!.visitor_id, b!.visitor_id, c!.visitor_id].sort(),
      );
      expect(audit.filter((e) => (e.detail as { day?: string }).day === '2030-03-07')).toHaveLength(
        2,
      );

      const again = await cancel(where.host, id);
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe(fr((m) => m.invitation.alreadyCancelled));
      expect(await sequenceOf(id)).toBe(3);
    });

    it('refuses a day not of it, already cancelled or over, and another invitation’s visitor; writes nothing then', async () => {
      const where = await place();
      const invitation = await created(
        where.host,
        body(where.siteId, { rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300314' }),
      );
      const id = invitation.invitation_id;
      const another = await created(where.host, body(where.siteId, { visitors: [guest('Other')] }));
      expect((await cancel(where.host, id, { day: '2030-03-07' })).statusCode).toBe(200);
      const start = new Date(Date.now() - 3 * 86_400_000);
      const underWay = await invitedAt(
        where,
        body(where.siteId, {
          date: dayOf(start, 'UTC').split('-').reverse().join('/'),
          rrule: 'FREQ=DAILY;COUNT=7',
        }),
        start,
      );
      const before = await holdings(where.companyId);
      const dayRefused = async (invitationId: string, dayOf: string) => {
        const res = await cancel(where.host, invitationId, { day: dayOf });
        expect(res.statusCode, `${dayOf}: ${res.body}`).toBe(400);
        expect(res.json().errors?.day).toBe(fr((m) => m.invitation.dayUnknown));
      };
      await dayRefused(id, '2030-03-05');
      await dayRefused(id, '2030-03-07');
      await dayRefused(id, '2030-31-12');
      await dayRefused(underWay.invitation_id, underWay.days[0]!);
      const foreignVisitor = await cancel(where.host, id, {
        request_id: another.visitors[0]!.request_id,
      });
      expect(foreignVisitor.statusCode).toBe(404);
      const badDay = await cancel(where.host, id, { day: '7 mars' });
      expect(badDay.statusCode).toBe(400);
      // A day with a visitor: a day is the group's, never one visitor's alone.
      const dayOfOne = await cancel(where.host, id, {
        day: '2030-03-11',
        request_id: invitation.visitors[0]!.request_id,
      });
      expect(dayOfOne.statusCode, dayOfOne.body).toBe(400);
      expect(dayOfOne.json().message).toBe(fr((m) => m.api.badRequest));
      expect(await holdings(where.companyId)).toEqual(before);
      expect(await sequenceOf(id)).toBe(1);
      // A day of it still to come is cancelled as asked.
      expect(
        (await cancel(where.host, underWay.invitation_id, { day: underWay.days[5]! })).statusCode,
      ).toBe(200);
    });
    it('cancelling the last day still to come cancels the invitation, told whole', async () => {
      const where = await place();
      const invitation = await created(
        where.host,
        body(where.siteId, { rrule: 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20300311' }),
      );
      const id = invitation.invitation_id;
      expect(invitation.days).toEqual(['2030-03-04', '2030-03-11']);
      expect((await cancel(where.host, id, { day: '2030-03-04' })).statusCode).toBe(200);
      const last = await cancel(where.host, id, { day: '2030-03-11' });
      expect(last.statusCode, last.body).toBe(200);
      expect(last.json().message).toBe(fr((m) => m.invitation.cancelled));
      const [row] = await ctx.db.select().from(invitations).where(eq(invitations.id, id));
      expect(row!.cancelledAt).not.toBeNull();
      const requests = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.invitationId, id));
      expect(requests.every((r) => r.confirmed === false && r.cancelledAt !== null)).toBe(true);
      // The last mail cancels the whole series (no day), with the next sequence.
      const mails = await mailsOf(id, 'invitation_cancel');
      const payloads = mails.map((m) => m.payload as { sequence: number; day?: string });
      expect(payloads.map((p) => `${p.sequence} ${p.day ?? '-'}`).sort()).toEqual(
        ['1 2030-03-04', '2 -'].flatMap((x) => Array(requests.length).fill(x)).sort(),
      );
    });
  });

  describe('who reaches whose invitation', () => {
    it('a host: their own only; whoever reads the company’s requests: every host’s', async () => {
      const where = await place();
      const mineInv = await created(where.host, body(where.siteId, { visitors: [guest('Mine')] }));
      const colleague = await buildUser(ctx.db, {
        company: where.tenant.company,
        role: 'ROLE_USER',
      });
      const colleagueToken = await tokenOf(colleague.email);
      const theirs = await created(
        colleagueToken,
        body(where.siteId, { visitors: [guest('Theirs')] }),
      );

      expect((await mine(colleagueToken)).data.map((r) => r.lastname)).toEqual(['Theirs']);
      expect((await mine(where.host)).data.map((r) => r.lastname)).toEqual(['Mine']);
      const schedule = {
        site_id: where.siteId,
        date: '05/03/2030',
        time: '09:00',
        end_time: '10:00',
      };
      expect((await put(colleagueToken, mineInv.invitation_id, schedule)).statusCode).toBe(404);
      expect((await cancel(colleagueToken, mineInv.invitation_id)).statusCode).toBe(404);
      expect(
        (
          await cancel(colleagueToken, mineInv.invitation_id, {
            request_id: mineInv.visitors[0]!.request_id,
          })
        ).statusCode,
      ).toBe(404);
      expect(await sequenceOf(mineInv.invitation_id)).toBe(0);

      const forbidden = await api(where.host)({
        method: 'GET',
        url: '/api/invitations/company',
      });
      expect(forbidden.statusCode).toBe(403);

      const employee = await tokenOf(where.tenant.staff.ROLE_EMPLOYEE.email);
      const dropped = await cancel(employee, theirs.invitation_id, {
        request_id: theirs.visitors[0]!.request_id,
      });
      expect(dropped.statusCode, dropped.body).toBe(200);
      const admin = await tokenOf(where.tenant.staff.ROLE_ADMIN.email);
      expect((await put(admin, mineInv.invitation_id, schedule)).statusCode).toBe(200);
      const company = await mine(admin, 'company');
      // Theirs first: its day (4 March) comes before Mine's, moved to the 5th.
      expect(company.data.map((r) => [r.lastname, r.state, r.host?.id])).toEqual([
        ['Theirs', 'cancelled', colleague.id],
        ['Mine', 'invited', where.tenant.staff.ROLE_USER.id],
      ]);
      expect(company.data[1]!.host).toEqual({
        id: where.tenant.staff.ROLE_USER.id,
        name: `${where.tenant.staff.ROLE_USER.firstname} ${where.tenant.staff.ROLE_USER.name}`,
      });
      // The employee's cancellation is audited as theirs, on the colleague's visitor.
      const audit = await auditOf(where.companyId, 'invitation.cancelled');
      expect(audit.map((e) => [e.actorUserId, e.subjectId])).toEqual([
        [where.tenant.staff.ROLE_EMPLOYEE.id, theirs.visitors[0]!.visitor_id],
      ]);
      // The admin's own list holds only the admin's invitations.
      expect((await mine(admin)).data).toEqual([]);
    });

    it('a staff member limited to a site does not reach an invitation of another site', async () => {
      const where = await place();
      const siteB = await buildSite(ctx.db, { company: where.tenant.company });
      const atA = await created(where.host, body(where.siteId, { visitors: [guest('AtA')] }));
      const atB = await created(where.host, body(siteB.id, { visitors: [guest('AtB')] }));
      const limited = await buildUser(ctx.db, {
        company: where.tenant.company,
        role: 'ROLE_EMPLOYEE',
        siteIds: [where.siteId],
      });
      const token = await tokenOf(limited.email);
      const schedule = {
        site_id: where.siteId,
        date: '05/03/2030',
        time: '09:00',
        end_time: '10:00',
      };
      expect(
        (await put(token, atB.invitation_id, { ...schedule, site_id: siteB.id })).statusCode,
      ).toBe(404);
      expect((await cancel(token, atB.invitation_id)).statusCode).toBe(404);
      expect((await mine(token, 'company')).data.map((r) => r.lastname)).toEqual(['AtA']);
      // Within the limits it reaches; moving the invitation beyond them is refused.
      const beyond = await put(token, atA.invitation_id, { ...schedule, site_id: siteB.id });
      expect(beyond.statusCode).toBe(403);
      expect((await put(token, atA.invitation_id, schedule)).statusCode).toBe(200);
    });

    it('another company’s invitation is a 404 to every role of this one', async () => {
      const where = await place();
      const stranger = await place();
      const invitation = await created(stranger.host, body(stranger.siteId));
      const schedule = {
        site_id: where.siteId,
        date: '05/03/2030',
        time: '09:00',
        end_time: '10:00',
      };
      const roles = (ROLES as readonly Role[]).filter((role) =>
        mayPerform(role, 'invitations.create'),
      );
      expect(roles.length).toBeGreaterThan(3);
      for (const role of roles) {
        const token = await tokenOf(where.tenant.staff[role].email);
        expect((await put(token, invitation.invitation_id, schedule)).statusCode, role).toBe(404);
        expect((await cancel(token, invitation.invitation_id)).statusCode, role).toBe(404);
        const listed = await api(token)({
          method: 'GET',
          url: '/api/invitations/company',
        });
        if (listed.statusCode === 200) {
          expect(listed.json<{ data: InvitedVisit[] }>().data, role).toEqual([]);
        } else {
          expect(listed.statusCode, role).toBe(403);
        }
      }
      expect(await sequenceOf(invitation.invitation_id)).toBe(0);
    });
  });

  describe('Mes visiteurs', () => {
    it('follows a visitor from invited to completed, here, arrived and left; a cancelled one says so', async () => {
      const where = await place();
      const invitation = await created(
        where.host,
        body(where.siteId, { date: utcDay(0), visitors: [guest('Flow'), guest('Dropped')] }),
      );
      const [flow, dropped] = invitation.visitors;
      const stateOf = async (lastname: string) =>
        (await mine(where.host)).data.find((r) => r.lastname === lastname)?.state;
      expect(await stateOf('Flow')).toBe('invited');
      await ctx.db
        .update(visitors)
        .set({ detailsCompletedAt: new Date() })
        .where(eq(visitors.id, flow!.visitor_id));
      expect(await stateOf('Flow')).toBe('completed');
      await ctx.db
        .update(visitRequests)
        .set({ hereAt: new Date() })
        .where(eq(visitRequests.id, flow!.request_id));
      expect(await stateOf('Flow')).toBe('here');
      expect(await deskCheck(where, flow!.code, new Date())).toBe('check_in');
      expect(await stateOf('Flow')).toBe('arrived');
      expect(await deskCheck(where, flow!.code, new Date(Date.now() + 1000))).toBe('check_out');
      expect(await stateOf('Flow')).toBe('left');

      expect(
        (await cancel(where.host, invitation.invitation_id, { request_id: dropped!.request_id }))
          .statusCode,
      ).toBe(200);
      expect(await stateOf('Dropped')).toBe('cancelled');
      const row = (await mine(where.host)).data.find((r) => r.lastname === 'Flow')!;
      expect(row).toMatchObject({
        invitation_id: invitation.invitation_id,
        code: flow!.code,
        next_day: dayOf(new Date(), 'UTC'),
        days: [{ day: dayOf(new Date(), 'UTC'), cancelled: false }],
        group_size: 2,
        site: { id: where.siteId },
      });
      expect(row.here_at).not.toBeNull();
    });

    it('lists the past ones apart, pages, and searches', async () => {
      const where = await place();
      const long = new Date('2020-01-06T08:00:00Z');
      await invitedAt(
        where,
        body(where.siteId, { date: '06/01/2020', visitors: [guest('Past')] }),
        long,
      );
      await created(
        where.host,
        body(where.siteId, {
          visitors: [
            guest('Alpha', { organisation: 'Orange CI' }),
            guest('Bravo'),
            guest('Charlie'),
            { firstname: 'Yao', lastname: 'Delta', phone: '0707070707' },
            guest('Echo', { email: 'echo@sample.org' }),
          ],
        }),
      );
      const upcoming = await mine(where.host);
      expect(upcoming.data.map((r) => r.lastname)).toEqual([
        'Alpha',
        'Bravo',
        'Charlie',
        'Delta',
        'Echo',
      ]);
      expect(upcoming.meta).toEqual({ page: 1, per_page: 25, total: 5 });
      const past = await mine(where.host, '?when=past');
      expect(past.data.map((r) => [r.lastname, r.next_day, r.state])).toEqual([
        ['Past', null, 'invited'],
      ]);
      expect(past.meta.total).toBe(1);

      const third = await mine(where.host, '?per_page=2&page=3');
      expect(third.data.map((r) => r.lastname)).toEqual(['Echo']);
      expect(third.meta).toEqual({ page: 3, per_page: 2, total: 5 });
      expect((await mine(where.host, '?per_page=2&page=4')).data).toEqual([]);

      const search = async (q: string) =>
        (await mine(where.host, `?q=${encodeURIComponent(q)}`)).data.map((r) => r.lastname);
      expect(await search('orange')).toEqual(['Alpha']);
      expect(await search('charlie')).toEqual(['Charlie']);
      expect(await search('Charlie Awa')).toEqual(['Charlie']);
      expect(await search('sample.org')).toEqual(['Echo']);
      expect(await search('Yao')).toEqual(['Delta']);
      expect(await search('nobody')).toEqual([]);
      expect((await mine(where.host, '?q=past&when=past')).data.map((r) => r.lastname)).toEqual([
        'Past',
      ]);
      const tooMany = await api(where.host)({
        method: 'GET',
        url: '/api/invitations/mine?per_page=101',
      });
      expect(tooMany.statusCode).toBe(400);
    });
  });
});
