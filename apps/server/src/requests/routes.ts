import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../params';
import {
  actsOnAllCompanies,
  isPastVisitDate,
  isVisitDate,
  paginatedSchema,
  requestConfirmedSchema,
  requestCreateSchema,
  requestCreatedSchema,
  requestListQuerySchema,
  requestRowSchema,
  requestStatusSchema,
  requestDeclineSchema,
  requestUpdateSchema,
  type RequestListQuery,
} from '@sesame/shared';
import { listMeta } from '../db/pagination';
import { audit } from '../audit/service';
import { companyScope, loadAuthorized, mayAct, signedIn } from '../auth/authorize';
import type { Principal } from '../auth/principal';
import { loadCompany } from '../companies/load';
import { sites, visitors } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import { dayOf } from '../time-zones';
import { findCardSource, isConfirmed, presentVisitorCard } from '../visitors/card';
import { createVisitRequest } from '../visitors/service';
import { decideRequest, findHost, queueRequestFiledMails } from './host-loop';
import { hostLoopRoutes } from './host-routes';
import { presentRequestRow } from './presenter';
import {
  confirmRequest,
  findRequest,
  findRequestRow,
  listRequests,
  visitorHasRequest,
} from './service';
import { siteScope } from '../sites/service';
import { screenVisit } from '../watchlist/match';
import { visitHeld } from '../watchlist/held';
import { say } from '../language';

/**
 * An event's participants are seen by whoever sees the event list (spec §6 events
 * scope); the requests themselves by the 'Demande' roles.
 */
/** An event's guests are listed by those who list events; meeting requests by the request list's roles. */
function listAction(query: Partial<RequestListQuery>): 'events.list' | 'requests.list' {
  return query.event && query.event !== 'all' ? 'events.list' : 'requests.list';
}
const listRight = (request: FastifyRequest) =>
  // The route's querystring schema has parsed request.query before the guard reads it.
  listAction(request.query as Partial<RequestListQuery>);

/** Staff who may see a request's details: its company's (or every company's) staff with a say. */
function mayReadRequest(who: Principal | null, companyId: string): boolean {
  if (!who) return false;
  const action = mayAct(who, 'requests.list') ? 'requests.list' : 'requests.validate';
  if (!mayAct(who, action)) return false;
  return who.companyId === companyId || actsOnAllCompanies(who.role, action);
}

export const requestRoutes: FastifyPluginAsyncZod = async (app) => {
  // The host search and the host's decision link (issue 15).
  await app.register(hostLoopRoutes);
  const limits = app.config.rateLimits;
  const ctx = { publicUrl: app.config.publicUrl, fileUrls: app.fileUrls };

  app.post(
    '/requests/create',
    {
      config: {
        public: true,
        rateLimit: { max: limits.publicFormPerWindow, timeWindow: limits.windowMs },
      },
      schema: {
        tags: ['requests'],
        summary:
          'Creates the visit request of a visitor just created (public). One request per visitor.',
        body: requestCreateSchema,
        response: { 201: requestCreatedSchema },
      },
    },
    async (request, reply) => {
      const { visitor_id, host, host_user_id, reason } = request.body;
      const created = await app.db.transaction(async (tx) => {
        // The visitor row is locked so two submissions cannot both create a request.
        const [visitor] = await tx
          .select({
            id: visitors.id,
            companyId: visitors.companyId,
            eventId: visitors.eventId,
            requestDate: visitors.requestDate,
            timezone: sites.timezone,
          })
          .from(visitors)
          .innerJoin(sites, eq(sites.id, visitors.siteId))
          .where(eq(visitors.id, visitor_id))
          .for('update', { of: visitors });
        if (!visitor) throw notFound();
        // A meeting whose day is already past (the site's zone) is never requested.
        const date = visitor.requestDate;
        if (
          !visitor.eventId &&
          date &&
          isVisitDate(date) &&
          isPastVisitDate(date, dayOf(new Date(), visitor.timezone))
        ) {
          throw badRequest((m) => m.visitor.datePast, { request_date: (m) => m.visitor.datePast });
        }
        if (await visitorHasRequest(tx, visitor.id))
          throw conflict((m) => m.request.alreadyRequested);
        // A host chosen in the search must be an active member of the visitor's company.
        const hostUser =
          host_user_id && !visitor.eventId
            ? await findHost(tx, visitor.companyId, host_user_id)
            : null;
        if (host_user_id && !visitor.eventId && !hostUser)
          throw badRequest((m) => m.request.hostUnknown, { host: (m) => m.request.hostUnknown });
        const created = await createVisitRequest(tx, {
          companyId: visitor.companyId,
          visitorId: visitor.id,
          host: hostUser?.name ?? host,
          hostUserId: hostUser?.id ?? null,
          reason,
        });
        // The watchlist (issue 31): a held request is filed, its host is told once a
        // reviewer allows it; the visitor hears nothing of it.
        const screening = await screenVisit(tx, {
          visitorId: visitor.id,
          requestId: created.id,
          source: 'request',
        });
        if (!visitor.eventId) {
          await queueRequestFiledMails(tx, created, { held: screening !== 'clear' });
        }
        return created;
      });
      request.log.info({ requestId: created.id, companyId: created.companyId }, 'request created');
      return reply
        .code(201)
        .send({ message: say(request, (m) => m.request.created), data: { id: created.id } });
    },
  );

  const listResponse = async (
    query: RequestListQuery,
    companyId: string | undefined,
    viewer: Principal | null,
    siteIds?: string[],
  ) => {
    const page = await listRequests(app.db, query, companyId, siteIds);
    if (!page) throw notFound();
    const fileUrls = app.fileUrls.for(viewer);
    return {
      data: page.rows.map((row) => presentRequestRow(row, fileUrls)),
      meta: listMeta(query, page.total),
    };
  };

  const listDescription =
    'Paged (?page=&per_page=, default 10) and searchable (?q= name, e-mail, contact, employer, host, code). ' +
    "?event= an event slug or id → that event's participants (for the roles of the event list); " +
    '?event=all → meetings and events; ' +
    'without it → meeting requests only.';

  app.get(
    '/requests/list',
    {
      config: { action: listRight },
      schema: {
        tags: ['requests'],
        summary: `Requests the caller may see: every company for admin, their own for others. ${listDescription}`,
        querystring: requestListQuerySchema,
        response: { 200: paginatedSchema(requestRowSchema) },
      },
    },
    async (request) => {
      const who = signedIn(request);
      const action = listAction(request.query);
      const companyId = companyScope(who, action);
      // ?site= (issue 28): one site's requests; a person limited to sites sees theirs.
      const siteIds = await siteScope(app.db, who, action, companyId, request.query.site);
      return listResponse(request.query, companyId, who, siteIds);
    },
  );

  app.get(
    '/requests/list/:company',
    {
      config: { action: listRight },
      schema: {
        tags: ['requests'],
        summary: `Requests of one company (slug or id); another company's list answers 404 except for admin. ${listDescription}`,
        params: z.object({ company: z.string().min(1).max(100) }),
        querystring: requestListQuerySchema,
        response: { 200: paginatedSchema(requestRowSchema) },
      },
    },
    async (request) => {
      const { who, record: company } = await loadCompany(request, request.params.company);
      const action = listAction(request.query);
      const siteIds = await siteScope(app.db, who, action, company.id, request.query.site);
      return listResponse(request.query, company.id, who, siteIds);
    },
  );

  app.put(
    '/requests/update/:id',
    {
      config: { action: 'requests.validate' },
      schema: {
        tags: ['requests'],
        summary:
          "Valider: { status: 1, confirmed: 1 } confirms the request and queues the visitor's code mail " +
          '(same transaction). Confirming again changes nothing.',
        params: idParams,
        body: requestUpdateSchema,
        response: { 200: requestConfirmedSchema },
      },
    },
    async (request) => {
      const { who, record: visitRequest } = await loadAuthorized(
        request,
        findRequest,
        request.params.id,
      );
      const confirmedNow = await app.db.transaction(async (tx) => {
        // A visit the watchlist holds (or denied) waits for its reviewer (issue 31).
        if (await visitHeld(tx, visitRequest.visitorId)) {
          throw conflict((m) => m.watchlist.requestHeld);
        }
        const changed = await confirmRequest(tx, visitRequest, who.userId);
        if (changed) {
          await audit(tx, {
            companyId: visitRequest.companyId,
            actorUserId: who.userId,
            action: 'request.confirmed',
            subjectType: 'request',
            subjectId: visitRequest.id,
          });
        }
        return changed;
      });
      if (confirmedNow) {
        request.log.info({ requestId: visitRequest.id, by: who.userId }, 'request confirmed');
      }
      const source = await findCardSource(app.db, { requestId: visitRequest.id });
      if (!source) throw notFound();
      if (source.request?.confirmed === false) throw conflict((m) => m.request.alreadyDeclined);
      return {
        message: say(request, (m) => m.request.confirmed),
        data: await presentVisitorCard(source, ctx),
      };
    },
  );

  app.put(
    '/requests/decline/:id',
    {
      config: { action: 'requests.validate' },
      schema: {
        tags: ['requests'],
        summary:
          "Annuler (the waiting screen): declines a pending request, recorded as made by the caller; the visitor's " +
          'decline mail (with the reason, when given) is queued in the same transaction. A request already decided ' +
          'answers 409 and is not changed.',
        params: idParams,
        body: requestDeclineSchema,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const { who, record: visitRequest } = await loadAuthorized(
        request,
        findRequest,
        request.params.id,
      );
      const result = await app.db.transaction((tx) =>
        decideRequest(tx, {
          requestId: visitRequest.id,
          userId: who.userId,
          decision: 'decline',
          reason: request.body.reason,
        }),
      );
      if (!result) throw notFound();
      if (result.outcome === 'already') {
        throw conflict(
          result.request.confirmed
            ? (m) => m.request.alreadyConfirmed
            : (m) => m.request.alreadyDeclined,
        );
      }
      request.log.info({ requestId: visitRequest.id, by: who.userId }, 'request declined');
      return { message: say(request, (m) => m.request.declinedByStaff) };
    },
  );

  app.get(
    '/requests/status/:id',
    {
      config: {
        public: true,
        rateLimit: { max: limits.codeLookupPerWindow, timeWindow: limits.windowMs },
      },
      schema: {
        tags: ['requests'],
        summary:
          'What the waiting screen polls (public: the id is an unguessable UUID v7). state pending or ' +
          'confirmed; once confirmed, the visitor card with the code and the QR (data URL). Signed-in ' +
          'staff of the company also get the request row.',
        params: idParams,
        response: { 200: requestStatusSchema },
      },
    },
    async (request, reply) => {
      const source = await findCardSource(app.db, { requestId: request.params.id });
      if (!source?.request) throw notFound();
      const confirmed = isConfirmed(source);
      const declined = source.request.confirmed === false;
      const staffRow = mayReadRequest(request.principal, source.company.id)
        ? await findRequestRow(app.db, source.request.id)
        : null;
      reply.header('cache-control', 'no-store');
      return {
        data: {
          id: source.request.id,
          state: confirmed
            ? ('confirmed' as const)
            : declined
              ? ('declined' as const)
              : ('pending' as const),
          status: source.request.status,
          confirmed,
          decline_reason: declined ? source.request.declineReason : null,
          recap: {
            firstname: source.visitor.firstname,
            lastname: source.visitor.lastname,
            organisation_name: source.visitor.organisationName,
            request_date: source.visitor.requestDate,
            request_time: source.visitor.requestTime,
            host: source.request.host,
            reason: source.request.reason,
            company: source.company.name,
            company_slug: source.company.slug,
            site: { id: source.site.id, name: source.site.name, timezone: source.site.timezone },
          },
          card: confirmed ? await presentVisitorCard(source, ctx) : null,
          request: staffRow
            ? presentRequestRow(staffRow, app.fileUrls.for(request.principal))
            : null,
        },
      };
    },
  );
};
