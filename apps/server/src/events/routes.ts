import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_MESSAGES,
  EVENT_MESSAGES,
  ID_FILE_MAX_BYTES,
  eventAttendanceListSchema,
  eventAttendanceQuerySchema,
  eventCreateSchema,
  eventEnvelopeSchema,
  eventRegisteredSchema,
  eventSchema,
  eventVisitorLogQuerySchema,
  eventVisitorLogSchema,
  firstVisitorIssue,
  listQuerySchema,
  paginatedSchema,
  publicEventEnvelopeSchema,
  visitorFormSchema,
  visitorIssueMap,
  type ListQuery,
} from '@sesame/shared';
import {
  companyForNewRecord,
  companyItself,
  companyScope,
  loadAuthorized,
  signedIn,
} from '../auth/authorize';
import { findCompany } from '../companies/service';
import {
  badRequest,
  conflict,
  HttpError,
  isUniqueViolation,
  notFound,
  payloadTooLarge,
} from '../errors';
import { ALLOWED } from '../files/detect';
import { checkFile, readMultipart } from '../files/uploads';
import { qrPng, qrTargets } from '../qr/qr';
import { removingStoredFilesOnFailure } from '../visitors/service';
import {
  presentAttendance,
  presentEvent,
  presentEventVisitorLog,
  presentPublicEvent,
} from './presenter';
import {
  closeEvent,
  deleteEventIfEmpty,
  eventState,
  findEvent,
  findEventBySlug,
  insertEvent,
  listAttendance,
  listEvents,
  listEventVisitorLogs,
  registerForEvent,
} from './service';
import { eventStartsAt, isEventDayOver } from './time';

const idParams = z.object({ id: z.uuid({ error: API_MESSAGES.badRequest }) });
const slugParam = z.string().min(1).max(100);
const gone = (message: string) => new HttpError(409, message);

export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  const publicUrl = app.config.publicUrl;

  /** A company's event by the two slugs of its share link; anything else is a 404. */
  async function eventBySlugs(companySlug: string, eventSlug: string) {
    const company = await findCompany(app.db, companySlug);
    if (!company) throw notFound();
    const event = await findEventBySlug(app.db, company.id, eventSlug);
    if (!event) throw notFound();
    return event;
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
      const input = request.body;
      const company = await findCompany(
        app.db,
        companyForNewRecord(who, 'events.create', input.company_id),
      );
      if (!company) throw notFound();
      if (isEventDayOver(input.date_event, company.timezone)) {
        throw badRequest(EVENT_MESSAGES.datePast, { date_event: EVENT_MESSAGES.datePast });
      }
      const startsAt = eventStartsAt(input.date_event, input.time_event, company.timezone);
      for (let attempt = 1; ; attempt++) {
        try {
          const created = await app.db.transaction((tx) =>
            insertEvent(tx, input, { companyId: company.id, startsAt, createdBy: who.userId }),
          );
          request.log.info(
            { eventId: created.id, companyId: company.id, by: who.userId },
            'event created',
          );
          const row = await findEvent(app.db, created.id);
          return reply
            .code(201)
            .send({ message: EVENT_MESSAGES.created, data: presentEvent(row!, publicUrl) });
        } catch (error) {
          // Two events of the same name at the same moment: the loser takes the next suffix.
          if (attempt < 5 && isUniqueViolation(error, 'events_company_slug_key')) continue;
          throw error;
        }
      }
    },
  );

  const listAnswer = async (query: ListQuery, companyId: string | undefined) => {
    const { rows, total } = await listEvents(app.db, query, companyId);
    return {
      data: rows.map((row) => presentEvent(row, publicUrl)),
      meta: { page: query.page, per_page: query.per_page, total },
    };
  };

  app.get(
    '/evenement/list',
    {
      config: { action: 'events.list' },
      schema: {
        tags: ['events'],
        summary: 'Events the caller may see, newest first, paged (?page=&per_page=&q=).',
        querystring: listQuerySchema,
        response: { 200: paginatedSchema(eventSchema) },
      },
    },
    async (request) => {
      const who = signedIn(request);
      return listAnswer(request.query, companyScope(who, 'events.list'));
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
      const { record: company } = await loadAuthorized(
        request,
        findCompany,
        'events.list',
        request.params.company,
        companyItself,
      );
      return listAnswer(request.query, company.id);
    },
  );

  app.get(
    '/evenement/:id',
    {
      config: { action: 'events.list' },
      schema: {
        tags: ['events'],
        summary: "One event ('Événement Rétrouvé'), for staff who may list its company's events.",
        params: idParams,
        response: { 200: eventEnvelopeSchema },
      },
    },
    async (request) => {
      const { record: event } = await loadAuthorized(
        request,
        findEvent,
        'events.list',
        request.params.id,
      );
      return { message: EVENT_MESSAGES.found, data: presentEvent(event, publicUrl) };
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
      const { who, record: event } = await loadAuthorized(
        request,
        findEvent,
        'events.delete',
        request.params.id,
      );
      if (event.participantCount > 0) {
        throw conflict(EVENT_MESSAGES.hasParticipants(event.name, event.participantCount));
      }
      const deleted = await app.db.transaction((tx) => deleteEventIfEmpty(tx, event.id));
      if (!deleted) {
        const now = await findEvent(app.db, event.id);
        throw conflict(EVENT_MESSAGES.hasParticipants(event.name, now?.participantCount ?? 1));
      }
      request.log.info({ eventId: event.id, by: who.userId }, 'event deleted');
      return { message: EVENT_MESSAGES.deleted };
    },
  );

  app.put(
    '/evenement/close/:id',
    {
      config: { action: 'events.delete' },
      schema: {
        tags: ['events'],
        summary:
          'Close an event to new registrations (those who may delete it). Participants already registered keep ' +
          'their codes. Closing again changes nothing.',
        params: idParams,
        response: { 200: eventEnvelopeSchema },
      },
    },
    async (request) => {
      const { who, record: event } = await loadAuthorized(
        request,
        findEvent,
        'events.delete',
        request.params.id,
      );
      await closeEvent(app.db, event.id);
      request.log.info({ eventId: event.id, by: who.userId }, 'event closed');
      const row = await findEvent(app.db, event.id);
      return { message: EVENT_MESSAGES.closedNow, data: presentEvent(row!, publicUrl) };
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
      const state = eventState(event, event.company.timezone);
      return { message: EVENT_MESSAGES.found, data: presentPublicEvent(event, state, publicUrl) };
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
            .regex(/^[A-Za-z0-9-]+\.png$/, { error: API_MESSAGES.badRequest }),
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
      config: {
        public: true,
        // Per client and event: a share link is no way to mail many people from one place.
        rateLimit: {
          max: limits.registrationsPerClientPerEvent,
          timeWindow: limits.registrationWindowMs,
          keyGenerator: (request) => {
            const { company, event } = request.params as { company?: string; event?: string };
            return `${request.ip}|${company ?? ''}/${event ?? ''}`;
          },
          errorResponseBuilder: () => new HttpError(429, EVENT_MESSAGES.clientLimit),
        },
      },
      schema: {
        tags: ['events'],
        summary:
          'Register through the share link (public JoinEvent form). multipart/form-data: the visitor fields of ' +
          'spec §3 (firstname, lastname, id_number, organisation_name, email, contact, language fr|en) and the identity ' +
          "document as `request_image` (JPEG, PNG, WebP or PDF, ≤ 2 MiB); the place, date and time are the event's " +
          "whatever is sent. Creates the visitor and a confirmed request (reason 'not applicable') and queues the code " +
          'mail, in one transaction. A closed or past event, or an e-mail already registered, answers 409.',
        security: [],
        consumes: ['multipart/form-data'],
        params: z.object({ company: slugParam, event: slugParam }),
        response: { 201: eventRegisteredSchema },
      },
    },
    async (request, reply) => {
      const event = await eventBySlugs(request.params.company, request.params.event);
      const body = await readMultipart(request, ID_FILE_MAX_BYTES);
      const refusal = (state: 'closed' | 'over') =>
        gone(state === 'closed' ? EVENT_MESSAGES.registrationClosed : EVENT_MESSAGES.eventOver);
      const state = eventState(event, event.company.timezone);
      if (state !== 'open') throw refusal(state);

      const upload = body.files.request_image;
      const parsed = visitorFormSchema.safeParse({
        ...body.fields,
        company_id: event.companyId,
        host: '',
        reason: '',
        address: event.addressName,
        city: event.city ?? '',
        state: event.state ?? '',
        zipcode: event.zipcode ?? '',
        country: event.country ?? '',
        request_date: event.dateEvent,
        request_time: event.timeEvent,
        request_image: upload ? { size: upload.bytes.length } : undefined,
      });
      if (!parsed.success) {
        const first = firstVisitorIssue(parsed.error);
        if (first.key === 'fileTooLarge') throw payloadTooLarge(first.message);
        throw badRequest(first.message, visitorIssueMap(parsed.error));
      }
      const document = checkFile(upload, ALLOWED.identityDocument, ID_FILE_MAX_BYTES);

      const outcome = await removingStoredFilesOnFailure(app.storage, (storage) =>
        app.db.transaction((tx) =>
          registerForEvent(tx, storage, {
            eventId: event.id,
            timeZone: event.company.timezone,
            fields: parsed.data,
            document,
            mailsPerRecipientPerDay: limits.registrationMailsPerRecipientPerDay,
          }),
        ),
      );
      if (outcome.kind === 'gone') throw notFound();
      if (outcome.kind === 'duplicate') throw conflict(EVENT_MESSAGES.alreadyRegistered);
      if (outcome.kind === 'recipientLimit') {
        throw new HttpError(429, EVENT_MESSAGES.recipientLimit);
      }
      if (outcome.kind !== 'registered') throw refusal(outcome.kind);
      request.log.info(
        { eventId: event.id, visitorId: outcome.visitorId, companyId: event.companyId },
        'event registration',
      );
      return reply.code(201).send({
        message: EVENT_MESSAGES.registered,
        data: {
          visitor_id: outcome.visitorId,
          request_id: outcome.requestId,
          firstname: parsed.data.firstname,
          lastname: parsed.data.lastname,
          email: parsed.data.email,
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
        ? (
            await loadAuthorized(
              request,
              findCompany,
              'eventAttendance.list',
              request.query.company,
              companyItself,
            )
          ).record.id
        : companyScope(who, 'eventAttendance.list');
      const { rows, total } = await listAttendance(app.db, request.query, companyId);
      return {
        data: presentAttendance(rows, app.fileUrls.for(who)),
        meta: { page: request.query.page, per_page: request.query.per_page, total },
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
      const { record: company } = await loadAuthorized(
        request,
        findCompany,
        'visitorLogs.list',
        request.params.domain,
        companyItself,
      );
      const page = await listEventVisitorLogs(app.db, request.query, company.id);
      if (!page) throw notFound();
      return {
        data: page.rows.map((row) =>
          presentEventVisitorLog(row, app.fileUrls.for(request.principal)),
        ),
        meta: { page: request.query.page, per_page: request.query.per_page, total: page.total },
      };
    },
  );
};
