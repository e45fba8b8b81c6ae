import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  API_MESSAGES,
  FRENCH_MESSAGES as fr,
  VISITOR_MESSAGES,
  type RequestRow,
} from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { mailOutbox, visitRequests, visitorChecks, visitors } from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { dayOf } from '../src/time-zones';
import { createConfirmedEventRegistration } from '../src/visitors/service';
import { callAs, multipart, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildEvent,
  buildRequest,
  buildSite,
  buildTenant,
  buildUser,
  buildVisitor,
  visitorFormFields,
} from './helpers/factories';

const UNKNOWN_ID = '0190f0f0-0000-7000-8000-000000000000';

/** YYYY-MM-DD → the form's DD/MM/YYYY. */
const visitDate = (day: string) => day.split('-').reverse().join('/');

describe(`visit requests (${testDatabaseKind})`, () => {
  const ctx = useTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 10_000 } });
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let globex: Awaited<ReturnType<typeof buildTenant>>;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
  });

  const call = callAs(ctx);

  /** The visitor form's two calls, as the web app makes them. */
  async function submitVisitorForm(companySlug: string, overrides: Record<string, string> = {}) {
    const png = await qrPng('document');
    const visitor = await ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(
        visitorFormFields({
          company_id: companySlug,
          email: 'awa@example.com',
          request_date: '24/11/2030',
          request_time: '10:30',
          ...overrides,
        }),
        { request_image: { filename: 'id.png', contentType: 'image/png', bytes: png } },
      ),
    });
    expect(visitor.statusCode).toBe(200);
    const visitorId = visitor.json().data.visitor_id as string;
    const request = await call({
      method: 'POST',
      url: '/api/requests/create',
      payload: { visitor_id: visitorId, host: 'M. Diallo', reason: 'Entretien' },
    });
    return { visitorId, request };
  }

  describe('a company of several sites (issue 28)', () => {
    it('asks the site, files the request there, and the recap and the card say where to go', async () => {
      const company = await buildCompany(ctx.db, { timezone: 'Europe/Paris' });
      const noumea = await buildSite(ctx.db, {
        company,
        name: 'Port de Nouméa',
        timezone: 'Pacific/Noumea',
        address: '1 rue du Port',
        city: 'Nouméa',
      });
      const admin = await buildUser(ctx.db, { company, role: 'ROLE_ADMIN' });

      // Two sites and none chosen: the form is refused, nothing is stored.
      const png = await qrPng('document');
      const unchosen = await ctx.app.inject({
        method: 'POST',
        url: '/api/visitor/create',
        ...multipart(
          visitorFormFields({
            company_id: company.slug,
            email: 'lea@example.com',
            request_date: '24/11/2030',
            request_time: '10:30',
          }),
          {
            request_image: { filename: 'id.png', contentType: 'image/png', bytes: png },
          },
        ),
      });
      expect(unchosen.statusCode).toBe(400);
      expect(unchosen.json()).toMatchObject({
        message: fr.site.choose,
        errors: { site_id: fr.site.choose },
      });
      expect(
        await ctx.db.select().from(visitors).where(eq(visitors.email, 'lea@example.com')),
      ).toEqual([]);

      const { visitorId, request } = await submitVisitorForm(company.slug, {
        email: 'lea@example.com',
        site_id: noumea.id,
      });
      expect(request.statusCode).toBe(201);
      const [stored] = await ctx.db.select().from(visitors).where(eq(visitors.id, visitorId));
      expect(stored!.siteId).toBe(noumea.id);
      const id = request.json().data.id as string;
      const status = await call({ method: 'GET', url: `/api/requests/status/${id}` });
      expect(status.statusCode, status.body).toBe(200);
      expect(status.json().data.recap.site).toEqual({
        id: noumea.id,
        name: 'Port de Nouméa',
        timezone: 'Pacific/Noumea',
      });

      const confirmed = await call(
        { method: 'PUT', url: `/api/requests/update/${id}`, payload: { status: 1, confirmed: 1 } },
        admin.email,
      );
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      // The card sends the visitor to the site's address, not the company's.
      expect(confirmed.json().data).toMatchObject({
        site: { id: noumea.id, name: 'Port de Nouméa', timezone: 'Pacific/Noumea' },
        address: '1 rue du Port',
        city: 'Nouméa',
      });
    });
  });

  describe('POST /api/requests/create', () => {
    it('creates the request anonymously: 201 with the spec message and the id; stored pending', async () => {
      const { visitorId, request } = await submitVisitorForm(acme.company.slug);
      expect(request.statusCode).toBe(201);
      expect(request.json().message).toBe('Demande créée avec succès.');
      const id = request.json().data.id as string;
      const [row] = await ctx.db.select().from(visitRequests).where(eq(visitRequests.id, id));
      expect(row).toMatchObject({
        companyId: acme.company.id,
        visitorId,
        host: 'M. Diallo',
        reason: 'Entretien',
        status: null,
        confirmed: null,
      });
      // A UUID v7: time-ordered, unguessable.
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    });

    it('400 for a malformed visitor id, 404 for an unknown one, 409 for a second request', async () => {
      const bad = await call({
        method: 'POST',
        url: '/api/requests/create',
        payload: { visitor_id: '12' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(API_MESSAGES.badRequest);
      const unknown = await call({
        method: 'POST',
        url: '/api/requests/create',
        payload: { visitor_id: UNKNOWN_ID },
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(API_MESSAGES.notFound);
      const { visitorId } = await submitVisitorForm(acme.company.slug);
      const again = await call({
        method: 'POST',
        url: '/api/requests/create',
        payload: { visitor_id: visitorId, host: 'X' },
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('Une demande existe déjà pour ce visiteur.');
    });

    it("refuses a meeting whose day is past in the company's zone (400), and creates nothing", async () => {
      const yesterday = visitDate(dayOf(new Date(Date.now() - 86_400_000), 'Africa/Abidjan'));
      const visitor = await buildVisitor(ctx.db, { company: acme.company, requestDate: yesterday });
      const res = await call({
        method: 'POST',
        url: '/api/requests/create',
        payload: { visitor_id: visitor.id, host: 'M. Diallo' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: VISITOR_MESSAGES.datePast,
        errors: { request_date: VISITOR_MESSAGES.datePast },
      });
      expect(
        await ctx.db.select().from(visitRequests).where(eq(visitRequests.visitorId, visitor.id)),
      ).toHaveLength(0);

      const today = visitDate(dayOf(new Date(), 'Africa/Abidjan'));
      const onTime = await buildVisitor(ctx.db, { company: acme.company, requestDate: today });
      const ok = await call({
        method: 'POST',
        url: '/api/requests/create',
        payload: { visitor_id: onTime.id, host: 'M. Diallo' },
      });
      expect(ok.statusCode).toBe(201);
    });
  });

  describe('GET /api/requests/list and /api/requests/list/{company}', () => {
    let companyA: Awaited<ReturnType<typeof buildTenant>>;
    let companyB: Awaited<ReturnType<typeof buildTenant>>;

    beforeAll(async () => {
      companyA = await buildTenant(ctx.db);
      companyB = await buildTenant(ctx.db);
      for (let i = 0; i < 12; i++) {
        // A fixed e-mail: a random one could hold the searched text ('a1').
        const v = await buildVisitor(ctx.db, {
          company: companyA.company,
          firstname: `A${i}`,
          email: `visiteur.${i}@example.com`,
        });
        await buildRequest(ctx.db, { company: companyA.company, visitor: v });
      }
      const vb = await buildVisitor(ctx.db, { company: companyB.company, firstname: 'Bintou' });
      await buildRequest(ctx.db, {
        company: companyB.company,
        visitor: vb,
        status: 1,
        confirmed: true,
      });
    });

    it('401 anonymous, 403 for roles without the Demande tile (host, manager)', async () => {
      expect((await call({ method: 'GET', url: '/api/requests/list' })).statusCode).toBe(401);
      expect(
        (await call({ method: 'GET', url: `/api/requests/list/${companyA.company.slug}` }))
          .statusCode,
      ).toBe(401);
      for (const role of ['ROLE_USER', 'ROLE_MANAGER'] as const) {
        const res = await call(
          { method: 'GET', url: '/api/requests/list' },
          companyA.staff[role].email,
        );
        expect(res.statusCode, role).toBe(403);
        expect(res.json().message).toBe(API_MESSAGES.forbidden);
      }
    });

    it('400 for a bad page size', async () => {
      const res = await call(
        { method: 'GET', url: '/api/requests/list?per_page=1000' },
        companyA.staff.ROLE_EMPLOYEE.email,
      );
      expect(res.statusCode).toBe(400);
    });

    it('pages of 10 served by the server, newest first, own company only for staff', async () => {
      for (const role of [
        'ROLE_EMPLOYEE',
        'ROLE_SUPERVISOR',
        'ROLE_SESAME',
        'ROLE_SUPER_ADMIN',
      ] as const) {
        const res = await call(
          { method: 'GET', url: '/api/requests/list' },
          companyA.staff[role].email,
        );
        expect(res.statusCode, role).toBe(200);
        const body = res.json() as { data: RequestRow[]; meta: object };
        expect(body.meta).toEqual({ page: 1, per_page: 10, total: 12 });
        expect(body.data).toHaveLength(10);
        expect(new Set(body.data.map((r) => r.company.id))).toEqual(new Set([companyA.company.id]));
        expect(body.data[0]!.visitor.firstname).toBe('A11');
      }
      const page2 = await call(
        { method: 'GET', url: `/api/requests/list/${companyA.company.slug}?page=2` },
        companyA.staff.ROLE_EMPLOYEE.email,
      );
      expect(page2.json().data.map((r: RequestRow) => r.visitor.firstname)).toEqual(['A1', 'A0']);
    });

    it('admin sees every company on /list, and any company on /list/{company}', async () => {
      const all = await call(
        { method: 'GET', url: '/api/requests/list?per_page=100' },
        companyA.staff.ROLE_ADMIN.email,
      );
      const companiesSeen = new Set(all.json().data.map((r: RequestRow) => r.company.id));
      expect(companiesSeen.has(companyA.company.id)).toBe(true);
      expect(companiesSeen.has(companyB.company.id)).toBe(true);
      const other = await call(
        { method: 'GET', url: `/api/requests/list/${companyB.company.id}` },
        companyA.staff.ROLE_ADMIN.email,
      );
      expect(other.statusCode).toBe(200);
      expect(other.json().data.map((r: RequestRow) => r.visitor.firstname)).toEqual(['Bintou']);
    });

    it("another company's list answers 404, exactly like an unknown company", async () => {
      for (const role of ['ROLE_EMPLOYEE', 'ROLE_SUPERVISOR', 'ROLE_SESAME'] as const) {
        const res = await call(
          { method: 'GET', url: `/api/requests/list/${companyB.company.slug}` },
          companyA.staff[role].email,
        );
        expect(res.statusCode, role).toBe(404);
        expect(res.json().message).toBe(API_MESSAGES.notFound);
      }
      const unknown = await call(
        { method: 'GET', url: '/api/requests/list/no-such-company' },
        companyA.staff.ROLE_ADMIN.email,
      );
      expect(unknown.statusCode).toBe(404);
    });

    it('searches on the server', async () => {
      const res = await call(
        { method: 'GET', url: '/api/requests/list?q=a1' },
        companyA.staff.ROLE_EMPLOYEE.email,
      );
      // The search also reads the code, which is random: a code holding 'A1' is found too.
      const codes = await ctx.db
        .select({ firstname: visitors.firstname, uidn: visitors.uidn })
        .from(visitors);
      const byCode = codes
        .filter((v) => /^A\d+$/.test(v.firstname) && v.uidn.includes('A1'))
        .map((v) => v.firstname);
      expect(
        res
          .json()
          .data.map((r: RequestRow) => r.visitor.firstname)
          .sort(),
      ).toEqual([...new Set(['A1', 'A10', 'A11', ...byCode])].sort());
    });

    it('finds a visitor by their whole code, typed any case without dashes', async () => {
      // A company of its own, so the other tests' counts stay as they are.
      const tenant = await buildTenant(ctx.db);
      const visitor = await buildVisitor(ctx.db, { company: tenant.company, firstname: 'Coded' });
      await buildRequest(ctx.db, { company: tenant.company, visitor, status: 1, confirmed: true });
      const typed = visitor.uidn.replace(/-/g, '').toLowerCase();
      const res = await call(
        { method: 'GET', url: `/api/requests/list?q=${typed}` },
        tenant.staff.ROLE_EMPLOYEE.email,
      );
      expect(res.json().data.map((r: RequestRow) => r.visitor.firstname)).toEqual(['Coded']);
    });

    it('shows status fields, the code only once confirmed, the document as a signed URL that works', async () => {
      const { request } = await submitVisitorForm(companyB.company.slug, { firstname: 'Zoé' });
      const id = request.json().data.id as string;
      const res = await call(
        { method: 'GET', url: '/api/requests/list?q=Zoé' },
        companyB.staff.ROLE_EMPLOYEE.email,
      );
      const row = (res.json().data as RequestRow[])[0]!;
      expect(row).toMatchObject({
        id,
        status: null,
        confirmed: null,
        host: 'M. Diallo',
        reason: 'Entretien',
        request_date: '24/11/2030',
        request_time: '10:30',
        // The number as typed (0701020304), stored in E.164.
        visitor: {
          uidn: null,
          firstname: 'Zoé',
          email: 'awa@example.com',
          contact: '+2250701020304',
        },
      });
      expect(row.visitor.request_image_type).toBe('image/png');
      expect(row.visitor.request_image).toMatch(
        /^\/api\/files\/[0-9a-f-]+\?session=[0-9a-f-]+&expires=\d+&signature=/,
      );
      // With the employee's own bearer token: the URL alone opens nothing (issue 26 §3).
      const image = await call(
        { method: 'GET', url: row.visitor.request_image! },
        companyB.staff.ROLE_EMPLOYEE.email,
      );
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      const unsigned = await call(
        {
          method: 'GET',
          url: row.visitor.request_image!.replace(/signature=[^&]+/, 'signature=forged'),
        },
        companyB.staff.ROLE_EMPLOYEE.email,
      );
      expect(unsigned.statusCode).toBe(404);
      const bintou = await call(
        { method: 'GET', url: '/api/requests/list?q=Bintou' },
        companyB.staff.ROLE_EMPLOYEE.email,
      );
      expect(bintou.json().data[0].visitor.uidn).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    });

    it("?event= lists one event's participants with their check-ins; without it, meeting requests only", async () => {
      const event = await buildEvent(ctx.db, { company: companyA.company, name: 'Salon' });
      const png = await qrPng('doc');
      const registered = await ctx.db.transaction((tx) =>
        createConfirmedEventRegistration(tx, ctx.app.storage, {
          event,
          document: {
            field: 'request_image',
            filename: 'id.png',
            bytes: png,
            mediaType: 'image/png',
          },
          fields: {
            company_id: companyA.company.id,
            firstname: 'Guest',
            lastname: 'One',
            id_number: 'X1',
            organisation_name: 'Org',
            email: 'guest@example.com',
            contact: '0102030405',
            address: 'ignored',
            city: '',
            country: '',
            state: '',
            zipcode: '',
            host: '',
            reason: '',
            request_date: '01/01/2020',
            request_time: '01:00',
            visitor_type: '',
            language: 'fr',
          },
        }),
      );
      expect(registered.visitor).toMatchObject({
        eventId: event.id,
        address: event.addressName,
        requestDate: event.dateEvent,
        requestTime: event.timeEvent,
      });
      expect(registered.request).toMatchObject({
        confirmed: true,
        status: 1,
        reason: 'not applicable',
      });
      const outbox = await ctx.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, 'guest@example.com'));
      expect(outbox).toHaveLength(1);
      await ctx.db.insert(visitorChecks).values({
        companyId: companyA.company.id,
        siteId: companyA.company.siteId,
        visitorId: registered.visitor.id,
        checkInMethod: 'scan',
        checkInAt: new Date('2030-12-24T09:05:00Z'),
      });

      // Participants are seen by the roles of the event list (a manager too, not an employee).
      const denied = await call(
        { method: 'GET', url: `/api/requests/list/${companyA.company.slug}?event=${event.slug}` },
        companyA.staff.ROLE_EMPLOYEE.email,
      );
      expect(denied.statusCode).toBe(403);
      const manager = await call(
        { method: 'GET', url: `/api/requests/list/${companyA.company.slug}?event=${event.slug}` },
        companyA.staff.ROLE_MANAGER.email,
      );
      expect(manager.statusCode).toBe(200);
      const email = companyA.staff.ROLE_SUPERVISOR.email;
      for (const key of [event.slug, event.id]) {
        const res = await call(
          { method: 'GET', url: `/api/requests/list/${companyA.company.slug}?event=${key}` },
          email,
        );
        expect(res.statusCode).toBe(200);
        const rows = res.json().data as RequestRow[];
        expect(rows).toHaveLength(1);
        expect(rows[0]!.visitor).toMatchObject({
          firstname: 'Guest',
          evenements: { id: event.id, name: 'Salon', slug: event.slug },
          checkIns: [{ check_in_time: '2030-12-24T09:05:00.000Z', check_out_time: null }],
        });
      }
      const meetings = await call({ method: 'GET', url: '/api/requests/list?per_page=100' }, email);
      expect(meetings.json().data.some((r: RequestRow) => r.visitor.firstname === 'Guest')).toBe(
        false,
      );
      const both = await call(
        { method: 'GET', url: '/api/requests/list?per_page=100&event=all' },
        email,
      );
      expect(both.json().meta.total).toBe(13);
      const otherCompanysEvent = await call(
        { method: 'GET', url: `/api/requests/list/${companyA.company.slug}?event=${event.slug}` },
        companyB.staff.ROLE_SUPERVISOR.email,
      );
      expect(otherCompanysEvent.statusCode).toBe(404);
      const unknownEvent = await call(
        { method: 'GET', url: `/api/requests/list/${companyA.company.slug}?event=nope` },
        email,
      );
      expect(unknownEvent.statusCode).toBe(404);
    });
  });

  describe('PUT /api/requests/update/{id} and GET /api/requests/status/{id}', () => {
    it('the ladder: 401, 400 with the message, 403 supervisor, 404 other company, 404 unknown', async () => {
      const { request } = await submitVisitorForm(acme.company.slug);
      const id = request.json().data.id as string;
      const put = (payload: object, email?: string, target = id) =>
        call({ method: 'PUT', url: `/api/requests/update/${target}`, payload }, email);
      expect((await put({ status: 1, confirmed: 1 })).statusCode).toBe(401);
      const bad = await put({ status: 1, confirmed: 2 }, acme.staff.ROLE_EMPLOYEE.email);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(API_MESSAGES.badRequest);
      const badId = await put({ status: 1, confirmed: 1 }, acme.staff.ROLE_EMPLOYEE.email, 'abc');
      expect(badId.statusCode).toBe(400);
      const sup = await put({ status: 1, confirmed: 1 }, acme.staff.ROLE_SUPERVISOR.email);
      expect(sup.statusCode).toBe(403);
      expect(sup.json().message).toBe(API_MESSAGES.forbidden);
      for (const role of ['ROLE_EMPLOYEE', 'ROLE_MANAGER', 'ROLE_USER', 'ROLE_SESAME'] as const) {
        const other = await put({ status: 1, confirmed: 1 }, globex.staff[role].email);
        expect(other.statusCode, role).toBe(404);
      }
      expect(
        (await put({ status: 1, confirmed: 1 }, acme.staff.ROLE_EMPLOYEE.email, UNKNOWN_ID))
          .statusCode,
      ).toBe(404);
      const [row] = await ctx.db.select().from(visitRequests).where(eq(visitRequests.id, id));
      expect(row!.confirmed).toBeNull();
    });

    it('Valider confirms, queues one mail in the same transaction, answers data.uidn; the status changes', async () => {
      const { visitorId, request } = await submitVisitorForm(acme.company.slug, {
        email: 'valider@example.com',
      });
      const id = request.json().data.id as string;

      const pending = await call({ method: 'GET', url: `/api/requests/status/${id}` });
      expect(pending.statusCode).toBe(200);
      expect(pending.headers['cache-control']).toBe('no-store');
      expect(pending.json().data).toEqual({
        id,
        state: 'pending',
        status: null,
        confirmed: false,
        decline_reason: null,
        recap: {
          firstname: 'Awa',
          lastname: 'Koné',
          organisation_name: 'Acme',
          request_date: '24/11/2030',
          request_time: '10:30',
          host: 'M. Diallo',
          reason: 'Entretien',
          company: acme.company.name,
          company_slug: acme.company.slug,
          // Issue 28: the site of the visit, the company's only one.
          site: {
            id: acme.company.siteId,
            name: acme.company.name,
            timezone: acme.company.timezone,
          },
        },
        card: null,
        request: null,
      });
      const staffView = await call(
        { method: 'GET', url: `/api/requests/status/${id}` },
        acme.staff.ROLE_USER.email,
      );
      expect(staffView.json().data.request).toMatchObject({ id, visitor: { id: visitorId } });
      const otherStaff = await call(
        { method: 'GET', url: `/api/requests/status/${id}` },
        globex.staff.ROLE_EMPLOYEE.email,
      );
      expect(otherStaff.json().data.request).toBeNull();

      const res = await call(
        { method: 'PUT', url: `/api/requests/update/${id}`, payload: { status: 1, confirmed: 1 } },
        acme.staff.ROLE_EMPLOYEE.email,
      );
      expect(res.statusCode).toBe(200);
      const [visitor] = await ctx.db.select().from(visitors).where(eq(visitors.id, visitorId));
      expect(res.json().data).toMatchObject({
        uidn: visitor!.uidn,
        firstname: 'Awa',
        host: 'M. Diallo',
        date: '24/11/2030',
        time: '10:30',
      });
      expect(res.json().data.qr_code).toMatch(/^data:image\/png;base64,/);
      const [row] = await ctx.db.select().from(visitRequests).where(eq(visitRequests.id, id));
      expect(row).toMatchObject({
        status: 1,
        confirmed: true,
        decidedBy: acme.staff.ROLE_EMPLOYEE.id,
      });
      expect(row!.decidedAt).toBeInstanceOf(Date);
      const mails = await ctx.db
        .select()
        .from(mailOutbox)
        .where(
          and(eq(mailOutbox.toAddress, 'valider@example.com'), eq(mailOutbox.kind, 'visitor_code')),
        );
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({
        companyId: acme.company.id,
        kind: 'visitor_code',
        status: 'pending',
        payload: { visitorId },
      });

      const confirmed = await call({ method: 'GET', url: `/api/requests/status/${id}` });
      expect(confirmed.json().data).toMatchObject({
        state: 'confirmed',
        status: 1,
        confirmed: true,
        card: { uidn: visitor!.uidn, firstname: 'Awa' },
        request: null,
      });

      // Confirming again changes nothing and queues nothing.
      const again = await call(
        {
          method: 'PUT',
          url: `/api/requests/update/${id}`,
          payload: { status: '1', confirmed: true },
        },
        acme.staff.ROLE_ADMIN.email,
      );
      expect(again.statusCode).toBe(200);
      const after = await ctx.db
        .select()
        .from(mailOutbox)
        .where(
          and(eq(mailOutbox.toAddress, 'valider@example.com'), eq(mailOutbox.kind, 'visitor_code')),
        );
      expect(after).toHaveLength(1);
      const [still] = await ctx.db.select().from(visitRequests).where(eq(visitRequests.id, id));
      expect(still!.decidedBy).toBe(acme.staff.ROLE_EMPLOYEE.id);
    });

    it('admin validates any company; a host (ROLE_USER) validates their own', async () => {
      const v1 = await buildVisitor(ctx.db, { company: globex.company });
      const r1 = await buildRequest(ctx.db, { company: globex.company, visitor: v1 });
      const admin = await call(
        {
          method: 'PUT',
          url: `/api/requests/update/${r1.id}`,
          payload: { status: 1, confirmed: 1 },
        },
        acme.staff.ROLE_ADMIN.email,
      );
      expect(admin.statusCode).toBe(200);
      const v2 = await buildVisitor(ctx.db, { company: acme.company });
      const r2 = await buildRequest(ctx.db, { company: acme.company, visitor: v2 });
      const host = await call(
        {
          method: 'PUT',
          url: `/api/requests/update/${r2.id}`,
          payload: { status: 1, confirmed: 1 },
        },
        acme.staff.ROLE_USER.email,
      );
      expect(host.statusCode).toBe(200);
    });

    it('two hosts pressing Valider at once confirm once and queue one mail', async () => {
      const v = await buildVisitor(ctx.db, { company: acme.company, email: 'race@example.com' });
      const r = await buildRequest(ctx.db, { company: acme.company, visitor: v });
      const emails = [
        acme.staff.ROLE_EMPLOYEE.email,
        acme.staff.ROLE_ADMIN.email,
        acme.staff.ROLE_MANAGER.email,
        acme.staff.ROLE_USER.email,
        acme.staff.ROLE_SESAME.email,
      ];
      // Each signed in first, so that the calls below race on the decision, not on the login.
      for (const email of emails) await call({ method: 'GET', url: '/api/user/info' }, email);
      const results = await Promise.all(
        emails.map((email) =>
          call(
            {
              method: 'PUT',
              url: `/api/requests/update/${r.id}`,
              payload: { status: 1, confirmed: 1 },
            },
            email,
          ),
        ),
      );
      expect(results.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200]);
      const mails = await ctx.db
        .select()
        .from(mailOutbox)
        .where(
          and(eq(mailOutbox.toAddress, 'race@example.com'), eq(mailOutbox.kind, 'visitor_code')),
        );
      expect(mails).toHaveLength(1);
    });

    it('status: 400 for a malformed id, 404 for an unknown one', async () => {
      expect((await call({ method: 'GET', url: '/api/requests/status/1' })).statusCode).toBe(400);
      expect(
        (await call({ method: 'GET', url: `/api/requests/status/${UNKNOWN_ID}` })).statusCode,
      ).toBe(404);
    });
  });
});
