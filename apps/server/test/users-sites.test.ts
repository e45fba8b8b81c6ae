/**
 * Issue 28: a staff member's home site and site limits. `POST /api/user/create` and
 * `PUT /api/user/{id}` take `home_site_id` and `site_ids` (empty: every site), each an
 * active site of the user's company; the home site is one of the limits when there are
 * some; the user and `/api/user/info` answer them; a change of limits is audited; a
 * person limited to some sites gives no more than theirs. On PGlite and PostgreSQL.
 */
import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FRENCH_MESSAGES as fr, type User } from '@sesame/shared';
import { auditEvents, sites } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { TEST_PASSWORD, buildSite, buildTenant, buildUser } from './helpers/factories';

type Tenant = Awaited<ReturnType<typeof buildTenant>>;

let counter = 0;
const form = (overrides: Record<string, unknown>) => {
  counter += 1;
  return {
    name: 'Kouadio',
    firstname: 'Aya',
    email: `site-user-${counter}-${Date.now()}@example.com`,
    password: TEST_PASSWORD,
    title: 'Accueil',
    contact: '0701020304',
    role: 'ROLE_EMPLOYEE',
    status: true,
    ...overrides,
  };
};

/** The edit form as the screen sends it back: the user as read, with `overrides`. */
const editForm = (user: User, overrides: Record<string, unknown> = {}) => ({
  name: user.name,
  firstname: user.firstname,
  email: user.email,
  title: user.title ?? '',
  contact: user.contact ?? '',
  role: user.role,
  status: user.status,
  company_id: user.company_id,
  ...overrides,
});

describe(`staff home site and site limits (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Tenant;
  let globex: Tenant;
  let siteA: string;
  let siteB: string;
  let archived: string;
  let admin: ReturnType<typeof as>;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    siteA = acme.company.siteId;
    siteB = (await buildSite(ctx.db, { company: acme.company, name: 'Annexe' })).id;
    archived = (
      await buildSite(ctx.db, { company: acme.company, name: 'Ancien', archivedAt: new Date() })
    ).id;
    admin = as(ctx.app, await tokenFor(ctx.app, acme.staff.ROLE_ADMIN.email));
  });

  const create = async (overrides: Record<string, unknown>) => {
    const res = await admin({
      method: 'POST',
      url: '/api/user/create',
      payload: form({ company_id: acme.company.id, ...overrides }),
    });
    return res;
  };

  it('creates a user with a home site and limits; answers them, and /user/info says them', async () => {
    const body = form({ company_id: acme.company.id, site_ids: [siteB], home_site_id: siteB });
    const res = await admin({ method: 'POST', url: '/api/user/create', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    const user = res.json<{ data: User }>().data;
    expect(user).toMatchObject({ home_site_id: siteB, site_ids: [siteB] });

    const token = await tokenFor(ctx.app, body.email);
    const info = await as(ctx.app, token)({ method: 'GET', url: '/api/user/info' });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ home_site_id: siteB, site_ids: [siteB] });
  });

  it('without them: every site and no home site; one site of limits is the home site', async () => {
    const free = await create({});
    expect(free.statusCode, free.body).toBe(201);
    expect(free.json<{ data: User }>().data).toMatchObject({ home_site_id: null, site_ids: [] });
    const one = await create({ site_ids: [siteA] });
    expect(one.json<{ data: User }>().data).toMatchObject({
      home_site_id: siteA,
      site_ids: [siteA],
    });
    // The spec's call, without the fields, keeps working.
    const list = await admin({ method: 'GET', url: '/api/user/list?per_page=100' });
    expect(list.statusCode).toBe(200);
    for (const row of list.json<{ data: User[] }>().data) {
      expect(Array.isArray(row.site_ids)).toBe(true);
    }
  });

  it('400 with the message for a site of another company, an archived, unknown or malformed one', async () => {
    const target = (await create({})).json<{ data: User }>().data;
    const put = (overrides: Record<string, unknown>) =>
      admin({ method: 'PUT', url: `/api/user/${target.id}`, payload: editForm(target, overrides) });

    const theirs = await put({ home_site_id: globex.company.siteId });
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json()).toMatchObject({
      message: fr.user.siteInvalid,
      errors: { home_site_id: fr.user.siteInvalid },
    });
    for (const bad of [
      [archived],
      [globex.company.siteId],
      ['00000000-0000-4000-8000-000000000000'],
    ]) {
      const res = await put({ site_ids: bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json()).toMatchObject({
        message: fr.user.siteInvalid,
        errors: { site_ids: fr.user.siteInvalid },
      });
    }
    const malformed = await put({ site_ids: ['pas-un-site'] });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe(fr.user.siteInvalid);

    const outside = await put({ site_ids: [siteB], home_site_id: siteA });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({
      message: fr.user.homeSiteOutside,
      errors: { home_site_id: fr.user.homeSiteOutside },
    });
    // Nothing was stored.
    const read = await admin({ method: 'GET', url: `/api/user/${target.id}` });
    expect(read.json<{ data: User }>().data).toMatchObject({ home_site_id: null, site_ids: [] });
  });

  it('PUT stores the limits, keeps them when left out, and audits the change by field name', async () => {
    const target = (await create({})).json<{ data: User }>().data;
    const res = await admin({
      method: 'PUT',
      url: `/api/user/${target.id}`,
      payload: editForm(target, { site_ids: [siteA, siteB], home_site_id: siteB }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: User }>().data).toMatchObject({ home_site_id: siteB });
    expect([...res.json<{ data: User }>().data.site_ids].sort()).toEqual([siteA, siteB].sort());

    const [entry] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, target.id), eq(auditEvents.action, 'user.updated')))
      .orderBy(desc(auditEvents.at))
      .limit(1);
    expect(entry?.companyId).toBe(acme.company.id);
    const detail = entry?.detail as { fields: string[]; site_ids: string[]; home_site_id: string };
    expect(detail.fields).toEqual(['home_site_id', 'site_ids']);
    expect([...detail.site_ids].sort()).toEqual([siteA, siteB].sort());
    expect(detail.home_site_id).toBe(siteB);

    // A name change alone keeps the sites (the fields left out).
    const renamed = await admin({
      method: 'PUT',
      url: `/api/user/${target.id}`,
      payload: editForm(target, { name: 'Nouveau' }),
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<{ data: User }>().data).toMatchObject({ home_site_id: siteB });
    expect(renamed.json<{ data: User }>().data.site_ids).toHaveLength(2);

    // Back to every site: empty limits; a site archived since stays while the user keeps it.
    await ctx.db.update(sites).set({ archivedAt: null }).where(eq(sites.id, archived));
    const withOld = await admin({
      method: 'PUT',
      url: `/api/user/${target.id}`,
      payload: editForm(target, { site_ids: [siteB, archived], home_site_id: siteB }),
    });
    expect(withOld.statusCode, withOld.body).toBe(200);
    await ctx.db.update(sites).set({ archivedAt: new Date() }).where(eq(sites.id, archived));
    const kept = await admin({
      method: 'PUT',
      url: `/api/user/${target.id}`,
      payload: editForm(target, { site_ids: [siteB, archived], home_site_id: siteB }),
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const cleared = await admin({
      method: 'PUT',
      url: `/api/user/${target.id}`,
      payload: editForm(target, { site_ids: [], home_site_id: null }),
    });
    expect(cleared.json<{ data: User }>().data).toMatchObject({ home_site_id: null, site_ids: [] });
  });

  it('a person limited to some sites gives no more than theirs, and cannot lift their own', async () => {
    const supervisor = await buildUser(ctx.db, {
      company: acme.company,
      role: 'ROLE_SUPER_ADMIN',
      siteIds: [siteA],
      homeSiteId: siteA,
    });
    const token = await tokenFor(ctx.app, supervisor.email);
    const limited = as(ctx.app, token);
    const self = (await limited({ method: 'GET', url: `/api/user/${supervisor.id}` })).json<{
      data: User;
    }>().data;
    const lift = await limited({
      method: 'PUT',
      url: `/api/user/${supervisor.id}`,
      payload: editForm(self, { site_ids: [] }),
    });
    expect(lift.statusCode).toBe(403);
    expect(lift.json().message).toBe(fr.site.notYours);

    // Someone they create is limited to their sites unless they say otherwise.
    const made = await limited({
      method: 'POST',
      url: '/api/user/create',
      payload: form({ company_id: acme.company.id }),
    });
    expect(made.statusCode, made.body).toBe(201);
    const host = made.json<{ data: User }>().data;
    expect(host).toMatchObject({ site_ids: [siteA], home_site_id: siteA });
    const other = await limited({
      method: 'PUT',
      url: `/api/user/${host.id}`,
      payload: editForm(host, { site_ids: [siteB], home_site_id: siteB }),
    });
    expect(other.statusCode).toBe(403);
    const unlimited = await limited({
      method: 'POST',
      url: '/api/user/create',
      payload: form({ company_id: acme.company.id, site_ids: [] }),
    });
    expect(unlimited.statusCode).toBe(403);
    // Their own name, limits untouched: fine.
    const renamed = await limited({
      method: 'PUT',
      url: `/api/user/${supervisor.id}`,
      payload: editForm(self, { firstname: 'Awa' }),
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });
});
