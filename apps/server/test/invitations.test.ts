/**
 * Issue 30: a host's invitations through the API, on PGlite and PostgreSQL — a code valid
 * on its invitation's days only (a weekly rule, a day cancelled, the whole invitation
 * cancelled), what the host lists, and who reaches whose invitation.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InvitationCreated, InvitedVisit } from '@sesame/shared';
import { checkVisitorCode } from '../src/checkins/toggle';
import { mailOutbox, sites } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildTenant, buildUser } from './helpers/factories';

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
});
