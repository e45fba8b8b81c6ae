import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../params';
import {
  ID_FILE_MAX_BYTES,
  eventAttendanceListSchema,
  eventAttendanceQuerySchema,
  eventCreateSchema,
  eventEnvelopeSchema,
  eventRegisteredSchema,
  eventSchema,
  eventVisitorLogQuerySchema,
  eventVisitorLogSchema,
  eventListQuerySchema,
  listQuerySchema,
  paginatedSchema,
  publicEventEnvelopeSchema,
  type ListQuery,
  said,
} from '@sesame/shared';
import { listMeta } from '../db/pagination';
import { companyForNewRecord, companyScope, loadAuthorized, signedIn } from '../auth/authorize';
import { EXPORT_MAX_ROWS, sendCsv } from '../checkins/csv';
import { findCompany } from '../companies/service';
import { loadCompany } from '../companies/load';
import type { Db } from '../db/client';
import { conflict, notFound } from '../errors';
import { readMultipart } from '../files/uploads';
import { qrPng, qrTargets } from '../qr/qr';
import { participantsCsv, participantsFileName } from './participants';
import {
  presentAttendance,
  presentEvent,
  presentEventVisitorLog,
  presentPublicEvent,
} from './presenter';
import { registrationDesk } from './registration';
import {
  closeEvent,
  createEvent,
  deleteEventIfEmpty,
  eventState,
  findEvent,
  findEventBySlug,
  listAttendance,
  listEvents,
  listEventVisitorLogs,
} from './service';
import { found } from '../db/rows';
import { assertWithinSites, siteForNewRecord, siteScope } from '../sites/service';
import { say } from '../language';

const slugParam = z.string().min(1).max(100);

/** A company's event by the two segments of its share link (company slug or id, event slug). */
async function findEventBySlugs(db: Db, slugs: { company: string; event: string }) {
  const company = await findCompany(db, slugs.company);
  return company ? findEventBySlug(db, company.id, slugs.event) : null;
}

export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  const publicUrl = app.config.publicUrl;

  /** A company's event by the two slugs of its share link; anything else is a 404. */
  async function eventBySlugs(company: string, event: string) {
    const found = await findEventBySlugs(app.db, { company, event });
    if (!found) throw notFound();
    return found;
  }

  app.post(
    '/evenement/create',
    {
      config: { action: 'events.create' },
      schema: {
        tags: ['events'],
        summary:
          "Create an event ('Création Événement'). JSON: company_id (id or slug; only the roles that may choose " +
          'the company are heard, the others create in their own), name, location, address_name, date_event DD/MM/YYYY, time_event HH:MM ' +
          "(in the company's time zone; a past day is refused), optional city, country, state, zipcode, departement_id (default 1). " +
          'The slug comes from the name, unique within the company (-2, -3…), and never changes.',
        body: eventCreateSchema,
        response: { 201: eventEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const who = signedIn(request);
      const company = await findCompany(
        app.db,
        companyForNewRecord(who, 'events.create', request.body.company_id),
      );
      if (!company) throw notFound();
      // Its site (issue 28): the one named, else the company's only site or the creator's home site.
      const site = await siteForNewRecord(
        app.db,
        company.id,
        request.body.site_id,
        company.id === who.companyId ? who.homeSiteId : null,
      );
      assertWithinSites(who, site);
      const event = await createEvent(app.db, request.body, {
        company,
        site,
        createdBy: who.userId,
      });
      request.log.info(
        { eventId: event.id, companyId: company.id, by: who.userId },
        'event created',
      );
      return reply.code(201).send({
        message: say(request, (m) => m.event.created),
        data: presentEvent(event, publicUrl),
      });
    },
  );

  const listAnswer = async (
    query: ListQuery,
    companyId: string | undefined,
    siteIds?: string[],
  ) => {
    const { rows, total } = await listEvents(app.db, query, companyId, siteIds);
    return {
      data: rows.map((row) => presentEvent(row, publicUrl)),
      meta: listMeta(query, total),
    };
  };

  app.get(
    '/evenement/list',
    {
      config: { action: 'events.list' },
      schema: {
        tags: ['events'],
        summary:
          "Events the caller may see, newest first, paged (?page=&per_page=&q=); ?site= one site's events.",
        querystring: eventListQuerySchema,
        response: { 200: paginatedSchema(eventSchema) },
      },
    },
    async (request) => {
      const who = signedIn(request);
      const companyId = companyScope(who, 'events.list');
      const siteIds = await siteScope(app.db, who, 'events.list', companyId, request.query.site);
      return listAnswer(request.query, companyId, siteIds);
    },
  );

  app.get(
    '/evenement/list/:company',
    {
      config: { action: 'events.list' },
      schema: {
        tags: ['events'],
        summary:
          'Events of one company (slug or id), paged (?page=&per_page=&q=). A company the caller may not reach answers 404.',
        params: z.object({ company: slugParam }),
        querystring: listQuerySchema,
        response: { 200: paginatedSchema(eventSchema) },
      },
    },
    async (request) => {
      const { record: company } = await loadCompany(request, request.params.company);
      return listAnswer(request.query, company.id);
    },
  );

  app.get(
    '/evenement/:id',
    {
      config: { action: 'events.list' },
      schema: {
        tags: ['events'],
        summary: "One event ('Événement retrouvé'), for staff who may list its company's events.",
        params: idParams,
        response: { 200: eventEnvelopeSchema },
      },
    },
    async (request) => {
      const { record: event } = await loadAuthorized(request, findEvent, request.params.id);
      return { message: say(request, (m) => m.event.found), data: presentEvent(event, publicUrl) };
    },
  );

  app.get(
    '/evenement/show/:company/:event',
    {
      config: { action: 'events.list' },
      schema: {
        tags: ['events'],
        summary:
          "One event by its share link's two segments (company slug or id, event slug), for staff who may list " +
          "its company's events: the event page ('Liste Participants'). Another company's event answers 404.",
        params: z.object({ company: slugParam, event: slugParam }),
        response: { 200: eventEnvelopeSchema },
      },
    },
    async (request) => {
      const { record: event } = await loadAuthorized(request, findEventBySlugs, request.params);
      return { message: say(request, (m) => m.event.found), data: presentEvent(event, publicUrl) };
    },
  );

  app.get(
    '/evenement/export/:id',
    {
      config: { action: 'events.list' },
      schema: {
        tags: ['events'],
        summary:
          "An event's participants as CSV for French Excel (UTF-8 with BOM, semicolons), in the order they " +
          'registered: first name, last name, e-mail, contact, employer, registration, first arrival and last ' +
          `departure in the company's time zone; at most ${EXPORT_MAX_ROWS} rows. For staff who may list its events.`,
        params: idParams,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { record: event } = await loadAuthorized(request, findEvent, request.params.id);
      const csv = await participantsCsv(app.db, event, request.lang);
      return sendCsv(reply, participantsFileName(event, request.lang), csv);
    },
  );

  app.delete(
    '/evenement/delete/:id',
    {
      config: { action: 'events.delete' },
      schema: {
        tags: ['events'],
        summary:
          'Delete an event. Refused (409) while it has ' +
          'participants: their registrations and check-ins would be lost; close it instead.',
        params: idParams,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const { who, record: event } = await loadAuthorized(request, findEvent, request.params.id);
      if (event.participantCount > 0) {
        throw conflict((m) => m.event.hasParticipants(event.name, event.participantCount));
      }
      const deleted = await deleteEventIfEmpty(app.db, event, who.userId);
      if (!deleted) {
        const now = await findEvent(app.db, event.id);
        throw conflict((m) => m.event.hasParticipants(event.name, now?.participantCount ?? 1));
      }
      request.log.info({ eventId: event.id, by: who.userId }, 'event deleted');
      return { message: say(request, (m) => m.event.deleted) };
    },
  );

  app.put(
    '/evenement/close/:id',
    {
      config: { action: 'events.delete' },
      schema: {
        tags: ['events'],
        summary:
          'Close an event to new registrations (those who may delete it): the share link and a visitor form ' +
          "naming the event then answer 409 'Les inscriptions à cet événement sont closes.'. Participants already " +
          'registered keep their codes. Audited (event.closed); closing again changes nothing.',
        params: idParams,
        response: { 200: eventEnvelopeSchema },
      },
    },
    async (request) => {
      const { who, record: event } = await loadAuthorized(request, findEvent, request.params.id);
      if (await closeEvent(app.db, event, who.userId)) {
        request.log.info({ eventId: event.id, by: who.userId }, 'event closed');
      }
      const row = found(await findEvent(app.db, event.id), 'the event just closed');
      return {
        message: say(request, (m) => m.event.closedNow),
        data: presentEvent(row, publicUrl),
      };
    },
  );

  app.get(
    '/evenement/slug/:company/:event',
    {
      config: {
        public: true,
        rateLimit: { max: limits.codeLookupPerWindow, timeWindow: limits.windowMs },
      },
      schema: {
        tags: ['events'],
        summary:
          "An event by its company's slug and its own (the share link's two segments), for the JoinEvent form " +
          'and the QR poster. Public: only what the poster shows (no participant); `closed` says whether it ' +
          "still takes registrations. Another company's event slug answers 404.",
        security: [],
        params: z.object({ company: slugParam, event: slugParam }),
        response: { 200: publicEventEnvelopeSchema },
      },
    },
    async (request) => {
      const event = await eventBySlugs(request.params.company, request.params.event);
      const state = eventState(event, event.site.timezone);
      return {
        message: say(request, (m) => m.event.found),
        data: presentPublicEvent(event, state, publicUrl),
      };
    },
  );

  app.get(
    '/public/qrcode-event/:company/:file',
    {
      config: { public: true },
      schema: {
        tags: ['events'],
        summary:
          "QR image (PNG) of an event's share link, {PUBLIC_URL}/company/{company}/event/{event} (the public poster).",
        security: [],
        params: z.object({
          company: slugParam,
          file: z
            .string()
            .max(120)
            .regex(
              /^[A-Za-z0-9-]+\.png$/,
              said((m) => m.api.badRequest),
            ),
        }),
      },
    },
    async (request, reply) => {
      const eventSlug = request.params.file.replace(/\.png$/, '');
      const event = await eventBySlugs(request.params.company, eventSlug);
      const png = await qrPng(qrTargets.eventShareLink(publicUrl, event.company.slug, event.slug));
      return reply
        .header('content-type', 'image/png')
        .header('cache-control', 'public, max-age=3600')
        .send(png);
    },
  );

  app.post(
    '/evenement/:company/:event/register',
    {
      config: { public: true },
      schema: {
        tags: ['events'],
        summary:
          'Register through the share link (public JoinEvent form). multipart/form-data: the visitor fields of ' +
          'spec §3 (firstname, lastname, id_number, organisation_name, email, contact, language fr|en) and the identity ' +
          "document as `request_image` (JPEG, PNG, WebP or PDF, ≤ 2 MiB); the place, date and time are the event's " +
          "whatever is sent. Creates the visitor and a confirmed request (reason 'not applicable') and queues the code " +
          'mail, in one transaction. The same registration as POST /visitor/create with `evenements_id`, under the same ' +
          'limits (a few per client and event per hour, a few mails per address per day: 429). A closed or past ' +
          'event, or an e-mail already registered, answers 409.',
        security: [],
        consumes: ['multipart/form-data'],
        params: z.object({ company: slugParam, event: slugParam }),
        response: { 201: eventRegisteredSchema },
      },
    },
    async (request, reply) => {
      const event = await eventBySlugs(request.params.company, request.params.event);
      // The upload is read only once the limit and the event's state let it in.
      const { visitor, requestId } = await registrationDesk(app).register(request, event, () =>
        readMultipart(request, ID_FILE_MAX_BYTES),
      );
      return reply.code(201).send({
        message: say(request, (m) => m.event.registered),
        data: {
          visitor_id: visitor.id,
          request_id: requestId,
          firstname: visitor.firstname,
          lastname: visitor.lastname,
          email: visitor.email,
          event: { name: event.name, slug: event.slug },
          company: { name: event.company.name, slug: event.company.slug },
        },
      });
    },
  );

  app.get(
    '/eventattendencelist',
    {
      config: { action: 'eventAttendance.list' },
      schema: {
        tags: ['events'],
        summary:
          'Event attendance: events with their participants (spec §3 "Event attendance entry"), of every company the ' +
          'caller reaches (or one with ?company=slug). Paged over ' +
          'participants (?page=&per_page=&q=); each page groups them under their events.',
        querystring: eventAttendanceQuerySchema,
        response: { 200: eventAttendanceListSchema },
      },
    },
    async (request) => {
      const who = signedIn(request);
      const companyId = request.query.company
        ? (await loadCompany(request, request.query.company)).record.id
        : companyScope(who, 'eventAttendance.list');
      const siteIds = await siteScope(
        app.db,
        who,
        'eventAttendance.list',
        companyId,
        request.query.site,
      );
      const { rows, total } = await listAttendance(app.db, request.query, companyId, siteIds);
      return {
        data: presentAttendance(rows, app.fileUrls.for(who)),
        meta: listMeta(request.query, total),
      };
    },
  );

  app.get(
    '/event/visitorLog/:domain',
    {
      config: { action: 'visitorLogs.list' },
      schema: {
        tags: ['events'],
        summary:
          "Check-ins of a company's event participants (slug or id), newest first, paged (?page=&per_page=&q=); " +
          "?event= an event's slug or id. A company the caller may not reach answers 404.",
        params: z.object({ domain: slugParam }),
        querystring: eventVisitorLogQuerySchema,
        response: { 200: paginatedSchema(eventVisitorLogSchema) },
      },
    },
    async (request) => {
      const { record: company } = await loadCompany(request, request.params.domain);
      const page = await listEventVisitorLogs(app.db, request.query, company.id);
      if (!page) throw notFound();
      return {
        data: page.rows.map((row) =>
          presentEventVisitorLog(row, app.fileUrls.for(request.principal)),
        ),
        meta: listMeta(request.query, page.total),
      };
    },
  );
};
