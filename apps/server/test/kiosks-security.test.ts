/**
 * Issue 29, what a kiosk's token can and cannot do: it opens no route but the kiosk's own
 * (every other protected route of the table answers 401 to it), and no staff token opens a
 * kiosk route. Its search needs 2 letters, answers at most 5 of today's visits at its own
 * site (never another site's, another day's, another company's, nor a declined one), with
 * a first name, an initial, a host and a time only, and 20 searches a minute per kiosk.
 */
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { KIOSK_LIMITS, sayIn } from '@sesame/shared';
import { visitors } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import {
  buildCompany,
  buildRequest,
  buildSite,
  buildTenant,
  buildUser,
  buildVisitor,
} from './helpers/factories';
import { pairedKiosk, utcDay } from './helpers/kiosk';

const fr = sayIn.bind(null, 'fr');
const ANY_ID = '00000000-0000-4000-8000-000000000000';
const concreteUrl = (url: string) => url.replace(/:([A-Za-z_]+)/g, ANY_ID);

describe('the device token opens kiosk routes only (issue 29)', () => {
  const ctx = useTestApp();

  it('is refused (401) on every protected route that is not a kiosk’s, before its input is read', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const kiosk = await pairedKiosk(ctx, staff.ROLE_MANAGER.email, company, company.siteId);
    const routes = ctx.app.routeTable.filter((route) => !route.public && !route.kiosk);
    expect(routes.length).toBeGreaterThan(60);
    const opened: string[] = [];
    for (const route of routes) {
      const request: InjectOptions = {
        method: route.method as 'GET',
        url: concreteUrl(route.url),
        ...(route.method === 'GET' || route.method === 'HEAD' || route.method === 'DELETE'
          ? {}
          : { payload: {} }),
      };
      const res = await kiosk.call(request);
      if (res.statusCode !== 401) opened.push(`${route.method} ${route.url}: ${res.statusCode}`);
    }
    expect(opened).toEqual([]);
    // The token still works where it should.
    expect((await kiosk.call({ method: 'GET', url: '/api/kiosk/me' })).statusCode).toBe(200);
  });

  it('no staff token opens a kiosk route, whatever its role (401)', async () => {
    const { staff } = await buildTenant(ctx.db);
    const kioskRoutes = ctx.app.routeTable.filter((route) => route.kiosk);
    expect(kioskRoutes.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/kiosk/me',
        'GET /api/kiosk/expected',
        'GET /api/kiosk/hosts',
        'POST /api/kiosk/check-in',
        'POST /api/kiosk/check-out',
        'POST /api/kiosk/walk-ins',
        'GET /api/kiosk/walk-ins/:requestId',
      ]),
    );
    for (const role of ['ROLE_ADMIN', 'ROLE_SUPER_ADMIN', 'ROLE_EMPLOYEE'] as const) {
      const call = as(ctx.app, await tokenFor(ctx.app, staff[role].email));
      for (const route of kioskRoutes) {
        const res = await call({
          method: route.method as 'GET',
          url: `${concreteUrl(route.url)}?q=ko`,
          ...(route.method === 'POST' ? { payload: { code: 'ABCD-EFGH-JKMN' } } : {}),
        });
        expect(res.statusCode, `${role} ${route.method} ${route.url}`).toBe(401);
        expect(res.json().message).toBe(fr((m) => m.kiosk.deviceRefused));
      }
    }
    // Nor does a made-up device token, nor none.
    const forged = as(ctx.app, 'kiosk_forged-token-of-nobody');
    expect((await forged({ method: 'GET', url: '/api/kiosk/me' })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/kiosk/me' })).statusCode).toBe(401);
  });
});

describe('the kiosk’s search of expected visitors (issue 29)', () => {
  const ctx = useTestApp();

  it('needs 2 letters, answers at most 5 of today at its own site, and nothing private', async () => {
    const company = await buildCompany(ctx.db);
    const elsewhere = await buildSite(ctx.db, { company });
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const host = await buildUser(ctx.db, { company, firstname: 'Aïcha', name: 'Traoré' });
    const kiosk = await pairedKiosk(ctx, manager.email, company, company.siteId);
    const expected = async (
      lastname: string,
      values: Partial<typeof visitors.$inferInsert>,
      request: { confirmed?: boolean | null; status?: number | null } = {
        confirmed: true,
        status: 1,
      },
      of: { id: string } = company,
    ) => {
      const visitor = await buildVisitor(ctx.db, { company: of, lastname, ...values });
      const row = await buildRequest(ctx.db, {
        company: of,
        visitor,
        hostUserId: host.id,
        ...request,
      });
      return { visitor, request: row };
    };
    const today = [];
    for (let i = 0; i < 7; i += 1) {
      today.push(await expected('Kouassi', { firstname: `Awa${i}`, requestTime: `0${i}:30` }));
    }
    const pending = await expected('Koné Bamba', { firstname: 'Mariam' }, {});
    const never = [
      await expected('Kouassi', { requestDate: utcDay(-1), firstname: 'Hier' }),
      await expected('Kouassi', { requestDate: utcDay(1), firstname: 'Demain' }),
      await expected('Kouassi', { siteId: elsewhere.id, firstname: 'Ailleurs' }),
      await expected('Kouassi', { firstname: 'Refus' }, { confirmed: false, status: 2 }),
      await expected('Kouassi', { firstname: 'Autre' }, undefined, await buildCompany(ctx.db)),
    ];

    const search = (q: string) =>
      kiosk.call({ method: 'GET', url: `/api/kiosk/expected?q=${encodeURIComponent(q)}` });
    for (const q of ['k', ' k ', '1 2', '']) {
      const res = await search(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().message).toBe(fr((m) => m.kiosk.searchTooShort));
    }

    const found = await search('kou');
    expect(found.statusCode).toBe(200);
    const data = found.json().data as Record<string, unknown>[];
    expect(data).toHaveLength(KIOSK_LIMITS.searchMaxMatches);
    const neverIds = never.map((n) => n.request.id);
    for (const row of data) {
      expect(Object.keys(row).sort()).toEqual([
        'firstname',
        'host',
        'initial',
        'request_id',
        'time',
        // Issue 31: the documents of the visit's type still to sign (none here).
        'to_sign',
      ]);
      expect(row.to_sign).toEqual([]);
      expect(neverIds).not.toContain(row.request_id);
      expect(row).toMatchObject({ initial: 'K.', host: 'Aïcha Traoré' });
    }
    expect(data.map((row) => row.firstname)).toEqual(['Awa0', 'Awa1', 'Awa2', 'Awa3', 'Awa4']);
    for (const { visitor } of [...today, ...never]) {
      for (const secret of [visitor.email, visitor.contact, visitor.idNumber, visitor.uidn]) {
        expect(found.body).not.toContain(secret);
      }
    }
    expect(found.body).not.toMatch(/email|contact|id_number|uidn|Kouassi/);

    // Accents and case ignored, a word of the last name: 'bamba' and 'KONE' find Koné Bamba,
    // a piece from inside a word does not.
    for (const q of ['kone', 'BAMBA', 'Koné']) {
      expect(
        (await search(q)).json().data.map((r: { request_id: string }) => r.request_id),
      ).toEqual([pending.request.id]);
    }
    expect((await search('ssi')).json().data).toEqual([]);
    const apostrophe = await expected("N'Guessan", { firstname: 'Yao' });
    for (const q of ["n'gue", 'guess', 'N GUE']) {
      expect(
        (await search(q)).json().data.map((r: { request_id: string }) => r.request_id),
      ).toEqual([apostrophe.request.id]);
    }
    // Nobody else's search: the other site's visitor is found by no one here.
    expect((await search('ailleurs')).json().data).toEqual([]);
  });

  it('answers the 21st search in a minute 429, while another kiosk still searches', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const busy = await pairedKiosk(ctx, staff.ROLE_MANAGER.email, company, company.siteId);
    const quiet = await pairedKiosk(ctx, staff.ROLE_MANAGER.email, company, company.siteId);
    const search = (kiosk: typeof busy) =>
      kiosk.call({ method: 'GET', url: '/api/kiosk/expected?q=diallo' });
    for (let i = 0; i < KIOSK_LIMITS.searchesPerMinute; i += 1) {
      expect((await search(busy)).statusCode).toBe(200);
    }
    const limited = await search(busy);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(fr((m) => m.api.tooManyRequests));
    expect((await search(quiet)).statusCode).toBe(200);
    // The limit is the search's: the kiosk's other calls go on.
    expect((await busy.call({ method: 'GET', url: '/api/kiosk/me' })).statusCode).toBe(200);
  });
});
