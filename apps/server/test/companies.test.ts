import { beforeAll, describe, expect, it } from 'vitest';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildTenant } from './helpers/factories';

describe(`companies, read side (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let globex: Awaited<ReturnType<typeof buildTenant>>;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
  });

  const get = async (url: string, email?: string) =>
    as(ctx.app, email ? await tokenFor(ctx.app, email) : null)({ method: 'GET', url });

  it('resolves a company by slug (any case) or id; anonymous visitors get the public fields only', async () => {
    const bySlug = await get(`/api/company/${acme.company.slug.toUpperCase()}`);
    expect(bySlug.statusCode).toBe(200);
    expect(bySlug.json().data).toEqual({
      id: acme.company.id,
      name: acme.company.name,
      slug: acme.company.slug,
      logo: null,
      logo_url: null,
      link: `http://sesame.test/${acme.company.slug}/request-meeting`,
      qrcode_url: `/api/public/qrcode-link/qrcode-${acme.company.slug}.png`,
      // Its main site's zone (issue 28).
      timezone: acme.company.timezone,
    });
    const byId = await get(`/api/company/${acme.company.id}`, acme.staff.ROLE_EMPLOYEE.email);
    expect(byId.json().data).toMatchObject({
      slug: acme.company.slug,
      link: `http://sesame.test/${acme.company.slug}/request-meeting`,
    });
  });

  it('answers 404 for an unknown slug', async () => {
    const res = await get('/api/company/no-such-company');
    expect(res.statusCode).toBe(404);
  });

  it('finds the company of a page from the last URL segment', async () => {
    const res = await get(
      `/api/singlecompanylist?url=${encodeURIComponent(`/company/${globex.company.slug}/`)}`,
    );
    expect(res.json().data.id).toBe(globex.company.id);
  });

  it('lists companies: 401 anonymous, 403 employee, supervisor their own, admin all, paged', async () => {
    expect((await get('/api/companylist')).statusCode).toBe(401);
    expect((await get('/api/companylist', acme.staff.ROLE_EMPLOYEE.email)).statusCode).toBe(403);
    const own = await get('/api/companylist', acme.staff.ROLE_SUPERVISOR.email);
    expect(own.json().data.map((c: { id: string }) => c.id)).toEqual([acme.company.id]);
    await buildCompany(ctx.db);
    const all = await get('/api/companies?per_page=2', acme.staff.ROLE_ADMIN.email);
    expect(all.json().data).toHaveLength(2);
    expect(all.json().meta).toMatchObject({ page: 1, per_page: 2 });
    expect(all.json().meta.total).toBeGreaterThanOrEqual(3);
    const search = await get(
      `/api/companies?q=${globex.company.name}`,
      acme.staff.ROLE_ADMIN.email,
    );
    expect(search.json().data.map((c: { id: string }) => c.id)).toEqual([globex.company.id]);
  });

  it('searches the list literally: % and _ are not wildcards', async () => {
    const percent = await buildCompany(ctx.db, { name: 'Taux 100% Garanti' });
    const underscore = await buildCompany(ctx.db, { name: 'Tiret_Bas SARL' });
    const ids = async (q: string) =>
      (await get(`/api/companies?q=${encodeURIComponent(q)}`, acme.staff.ROLE_ADMIN.email))
        .json()
        .data.map((c: { id: string }) => c.id);
    expect(await ids('%')).toEqual([percent.id]);
    expect(await ids('_')).toEqual([underscore.id]);
    expect(await ids('100%')).toEqual([percent.id]);
  });

  it('refuses a page size over 100 with 400', async () => {
    const res = await get('/api/companies?per_page=1000', acme.staff.ROLE_ADMIN.email);
    expect(res.statusCode).toBe(400);
  });

  it('serves the company link QR as a PNG', async () => {
    const res = await get(`/api/public/qrcode-link/qrcode-${acme.company.slug}.png`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
  });
});
