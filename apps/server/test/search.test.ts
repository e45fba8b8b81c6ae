/**
 * Issue 17: every list's search ignores case and accents ("keita" finds "Keïta") and
 * finds a code by a piece of it ("9PJF" finds 108P-9PJF-6PNV), on PGlite and on
 * PostgreSQL (one `sesame_fold` rule, migration 0017), still within the company.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { userChecks, visitorChecks } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import {
  buildQrUser,
  buildRequest,
  buildTenant,
  buildUser,
  buildVisitor,
  TEST_PASSWORD,
} from './helpers/factories';

const ctx = useTestApp();

describe('searches ignore accents and find a piece of a code', () => {
  let token: string;
  let otherToken: string;
  const visitorCode = '108P-9PJF-6PNV';
  const memberCode = '7QK2-M4XZ-PL8D';
  const range = 'from=2030-01-10T00:00:00Z&to=2030-01-11T00:00:00Z';

  const names = (body: { data: Record<string, unknown>[] }, key: string) =>
    body.data.map((row) => row[key]);

  beforeAll(async () => {
    const acme = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    const visitor = await buildVisitor(ctx.db, {
      company: acme.company,
      uidn: visitorCode,
      firstname: 'Aïssata',
      lastname: 'Keïta',
    });
    await buildVisitor(ctx.db, { company: acme.company, firstname: 'Awa', lastname: 'Koné' });
    // Another company's Keïta stays out of Acme's lists.
    await buildVisitor(ctx.db, { company: other.company, firstname: 'Oumou', lastname: 'Keïta' });
    await buildRequest(ctx.db, { company: acme.company, visitor });
    await ctx.db.insert(visitorChecks).values({
      companyId: acme.company.id,
      siteId: visitor.siteId,
      visitorId: visitor.id,
      checkInAt: new Date('2030-01-10T08:00:00Z'),
      checkInMethod: 'scan',
    });
    const member = await buildQrUser(ctx.db, {
      company: acme.company,
      kind: 'member',
      uidn: memberCode,
      firstname: 'Zoé',
      lastname: 'Brûlé',
    });
    await ctx.db.insert(userChecks).values({
      companyId: acme.company.id,
      siteId: acme.company.siteId,
      qrUserId: member.id,
      checkInAt: new Date('2030-01-10T07:00:00Z'),
      checkInMethod: 'kiosk',
    });
    await buildUser(ctx.db, {
      company: acme.company,
      role: 'ROLE_EMPLOYEE',
      firstname: 'Hélène',
      name: 'Dupré',
    });
    token = await tokenFor(ctx.app, acme.staff.ROLE_SUPERVISOR.email, TEST_PASSWORD);
    otherToken = await tokenFor(ctx.app, other.staff.ROLE_SUPERVISOR.email, TEST_PASSWORD);
  });

  const get = async (url: string, as_ = token) => {
    const res = await as(ctx.app, as_)({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Record<string, unknown>[] }>();
  };

  it('the requests list: "keita" finds Keïta, "9pjf" finds the code, no other company', async () => {
    for (const q of ['keita', 'KEÏTA', 'aissata keita', '9pjf', '9PJF-6P']) {
      const body = await get(`/api/requests/list?q=${encodeURIComponent(q)}`);
      expect(body.data, q).toHaveLength(1);
      expect(JSON.stringify(body.data[0]), q).toContain('Keïta');
    }
    expect((await get(`/api/requests/list?q=keita`, otherToken)).data).toHaveLength(0);
  });

  it('the visitor log: by a name without accents and by a piece of the code', async () => {
    for (const q of ['keita', 'aïssata', '9PJF']) {
      const body = await get(`/api/visitorlog?${range}&q=${encodeURIComponent(q)}`);
      expect(names(body, 'visitor_lastname'), q).toEqual(['Keïta']);
    }
  });

  it('the member list and the members log: "brule", "zoe" and a piece of the code', async () => {
    for (const q of ['brule', 'zoe brule', 'M4XZ']) {
      const list = await get(`/api/qrmembre-list?q=${encodeURIComponent(q)}`);
      expect(JSON.stringify(list.data), q).toContain('Brûlé');
      expect(list.data, q).toHaveLength(1);
      const log = await get(`/api/userLog?q=${encodeURIComponent(q)}`);
      expect(log.data, q).toHaveLength(1);
    }
  });

  it('who is on site: the visitor and the member by names typed without accents', async () => {
    const keita = await get(`/api/on-site?q=keita`);
    expect(JSON.stringify(keita.data)).toContain('Keïta');
    expect(keita.data).toHaveLength(1);
    const zoe = await get(`/api/on-site?q=zoe`);
    expect(JSON.stringify(zoe.data)).toContain('Brûlé');
  });

  it('the staff list: "helene" finds Hélène; a typed % is not a wildcard', async () => {
    const body = await get(`/api/user/list?q=${encodeURIComponent('helene')}`);
    expect(JSON.stringify(body.data)).toContain('Hélène');
    expect(body.data).toHaveLength(1);
    expect((await get(`/api/user/list?q=${encodeURIComponent('%')}`)).data).toHaveLength(0);
  });
});
