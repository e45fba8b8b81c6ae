/**
 * The host loop's public routes (issue 15):
 * - the host search of the visitor form: the company's active staff by name, never
 *   an e-mail, at most a few names, rate-limited;
 * - the host's decision link: GET shows the request and any decision taken (a mail
 *   scanner's preview decides nothing), POST decides once, as that host. The token
 *   travels in the query string or the body, which logs never carry.
 */
import { chatAvailable, notificationChannelsOf } from '../chat/availability';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type DecisionView,
  decisionBodySchema,
  decisionQuerySchema,
  decisionViewSchema,
  hostSearchQuerySchema,
  hostSearchResultSchema,
  mailPreferencesResponseSchema,
  mailPreferencesSchema,
  siteFilter,
  type Say,
} from '@sesame/shared';
import { signedIn } from '../auth/authorize';
import { findCompany } from '../companies/service';
import type { Db } from '../db/client';
import { companies, files, users, visitRequests, visitors } from '../db/schema';
import { HttpError, notFound } from '../errors';
import { findStaffReader } from '../mail/sources';
import { findSite } from '../sites/service';
import { DecisionTokens } from './decision-token';
import { decideRequest, searchHosts } from './host-loop';
import { say } from '../language';
import { weeklyReportUpdate, weeklyReportView } from '../dashboard/weekly-report';

const gone = (message: Say) => new HttpError(410, message);

async function decisionView(
  db: Db,
  requestId: string,
  userId: string,
  expiresAt: Date,
  logo: (stored: string | null) => string | null,
): Promise<DecisionView | null> {
  const [row] = await db
    .select({
      request: visitRequests,
      visitor: {
        firstname: visitors.firstname,
        lastname: visitors.lastname,
        organisationName: visitors.organisationName,
        requestDate: visitors.requestDate,
        requestTime: visitors.requestTime,
      },
      company: { name: companies.name, slug: companies.slug },
      logo: files.storedName,
    })
    .from(visitRequests)
    .innerJoin(visitors, eq(visitors.id, visitRequests.visitorId))
    .innerJoin(companies, eq(companies.id, visitRequests.companyId))
    .leftJoin(files, eq(files.id, companies.logoFileId))
    .where(eq(visitRequests.id, requestId))
    .limit(1);
  if (!row) return null;
  const { request, visitor } = row;
  let decidedBy: string | null = null;
  if (request.decidedBy) {
    const [who] = await db
      .select({ firstname: users.firstname, name: users.name })
      .from(users)
      .where(eq(users.id, request.decidedBy))
      .limit(1);
    decidedBy = who ? `${who.firstname} ${who.name}`.trim() : null;
  }
  return {
    state:
      request.confirmed === true
        ? 'confirmed'
        : request.confirmed === false
          ? 'declined'
          : 'pending',
    decided_by_you: request.decidedBy === userId,
    is_host: request.hostUserId === userId,
    decided_by: decidedBy,
    decided_at: request.decidedAt?.toISOString() ?? null,
    decline_reason: request.declineReason,
    host: request.host,
    visitor: {
      firstname: visitor.firstname,
      lastname: visitor.lastname,
      organisation_name: visitor.organisationName,
    },
    request_date: visitor.requestDate,
    request_time: visitor.requestTime,
    reason: request.reason,
    company: { ...row.company, logo_url: logo(row.logo) },
    expires_at: expiresAt.toISOString(),
  };
}

export const hostLoopRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  const tokens = new DecisionTokens(app.config.jwtSecret);
  const logo = (stored: string | null) => app.fileUrls.logo(stored);

  app.get(
    '/requests/hosts/:company',
    {
      config: {
        public: true,
        rateLimit: { max: limits.codeLookupPerWindow, timeWindow: limits.windowMs },
      },
      schema: {
        tags: ['requests'],
        summary:
          "The visitor form's host search (public): the company's active staff whose name holds ?q= " +
          "(2 characters at least), names only, at most 8. ?site= (issue 28): that site's staff first " +
          "(their home site, or they may work there); another company's site is a 404.",
        params: z.object({ company: z.string().min(1).max(100) }),
        querystring: hostSearchQuerySchema.extend({ site: siteFilter }),
        response: { 200: hostSearchResultSchema },
      },
    },
    async (request, reply) => {
      const company = await findCompany(app.db, request.params.company);
      if (!company) throw notFound();
      const { site } = request.query;
      if (site && (await findSite(app.db, site))?.companyId !== company.id) throw notFound();
      reply.header('cache-control', 'no-store');
      return { data: await searchHosts(app.db, company.id, request.query.q, site) };
    },
  );

  /** The token's claims, checked against the database: the host still active in the request's company. */
  async function checked(token: string) {
    const claims = tokens.verify(token);
    if (!claims.ok)
      throw claims.reason === 'expired'
        ? gone((m) => m.decision.expired)
        : notFound((m) => m.decision.invalid);
    const [request] = await app.db
      .select({ companyId: visitRequests.companyId })
      .from(visitRequests)
      .where(eq(visitRequests.id, claims.requestId))
      .limit(1);
    const reader = request && (await findStaffReader(app.db, claims.userId, request.companyId));
    if (!reader) throw notFound((m) => m.decision.invalid);
    return claims;
  }

  /**
   * The request as the link's host sees it, never cached (the page changes once decided);
   * 404 when it is gone.
   */
  async function shownDecision(
    claims: Awaited<ReturnType<typeof checked>>,
    reply: { header: (name: string, value: string) => unknown },
  ) {
    const view = await decisionView(
      app.db,
      claims.requestId,
      claims.userId,
      claims.expiresAt,
      logo,
    );
    if (!view) throw notFound((m) => m.decision.invalid);
    reply.header('cache-control', 'no-store');
    return view;
  }

  /** The signed-in person's own mail settings: any role, their own row only. */
  const preferencesOf = async (userId: string) => {
    const [row] = await app.db
      .select({
        language: users.language,
        arrival_mail: users.arrivalMail,
        channels: users.notificationChannels,
        companyId: users.companyId,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!row) throw notFound();
    return {
      language: row.language === 'en' ? ('en' as const) : ('fr' as const),
      arrival_mail: row.arrival_mail,
      // Issue 34 ("Mes notifications"): each host message by mail, chat or both.
      channels: notificationChannelsOf(row.channels),
      chat_available: await chatAvailable(app.db, row.companyId),
    };
  };

  app.get(
    '/me/mail-preferences',
    {
      schema: {
        tags: ['users'],
        summary:
          "The signed-in person's mail settings: the language of their mails, whether they are mailed when their visitor arrives, and (issue 35) the weekly summary mail, its site and the sites it may report on.",
        response: { 200: mailPreferencesResponseSchema },
      },
    },
    async (request) => {
      const who = signedIn(request);
      return {
        data: { ...(await preferencesOf(who.userId)), ...(await weeklyReportView(app.db, who)) },
      };
    },
  );

  app.put(
    '/me/mail-preferences',
    {
      schema: {
        tags: ['users'],
        summary:
          "Changes the signed-in person's own mail settings (any role; no one else's). Switching the weekly summary on needs the dashboard's right (403); its site is one of the person's company's active sites within their limits (another company's: 404; archived or beyond their limits: 400).",
        body: mailPreferencesSchema,
        response: { 200: mailPreferencesResponseSchema },
      },
    },
    async (request) => {
      const who = signedIn(request);
      // Issue 35: the weekly summary's switch and site, checked before anything is written.
      const weekly = await weeklyReportUpdate(app.db, who, request.body);
      await app.db
        .update(users)
        .set({
          language: request.body.language,
          languageChosen: true,
          arrivalMail: request.body.arrival_mail,
          ...(request.body.channels ? { notificationChannels: request.body.channels } : {}),
          ...weekly,
        })
        .where(eq(users.id, who.userId));
      return {
        message: say(request, (m) => m.mailPreferences.saved),
        data: { ...(await preferencesOf(who.userId)), ...(await weeklyReportView(app.db, who)) },
      };
    },
  );

  const decisionLimit = {
    public: true,
    rateLimit: { max: limits.codeLookupPerWindow, timeWindow: limits.windowMs },
  } as const;

  app.get(
    '/requests/decision',
    {
      config: decisionLimit,
      schema: {
        tags: ['requests'],
        summary:
          "The host's decision link (public, ?token= from the host's mail): the request and its decision " +
          'if one was taken. Never decides: a link preview is not a click. 404 for a forged link, 410 once expired.',
        querystring: decisionQuerySchema,
        response: { 200: decisionViewSchema },
      },
    },
    async (request, reply) => {
      const claims = await checked(request.query.token);
      const view = await shownDecision(claims, reply);
      return { data: view };
    },
  );

  app.post(
    '/requests/decision',
    {
      config: decisionLimit,
      schema: {
        tags: ['requests'],
        summary:
          "The host's decision (public, the token from the host's mail): confirm or decline, once, recorded " +
          'as made by that host, with the visitor told by mail. A request already decided is shown, not ' +
          'overwritten (409 with the decision).',
        body: decisionBodySchema,
        response: { 200: decisionViewSchema, 409: decisionViewSchema },
      },
    },
    async (request, reply) => {
      const { token, decision, reason } = request.body;
      const claims = await checked(token);
      const result = await app.db.transaction((tx) =>
        decideRequest(tx, {
          requestId: claims.requestId,
          userId: claims.userId,
          decision,
          reason: decision === 'decline' ? reason : null,
        }),
      );
      if (!result) throw notFound((m) => m.decision.invalid);
      const view = await shownDecision(claims, reply);
      // Issue 31: a visit the watchlist holds waits for its reviewer.
      if (result.outcome === 'held') {
        return reply
          .code(409)
          .send({ message: say(request, (m) => m.watchlist.requestHeld), data: view });
      }
      if (result.outcome === 'already') {
        return reply
          .code(409)
          .send({ message: say(request, (m) => m.decision.alreadyDecided), data: view });
      }
      request.log.info(
        { requestId: claims.requestId, by: claims.userId, decision },
        'request decided from the host mail',
      );
      return {
        message: say(request, (m) =>
          decision === 'confirm' ? m.decision.confirmed : m.decision.declined,
        ),
        data: view,
      };
    },
  );
};
