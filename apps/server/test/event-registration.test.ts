/**
 * Issue 17 on the server: the JoinEvent form sent to POST /visitor/create with
 * `evenements_id` registers the visitor exactly as the share link does (one
 * registration service: same limits, same refusals); closing, creating and deleting
 * an event are audited; the event page finds an event by its link's segments; the
 * participants export as CSV for French Excel; a long name's slug ends on a word.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_MESSAGES, SLUG_MAX, type RequestRow } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { auditEvents, mailOutbox, visitRequests, visitorChecks, visitors } from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { wallClock } from '../src/time-zones';
import { callAs, multipart, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildEvent,
  buildRequest,
  buildTenant,
  buildVisitor,
  visitorFormFields,
} from './helpers/factories';

/** DD/MM/YYYY of the day `days` from today (Abidjan, the factories' zone). */
function dayFromToday(days: number): string {
  const today = wallClock(new Date(), 'Africa/Abidjan');
  const d = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

const PER_CLIENT_EVENT = 4;
const MAILS_PER_DAY = 3;

describe(`event registration through either call, and the event page (${testDatabaseKind})`, () => {
  const ctx = useTestApp({
    rateLimits: {
      ...DEFAULT_RATE_LIMITS,
      publicFormPerWindow: 10_000,
      registrationsPerClientPerEvent: PER_CLIENT_EVENT,
      registrationMailsPerRecipientPerDay: MAILS_PER_DAY,
    },
  });
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let globex: Awaited<ReturnType<typeof buildTenant>>;
  let png: Buffer;
  const future = dayFromToday(20);
  let clientNumber = 0;
  /** A fresh client address: each test starts under the per-client limit. */
  const newClient = () => `198.51.100.${++clientNumber}`;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    png = await qrPng('identity document');
  });

  const call = callAs(ctx);

  const form = (fields: Record<string, string>) =>
    multipart(visitorFormFields({ language: 'fr', ...fields }), {
      request_image: { filename: 'id.png', contentType: 'image/png', bytes: png },
    });

  /** The spec's JoinEvent call: the visitor form with evenements_id. */
  const viaVisitorForm = (fields: Record<string, string>, remoteAddress: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/visitor/create', remoteAddress, ...form(fields) });

  const viaShareLink = (
    company: string,
    event: string,
    fields: Record<string, string>,
    remoteAddress: string,
  ) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/evenement/${company}/${event}/register`,
      remoteAddress,
      ...form(fields),
    });

  describe('POST /api/visitor/create with evenements_id', () => {
    it("registers the visitor for the event: the event's place and day, a confirmed request, the code mail", async () => {
      const event = await buildEvent(ctx.db, {
        company: acme.company,
        name: 'Salon RH',
        dateEvent: future,
        timeEvent: '09:15',
        addressName: 'Rue du Commerce',
        city: 'Abidjan',
      });
      const res = await viaVisitorForm(
        {
          company_id: acme.company.slug,
          evenements_id: event.id,
          email: 'Salon.Guest@Example.com',
          // What the form sends of the place and day is the event's anyway.
          address: 'Ailleurs',
          request_date: '01/01/2000',
          request_time: '03:03',
          host: 'Quelqu’un',
          reason: 'Autre',
        },
        newClient(),
      );
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.message).toBe(EVENT_MESSAGES.registered);
      expect(body.data).toMatchObject({
        email: 'salon.guest@example.com',
        address: 'Rue du Commerce',
        city: 'Abidjan',
        request_date: future,
        request_time: '09:15',
        company: { id: acme.company.id, slug: acme.company.slug },
        event: { id: event.id, name: 'Salon RH', slug: event.slug },
      });
      const [visitor] = await ctx.db
        .select()
        .from(visitors)
        .where(eq(visitors.id, body.data.visitor_id));
      expect(visitor!.eventId).toBe(event.id);
      expect(visitor!.dayEndsAt?.toISOString()).toBe(event.dayEndsAt?.toISOString());
      const requests = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.visitorId, visitor!.id));
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatchObject({
        id: body.data.request_id,
        confirmed: true,
        status: 1,
        host: null,
        reason: 'not applicable',
      });
      const mails = await ctx.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.companyId, acme.company.id));
      expect(
        mails.filter((m) => (m.payload as { visitorId?: string }).visitorId === visitor!.id),
      ).toHaveLength(1);
    });

    it("finds the event by its slug within the form's company; another company's event is a 404", async () => {
      const event = await buildEvent(ctx.db, { company: acme.company, dateEvent: future });
      const bySlug = await viaVisitorForm(
        { company_id: acme.company.slug, evenements_id: event.slug },
        newClient(),
      );
      expect(bySlug.statusCode, bySlug.body).toBe(200);
      expect(bySlug.json().data.event.id).toBe(event.id);

      const theirs = await buildEvent(ctx.db, { company: globex.company, dateEvent: future });
      const before = await ctx.db.select().from(visitors).where(eq(visitors.eventId, theirs.id));
      for (const fields of [
        { company_id: acme.company.slug, evenements_id: theirs.id },
        { company_id: acme.company.slug, evenements_id: theirs.slug },
        { company_id: acme.company.slug, evenements_id: '0190f0f0-0000-7000-8000-000000000000' },
      ]) {
        expect((await viaVisitorForm(fields, newClient())).statusCode).toBe(404);
      }
      expect(await ctx.db.select().from(visitors).where(eq(visitors.eventId, theirs.id))).toEqual(
        before,
      );
    });

    it("'null' or no evenements_id is a meeting visitor, as before (no event, no request)", async () => {
      const res = await viaVisitorForm(
        {
          company_id: acme.company.slug,
          evenements_id: 'null',
          request_date: future,
          request_time: '10:00',
        },
        newClient(),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('Visiteur créé avec succès.');
      expect(res.json().data.event).toBeUndefined();
      const [visitor] = await ctx.db
        .select()
        .from(visitors)
        .where(eq(visitors.id, res.json().data.visitor_id));
      expect(visitor!.eventId).toBeNull();
    });

    it('an overlong evenements_id is a 400, not a look-up', async () => {
      const res = await viaVisitorForm(
        { company_id: acme.company.slug, evenements_id: 'x'.repeat(500) },
        newClient(),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Ce champ ne doit pas dépasser 100 caractères.');
    });

    it('a closed event refuses both calls with the same clear message, and registers nobody', async () => {
      const event = await buildEvent(ctx.db, { company: acme.company, dateEvent: future });
      const closed = await call(
        { method: 'PUT', url: `/api/evenement/close/${event.id}` },
        acme.staff.ROLE_SUPERVISOR.email,
      );
      expect(closed.statusCode).toBe(200);
      const client = newClient();
      for (const res of [
        await viaVisitorForm({ company_id: acme.company.id, evenements_id: event.id }, client),
        await viaShareLink(acme.company.slug, event.slug, {}, client),
      ]) {
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toBe(EVENT_MESSAGES.registrationClosed);
      }
      expect(await ctx.db.select().from(visitors).where(eq(visitors.eventId, event.id))).toEqual(
        [],
      );
    });

    it('a past event refuses the visitor form as it refuses the share link', async () => {
      const event = await buildEvent(ctx.db, {
        company: acme.company,
        dateEvent: dayFromToday(-2),
      });
      const res = await viaVisitorForm(
        { company_id: acme.company.slug, evenements_id: event.id },
        newClient(),
      );
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(EVENT_MESSAGES.eventOver);
    });

    it('one address registers once per event, whichever call it comes through', async () => {
      const event = await buildEvent(ctx.db, { company: acme.company, dateEvent: future });
      const email = `once-${Date.now()}@example.com`;
      const first = await viaShareLink(acme.company.slug, event.slug, { email }, newClient());
      expect(first.statusCode, first.body).toBe(201);
      const again = await viaVisitorForm(
        { company_id: acme.company.slug, evenements_id: event.id, email },
        newClient(),
      );
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(EVENT_MESSAGES.alreadyRegistered);
    });

    it('the per client and event limit counts both calls together; another event or client still passes', async () => {
      const event = await buildEvent(ctx.db, { company: acme.company, dateEvent: future });
      const other = await buildEvent(ctx.db, { company: acme.company, dateEvent: future });
      const client = newClient();
      for (let i = 0; i < PER_CLIENT_EVENT; i++) {
        const res =
          i % 2 === 0
            ? await viaShareLink(acme.company.slug, event.slug, {}, client)
            : await viaVisitorForm(
                { company_id: acme.company.slug, evenements_id: event.id },
                client,
              );
        expect(res.statusCode, res.body).toBe(i % 2 === 0 ? 201 : 200);
      }
      for (const res of [
        await viaVisitorForm({ company_id: acme.company.slug, evenements_id: event.id }, client),
        // The share link's segments in another case are still the same event.
        await viaShareLink(acme.company.slug.toUpperCase(), event.slug.toUpperCase(), {}, client),
      ]) {
        expect(res.statusCode).toBe(429);
        expect(res.json().message).toBe(EVENT_MESSAGES.clientLimit);
      }
      const registered = await ctx.db.select().from(visitors).where(eq(visitors.eventId, event.id));
      expect(registered).toHaveLength(PER_CLIENT_EVENT);
      expect(
        (await viaVisitorForm({ company_id: acme.company.slug, evenements_id: other.id }, client))
          .statusCode,
      ).toBe(200);
      expect((await viaShareLink(acme.company.slug, event.slug, {}, newClient())).statusCode).toBe(
        201,
      );
    });

    it('the mails per address per day count both calls together', async () => {
      const email = `daily-${Date.now()}@example.com`;
      const answers: number[] = [];
      for (let i = 0; i <= MAILS_PER_DAY; i++) {
        const event = await buildEvent(ctx.db, { company: acme.company, dateEvent: future });
        const res =
          i % 2 === 0
            ? await viaVisitorForm(
                { company_id: acme.company.slug, evenements_id: event.id, email },
                newClient(),
              )
            : await viaShareLink(acme.company.slug, event.slug, { email }, newClient());
        answers.push(res.statusCode);
        if (i === MAILS_PER_DAY) expect(res.json().message).toBe(EVENT_MESSAGES.recipientLimit);
      }
      expect(answers).toEqual([200, 201, 200, 429]);
    });
  });

  describe('creating, closing and deleting an event are audited', () => {
    const entries = (subjectId: string) =>
      ctx.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.subjectType, 'event'), eq(auditEvents.subjectId, subjectId)));

    it('event.created with the creator; the slug of a long name ends on a whole word', async () => {
      const name = 'Conférence internationale sur la transformation numérique des administrations';
      const res = await call(
        {
          method: 'POST',
          url: '/api/evenement/create',
          payload: {
            company_id: acme.company.id,
            name,
            location: 'Salle Ivoire',
            address_name: 'Plateau',
            date_event: future,
            time_event: '18:30',
          },
        },
        acme.staff.ROLE_SUPERVISOR.email,
      );
      expect(res.statusCode, res.body).toBe(201);
      const event = res.json().data;
      expect(event.slug).toBe('conference-internationale-sur-la-transformation-numerique');
      expect(event.slug.length).toBeLessThanOrEqual(SLUG_MAX);
      const [entry] = await entries(event.id);
      expect(entry).toMatchObject({
        action: 'event.created',
        companyId: acme.company.id,
        actorUserId: acme.staff.ROLE_SUPERVISOR.id,
      });
    });

    it('a past day is refused (400) and nothing is written', async () => {
      const before = await ctx.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.action, 'event.created'));
      const res = await call(
        {
          method: 'POST',
          url: '/api/evenement/create',
          payload: {
            company_id: acme.company.id,
            name: 'Hier',
            location: 'Salle',
            address_name: 'Plateau',
            date_event: dayFromToday(-1),
            time_event: '18:30',
          },
        },
        acme.staff.ROLE_SUPERVISOR.email,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(EVENT_MESSAGES.datePast);
      const after = await ctx.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.action, 'event.created'));
      expect(after).toHaveLength(before.length);
    });

    it('event.closed once, by whoever closed it; closing again writes nothing', async () => {
      const event = await buildEvent(ctx.db, { company: acme.company, dateEvent: future });
      const close = (email: string) =>
        call({ method: 'PUT', url: `/api/evenement/close/${event.id}` }, email);
      const res = await close(acme.staff.ROLE_SUPERVISOR.email);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(EVENT_MESSAGES.closedNow);
      expect((await close(acme.staff.ROLE_ADMIN.email)).statusCode).toBe(200);
      const written = await entries(event.id);
      expect(written).toHaveLength(1);
      expect(written[0]).toMatchObject({
        action: 'event.closed',
        actorUserId: acme.staff.ROLE_SUPERVISOR.id,
        companyId: acme.company.id,
      });
    });

    it('event.deleted for an empty event; a refused delete writes nothing', async () => {
      const empty = await buildEvent(ctx.db, { company: acme.company });
      const busy = await buildEvent(ctx.db, { company: acme.company });
      await buildVisitor(ctx.db, { company: acme.company, eventId: busy.id });
      const del = (id: string) =>
        call({ method: 'DELETE', url: `/api/evenement/delete/${id}` }, acme.staff.ROLE_ADMIN.email);
      expect((await del(busy.id)).statusCode).toBe(409);
      expect(await entries(busy.id)).toEqual([]);
      expect((await del(empty.id)).statusCode).toBe(200);
      expect((await entries(empty.id)).map((e) => e.action)).toEqual(['event.deleted']);
    });
  });

  describe('GET /api/evenement/show/{company}/{event} (the event page)', () => {
    it("401, 403, 404 for another company's event or an unknown one, then the event", async () => {
      const event = await buildEvent(ctx.db, { company: acme.company, name: 'Portes ouvertes' });
      const show = (company: string, slug: string, email?: string) =>
        call({ method: 'GET', url: `/api/evenement/show/${company}/${slug}` }, email);
      expect((await show(acme.company.slug, event.slug)).statusCode).toBe(401);
      expect(
        (await show(acme.company.slug, event.slug, acme.staff.ROLE_EMPLOYEE.email)).statusCode,
      ).toBe(403);
      expect(
        (await show(acme.company.slug, event.slug, globex.staff.ROLE_MANAGER.email)).statusCode,
      ).toBe(404);
      expect(
        (await show(acme.company.slug, 'nope', acme.staff.ROLE_MANAGER.email)).statusCode,
      ).toBe(404);
      // Another company's segment with this event's slug is not this event.
      expect(
        (await show(globex.company.slug, event.slug, acme.staff.ROLE_ADMIN.email)).statusCode,
      ).toBe(404);
      const res = await show(acme.company.slug, event.slug, acme.staff.ROLE_MANAGER.email);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        id: event.id,
        name: 'Portes ouvertes',
        closed: false,
        link: `http://sesame.test/company/${acme.company.slug}/event/${event.slug}`,
      });
      // ROLE_SESAME reaches every company's events.
      expect(
        (await show(acme.company.slug, event.slug, globex.staff.ROLE_SESAME.email)).statusCode,
      ).toBe(200);
    });
  });

  describe('participants: paged like every list, exported as CSV', () => {
    it('GET /api/requests/list/{company}?event= pages past 100 participants', async () => {
      const event = await buildEvent(ctx.db, { company: acme.company });
      for (let i = 0; i < 105; i++) {
        const visitor = await buildVisitor(ctx.db, {
          company: acme.company,
          eventId: event.id,
          email: `p${i}@example.com`,
        });
        await buildRequest(ctx.db, { company: acme.company, visitor, confirmed: true, status: 1 });
      }
      const page = (n: number) =>
        call(
          {
            method: 'GET',
            url: `/api/requests/list/${acme.company.slug}?event=${event.slug}&page=${n}&per_page=10`,
          },
          acme.staff.ROLE_MANAGER.email,
        );
      const first = await page(1);
      expect(first.statusCode).toBe(200);
      expect(first.json().meta).toEqual({ page: 1, per_page: 10, total: 105 });
      const last = await page(11);
      expect((last.json().data as RequestRow[]).length).toBe(5);
    });

    it("GET /api/evenement/export/{id}: 401, 403, 404, then the CSV in the event's zone", async () => {
      const event = await buildEvent(ctx.db, { company: acme.company, slug: 'gala-export' });
      const awa = await buildVisitor(ctx.db, {
        company: acme.company,
        eventId: event.id,
        firstname: 'Awa',
        lastname: 'Koné',
        email: 'awa@example.com',
        contact: '0701020304',
        organisationName: 'Orange; CI',
        createdAt: new Date('2030-12-24T09:00:00Z'),
      });
      await buildVisitor(ctx.db, {
        company: acme.company,
        eventId: event.id,
        firstname: '=cmd',
        lastname: 'Yao',
        email: 'yao@example.com',
        createdAt: new Date('2030-12-24T10:00:00Z'),
      });
      await ctx.db.insert(visitorChecks).values({
        companyId: acme.company.id,
        siteId: awa.siteId,
        visitorId: awa.id,
        checkInAt: new Date('2030-12-24T17:45:00Z'),
        checkOutAt: new Date('2030-12-24T21:10:00Z'),
        checkInMethod: 'scan',
        checkOutMethod: 'scan',
      });
      const exportOf = (id: string, email?: string) =>
        call({ method: 'GET', url: `/api/evenement/export/${id}` }, email);
      expect((await exportOf(event.id)).statusCode).toBe(401);
      expect((await exportOf(event.id, acme.staff.ROLE_EMPLOYEE.email)).statusCode).toBe(403);
      expect((await exportOf(event.id, globex.staff.ROLE_MANAGER.email)).statusCode).toBe(404);
      expect((await exportOf('x', acme.staff.ROLE_MANAGER.email)).statusCode).toBe(400);

      const res = await exportOf(event.id, acme.staff.ROLE_MANAGER.email);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        'attachment; filename="participants-gala-export.csv"',
      );
      expect(res.body.startsWith('\uFEFF')).toBe(true);
      const lines = res.body.slice(1).split('\r\n');
      expect(lines).toEqual([
        'Prénom;Nom;E-mail;Contact;Employeur;Inscription;Arrivée;Départ',
        'Awa;Koné;awa@example.com;0701020304;"Orange; CI";24/12/2030 09:00;24/12/2030 17:45;24/12/2030 21:10',
        expect.stringMatching(/^'=cmd;Yao;yao@example\.com;[^;]*;[^;]*;24\/12\/2030 10:00;;$/),
        '',
      ]);
    });
  });
});
