import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  API_MESSAGES,
  EVENT_MESSAGES,
  ID_FILE_MAX_BYTES,
  type Event,
  type EventAttendanceEntry,
  type RequestRow,
} from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import {
  events,
  files,
  mailOutbox,
  visitRequests,
  visitorChecks,
  visitors,
} from '../src/db/schema';
import { eventDayEndsAt, eventStartsAt } from '../src/events/time';
import { wallClock, zonedToUtc } from '../src/time-zones';
import { qrPng } from '../src/qr/qr';
import { callAs, multipart, startTestApp, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildEvent,
  buildTenant,
  buildVisitor,
  visitorFormFields,
} from './helpers/factories';

const run = promisify(execFile);
const UNKNOWN_ID = '0190f0f0-0000-7000-8000-000000000000';

async function decodeQr(png: Buffer): Promise<string> {
  const file = path.join(os.tmpdir(), `sesame-events-qr-${process.pid}-${Date.now()}.png`);
  await writeFile(file, png);
  try {
    const { stdout } = await run('sh', ['-c', `zbarimg --raw -q '${file}' 2>/dev/null`]);
    return stdout.trim();
  } finally {
    await rm(file, { force: true });
  }
}

/** DD/MM/YYYY of the day `days` from today in `timeZone`. */
function dayFromToday(days: number, timeZone = 'Africa/Abidjan'): string {
  const today = wallClock(new Date(), timeZone);
  const d = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

describe('event times in the company time zone', () => {
  it('reads a wall-clock time in the zone, summer and winter', () => {
    expect(eventStartsAt('24/12/2030', '10:00', 'Europe/Paris').toISOString()).toBe(
      '2030-12-24T09:00:00.000Z',
    );
    expect(eventStartsAt('24/06/2030', '10:00', 'Europe/Paris').toISOString()).toBe(
      '2030-06-24T08:00:00.000Z',
    );
    expect(eventStartsAt('24/06/2030', '10:00', 'Africa/Abidjan').toISOString()).toBe(
      '2030-06-24T10:00:00.000Z',
    );
    expect(eventStartsAt('01/01/2031', '09:30', 'America/New_York').toISOString()).toBe(
      '2031-01-01T14:30:00.000Z',
    );
  });

  it('survives the daylight-saving gap and ends the day at the next local midnight', () => {
    // 31/03/2030 02:30 does not exist in Paris: read with the winter offset.
    const gap = zonedToUtc({ year: 2030, month: 3, day: 31, hour: 2, minute: 30 }, 'Europe/Paris');
    expect(gap.toISOString()).toBe('2030-03-31T01:30:00.000Z');
    expect(eventDayEndsAt('31/12/2030', 'Europe/Paris').toISOString()).toBe(
      '2030-12-31T23:00:00.000Z',
    );
    expect(eventDayEndsAt('28/02/2030', 'Africa/Abidjan').toISOString()).toBe(
      '2030-03-01T00:00:00.000Z',
    );
  });
});

describe(`events (${testDatabaseKind})`, () => {
  const ctx = useTestApp({
    rateLimits: {
      ...DEFAULT_RATE_LIMITS,
      publicFormPerWindow: 10_000,
      registrationsPerClientPerEvent: 10_000,
      registrationMailsPerRecipientPerDay: 10_000,
    },
  });
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let globex: Awaited<ReturnType<typeof buildTenant>>;
  let documentPng: Buffer;
  const future = dayFromToday(30);

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    documentPng = await qrPng('identity document');
  });

  const call = callAs(ctx);

  const eventBody = (overrides: Record<string, unknown> = {}) => ({
    company_id: acme.company.id,
    name: 'Gala annuel',
    location: 'Salle Ivoire',
    address_name: 'Boulevard de la République',
    city: 'Abidjan',
    country: "Côte d'Ivoire",
    state: 'Lagunes',
    zipcode: '01 BP 1',
    date_event: future,
    time_event: '18:30',
    ...overrides,
  });

  const create = (email: string | undefined, overrides: Record<string, unknown> = {}) =>
    call({ method: 'POST', url: '/api/evenement/create', payload: eventBody(overrides) }, email);

  const registration = (
    overrides: Record<string, string | undefined> = {},
    file: { filename: string; contentType: string; bytes: Buffer } | null = {
      filename: 'id.png',
      contentType: 'image/png',
      bytes: documentPng,
    },
  ) =>
    multipart(
      visitorFormFields({ language: 'fr', ...overrides }),
      file ? { request_image: file } : {},
    );

  const register = (
    companySlug: string,
    eventSlug: string,
    overrides: Record<string, string | undefined> = {},
    file?: { filename: string; contentType: string; bytes: Buffer } | null,
  ) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/evenement/${companySlug}/${eventSlug}/register`,
      ...registration(overrides, file === undefined ? undefined : file),
    });

  describe('POST /api/evenement/create', () => {
    it('401 without a token, even before the body is read', async () => {
      const res = await call({ method: 'POST', url: '/api/evenement/create', payload: {} });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(API_MESSAGES.unauthenticated);
    });

    it('403 for roles without the Créer un évènement tile', async () => {
      for (const role of [
        'ROLE_EMPLOYEE',
        'ROLE_MANAGER',
        'ROLE_USER',
        'ROLE_SUPER_ADMIN',
      ] as const) {
        const res = await create(acme.staff[role].email);
        expect(res.statusCode, role).toBe(403);
        expect(res.json().message).toBe(API_MESSAGES.forbidden);
      }
    });

    it('400 with the exact message, required fields in the form order', async () => {
      const sup = acme.staff.ROLE_SUPERVISOR.email;
      const empty = await call({ method: 'POST', url: '/api/evenement/create', payload: {} }, sup);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('Le champ "Entreprise" est requis.');
      expect(Object.keys(empty.json().errors)).toEqual([
        'company_id',
        'name',
        'location',
        'address_name',
        'date_event',
        'time_event',
      ]);
      const cases: [Record<string, unknown>, string][] = [
        [{ name: '  ' }, 'Le champ "Nom" est requis.'],
        [{ location: '' }, 'Le champ "Lieu" est requis.'],
        [{ address_name: undefined }, 'Le champ "Adresse" est requis.'],
        [{ date_event: '' }, 'Le champ "Date" est requis.'],
        [{ time_event: '' }, 'Le champ "Heure" est requis.'],
        [{ date_event: '2030-12-24' }, 'Date invalide'],
        [{ date_event: '31/02/2030' }, 'Date invalide'],
        [{ time_event: '25:00' }, EVENT_MESSAGES.timeInvalid],
        [{ time_event: 'HH:MM' }, EVENT_MESSAGES.timeInvalid],
        [{ departement_id: 'abc' }, API_MESSAGES.badRequest],
        [{ name: 'x'.repeat(121) }, 'Ce champ ne doit pas dépasser 120 caractères.'],
      ];
      for (const [overrides, message] of cases) {
        const res = await create(sup, overrides);
        expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
        expect(res.json().message).toBe(message);
      }
    });

    it('refuses a day already over in the company time zone, accepts today', async () => {
      const sup = acme.staff.ROLE_SUPERVISOR.email;
      const past = await create(sup, { date_event: dayFromToday(-1) });
      expect(past.statusCode).toBe(400);
      expect(past.json()).toEqual({
        message: EVENT_MESSAGES.datePast,
        errors: { date_event: EVENT_MESSAGES.datePast },
      });
      const today = await create(sup, { name: 'Atelier du jour', date_event: dayFromToday(0) });
      expect(today.statusCode).toBe(201);
    });

    it('201: stores the event with its start in the company time zone, defaults and links', async () => {
      const paris = await buildCompany(ctx.db, { timezone: 'Europe/Paris' });
      const admin = acme.staff.ROLE_ADMIN.email;
      const res = await create(admin, {
        company_id: paris.slug,
        name: 'Séminaire Été',
        date_event: '24/12/2030',
        time_event: '10:00',
        city: '',
      });
      expect(res.statusCode).toBe(201);
      const body = res.json<{ message: string; data: Event }>();
      expect(body.message).toBe('Événement créé avec succès !');
      expect(body.data).toMatchObject({
        name: 'Séminaire Été',
        slug: 'seminaire-ete',
        location: 'Salle Ivoire',
        address_name: 'Boulevard de la République',
        addressName: 'Boulevard de la République',
        city: null,
        date_event: '24/12/2030',
        time_event: '10:00',
        starts_at: '2030-12-24T09:00:00.000Z',
        closed: false,
        departement_id: 1,
        company_id: paris.id,
        companyId: paris.id,
        company: { id: paris.id, name: paris.name, slug: paris.slug, timezone: 'Europe/Paris' },
        link: `http://sesame.test/company/${paris.slug}/event/seminaire-ete`,
        qrcode_url: `/api/public/qrcode-event/${paris.slug}/seminaire-ete.png`,
        participant_count: 0,
      });
      const [row] = await ctx.db.select().from(events).where(eq(events.id, body.data.id));
      expect(row).toMatchObject({
        companyId: paris.id,
        startsAt: new Date('2030-12-24T09:00:00.000Z'),
        departementId: 1,
        createdBy: acme.staff.ROLE_ADMIN.id,
      });
    });

    it("locks a supervisor's company whatever they send; ROLE_ADMIN and ROLE_SESAME choose", async () => {
      const sup = await create(acme.staff.ROLE_SUPERVISOR.email, {
        company_id: globex.company.id,
        name: 'Réunion supervisée',
      });
      expect(sup.statusCode).toBe(201);
      expect(sup.json().data.company_id).toBe(acme.company.id);

      const sesame = await create(acme.staff.ROLE_SESAME.email, {
        company_id: globex.company.slug,
        name: 'Choisi par Sésame',
      });
      expect(sesame.statusCode).toBe(201);
      expect(sesame.json().data.company_id).toBe(globex.company.id);

      const unknown = await create(acme.staff.ROLE_ADMIN.email, { company_id: 'no-such-company' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(API_MESSAGES.notFound);
    });

    it('makes the slug unique within the company (-2, -3…), free in another company', async () => {
      const company = await buildCompany(ctx.db);
      const admin = acme.staff.ROLE_ADMIN.email;
      const slugs: string[] = [];
      for (const name of ['Portes Ouvertes', 'portes ouvertes!', 'PORTES-OUVERTES']) {
        const res = await create(admin, { company_id: company.id, name });
        expect(res.statusCode).toBe(201);
        slugs.push(res.json().data.slug);
      }
      expect(slugs).toEqual(['portes-ouvertes', 'portes-ouvertes-2', 'portes-ouvertes-3']);
      const elsewhere = await create(admin, {
        company_id: globex.company.id,
        name: 'Portes Ouvertes',
      });
      expect(elsewhere.json().data.slug).toBe('portes-ouvertes');
      // 'all' is the participants list's "every event" filter; an event never takes it.
      const all = await create(admin, { company_id: company.id, name: 'All' });
      expect(all.json().data.slug).toBe('all-2');
      const symbols = await create(admin, { company_id: company.id, name: '!!!' });
      expect(symbols.json().data.slug).toBe('evenement');
    });

    it('gives distinct slugs to the same name created at the same moment', async () => {
      const company = await buildCompany(ctx.db);
      const admin = acme.staff.ROLE_ADMIN.email;
      // Signed in first, so that the three calls race on the slug, not on the login.
      await call({ method: 'GET', url: '/api/user/info' }, admin);
      const results = await Promise.all(
        [1, 2, 3].map(() => create(admin, { company_id: company.id, name: 'Course' })),
      );
      expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201]);
      expect(new Set(results.map((r) => r.json().data.slug))).toEqual(
        new Set(['course', 'course-2', 'course-3']),
      );
    });
  });

  describe('GET /api/evenement/{id}', () => {
    let event: Awaited<ReturnType<typeof buildEvent>>;
    beforeAll(async () => {
      event = await buildEvent(ctx.db, { company: acme.company, name: 'Lecture' });
    });
    const get = (id: string, email?: string) =>
      call({ method: 'GET', url: `/api/evenement/${id}` }, email);

    it('401, 400, 403, 404 for another company, then the event with "Événement retrouvé"', async () => {
      expect((await get(event.id)).statusCode).toBe(401);
      const bad = await get('not-a-uuid', acme.staff.ROLE_SUPERVISOR.email);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(API_MESSAGES.badRequest);
      expect((await get(event.id, acme.staff.ROLE_EMPLOYEE.email)).statusCode).toBe(403);
      expect((await get(event.id, globex.staff.ROLE_SUPERVISOR.email)).statusCode).toBe(404);
      expect((await get(event.id, globex.staff.ROLE_MANAGER.email)).statusCode).toBe(404);
      expect((await get(UNKNOWN_ID, acme.staff.ROLE_ADMIN.email)).statusCode).toBe(404);
      const own = await get(event.id, acme.staff.ROLE_MANAGER.email);
      expect(own.statusCode).toBe(200);
      expect(own.json().message).toBe('Événement retrouvé');
      expect(own.json().data).toMatchObject({ id: event.id, name: 'Lecture', slug: event.slug });
      // ROLE_SESAME and ROLE_ADMIN reach every company's events.
      expect((await get(event.id, globex.staff.ROLE_SESAME.email)).statusCode).toBe(200);
      expect((await get(event.id, globex.staff.ROLE_ADMIN.email)).statusCode).toBe(200);
    });
  });

  describe('GET /api/evenement/list and /api/evenement/list/{company}', () => {
    let tenantA: Awaited<ReturnType<typeof buildTenant>>;
    let tenantB: Awaited<ReturnType<typeof buildTenant>>;
    beforeAll(async () => {
      tenantA = await buildTenant(ctx.db);
      tenantB = await buildTenant(ctx.db);
      for (let i = 1; i <= 3; i++) {
        await buildEvent(ctx.db, {
          company: tenantA.company,
          name: i === 2 ? 'A2 Kermesse' : `A${i}`,
          // Distinct instants: two rows of one millisecond have no "newest".
          createdAt: new Date(Date.now() - (10 - i) * 1000),
        });
      }
      await buildEvent(ctx.db, { company: tenantB.company, name: 'B1' });
    });
    const list = (url: string, email?: string) => call({ method: 'GET', url }, email);
    const names = (res: Awaited<ReturnType<typeof list>>) =>
      res.json<{ data: Event[] }>().data.map((e) => e.name);

    it('401, 403 and 400 on a page size over 100', async () => {
      expect((await list('/api/evenement/list')).statusCode).toBe(401);
      expect(
        (await list('/api/evenement/list', tenantA.staff.ROLE_EMPLOYEE.email)).statusCode,
      ).toBe(403);
      const big = await list('/api/evenement/list?per_page=1000', tenantA.staff.ROLE_ADMIN.email);
      expect(big.statusCode).toBe(400);
    });

    it('admin and ROLE_SESAME see every company, the others their own, newest first, paged', async () => {
      const sup = await list('/api/evenement/list', tenantA.staff.ROLE_SUPERVISOR.email);
      expect(names(sup)).toEqual(['A3', 'A2 Kermesse', 'A1']);
      expect(sup.json().meta).toEqual({ page: 1, per_page: 10, total: 3 });
      const mgr = await list('/api/evenement/list', tenantB.staff.ROLE_MANAGER.email);
      expect(names(mgr)).toEqual(['B1']);
      for (const role of ['ROLE_ADMIN', 'ROLE_SESAME'] as const) {
        const all = await list('/api/evenement/list?per_page=100', tenantB.staff[role].email);
        expect(names(all)).toEqual(expect.arrayContaining(['A1', 'A2 Kermesse', 'A3', 'B1']));
      }
      const page2 = await list(
        '/api/evenement/list?per_page=2&page=2',
        tenantA.staff.ROLE_SUPERVISOR.email,
      );
      expect(names(page2)).toEqual(['A1']);
      const search = await list(
        `/api/evenement/list?q=${encodeURIComponent('kermesse')}`,
        tenantA.staff.ROLE_SUPERVISOR.email,
      );
      expect(names(search)).toEqual(['A2 Kermesse']);
    });

    it("a company's list: its own staff, any company for admin and ROLE_SESAME, 404 otherwise", async () => {
      const url = `/api/evenement/list/${tenantA.company.slug}`;
      expect((await list(url)).statusCode).toBe(401);
      expect((await list(url, tenantA.staff.ROLE_EMPLOYEE.email)).statusCode).toBe(403);
      expect((await list(url, tenantB.staff.ROLE_SUPERVISOR.email)).statusCode).toBe(404);
      expect((await list(url, tenantB.staff.ROLE_SUPER_ADMIN.email)).statusCode).toBe(404);
      expect(names(await list(url, tenantA.staff.ROLE_SUPERVISOR.email))).toEqual([
        'A3',
        'A2 Kermesse',
        'A1',
      ]);
      expect(names(await list(url, tenantB.staff.ROLE_SESAME.email))).toEqual([
        'A3',
        'A2 Kermesse',
        'A1',
      ]);
      const byId = await list(
        `/api/evenement/list/${tenantB.company.id}`,
        tenantA.staff.ROLE_ADMIN.email,
      );
      expect(names(byId)).toEqual(['B1']);
      expect(
        (await list('/api/evenement/list/nope', tenantA.staff.ROLE_ADMIN.email)).statusCode,
      ).toBe(404);
    });
  });

  describe('DELETE /api/evenement/delete/{id} and PUT /api/evenement/close/{id}', () => {
    it('401, 400, 403, 404 for another company, 409 with participants, then deleted', async () => {
      const event = await buildEvent(ctx.db, { company: acme.company });
      const del = (id: string, email?: string) =>
        call({ method: 'DELETE', url: `/api/evenement/delete/${id}` }, email);
      expect((await del(event.id)).statusCode).toBe(401);
      expect((await del('x', acme.staff.ROLE_ADMIN.email)).statusCode).toBe(400);
      expect((await del(event.id, acme.staff.ROLE_MANAGER.email)).statusCode).toBe(403);
      expect((await del(event.id, acme.staff.ROLE_EMPLOYEE.email)).statusCode).toBe(403);
      expect((await del(event.id, globex.staff.ROLE_SUPERVISOR.email)).statusCode).toBe(404);

      const busy = await buildEvent(ctx.db, { company: acme.company, name: 'Complet' });
      await buildVisitor(ctx.db, { company: acme.company, eventId: busy.id });
      const refused = await del(busy.id, acme.staff.ROLE_SUPERVISOR.email);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(EVENT_MESSAGES.hasParticipants('Complet', 1));

      const ok = await del(event.id, acme.staff.ROLE_SUPERVISOR.email);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().message).toBe(EVENT_MESSAGES.deleted);
      expect(await ctx.db.select().from(events).where(eq(events.id, event.id))).toHaveLength(0);
      expect((await del(event.id, acme.staff.ROLE_SUPERVISOR.email)).statusCode).toBe(404);
      // ROLE_SESAME deletes in any company.
      const other = await buildEvent(ctx.db, { company: globex.company });
      expect((await del(other.id, acme.staff.ROLE_SESAME.email)).statusCode).toBe(200);
    });

    it('closes an event to registrations, once; only those who may delete it', async () => {
      const event = await buildEvent(ctx.db, { company: acme.company, dateEvent: future });
      const close = (email?: string) =>
        call({ method: 'PUT', url: `/api/evenement/close/${event.id}` }, email);
      expect((await close()).statusCode).toBe(401);
      expect((await close(acme.staff.ROLE_MANAGER.email)).statusCode).toBe(403);
      expect((await close(globex.staff.ROLE_SUPERVISOR.email)).statusCode).toBe(404);
      const res = await close(acme.staff.ROLE_SUPERVISOR.email);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.closed).toBe(true);
      const closedAt = res.json().data.closed_at;
      expect((await close(acme.staff.ROLE_ADMIN.email)).json().data.closed_at).toBe(closedAt);
      const refused = await register(acme.company.slug, event.slug);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(EVENT_MESSAGES.registrationClosed);
      const pub = await call({
        method: 'GET',
        url: `/api/evenement/slug/${acme.company.slug}/${event.slug}`,
      });
      expect(pub.json().data.closed).toBe(true);
    });
  });

  describe('public: GET /api/evenement/slug/{company}/{event} and the poster QR', () => {
    it("answers only the event's public fields to anyone", async () => {
      const event = await buildEvent(ctx.db, {
        company: acme.company,
        name: 'Concert',
        dateEvent: future,
        timeEvent: '20:00',
        city: 'Abidjan',
      });
      await buildVisitor(ctx.db, { company: acme.company, eventId: event.id });
      const res = await call({
        method: 'GET',
        url: `/api/evenement/slug/${acme.company.slug}/${event.slug.toUpperCase()}`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        message: 'Événement retrouvé',
        data: {
          name: 'Concert',
          slug: event.slug,
          location: 'Salle A',
          address_name: 'Plateau',
          city: 'Abidjan',
          state: null,
          zipcode: null,
          country: null,
          date_event: future,
          time_event: '20:00',
          starts_at: null,
          closed: false,
          company: {
            name: acme.company.name,
            slug: acme.company.slug,
            timezone: acme.company.timezone,
          },
          link: `http://sesame.test/company/${acme.company.slug}/event/${event.slug}`,
          qrcode_url: `/api/public/qrcode-event/${acme.company.slug}/${event.slug}.png`,
        },
      });
    });

    it("404 for another company's event slug or an unknown one; closed once its day is over", async () => {
      const theirs = await buildEvent(ctx.db, { company: globex.company });
      const url = (c: string, e: string) => `/api/evenement/slug/${c}/${e}`;
      expect(
        (await call({ method: 'GET', url: url(acme.company.slug, theirs.slug) })).statusCode,
      ).toBe(404);
      expect((await call({ method: 'GET', url: url('nope', theirs.slug) })).statusCode).toBe(404);
      const past = await buildEvent(ctx.db, { company: acme.company, dateEvent: dayFromToday(-2) });
      const res = await call({ method: 'GET', url: url(acme.company.slug, past.slug) });
      expect(res.json().data.closed).toBe(true);
    });

    it('serves the poster QR as a public PNG that decodes to the share link', async () => {
      const event = await buildEvent(ctx.db, { company: acme.company, name: 'Affiche' });
      const res = await call({
        method: 'GET',
        url: `/api/public/qrcode-event/${acme.company.slug}/${event.slug}.png`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(await decodeQr(res.rawPayload)).toBe(
        `http://sesame.test/company/${acme.company.slug}/event/${event.slug}`,
      );
      const wrong = await call({
        method: 'GET',
        url: `/api/public/qrcode-event/${globex.company.slug}/${event.slug}.png`,
      });
      expect(wrong.statusCode).toBe(404);
    });

    it('is documented in OpenAPI', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
      const paths = Object.keys(res.json().paths);
      expect(paths).toEqual(
        expect.arrayContaining([
          '/api/evenement/slug/{company}/{event}',
          '/api/evenement/{company}/{event}/register',
          '/api/public/qrcode-event/{company}/{file}',
          '/api/evenement/create',
        ]),
      );
    });
  });

  describe('POST /api/evenement/{company}/{event}/register', () => {
    let event: Awaited<ReturnType<typeof buildEvent>>;
    beforeAll(async () => {
      event = await buildEvent(ctx.db, {
        company: acme.company,
        name: 'Forum',
        dateEvent: future,
        timeEvent: '09:15',
        addressName: 'Rue du Commerce',
        city: 'Abidjan',
        // Written before countries were codes and naming none of the list (migration 0019
        // left it): a registration still takes the event's place as it is.
        country: 'Atlantide',
      });
    });

    it("creates the visitor, a confirmed request (reason 'not applicable') and the code mail, at once", async () => {
      const res = await register(acme.company.slug, event.slug, {
        email: 'Forum.Guest@Example.com',
        // The place, date and time are the event's whatever the form sends.
        address: 'Ailleurs',
        request_date: '01/01/2000',
        request_time: '03:03',
        host: 'Quelqu’un',
        reason: 'Autre',
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.message).toBe('Votre QRCode a été envoyé par e-mail, Merci');
      expect(body.data).toMatchObject({
        firstname: 'Awa',
        lastname: 'Koné',
        email: 'forum.guest@example.com',
        event: { name: 'Forum', slug: event.slug },
        company: { name: acme.company.name, slug: acme.company.slug },
      });
      expect(JSON.stringify(body)).not.toMatch(/uidn/);
      const [visitor] = await ctx.db
        .select()
        .from(visitors)
        .where(eq(visitors.id, body.data.visitor_id));
      expect(visitor).toMatchObject({
        companyId: acme.company.id,
        eventId: event.id,
        address: 'Rue du Commerce',
        city: 'Abidjan',
        country: 'Atlantide',
        requestDate: future,
        requestTime: '09:15',
      });
      const [request] = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.id, body.data.request_id));
      expect(request).toMatchObject({
        visitorId: visitor!.id,
        companyId: acme.company.id,
        reason: 'not applicable',
        host: null,
        status: 1,
        confirmed: true,
      });
      const mails = await ctx.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, 'forum.guest@example.com'));
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ companyId: acme.company.id, status: 'pending' });
      const [document] = await ctx.db
        .select()
        .from(files)
        .where(eq(files.id, visitor!.requestImageId!));
      expect(document).toMatchObject({ ownerId: visitor!.id, mediaType: 'image/png' });
    });

    it('400 with the visitor form messages in their order; 413 and 415 for the document', async () => {
      const first = await register(acme.company.slug, event.slug, { firstname: '' });
      expect(first.statusCode).toBe(400);
      expect(first.json().message).toBe('Le champ "Prénoms" est requis.');
      const email = await register(acme.company.slug, event.slug, { email: 'nope' });
      expect(email.json().message).toBe('Veuillez entrer une adresse e-mail valide.');
      const phone = await register(acme.company.slug, event.slug, { contact: '12' });
      expect(phone.json().message).toBe(
        "Veuillez entrer un numéro de téléphone valide, par exemple 07 07 07 07 07 ou, à l'étranger, +33 6 12 34 56 78.",
      );
      const noFile = await register(acme.company.slug, event.slug, {}, null);
      expect(noFile.statusCode).toBe(400);
      expect(noFile.json().message).toBe('Veuillez sélectionner un fichier valide');
      const big = await register(
        acme.company.slug,
        event.slug,
        {},
        {
          filename: 'big.png',
          contentType: 'image/png',
          bytes: Buffer.concat([documentPng, Buffer.alloc(ID_FILE_MAX_BYTES)]),
        },
      );
      expect(big.statusCode).toBe(413);
      expect(big.json().message).toBe('La taille du fichier ne doit pas dépasser 2 Mo.');
      const text = await register(
        acme.company.slug,
        event.slug,
        {},
        { filename: 'id.png', contentType: 'image/png', bytes: Buffer.from('not an image') },
      );
      expect(text.statusCode).toBe(415);
      const stored = await ctx.db
        .select()
        .from(visitors)
        .where(and(eq(visitors.eventId, event.id), eq(visitors.contact, '12')));
      expect(stored).toHaveLength(0);
    });

    it("404 for another company's event slug, an unknown company or event", async () => {
      const theirs = await buildEvent(ctx.db, { company: globex.company, dateEvent: future });
      const cross = await register(acme.company.slug, theirs.slug);
      expect(cross.statusCode).toBe(404);
      expect(cross.json().message).toBe(API_MESSAGES.notFound);
      expect((await register('nope', theirs.slug)).statusCode).toBe(404);
      expect((await register(acme.company.slug, 'nope')).statusCode).toBe(404);
      const stored = await ctx.db.select().from(visitors).where(eq(visitors.eventId, theirs.id));
      expect(stored).toHaveLength(0);
    });

    it('a past event refuses new registrations with a clear message', async () => {
      const past = await buildEvent(ctx.db, { company: acme.company, dateEvent: dayFromToday(-1) });
      const res = await register(acme.company.slug, past.slug);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('Cet événement est terminé : les inscriptions sont closes.');
      expect(
        await ctx.db.select().from(visitors).where(eq(visitors.eventId, past.id)),
      ).toHaveLength(0);
      // Today's event still takes them.
      const today = await buildEvent(ctx.db, { company: acme.company, dateEvent: dayFromToday(0) });
      expect((await register(acme.company.slug, today.slug)).statusCode).toBe(201);
    });

    it('refuses a second registration with the same e-mail, even sent at the same moment', async () => {
      const party = await buildEvent(ctx.db, { company: acme.company, dateEvent: future });
      const results = await Promise.all(
        [1, 2, 3].map(() =>
          register(acme.company.slug, party.slug, { email: 'twice@example.com' }),
        ),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
      const refused = results.find((r) => r.statusCode === 409)!;
      expect(refused.json().message).toBe(EVENT_MESSAGES.alreadyRegistered);
      expect(
        await ctx.db.select().from(visitors).where(eq(visitors.eventId, party.id)),
      ).toHaveLength(1);
      // The same person may register for another event.
      expect(
        (await register(acme.company.slug, event.slug, { email: 'twice@example.com' })).statusCode,
      ).toBe(201);
    });

    it('is rate-limited per client and event', async () => {
      const limited = await startTestApp({
        rateLimits: { ...DEFAULT_RATE_LIMITS, registrationsPerClientPerEvent: 2 },
      });
      try {
        const company = await buildCompany(limited.db);
        const open = await buildEvent(limited.db, { company, dateEvent: future });
        const send = () =>
          limited.app.inject({
            method: 'POST',
            url: `/api/evenement/${company.slug}/${open.slug}/register`,
            ...registration(),
          });
        expect((await send()).statusCode).toBe(201);
        expect((await send()).statusCode).toBe(201);
        const third = await send();
        expect(third.statusCode).toBe(429);
        expect(third.json().message).toBe(EVENT_MESSAGES.clientLimit);
      } finally {
        await limited.close();
      }
    });
  });

  describe('participants and attendance, scoped per role', () => {
    let a: Awaited<ReturnType<typeof buildTenant>>;
    let b: Awaited<ReturnType<typeof buildTenant>>;
    let eventA: Awaited<ReturnType<typeof buildEvent>>;
    let eventB: Awaited<ReturnType<typeof buildEvent>>;
    let guestA: string;
    let guestB: string;

    beforeAll(async () => {
      a = await buildTenant(ctx.db);
      b = await buildTenant(ctx.db);
      eventA = await buildEvent(ctx.db, { company: a.company, name: 'Salon A', dateEvent: future });
      eventB = await buildEvent(ctx.db, { company: b.company, name: 'Salon B', dateEvent: future });
      const ra = await register(a.company.slug, eventA.slug, {
        firstname: 'Adjoa',
        email: 'adjoa@example.com',
      });
      const rb = await register(b.company.slug, eventB.slug, {
        firstname: 'Bintou',
        email: 'bintou@example.com',
      });
      guestA = ra.json().data.visitor_id;
      guestB = rb.json().data.visitor_id;
      // A meeting visitor of A: never in the event lists.
      await buildVisitor(ctx.db, { company: a.company, firstname: 'Meeting' });
      // Adjoa came to the door.
      await ctx.db.insert(visitorChecks).values({
        companyId: a.company.id,
        // The event is at the company's main site, and its guests with it.
        siteId: a.company.siteId,
        visitorId: guestA,
        checkInMethod: 'scan',
        checkInAt: new Date('2030-01-01T10:00:00Z'),
      });
    });

    it("the participants list (requests in event mode) is the event's company's", async () => {
      const url = (company: string, e: string) => `/api/requests/list/${company}?event=${e}`;
      const own = await call(
        { method: 'GET', url: url(a.company.slug, eventA.slug) },
        a.staff.ROLE_SUPERVISOR.email,
      );
      expect(own.statusCode).toBe(200);
      const rows = own.json<{ data: RequestRow[] }>().data;
      expect(rows.map((r) => r.visitor.firstname)).toEqual(['Adjoa']);
      expect(rows[0]).toMatchObject({ confirmed: true, status: 1, reason: 'not applicable' });
      expect(rows[0]!.visitor.checkIns).toHaveLength(1);
      const other = await call(
        { method: 'GET', url: url(a.company.slug, eventA.slug) },
        b.staff.ROLE_SUPERVISOR.email,
      );
      expect(other.statusCode).toBe(404);
      const crossSlug = await call(
        { method: 'GET', url: url(a.company.slug, eventB.slug) },
        a.staff.ROLE_SUPERVISOR.email,
      );
      expect(crossSlug.statusCode).toBe(404);
      const admin = await call(
        { method: 'GET', url: url(b.company.slug, eventB.slug) },
        a.staff.ROLE_ADMIN.email,
      );
      expect(admin.json().data.map((r: RequestRow) => r.visitor.id)).toEqual([guestB]);
    });

    it('GET /api/eventattendencelist: 401, 403, manager their company, admin all or one', async () => {
      const get = (url: string, email?: string) => call({ method: 'GET', url }, email);
      expect((await get('/api/eventattendencelist')).statusCode).toBe(401);
      for (const role of ['ROLE_SUPERVISOR', 'ROLE_EMPLOYEE', 'ROLE_USER'] as const) {
        expect((await get('/api/eventattendencelist', a.staff[role].email)).statusCode, role).toBe(
          403,
        );
      }
      const mgr = await get('/api/eventattendencelist', a.staff.ROLE_MANAGER.email);
      expect(mgr.statusCode).toBe(200);
      const entries = mgr.json<{ data: EventAttendanceEntry[] }>().data;
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        id: eventA.id,
        name: 'Salon A',
        location: 'Salle A',
        company: { slug: a.company.slug },
      });
      expect(entries[0]!.visitors).toEqual([
        expect.objectContaining({
          id: guestA,
          firstname: 'Adjoa',
          email: 'adjoa@example.com',
          address: 'Plateau',
          check_in_time: '2030-01-01T10:00:00.000Z',
          request_image: expect.stringMatching(/^\/api\/files\//),
        }),
      ]);
      expect(mgr.json().meta).toEqual({ page: 1, per_page: 10, total: 1 });
      // ROLE_SESAME is limited to its company here (spec §6: admin gets all).
      const sc = await get('/api/eventattendencelist', b.staff.ROLE_SESAME.email);
      expect(sc.json().data.map((e: EventAttendanceEntry) => e.id)).toEqual([eventB.id]);
      expect(
        (
          await get(
            `/api/eventattendencelist?company=${a.company.slug}`,
            b.staff.ROLE_MANAGER.email,
          )
        ).statusCode,
      ).toBe(404);

      const all = await get('/api/eventattendencelist?per_page=100', a.staff.ROLE_ADMIN.email);
      const ids = all.json<{ data: EventAttendanceEntry[] }>().data.map((e) => e.id);
      expect(ids).toEqual(expect.arrayContaining([eventA.id, eventB.id]));
      const one = await get(
        `/api/eventattendencelist?company=${b.company.slug}`,
        a.staff.ROLE_ADMIN.email,
      );
      expect(one.json().data.map((e: EventAttendanceEntry) => e.id)).toEqual([eventB.id]);
      expect(one.json().data[0].visitors[0].check_in_time).toBeNull();
    });

    it('GET /api/event/visitorLog/{domain}: check-ins of the company event participants only', async () => {
      const get = (url: string, email?: string) => call({ method: 'GET', url }, email);
      const url = `/api/event/visitorLog/${a.company.slug}`;
      expect((await get(url)).statusCode).toBe(401);
      expect((await get(url, a.staff.ROLE_EMPLOYEE.email)).statusCode).toBe(403);
      expect((await get(url, b.staff.ROLE_SUPERVISOR.email)).statusCode).toBe(404);
      const meeting = await buildVisitor(ctx.db, { company: a.company });
      await ctx.db.insert(visitorChecks).values({
        companyId: a.company.id,
        siteId: meeting.siteId,
        visitorId: meeting.id,
        checkInMethod: 'manual',
      });
      const own = await get(url, a.staff.ROLE_SUPERVISOR.email);
      expect(own.statusCode).toBe(200);
      expect(own.json().data).toEqual([
        expect.objectContaining({
          visitor_id: guestA,
          visitor_name: 'Adjoa',
          visitor_lastname: 'Koné',
          visitor_email: 'adjoa@example.com',
          check_in_time: '2030-01-01T10:00:00.000Z',
          check_out_time: null,
          event: { id: eventA.id, name: 'Salon A', slug: eventA.slug },
        }),
      ]);
      expect(
        (await get(`${url}?event=${eventA.slug}`, a.staff.ROLE_SUPERVISOR.email)).json().meta.total,
      ).toBe(1);
      expect(
        (await get(`${url}?event=${eventB.slug}`, a.staff.ROLE_SUPERVISOR.email)).statusCode,
      ).toBe(404);
      expect((await get(url, b.staff.ROLE_ADMIN.email)).json().data).toHaveLength(1);
    });
  });
});
