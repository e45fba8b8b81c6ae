/**
 * Issue 28: a roll call covers one site, or every site of the company for whoever may.
 * Two sites of one company (Nouméa, Los Angeles), people inside each: a roll call of site A
 * freezes A's people only; one of every site cannot start while A's is open (409), nor A's
 * while one of every site is; a front desk limited to A cannot start, read or mark B's
 * (404); `latest?site=` reads the roll call covering that site. On PGlite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { FRENCH_MESSAGES as fr, type RollCall } from '@sesame/shared';
import { auditEvents, userChecks, visitorChecks } from '../src/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildQrUser, buildSite, buildUser, buildVisitor } from './helpers/factories';

type Company = Awaited<ReturnType<typeof buildCompany>>;

describe(`roll calls by site (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  /** A visitor of `siteId` inside now, and a member who scanned in at that site. */
  async function inside(company: Company, siteId: string, lastname: string) {
    const visitor = await buildVisitor(ctx.db, { company, siteId, lastname });
    await ctx.db.insert(visitorChecks).values({
      companyId: company.id,
      siteId,
      visitorId: visitor.id,
      checkInMethod: 'scan',
    });
    const member = await buildQrUser(ctx.db, { company, lastname: `${lastname}-carte` });
    await ctx.db.insert(userChecks).values({
      companyId: company.id,
      siteId,
      qrUserId: member.id,
      checkInMethod: 'scan',
    });
    return [visitor.id, member.id];
  }

  /** A company of two sites, two people inside each, and its staff. */
  async function twoSites() {
    const company = await buildCompany(ctx.db, { timezone: 'Pacific/Noumea' });
    const siteA = company.siteId;
    const siteB = (
      await buildSite(ctx.db, { company, name: 'Los Angeles', timezone: 'America/Los_Angeles' })
    ).id;
    const peopleA = await inside(company, siteA, 'Alpha');
    const peopleB = await inside(company, siteB, 'Bravo');
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    const deskA = await buildUser(ctx.db, {
      company,
      role: 'ROLE_EMPLOYEE',
      siteIds: [siteA],
      homeSiteId: siteA,
    });
    const both = await buildUser(ctx.db, {
      company,
      role: 'ROLE_EMPLOYEE',
      siteIds: [siteA, siteB],
    });
    return {
      company,
      siteA,
      siteB,
      peopleA,
      peopleB,
      staff: as(ctx.app, await tokenFor(ctx.app, manager.email)),
      deskA: as(ctx.app, await tokenFor(ctx.app, deskA.email)),
      both: as(ctx.app, await tokenFor(ctx.app, both.email)),
    };
  }

  const start = (call: ReturnType<typeof as>, payload: Record<string, unknown> = {}) =>
    call({ method: 'POST', url: '/api/roll-calls', payload });
  const started = async (call: ReturnType<typeof as>, payload: Record<string, unknown> = {}) => {
    const res = await start(call, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: RollCall }>().data;
  };
  const end = (call: ReturnType<typeof as>, id: string) =>
    call({ method: 'POST', url: `/api/roll-calls/${id}/end` });
  const frozen = (rollCall: RollCall) => rollCall.people.map((p) => p.person_id).sort();

  it("a roll call of site A freezes A's people only, and says its site", async () => {
    const t = await twoSites();
    const rollCall = await started(t.staff, { site: t.siteA });
    expect(rollCall.site).toEqual({
      id: t.siteA,
      name: t.company.name,
      timezone: 'Pacific/Noumea',
    });
    expect(frozen(rollCall)).toEqual([...t.peopleA].sort());
    expect(rollCall.counts.total).toBe(2);
    const [entry] = await ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.companyId, t.company.id), eq(auditEvents.action, 'roll_call.started')),
      );
    expect(entry?.detail).toMatchObject({ roll_call_id: rollCall.id, site_id: t.siteA, people: 2 });

    // B's own roll call may run beside it, with B's people.
    const rollCallB = await started(t.staff, { site: t.siteB });
    expect(rollCallB.site?.name).toBe('Los Angeles');
    expect(frozen(rollCallB)).toEqual([...t.peopleB].sort());
    // A second one of A: 409.
    const again = await start(t.staff, { site: t.siteA });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(fr.rollCall.alreadyRunning);
  });

  it("one of every site cannot start while A's is open, nor A's while one of every site is", async () => {
    const t = await twoSites();
    const a = await started(t.staff, { site: t.siteA });
    const all = await start(t.staff);
    expect(all.statusCode).toBe(409);
    expect(all.json().message).toBe(fr.rollCall.alreadyRunning);
    expect((await end(t.staff, a.id)).statusCode).toBe(200);

    // No site named, two sites, someone not limited: every site, everyone inside.
    const everywhere = await started(t.staff);
    expect(everywhere.site).toBeNull();
    expect(frozen(everywhere)).toEqual([...t.peopleA, ...t.peopleB].sort());
    // Each person says the site they were inside at.
    for (const person of everywhere.people) {
      const site = t.peopleA.includes(person.person_id) ? t.siteA : t.siteB;
      expect(person.site?.id, person.lastname).toBe(site);
    }
    expect(everywhere.people.find((p) => p.site?.id === t.siteB)?.site).toEqual({
      id: t.siteB,
      name: 'Los Angeles',
      timezone: 'America/Los_Angeles',
    });
    for (const site of [t.siteA, t.siteB]) {
      const res = await start(t.staff, { site });
      expect(res.statusCode, site).toBe(409);
    }
    // The latest of each site is the one of every site, which covers it.
    for (const site of [t.siteA, t.siteB]) {
      const latest = await t.staff({ method: 'GET', url: `/api/roll-calls/latest?site=${site}` });
      expect(latest.statusCode).toBe(200);
      expect(latest.json<{ data: RollCall }>().data.id).toBe(everywhere.id);
    }
    expect((await end(t.staff, everywhere.id)).statusCode).toBe(200);
    const b = await started(t.staff, { site: t.siteB });
    const latestA = await t.staff({ method: 'GET', url: `/api/roll-calls/latest?site=${t.siteA}` });
    expect(latestA.json<{ data: RollCall }>().data.id).toBe(everywhere.id);
    const latestB = await t.staff({ method: 'GET', url: `/api/roll-calls/latest?site=${t.siteB}` });
    expect(latestB.json<{ data: RollCall }>().data.id).toBe(b.id);
  });

  it('starts racing at once never overlap: one of every site stands alone', async () => {
    const t = await twoSites();
    const answers = await Promise.all([
      start(t.staff, { site: t.siteA }),
      start(t.staff),
      start(t.staff, { site: t.siteB }),
    ]);
    const codes = answers.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 201).length, JSON.stringify(codes)).toBeGreaterThan(0);
    expect(codes.every((code) => code === 201 || code === 409)).toBe(true);
    const result = await ctx.db.execute(
      sql`select site_id from roll_calls where company_id = ${t.company.id} and ended_at is null`,
    );
    const open = (result as unknown as { rows: { site_id: string | null }[] }).rows;
    expect(open.length).toBe(codes.filter((code) => code === 201).length);
    // Never one of every site beside a site's own.
    if (open.some((row) => row.site_id === null)) expect(open).toHaveLength(1);
  });

  it("a desk limited to site A cannot start, read or mark B's roll call (404)", async () => {
    const t = await twoSites();
    const onB = await start(t.deskA, { site: t.siteB });
    expect(onB.statusCode).toBe(404);
    // Naming no site, limited to A alone: A's.
    const mine = await started(t.deskA);
    expect(mine.site?.id).toBe(t.siteA);
    expect(frozen(mine)).toEqual([...t.peopleA].sort());

    const b = await started(t.staff, { site: t.siteB });
    const person = b.people[0]!.id;
    expect((await t.deskA({ method: 'GET', url: `/api/roll-calls/${b.id}` })).statusCode).toBe(404);
    expect(
      (
        await t.deskA({
          method: 'PUT',
          url: `/api/roll-calls/${b.id}/people/${person}`,
          payload: { status: 'safe' },
        })
      ).statusCode,
    ).toBe(404);
    expect((await end(t.deskA, b.id)).statusCode).toBe(404);
    expect(
      (await t.deskA({ method: 'GET', url: `/api/roll-calls/latest?site=${t.siteB}` })).statusCode,
    ).toBe(404);
    // Their latest, naming no site, is A's.
    const latest = await t.deskA({ method: 'GET', url: '/api/roll-calls/latest' });
    expect(latest.json<{ data: RollCall }>().data.id).toBe(mine.id);
    // Their own: read, mark, end.
    const marked = await t.deskA({
      method: 'PUT',
      url: `/api/roll-calls/${mine.id}/people/${mine.people[0]!.id}`,
      payload: { status: 'safe' },
    });
    expect(marked.statusCode).toBe(200);
    expect((await end(t.deskA, mine.id)).statusCode).toBe(200);
  });

  it('limited to several sites, a person names one; another company’s site is a 404', async () => {
    const t = await twoSites();
    const unnamed = await start(t.both);
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json()).toMatchObject({
      message: fr.rollCall.siteRequired,
      errors: { site: fr.rollCall.siteRequired },
    });
    const b = await started(t.both, { site: t.siteB });
    expect(b.site?.id).toBe(t.siteB);
    const other = await buildCompany(ctx.db);
    expect((await start(t.staff, { site: other.siteId })).statusCode).toBe(404);
    expect((await start(t.staff, { site: 'pas-un-site' })).statusCode).toBe(400);
  });

  it('a company of one site: its site is implied, as before', async () => {
    const company = await buildCompany(ctx.db);
    const people = await inside(company, company.siteId, 'Seul');
    const desk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    const call = as(ctx.app, await tokenFor(ctx.app, desk.email));
    const rollCall = await started(call);
    expect(rollCall.site?.id).toBe(company.siteId);
    expect(frozen(rollCall)).toEqual([...people].sort());
    const latest = await call({ method: 'GET', url: '/api/roll-calls/latest' });
    expect(latest.json<{ data: RollCall }>().data.id).toBe(rollCall.id);
  });
});
