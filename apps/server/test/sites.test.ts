/**
 * Issue 28: a company's sites through the API, on PGlite and PostgreSQL —
 * `/api/company/{id}/sites` (list, create, edit, archive, restore, delete), who may manage
 * them (the matrix), another company's site a 404, the audit entries, the public list of
 * the visitor form, and the host search narrowed to a site.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FRENCH_MESSAGES as fr, ROLES, mayPerform, type Role, type Site } from '@sesame/shared';
import { auditEvents, userChecks, users, visitorChecks } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildEvent,
  buildQrUser,
  buildSite,
  buildTenant,
  buildUser,
  buildVisitor,
} from './helpers/factories';

type Tenant = Awaited<ReturnType<typeof buildTenant>>;

const MANAGERS: Role[] = ['ROLE_ADMIN', 'ROLE_SUPER_ADMIN', 'ROLE_MANAGER', 'ROLE_SESAME'];
const READERS: Role[] = ['ROLE_EMPLOYEE', 'ROLE_SUPERVISOR', 'ROLE_USER'];

let counter = 0;
const siteName = (prefix = 'Site') => `${prefix} ${++counter}-${Date.now()}`;

describe(`sites (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Tenant;
  let globex: Tenant;
  let admin: ReturnType<typeof as>;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    for (const role of ROLES) tokens[role] = await tokenFor(ctx.app, acme.staff[role].email);
    admin = as(ctx.app, tokens.ROLE_MANAGER);
  });

  const base = () => `/api/company/${acme.company.id}/sites`;

  /** The audit entries of `action` about site `siteId`. */
  const audited = (siteId: string, action: string) =>
    ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, siteId), eq(auditEvents.action, action)));

  const create = async (payload: Record<string, unknown>) => {
    const res = await admin({ method: 'POST', url: base(), payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: Site }>().data;
  };

  it('lists the main site first, the archived only with ?archived=true; 401 without a token', async () => {
    const company = await buildCompany(ctx.db, { timezone: 'Pacific/Noumea' });
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const call = as(ctx.app, await tokenFor(ctx.app, manager.email));
    const second = await buildSite(ctx.db, { company, name: 'Zeta', timezone: 'UTC' });
    const old = await buildSite(ctx.db, { company, name: 'Ancien', archivedAt: new Date() });

    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/company/${company.id}/sites` })).statusCode,
    ).toBe(401);
    const list = await call({ method: 'GET', url: `/api/company/${company.slug}/sites` });
    expect(list.statusCode).toBe(200);
    const ids = list.json<{ data: Site[] }>().data.map((site) => site.id);
    expect(ids).toEqual([company.siteId, second.id]);
    expect(list.json<{ data: Site[] }>().data[0]).toMatchObject({
      timezone: 'Pacific/Noumea',
      archived_at: null,
    });
    const all = await call({
      method: 'GET',
      url: `/api/company/${company.id}/sites?archived=true`,
    });
    expect(all.json<{ data: Site[] }>().data.map((site) => site.id)).toEqual([
      company.siteId,
      second.id,
      old.id,
    ]);
  });

  it('creates a site: 400 in French for a missing name, a made-up zone, a bad short code, a name taken', async () => {
    const bad = async (payload: Record<string, unknown>, field: string, message: string) => {
      const res = await admin({ method: 'POST', url: base(), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(message);
      expect(res.json().errors?.[field]).toBe(message);
    };
    await bad({ timezone: 'Europe/Paris' }, 'name', fr.site.required('name'));
    await bad({ name: '  ', timezone: 'Europe/Paris' }, 'name', fr.site.required('name'));
    await bad({ name: siteName(), timezone: 'Mars/Olympus' }, 'timezone', fr.site.timezoneInvalid);
    await bad(
      { name: siteName(), timezone: 'Europe/Paris', short_code: 'TOO-LONG' },
      'short_code',
      fr.site.shortCodeInvalid,
    );
    await bad(
      { name: siteName(), timezone: 'Europe/Paris', day_end: '25:00' },
      'day_end',
      fr.site.timeInvalid,
    );

    const name = siteName('Plateau');
    const res = await admin({
      method: 'POST',
      url: base(),
      payload: {
        name,
        timezone: 'Africa/Abidjan',
        address: '1 rue du Commerce',
        city: 'Abidjan',
        country: "Côte d'Ivoire",
        front_desk_email: 'accueil@example.com',
        day_end: '19:30',
        short_code: 'pla',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(fr.site.created);
    const site = res.json<{ data: Site }>().data;
    expect(site).toMatchObject({
      company_id: acme.company.id,
      name,
      timezone: 'Africa/Abidjan',
      country: 'CI',
      day_end: '19:30',
      short_code: 'PLA',
      archived_at: null,
    });
    expect(await audited(site.id, 'site.created')).toMatchObject([
      { companyId: acme.company.id, actorUserId: acme.staff.ROLE_MANAGER.id },
    ]);

    await bad({ name, timezone: 'UTC' }, 'name', fr.site.nameTaken);
    await bad(
      { name: siteName(), timezone: 'UTC', short_code: 'PLA' },
      'short_code',
      fr.site.shortCodeTaken,
    );
    // Another company may have a site of that name (a platform admin files it there).
    const elsewhere = await as(
      ctx.app,
      tokens.ROLE_ADMIN,
    )({
      method: 'POST',
      url: `/api/company/${globex.company.id}/sites`,
      payload: { name, timezone: 'UTC' },
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    expect(elsewhere.json<{ data: Site }>().data.company_id).toBe(globex.company.id);
  });

  it('edits a site: what is left out is kept; the audit names the fields changed', async () => {
    const site = await create({ name: siteName('Annexe'), timezone: 'UTC', city: 'Abidjan' });
    const url = `${base()}/${site.id}`;
    const invalid = await admin({ method: 'PUT', url, payload: { timezone: 'Mars/Olympus' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe(fr.site.timezoneInvalid);

    const res = await admin({
      method: 'PUT',
      url,
      payload: { timezone: 'America/Los_Angeles', day_end: '18:00' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(fr.site.updated);
    expect(res.json<{ data: Site }>().data).toMatchObject({
      name: site.name,
      city: 'Abidjan',
      timezone: 'America/Los_Angeles',
      day_end: '18:00',
    });
    const read = await admin({ method: 'GET', url });
    expect(read.json<{ data: Site }>().data.timezone).toBe('America/Los_Angeles');
    const [entry] = await audited(site.id, 'site.updated');
    expect(entry?.detail).toMatchObject({
      fields: ['timezone', 'dayEnd'],
      timezone: 'UTC→America/Los_Angeles',
    });

    // A field sent blank is cleared (left out, it is kept).
    const cleared = await admin({ method: 'PUT', url, payload: { city: '', short_code: '' } });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json<{ data: Site }>().data).toMatchObject({
      city: null,
      short_code: null,
      timezone: 'America/Los_Angeles',
    });
  });

  it('archives (409 for the last active site) and restores, each audited', async () => {
    const company = await buildCompany(ctx.db);
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_ADMIN' });
    const call = as(ctx.app, await tokenFor(ctx.app, manager.email));
    const url = (id: string, what: string) => `/api/company/${company.id}/sites/${id}/${what}`;

    const last = await call({ method: 'POST', url: url(company.siteId, 'archive') });
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe(fr.site.lastSite);

    const second = await buildSite(ctx.db, { company, name: 'Second' });
    const archived = await call({ method: 'POST', url: url(company.siteId, 'archive') });
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json().message).toBe(fr.site.archived);
    expect(archived.json<{ data: Site }>().data.archived_at).not.toBeNull();
    const list = await call({ method: 'GET', url: `/api/company/${company.id}/sites` });
    expect(list.json<{ data: Site[] }>().data.map((s) => s.id)).toEqual([second.id]);
    // Now the other is the last.
    expect((await call({ method: 'POST', url: url(second.id, 'archive') })).statusCode).toBe(409);

    const restored = await call({ method: 'POST', url: url(company.siteId, 'restore') });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().message).toBe(fr.site.restored);
    expect(restored.json<{ data: Site }>().data.archived_at).toBeNull();
    expect(await audited(company.siteId, 'site.archived')).toHaveLength(1);
    expect(await audited(company.siteId, 'site.restored')).toHaveLength(1);
  });

  it('deletes a site nothing happened at; 409 when a visitor, an event or a check was there', async () => {
    const withVisitor = await buildSite(ctx.db, { company: acme.company });
    await buildVisitor(ctx.db, { company: acme.company, siteId: withVisitor.id });
    const withEvent = await buildSite(ctx.db, { company: acme.company });
    await buildEvent(ctx.db, { company: acme.company, siteId: withEvent.id });
    const withCheck = await buildSite(ctx.db, { company: acme.company });
    const card = await buildQrUser(ctx.db, { company: acme.company });
    await ctx.db.insert(userChecks).values({
      companyId: acme.company.id,
      siteId: withCheck.id,
      qrUserId: card.id,
      checkInMethod: 'scan',
    });
    const withVisit = await buildSite(ctx.db, { company: acme.company });
    const visitor = await buildVisitor(ctx.db, { company: acme.company });
    await ctx.db.insert(visitorChecks).values({
      companyId: acme.company.id,
      siteId: withVisit.id,
      visitorId: visitor.id,
      checkInMethod: 'scan',
    });
    for (const site of [withVisitor, withEvent, withCheck, withVisit]) {
      const res = await admin({ method: 'DELETE', url: `${base()}/${site.id}` });
      expect(res.statusCode, site.id).toBe(409);
      expect(res.json().message).toBe(fr.site.hasHistory);
    }

    const clean = await create({ name: siteName('Vide'), timezone: 'UTC' });
    const limited = await buildUser(ctx.db, {
      company: acme.company,
      siteIds: [clean.id, acme.company.siteId],
    });
    // Someone limited to it alone would be left with every site: 409 until they are moved.
    const alone = await buildUser(ctx.db, { company: acme.company, siteIds: [clean.id] });
    const stranded = await admin({ method: 'DELETE', url: `${base()}/${clean.id}` });
    expect(stranded.statusCode).toBe(409);
    expect(stranded.json().message).toBe(fr.site.onlySiteOfStaff);
    await ctx.db.update(users).set({ siteIds: [] }).where(eq(users.id, alone.id));
    const res = await admin({ method: 'DELETE', url: `${base()}/${clean.id}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(fr.site.deleted);
    expect((await admin({ method: 'GET', url: `${base()}/${clean.id}` })).statusCode).toBe(404);
    expect(await audited(clean.id, 'site.deleted')).toMatchObject([{ companyId: acme.company.id }]);
    // Whoever was limited to it keeps their other sites.
    const read = await as(
      ctx.app,
      tokens.ROLE_ADMIN,
    )({ method: 'GET', url: `/api/user/${limited.id}` });
    expect(read.json().data.site_ids).toEqual([acme.company.siteId]);
  });

  it('the matrix: admins, super admins, managers and Sésame manage; the others read only', async () => {
    for (const role of MANAGERS) expect(mayPerform(role, 'sites.manage'), role).toBe(true);
    for (const role of READERS) expect(mayPerform(role, 'sites.manage'), role).toBe(false);
    for (const role of ROLES) {
      const call = as(ctx.app, tokens[role]);
      const list = await call({ method: 'GET', url: base() });
      expect(list.statusCode, role).toBe(200);
      const posted = await call({
        method: 'POST',
        url: base(),
        payload: { name: siteName(role), timezone: 'UTC' },
      });
      expect(posted.statusCode, `${role} ${posted.body}`).toBe(MANAGERS.includes(role) ? 201 : 403);
      const site = list.json<{ data: Site[] }>().data[0]!;
      const put = await call({
        method: 'PUT',
        url: `${base()}/${site.id}`,
        payload: { opens_at: '08:00' },
      });
      expect(put.statusCode, role).toBe(MANAGERS.includes(role) ? 200 : 403);
    }
    // A read-only role is refused before its body is read (403, not 400).
    const refused = await as(
      ctx.app,
      tokens.ROLE_EMPLOYEE,
    )({
      method: 'POST',
      url: base(),
      payload: { timezone: 'Mars/Olympus' },
    });
    expect(refused.statusCode).toBe(403);
  });

  it("another company's site is a 404, by its company's path or by mine", async () => {
    const theirs = globex.company.siteId;
    const mine = base();
    const call = as(ctx.app, tokens.ROLE_MANAGER);
    for (const [method, url, payload] of [
      ['GET', `${mine}/${theirs}`, undefined],
      ['PUT', `${mine}/${theirs}`, { name: 'Piratage' }],
      ['POST', `${mine}/${theirs}/archive`, undefined],
      ['POST', `${mine}/${theirs}/restore`, undefined],
      ['DELETE', `${mine}/${theirs}`, undefined],
      ['GET', `/api/company/${globex.company.id}/sites`, undefined],
      ['GET', `/api/company/${globex.company.slug}/sites/${theirs}`, undefined],
      ['PUT', `/api/company/${globex.company.id}/sites/${theirs}`, { name: 'Piratage' }],
      ['POST', `/api/company/${globex.company.id}/sites`, { name: 'Piratage', timezone: 'UTC' }],
    ] as const) {
      const res = await call({ method, url, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    // Unknown site of my company: 404 too; a malformed id: 400.
    expect(
      (await call({ method: 'GET', url: `${mine}/00000000-0000-4000-8000-000000000000` }))
        .statusCode,
    ).toBe(404);
    expect((await call({ method: 'GET', url: `${mine}/nope` })).statusCode).toBe(400);
    // A platform admin reaches another company's sites.
    const platform = as(ctx.app, tokens.ROLE_ADMIN);
    const read = await platform({
      method: 'GET',
      url: `/api/company/${globex.company.id}/sites/${theirs}`,
    });
    expect(read.statusCode).toBe(200);
    expect((await platform({ method: 'GET', url: `${mine}/${theirs}` })).statusCode).toBe(404);
  });

  it('a staff member limited to one site reads that site only (another: 404) and changes it only (403)', async () => {
    const other = await buildSite(ctx.db, { company: acme.company, name: siteName('Autre') });
    const desk = await buildUser(ctx.db, {
      company: acme.company,
      role: 'ROLE_EMPLOYEE',
      siteIds: [acme.company.siteId],
      homeSiteId: acme.company.siteId,
    });
    const call = as(ctx.app, await tokenFor(ctx.app, desk.email));
    const list = await call({ method: 'GET', url: base() });
    expect(list.json<{ data: Site[] }>().data.map((s) => s.id)).toEqual([acme.company.siteId]);
    expect((await call({ method: 'GET', url: `${base()}/${other.id}` })).statusCode).toBe(404);
    // A manager limited to one site changes that site only: another is a 403.
    const limitedManager = await buildUser(ctx.db, {
      company: acme.company,
      role: 'ROLE_MANAGER',
      siteIds: [acme.company.siteId],
    });
    const manager = as(ctx.app, await tokenFor(ctx.app, limitedManager.email));
    for (const [method, url] of [
      ['PUT', `${base()}/${other.id}`],
      ['POST', `${base()}/${other.id}/archive`],
      ['POST', `${base()}/${other.id}/restore`],
      ['DELETE', `${base()}/${other.id}`],
    ] as const) {
      const res = await manager({
        method,
        url,
        payload: method === 'PUT' ? { city: 'X' } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe(fr.site.notYours);
    }
    const own = await manager({
      method: 'PUT',
      url: `${base()}/${acme.company.siteId}`,
      payload: { opens_at: '07:30' },
    });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('the public list: active sites only, their names and places, never the front desk e-mail', async () => {
    const company = await buildCompany(ctx.db, { timezone: 'Europe/Paris' });
    await buildSite(ctx.db, {
      company,
      name: 'Annexe',
      city: 'Lyon',
      frontDeskEmail: 'accueil@example.com',
    });
    await buildSite(ctx.db, { company, name: 'Fermé', archivedAt: new Date() });
    const res = await ctx.app.inject({ method: 'GET', url: `/api/public/sites/${company.slug}` });
    expect(res.statusCode).toBe(200);
    const data = res.json<{ data: Record<string, unknown>[] }>().data;
    expect(data.map((site) => site.name)).toEqual([company.name, 'Annexe']);
    expect(data[1]).toEqual({
      id: expect.any(String),
      name: 'Annexe',
      timezone: 'UTC',
      address: null,
      city: 'Lyon',
    });
    expect(res.body).not.toContain('accueil@example.com');
    expect(res.body).not.toContain('front_desk_email');
    const unknown = await ctx.app.inject({ method: 'GET', url: '/api/public/sites/no-such' });
    expect(unknown.statusCode).toBe(404);
  });

  it("the host search with ?site= puts that site's staff first; another company's site: 404", async () => {
    const company = await buildCompany(ctx.db);
    const annexe = await buildSite(ctx.db, { company, name: 'Annexe' });
    const main = company.siteId;
    const person = (firstname: string, values: Record<string, unknown>) =>
      buildUser(ctx.db, { company, firstname, name: 'Traoré', role: 'ROLE_USER', ...values });
    const atMain = await person('Aline', { homeSiteId: main, siteIds: [main] });
    const homeAnnexe = await person('Zoé', { homeSiteId: annexe.id, siteIds: [annexe.id] });
    const anywhere = await person('Bintou', { homeSiteId: main });
    const search = (site?: string) =>
      ctx.app.inject({
        method: 'GET',
        url: `/api/requests/hosts/${company.slug}?q=traore${site ? `&site=${site}` : ''}`,
      });

    const plain = await search();
    expect(plain.statusCode).toBe(200);
    expect(plain.json().data.map((h: { id: string }) => h.id)).toEqual([
      atMain.id,
      anywhere.id,
      homeAnnexe.id,
    ]);
    const atAnnexe = await search(annexe.id);
    expect(atAnnexe.statusCode).toBe(200);
    expect(atAnnexe.json().data).toEqual([
      { id: homeAnnexe.id, name: 'Zoé Traoré' },
      { id: anywhere.id, name: 'Bintou Traoré' },
      { id: atMain.id, name: 'Aline Traoré' },
    ]);
    expect(atAnnexe.body).not.toContain('@');
    expect((await search(globex.company.siteId)).statusCode).toBe(404);
    expect((await search('pas-un-site')).statusCode).toBe(400);
  });
});
