/**
 * Issue 28: the lists that have a place narrow to a site. Two sites of one company, in
 * zones about nineteen hours apart (Nouméa and Los Angeles), each with its people inside,
 * expected, and in the logs: `?site=` shows one site's, no `?site=` every site the caller
 * may see; a front desk limited to one site sees that site only (the other's lists are a
 * 404) and its live stream carries that site's events only; another company's site is a
 * 404. Times in the log's CSV are the check's site's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { ExpectedPage, OnSitePage, UserLogRow, VisitorLogRow } from '@sesame/shared';
import { rollCalls, userChecks, users, visitorChecks } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import { openLiveStream } from './helpers/live-stream';
import {
  buildCompany,
  buildQrUser,
  buildRequest,
  buildSite,
  buildUser,
  buildVisitor,
} from './helpers/factories';

const ctx = useTestApp();

const NOUMEA = 'Pacific/Noumea';
const LOS_ANGELES = 'America/Los_Angeles';

/** Today in `timeZone` as the request form stores it (DD/MM/YYYY). */
function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone })
    .format(new Date())
    .split('-')
    .reverse()
    .join('/');
}

type Company = Awaited<ReturnType<typeof buildCompany>>;

/** A visitor of today at `siteId` (today in that site's zone), their meeting confirmed. */
async function expectedAt(company: Company, siteId: string, timeZone: string, lastname: string) {
  const visitor = await buildVisitor(ctx.db, {
    company,
    siteId,
    lastname,
    requestDate: todayIn(timeZone),
  });
  await buildRequest(ctx.db, { company, visitor, confirmed: true, status: 1 });
  return visitor;
}

/** Two sites of one company, each with a visitor and a member inside and a visitor expected. */
async function twoSites() {
  const company = await buildCompany(ctx.db, { timezone: NOUMEA });
  const siteA = { id: company.siteId, timezone: NOUMEA };
  const b = await buildSite(ctx.db, { company, timezone: LOS_ANGELES, name: 'Los Angeles' });
  const siteB = { id: b.id, timezone: LOS_ANGELES };
  const arrival = new Date('2030-01-10T08:00:00Z');

  const people = {} as Record<'A' | 'B', { inside: string[]; expected: string; member: string }>;
  for (const [key, site] of [
    ['A', siteA],
    ['B', siteB],
  ] as const) {
    const visitor = await expectedAt(company, site.id, site.timezone, `Dedans${key}`);
    await ctx.db.insert(visitorChecks).values({
      companyId: company.id,
      siteId: visitor.siteId,
      visitorId: visitor.id,
      checkInAt: arrival,
      checkInMethod: 'scan',
    });
    const member = await buildQrUser(ctx.db, { company, kind: 'member', lastname: `Membre${key}` });
    await ctx.db.insert(userChecks).values({
      companyId: company.id,
      siteId: site.id,
      qrUserId: member.id,
      checkInAt: arrival,
      checkInMethod: 'kiosk',
    });
    await expectedAt(company, site.id, site.timezone, `Attendu${key}`);
    people[key] = {
      inside: [`Dedans${key}`, `Membre${key}`],
      expected: `Attendu${key}`,
      member: member.id,
    };
  }

  const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
  // The front desk and a supervisor of site A only (their limits set in the database).
  const desk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
  const supervisor = await buildUser(ctx.db, { company, role: 'ROLE_SUPERVISOR' });
  for (const user of [desk, supervisor]) {
    await ctx.db
      .update(users)
      .set({ siteIds: [siteA.id] })
      .where(eq(users.id, user.id));
  }
  return { company, siteA, siteB, people, manager, desk, supervisor };
}

async function get<T>(token: string, url: string, status = 200): Promise<T> {
  const res = await as(ctx.app, token)({ method: 'GET', url });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
  return res.json<T>();
}

const names = (rows: { lastname: string }[]) => rows.map((row) => row.lastname).sort();

describe('lists by site (issue 28)', () => {
  it('each site’s on-site list, expected list and logs show only its people; no ?site= shows both', async () => {
    const { company, siteA, siteB, people, manager } = await twoSites();
    const token = await tokenFor(ctx.app, manager.email);

    for (const [key, site] of [
      ['A', siteA],
      ['B', siteB],
    ] as const) {
      const onSite = await get<OnSitePage>(token, `/api/on-site?site=${site.id}&per_page=100`);
      expect(names(onSite.data)).toEqual([...people[key].inside].sort());
      expect(onSite.meta.total).toBe(2);
      expect(onSite.meta.counts).toEqual({ visitor: 1, event_guest: 0, qr_user: 0, member: 1 });
      for (const row of onSite.data) {
        expect(row.site).toMatchObject({ id: site.id, timezone: site.timezone });
      }
      // The filtered path (a search) narrows by site as the first page does.
      const searched = await get<OnSitePage>(token, `/api/on-site?site=${site.id}&q=membre`);
      expect(names(searched.data)).toEqual([`Membre${key}`]);

      const expected = await get<ExpectedPage>(token, `/api/on-site/expected?site=${site.id}`);
      expect(names(expected.data)).toEqual([people[key].expected]);
      expect(expected.data[0]!.site).toMatchObject({ id: site.id, timezone: site.timezone });

      const log = await get<{ data: VisitorLogRow[] }>(token, `/api/visitorlog?site=${site.id}`);
      expect(log.data.map((row) => row.visitor_lastname)).toEqual([`Dedans${key}`]);
      expect(log.data[0]!.site).toMatchObject({ id: site.id, timezone: site.timezone });
      const byCompany = await get<{ data: VisitorLogRow[] }>(
        token,
        `/api/visitorLog/${company.slug}?site=${site.id}`,
      );
      expect(byCompany.data.map((row) => row.visitor_lastname)).toEqual([`Dedans${key}`]);

      const userLog = await get<{ data: UserLogRow[] }>(token, `/api/userLog?site=${site.id}`);
      expect(userLog.data.map((row) => row.user_id)).toEqual([people[key].member]);
      expect(userLog.data[0]!.site.id).toBe(site.id);
    }
    expect((await get<OnSitePage>(token, '/api/on-site?site=' + siteB.id)).data[0]!.site.name).toBe(
      'Los Angeles',
    );

    // No ?site=: every site of the company.
    const all = await get<OnSitePage>(token, '/api/on-site?per_page=100');
    expect(names(all.data)).toEqual([...people.A.inside, ...people.B.inside].sort());
    const expected = await get<ExpectedPage>(token, '/api/on-site/expected');
    expect(names(expected.data)).toEqual(['AttenduA', 'AttenduB']);
    const log = await get<{ data: VisitorLogRow[] }>(token, '/api/visitorlog');
    expect(log.data.map((row) => row.visitor_lastname).sort()).toEqual(['DedansA', 'DedansB']);
  });

  it('the CSV export says each check’s site and its times in that site’s zone', async () => {
    const { company, siteA, siteB, manager } = await twoSites();
    const token = await tokenFor(ctx.app, manager.email);
    const csv = async (query: string) => {
      const res = await as(
        ctx.app,
        token,
      )({ method: 'GET', url: `/api/visitorlog/export${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.rawPayload.toString('utf8').slice(1).trim().split('\r\n');
    };
    const all = await csv('');
    expect(all[0]).toBe(
      "Prénom;Nom;E-mail;Code;Entreprise;Site;Arrivée;Départ;Mode d'arrivée;Mode de départ;Arrivée enregistrée par;Départ enregistré par;Annulation",
    );
    expect(all).toHaveLength(3);
    // 08:00 UTC is 19:00 in Nouméa (UTC+11) and midnight in Los Angeles (UTC-8).
    const inA = all.find((line) => line.includes(';DedansA;'))!;
    // The main site is named after the company (the factory's), then the company's column.
    expect(inA).toContain(`;${company.name};${company.name};10/01/2030 19:00;`);
    const inB = all.find((line) => line.includes(';DedansB;'))!;
    expect(inB).toContain(`;${company.name};Los Angeles;10/01/2030 00:00;`);

    const onlyB = await csv(`?site=${siteB.id}`);
    expect(onlyB).toHaveLength(2);
    expect(onlyB[1]).toContain(';DedansB;');
    expect((await csv(`?site=${siteA.id}`))[1]).toContain(';DedansA;');
  });

  it('a front desk limited to site A sees A only, and the other site’s lists are a 404', async () => {
    const { siteA, siteB, people, desk, supervisor } = await twoSites();
    const token = await tokenFor(ctx.app, desk.email);

    const onSite = await get<OnSitePage>(token, '/api/on-site?per_page=100');
    expect(names(onSite.data)).toEqual([...people.A.inside].sort());
    expect(onSite.meta.total).toBe(2);
    const expected = await get<ExpectedPage>(token, '/api/on-site/expected');
    expect(names(expected.data)).toEqual(['AttenduA']);
    expect(names((await get<OnSitePage>(token, `/api/on-site?site=${siteA.id}`)).data)).toEqual(
      [...people.A.inside].sort(),
    );

    await get(token, `/api/on-site?site=${siteB.id}`, 404);
    await get(token, `/api/on-site/expected?site=${siteB.id}`, 404);
    const live = await as(
      ctx.app,
      token,
    )({
      method: 'GET',
      url: `/api/live?site=${siteB.id}`,
      headers: { accept: 'text/event-stream' },
    });
    expect(live.statusCode).toBe(404);

    // The logs (a supervisor's lists) follow the same limits.
    const boss = await tokenFor(ctx.app, supervisor.email);
    const log = await get<{ data: VisitorLogRow[] }>(boss, '/api/visitorlog');
    expect(log.data.map((row) => row.visitor_lastname)).toEqual(['DedansA']);
    const userLog = await get<{ data: UserLogRow[] }>(boss, '/api/userLog');
    expect(userLog.data.map((row) => row.user_id)).toEqual([people.A.member]);
    await get(boss, `/api/visitorlog?site=${siteB.id}`, 404);
    await get(boss, `/api/userLog?site=${siteB.id}`, 404);
    const exported = await as(
      ctx.app,
      boss,
    )({
      method: 'GET',
      url: `/api/visitorlog/export?site=${siteB.id}`,
    });
    expect(exported.statusCode).toBe(404);

    // Checking out someone at site B from a list is acting there: 403.
    const [atB] = await ctx.db
      .select()
      .from(userChecks)
      .where(eq(userChecks.qrUserId, people.B.member));
    const checkOut = await as(
      ctx.app,
      token,
    )({
      method: 'POST',
      url: `/api/on-site/${atB!.id}/check-out`,
    });
    expect(checkOut.statusCode).toBe(403);
    expect(checkOut.json().message).toBe("Vous n'avez pas accès à ce site.");
  });

  it('another company’s site is a 404 on every list', async () => {
    const { manager } = await twoSites();
    const other = await buildCompany(ctx.db);
    const token = await tokenFor(ctx.app, manager.email);
    for (const url of [
      `/api/on-site?site=${other.siteId}`,
      `/api/on-site/expected?site=${other.siteId}`,
      `/api/visitorlog?site=${other.siteId}`,
      `/api/visitorlog/export?site=${other.siteId}`,
      `/api/userLog?site=${other.siteId}`,
    ]) {
      await get(token, url, 404);
    }
    const live = await as(
      ctx.app,
      token,
    )({
      method: 'GET',
      url: `/api/live?site=${other.siteId}`,
      headers: { accept: 'text/event-stream' },
    });
    expect(live.statusCode).toBe(404);
  });
});

describe('the live stream by site (issue 28)', () => {
  let base = '';
  const cleanups: (() => void)[] = [];
  afterAll(() => {
    for (const cleanup of cleanups) cleanup();
  });

  it('a front desk limited to site A hears A’s events and roll calls of every site, never B’s', async () => {
    base ||= await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { company, siteA, siteB, manager, desk } = await twoSites();
    const deskStream = await openLiveStream(base, await tokenFor(ctx.app, desk.email));
    cleanups.push(() => deskStream.close());
    // A manager's screen opened on site B hears B only.
    const screenB = await openLiveStream(
      base,
      await tokenFor(ctx.app, manager.email),
      `?site=${siteB.id}`,
    );
    cleanups.push(() => screenB.close());

    const atB = await buildQrUser(ctx.db, { company, lastname: 'ArriveB' });
    const atA = await buildQrUser(ctx.db, { company, lastname: 'ArriveA' });
    await ctx.db
      .insert(userChecks)
      .values({ companyId: company.id, siteId: siteB.id, qrUserId: atB.id, checkInMethod: 'scan' });
    await ctx.db
      .insert(userChecks)
      .values({ companyId: company.id, siteId: siteA.id, qrUserId: atA.id, checkInMethod: 'scan' });
    // A roll call of every site (ended at once: only its announcement matters here).
    const [rollCall] = await ctx.db
      .insert(rollCalls)
      .values({ companyId: company.id, siteId: null, endedAt: new Date() })
      .returning();

    // Events arrive in order: once A's arrival and the roll call are heard, B's was not.
    await deskStream.next((e) => e.type === 'presence' && e.person_id === atA.id);
    await deskStream.next((e) => e.type === 'rollCall' && e.roll_call_id === rollCall!.id);
    expect(deskStream.seen.some((e) => e.type === 'presence' && e.person_id === atB.id)).toBe(
      false,
    );
    expect(deskStream.seen.every((e) => e.site_id === siteA.id || e.site_id === null)).toBe(true);

    await screenB.next((e) => e.type === 'presence' && e.person_id === atB.id);
    await screenB.next((e) => e.type === 'rollCall' && e.roll_call_id === rollCall!.id);
    expect(screenB.seen.some((e) => e.type === 'presence' && e.person_id === atA.id)).toBe(false);
  });
});
