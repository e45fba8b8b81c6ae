/**
 * Issue 30 at the front desk, on PGlite and PostgreSQL: invited visitors in "expected today"
 * on their invitation's days only (in the site's zone, a weekly rule, a day cancelled, again
 * on Thursday after Monday's visit), with who invited them, their group, their details and
 * their "Je suis arrivé(e)"; the kiosk's search on the same days; and who hears an
 * invitation's news on the live feed.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROLES,
  mayPerform,
  type ExpectedPage,
  type ExpectedRow,
  type InvitationCreated,
  type LiveEvent,
  type Role,
} from '@sesame/shared';
import type { Principal } from '../src/auth/principal';
import { checkVisitorCode } from '../src/checkins/toggle';
import { userChecks, visitRequests, visitors } from '../src/db/schema';
import { searchExpected } from '../src/kiosks/visits';
import { listExpected } from '../src/on-site/presence';
import { hears } from '../src/on-site/routes';
import { dayOf } from '../src/time-zones';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { openLiveStream } from './helpers/live-stream';
import {
  buildCompany,
  buildQrUser,
  buildRequest,
  buildUser,
  buildVisitor,
} from './helpers/factories';

const ctx = useTestApp();
/** Paris: in March 2030 a day there starts at 23:00 UTC the day before. */
const ZONE = 'Europe/Paris';
const query = { page: 1, per_page: 100 } as const;

type Company = Awaited<ReturnType<typeof buildCompany>>;

describe(`invitations at the front desk (${testDatabaseKind})`, () => {
  let company: Company;
  let hostToken: string;
  let deskToken: string;

  beforeAll(async () => {
    company = await buildCompany(ctx.db, { timezone: ZONE });
    const host = await buildUser(ctx.db, {
      company,
      role: 'ROLE_USER',
      firstname: 'Awa',
      name: 'Koné',
    });
    const desk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    hostToken = await tokenFor(ctx.app, host.email);
    deskToken = await tokenFor(ctx.app, desk.email);
  });

  const invite = async (payload: Record<string, unknown>) => {
    const res = await as(
      ctx.app,
      hostToken,
    )({
      method: 'POST',
      url: '/api/invitations',
      payload: { site_id: company.siteId, time: '09:00', end_time: '10:00', ...payload },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<InvitationCreated>();
  };

  const cancel = async (invitationId: string, payload: Record<string, unknown>) => {
    const res = await as(
      ctx.app,
      hostToken,
    )({ method: 'POST', url: `/api/invitations/${invitationId}/cancel`, payload });
    expect(res.statusCode, res.body).toBe(200);
  };

  /** The expected rows of the company at `iso`, by last name. */
  const expectedAt = async (iso: string) =>
    (await listExpected(ctx.db, query, company.id, undefined, new Date(iso))).rows;
  const lastnamesAt = async (iso: string) => (await expectedAt(iso)).map((row) => row.lastname);

  const scan = async (code: string, iso: string) => {
    const caller = (await ctx.app.tokens.verify(deskToken))!;
    const answer = await checkVisitorCode(ctx.db, code, {
      caller,
      method: 'scan',
      repeatWindowMs: 0,
      now: new Date(iso),
    });
    return answer.action;
  };

  it('expects a weekly invitation on its days only, in the site’s zone, and again after last visit', async () => {
    // Mondays and Thursdays from Monday 4 March 2030 until 14 March: 4, 7, 11, 14.
    const created = await invite({
      date: '04/03/2030',
      rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300314',
      visitors: [{ firstname: 'Fatou', lastname: 'Diallo', email: 'fatou@example.com' }],
    });
    await cancel(created.invitation_id, { day: '2030-03-11' });
    const { code } = created.visitors[0]!;

    // Monday 00:30 in Paris (23:30 UTC on Sunday): expected; 00:30 on Tuesday in Paris: not.
    expect(await lastnamesAt('2030-03-03T23:30:00Z')).toEqual(['Diallo']);
    expect(await lastnamesAt('2030-03-04T23:30:00Z')).toEqual([]);
    expect(await lastnamesAt('2030-03-05T10:00:00Z')).toEqual([]);
    expect(await lastnamesAt('2030-03-06T10:00:00Z')).toEqual([]);
    // The cancelled Monday, and after the last day.
    expect(await lastnamesAt('2030-03-11T10:00:00Z')).toEqual([]);
    expect(await lastnamesAt('2030-03-14T10:00:00Z')).toEqual(['Diallo']);
    expect(await lastnamesAt('2030-03-15T10:00:00Z')).toEqual([]);

    const [monday] = await expectedAt('2030-03-04T08:00:00Z');
    expect(monday).toMatchObject({
      kind: 'visitor',
      time: '09:00',
      host: 'Awa Koné',
      invitation: {
        id: created.invitation_id,
        invited_by: 'Awa Koné',
        group_size: 1,
        details_completed: false,
        here_at: null,
      },
    });

    // Monday: in at 09:00, out at 11:00 — not expected while inside nor after leaving that day.
    expect(await scan(code, '2030-03-04T09:00:00Z')).toBe('check_in');
    expect(await lastnamesAt('2030-03-04T10:00:00Z')).toEqual([]);
    expect(await scan(code, '2030-03-04T11:00:00Z')).toBe('check_out');
    expect(await lastnamesAt('2030-03-04T12:00:00Z')).toEqual([]);
    // Thursday: expected again.
    expect(await lastnamesAt('2030-03-07T08:00:00Z')).toEqual(['Diallo']);
    // Thursday's visit made, Thursday 14 still expects them.
    expect(await scan(code, '2030-03-07T09:00:00Z')).toBe('check_in');
    expect(await scan(code, '2030-03-07T10:00:00Z')).toBe('check_out');
    expect(await lastnamesAt('2030-03-07T12:00:00Z')).toEqual([]);
    expect(await lastnamesAt('2030-03-14T08:00:00Z')).toEqual(['Diallo']);
  });

  it('says "Je suis arrivé(e)" on its day only, and the details completed', async () => {
    const created = await invite({
      date: '18/03/2030',
      rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300321',
      visitors: [{ firstname: 'Koffi', lastname: 'Yao', email: 'koffi@example.com' }],
    });
    const { request_id, visitor_id } = created.visitors[0]!;
    // Monday 18 March, 08:40 in Paris (07:40 UTC).
    const here = new Date('2030-03-18T07:40:00Z');
    await ctx.db
      .update(visitRequests)
      .set({ hereAt: here })
      .where(eq(visitRequests.id, request_id));
    await ctx.db
      .update(visitors)
      .set({ detailsCompletedAt: new Date('2030-03-10T12:00:00Z') })
      .where(eq(visitors.id, visitor_id));

    const [monday] = await expectedAt('2030-03-18T08:00:00Z');
    expect(monday!.invitation).toMatchObject({
      here_at: here.toISOString(),
      details_completed: true,
    });
    // Thursday: a new day, nobody said they were here yet.
    const [thursday] = await expectedAt('2030-03-21T08:00:00Z');
    expect(thursday!.lastname).toBe('Yao');
    expect(thursday!.invitation).toMatchObject({ here_at: null, details_completed: true });
  });

  it('shows a group as one: its size, its host, its rows together; a cancelled visitor leaves it', async () => {
    // Another meeting at 09:00 that day, by a visitor whose name sorts among the group's.
    const lone = await buildVisitor(ctx.db, {
      company,
      lastname: 'Bamba',
      requestDate: '25/03/2030',
      requestTime: '09:00',
    });
    await buildRequest(ctx.db, { company, visitor: lone, confirmed: true, status: 1 });
    const created = await invite({
      date: '25/03/2030',
      visitors: [
        { firstname: 'Ama', lastname: 'Adjoua', email: 'ama@example.com' },
        { firstname: 'Ali', lastname: 'Coulibaly', email: 'ali@example.com' },
        { firstname: 'Éric', lastname: 'Zadi', phone: '+225 07 07 07 07 07' },
      ],
    });
    const at = '2030-03-25T08:00:00Z';
    const rows = await expectedAt(at);
    expect(rows.map((row) => row.lastname)).toEqual(['Bamba', 'Adjoua', 'Coulibaly', 'Zadi']);
    expect(rows[0]!.invitation).toBeNull();
    for (const row of rows.slice(1)) {
      expect(row.invitation).toEqual({
        id: created.invitation_id,
        invited_by: 'Awa Koné',
        group_size: 3,
        details_completed: false,
        here_at: null,
      });
    }
    // Not the day before, nor the day after.
    expect(await lastnamesAt('2030-03-24T08:00:00Z')).toEqual([]);
    expect(await lastnamesAt('2030-03-26T08:00:00Z')).toEqual([]);

    await cancel(created.invitation_id, { request_id: created.visitors[1]!.request_id });
    const after = await expectedAt(at);
    expect(after.map((row) => row.lastname)).toEqual(['Bamba', 'Adjoua', 'Zadi']);
    expect(after[1]!.invitation!.group_size).toBe(2);

    await cancel(created.invitation_id, {});
    expect(await lastnamesAt(at)).toEqual(['Bamba']);
  });

  it('keeps search and kind filters: an invited visitor is a visitor, found by name', async () => {
    await invite({
      date: '28/03/2030',
      visitors: [{ firstname: 'Mariam', lastname: 'Touré', email: 'mariam@example.com' }],
    });
    const at = new Date('2030-03-28T08:00:00Z');
    const found = await listExpected(ctx.db, { ...query, q: 'tour' }, company.id, undefined, at);
    expect(found.rows.map((row) => row.lastname)).toEqual(['Touré']);
    expect(found.total).toBe(1);
    const guests = await listExpected(
      ctx.db,
      { ...query, kind: 'event_guest' },
      company.id,
      undefined,
      at,
    );
    expect(guests.total).toBe(0);
  });

  it('finds an invited visitor at the kiosk on their days only', async () => {
    const created = await invite({
      date: '01/04/2030',
      rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300411',
      visitors: [{ firstname: 'Salif', lastname: 'Ouattara', email: 'salif@example.com' }],
    });
    await cancel(created.invitation_id, { day: '2030-04-08' });
    const kiosk = { companyId: company.id, siteId: company.siteId };
    const search = async (iso: string) =>
      (await searchExpected(ctx.db, kiosk, 'ouat', new Date(iso))).map((row) => row.firstname);
    // Monday 1 April starts at 22:00 UTC on 31 March in Paris (summer time).
    expect(await search('2030-03-31T22:30:00Z')).toEqual(['Salif']);
    expect(await search('2030-04-01T22:30:00Z')).toEqual([]);
    expect(await search('2030-04-03T10:00:00Z')).toEqual([]);
    expect(await search('2030-04-04T10:00:00Z')).toEqual(['Salif']);
    expect(await search('2030-04-08T10:00:00Z')).toEqual([]);
    expect(await search('2030-04-11T10:00:00Z')).toEqual(['Salif']);
    const [found] = await searchExpected(ctx.db, kiosk, 'ouat', new Date('2030-04-04T10:00:00Z'));
    expect(found).toEqual({
      request_id: created.visitors[0]!.request_id,
      firstname: 'Salif',
      initial: 'O.',
      host: 'Awa Koné',
      time: '09:00',
      to_sign: [],
    });
    await cancel(created.invitation_id, {});
    expect(await search('2030-04-11T10:00:00Z')).toEqual([]);
  });

  it('answers today’s invited visitor through GET /api/on-site/expected, with the invitation', async () => {
    const today = dayOf(new Date(), ZONE).split('-').reverse().join('/');
    const created = await invite({
      date: today,
      time: '23:58',
      end_time: '23:59',
      visitors: [
        { firstname: 'Nina', lastname: 'Aujourdhui', email: 'nina@example.com' },
        { firstname: 'Paul', lastname: 'Aujourdhui Bis', email: 'paul@example.com' },
      ],
    });
    const get = async (q: string) => {
      const res = await as(
        ctx.app,
        deskToken,
      )({ method: 'GET', url: `/api/on-site/expected?q=${q}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ExpectedPage>().data;
    };
    const invited = await get('aujourdhui');
    expect(invited.map((row: ExpectedRow) => row.firstname)).toEqual(['Nina', 'Paul']);
    expect(invited[0]!.invitation).toEqual({
      id: created.invitation_id,
      invited_by: 'Awa Koné',
      group_size: 2,
      details_completed: false,
      here_at: null,
    });
    // A visitor who asked by the form (not invited) says so with null.
    const asked = await buildVisitor(ctx.db, {
      company,
      lastname: 'Formulaire',
      requestDate: today,
    });
    await buildRequest(ctx.db, { company, visitor: asked, confirmed: true, status: 1 });
    expect(await get('formulaire')).toMatchObject([{ lastname: 'Formulaire', invitation: null }]);
  });
});

describe('an invitation’s news on the live feed (issue 30)', () => {
  const own = 'company-a';
  const news = {
    type: 'invitation',
    company_id: own,
    site_id: 'site-1',
    invitation_id: 'i',
    request_id: 'r',
    host_user_id: 'host-1',
    op: 'here',
  } as const satisfies LiveEvent;
  const who = (role: Role, userId = 'someone', siteIds: string[] = [], companyId = own) =>
    ({ role, userId, companyId, siteIds }) as unknown as Principal;

  it('reaches its host whatever their role, the front desk of its company and site, nobody else', () => {
    expect(hears(who('ROLE_USER', 'host-1'), news, undefined)).toBe(true);
    expect(hears(who('ROLE_USER', 'host-1'), news, undefined, 'site-1')).toBe(true);
    // Another host of the same company, a host of another company.
    expect(hears(who('ROLE_USER', 'host-2'), news, undefined)).toBe(false);
    expect(hears(who('ROLE_USER', 'host-1', [], 'company-b'), news, undefined)).toBe(false);
    // The front desk: its company, its site; not another company's, nor another site's.
    expect(hears(who('ROLE_EMPLOYEE'), news, undefined)).toBe(true);
    expect(hears(who('ROLE_EMPLOYEE', 'desk', ['site-1']), news, undefined)).toBe(true);
    expect(hears(who('ROLE_EMPLOYEE', 'desk', ['site-2']), news, undefined)).toBe(false);
    expect(hears(who('ROLE_EMPLOYEE'), news, undefined, 'site-2')).toBe(false);
    expect(hears(who('ROLE_EMPLOYEE', 'desk', [], 'company-b'), news, undefined)).toBe(false);
    // Every role that is not the host hears it as it hears the on-site list.
    for (const role of ROLES) {
      expect(hears(who(role), news, undefined), role).toBe(mayPerform(role, 'onSite.list'));
    }
  });
});

describe(`an invitation’s news through GET /api/live (${testDatabaseKind})`, () => {
  const closes: (() => void)[] = [];
  afterAll(() => {
    for (const close of closes) close();
  });

  it('reaches the host and the front desk, not another host nor another company', async () => {
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const company = await buildCompany(ctx.db);
    const other = await buildCompany(ctx.db);
    const host = await buildUser(ctx.db, { company, role: 'ROLE_USER' });
    const otherHost = await buildUser(ctx.db, { company, role: 'ROLE_USER' });
    const desk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    const otherDesk = await buildUser(ctx.db, { company: other, role: 'ROLE_EMPLOYEE' });
    const tokens = {
      host: await tokenFor(ctx.app, host.email),
      otherHost: await tokenFor(ctx.app, otherHost.email),
      desk: await tokenFor(ctx.app, desk.email),
      otherDesk: await tokenFor(ctx.app, otherDesk.email),
    };
    const streams = {
      host: await openLiveStream(base, tokens.host),
      otherHost: await openLiveStream(base, tokens.otherHost),
      desk: await openLiveStream(base, tokens.desk),
      otherDesk: await openLiveStream(base, tokens.otherDesk),
    };
    for (const stream of Object.values(streams)) closes.push(() => stream.close());

    const inviteAs = async (token: string, lastname: string) => {
      const res = await as(
        ctx.app,
        token,
      )({
        method: 'POST',
        url: '/api/invitations',
        payload: {
          site_id: company.siteId,
          date: '02/05/2030',
          time: '09:00',
          end_time: '10:00',
          visitors: [{ firstname: 'Live', lastname, email: `${lastname}@example.com` }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<InvitationCreated>().invitation_id;
    };
    const isNews = (id: string) => (event: LiveEvent) =>
      event.type === 'invitation' && event.invitation_id === id;
    // The feed keeps its order: each stream's later news proves an earlier one did not come.
    const first = await inviteAs(tokens.host, 'premier');
    const second = await inviteAs(tokens.otherHost, 'second');
    const third = await inviteAs(tokens.host, 'troisieme');
    expect(await streams.host.next(isNews(first))).toMatchObject({
      type: 'invitation',
      op: 'created',
      company_id: company.id,
      site_id: company.siteId,
      host_user_id: host.id,
    });
    await streams.host.next(isNews(third));
    expect(streams.host.seen.some(isNews(second))).toBe(false);
    await streams.otherHost.next(isNews(second));
    // The other host's stream heard their own; nothing of the first host's came before it,
    // and the third, made after, is checked once a later event of theirs arrives below.
    expect(streams.otherHost.seen.some(isNews(first))).toBe(false);
    for (const id of [first, second, third]) await streams.desk.next(isNews(id));

    // Another company's desk: an arrival of its own company comes through, no invitation did;
    // the other host hears their own next news, and never the first host's third.
    const card = await buildQrUser(ctx.db, { company: other });
    await ctx.db.insert(userChecks).values({
      companyId: other.id,
      siteId: other.siteId,
      qrUserId: card.id,
      checkInMethod: 'scan',
    });
    await streams.otherDesk.next((e) => e.type === 'presence' && e.person_id === card.id);
    expect(streams.otherDesk.seen.some((e) => e.type === 'invitation')).toBe(false);
    const fourth = await inviteAs(tokens.otherHost, 'quatrieme');
    await streams.otherHost.next(isNews(fourth));
    expect(streams.otherHost.seen.some(isNews(third))).toBe(false);
  });
});
