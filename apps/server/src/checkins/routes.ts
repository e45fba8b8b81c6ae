import { and, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MANUAL_CHECK_TYPE,
  UNDO_WINDOW_MINUTES,
  actsOnAllCompanies,
  checkLogPageSchema,
  checkLogQuerySchema,
  checkResultSchema,
  checkUndoParamsSchema,
  checkUndoResultSchema,
  checkUndoSchema,
  codeCheckQuerySchema,
  kioskCheckQuerySchema,
  kioskCheckResultSchema,
  kioskCheckSchema,
  userCheckRowSchema,
  userLogRowSchema,
  visitorLogRowSchema,
  type Action,
  type CheckLogQuery,
  type CheckMethod,
  catalogue,
} from '@sesame/shared';
import { listAnswer } from '../db/pagination';
import { companyItself, companyScope, loadAuthorized, mayAct, signedIn } from '../auth/authorize';
import type { Principal } from '../auth/principal';
import { findCompany } from '../companies/service';
import { companies, qrUsers, userChecks, visitorChecks, visitors } from '../db/schema';
import { notFound, unauthenticated } from '../errors';
import { Readable } from 'node:stream';
import { sendCsv, visitorLogCsvChunks, EXPORT_MAX_ROWS } from './csv';
import { oncePerKey, scanKey } from './idempotency';
import { listUserAttendance, listUserLog, listVisitorLog, streamVisitorLog } from './logs';
import { presentAttendance, presentUserLog, presentVisitorLog } from './presenter';
import { siteScope } from '../sites/service';
import { findCheckForUndo, undoCheck } from './undo';
import { checkFailureOutcome } from '../metrics/registry';
import {
  callerKindOf,
  checkByEmail,
  checkQrUserCode,
  checkVisitorCode,
  storedUidn,
  type CheckContext,
} from './toggle';

const uidnParams = z.object({ uidn: z.string().trim().min(1).max(40) });

const presenceSchema = z.object({
  data: z.object({
    firstname: z.string(),
    lastname: z.string(),
    /** Identity image or photo: only for signed-in staff of the company. */
    image: z.string().nullable(),
    image_type: z.string().nullable(),
    company: z.object({ name: z.string(), slug: z.string() }),
    /**
     * Newest first: the history (up to PRESENCE_HISTORY) only for signed-in staff of
     * the company; anyone else holding the code gets the latest check alone, which is
     * all the thank-you page says ('arrived at', 'left at').
     */
    checks: z.array(z.object({ check_in_time: z.string(), check_out_time: z.string().nullable() })),
  }),
});

/** How many of a person's checks their company's staff see on the thank-you page's data. */
const PRESENCE_HISTORY = 10;

/** Whether the caller is staff of `companyId` who may read this log (for images and history). */
function seesLog(who: Principal | null, action: Action, companyId: string): boolean {
  if (!who || (!mayAct(who, action) && !mayAct(who, 'checks.record'))) return false;
  return who.companyId === companyId || actsOnAllCompanies(who.role, action);
}

export const checkinRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  const codeLimit = { max: limits.codeLookupPerWindow, timeWindow: limits.windowMs };
  // The code checks verify the session and the right inside their single statement
  // (check-statement.ts), which takes the right from here.
  const checkConfig = {
    rateLimit: codeLimit,
    sessionCheckedByRoute: true,
    action: 'checks.record',
  } as const;
  // `site`: the desk's site the request names (issue 28), checked by the statement too.
  const checkContext = (
    request: FastifyRequest,
    method: CheckMethod,
    site: string | undefined,
  ): CheckContext => {
    const caller = request.claims;
    if (!caller) throw unauthenticated();
    return {
      caller,
      callerKind: callerKindOf(request.principal),
      method,
      action: checkConfig.action,
      repeatWindowMs: app.config.repeatScanWindowMs,
      lang: request.lang,
      ...(site ? { site } : {}),
    };
  };
  const codeMethod = (type: number | undefined) => (type === MANUAL_CHECK_TYPE ? 'manual' : 'scan');

  /** The two code checks differ only in whose code they read. */
  const codeCheckRoute = (url: string, summary: string, check: typeof checkVisitorCode) =>
    app.get(
      url,
      {
        config: checkConfig,
        schema: {
          tags: ['checkins'],
          summary,
          params: uidnParams,
          querystring: codeCheckQuerySchema,
          response: { 200: checkResultSchema },
        },
      },
      async (request) => {
        const context = checkContext(request, codeMethod(request.query.type), request.query.site);
        const key = scanKey(request, context.caller.sub);
        // A retried scan (Idempotency-Key) gets its first answer back, never a second toggle;
        // the same key with another code answers 422.
        let result;
        try {
          result = key
            ? await oncePerKey(app.db, key, (db) => check(db, request.params.uidn, context))
            : await check(app.db, request.params.uidn, context);
        } catch (error) {
          app.metrics.codeCheck(checkFailureOutcome(error));
          throw error;
        }
        app.metrics.codeCheck(result.status === 'repeat' ? 'repeat' : result.action);
        request.log.info({ url, action: result.action, status: result.status }, 'code checked');
        return result;
      },
    );

  codeCheckRoute(
    '/get-qr-data/:uidn',
    "Checks a visitor's code: in when outside, out when inside (staff who scan). ?type=1 records a manual validation. " +
      "?site= names the desk's site: a visitor of another site is refused (409), nothing recorded; a site beyond " +
      "the caller's site limits 403, another company's 404. The check is at the visitor's own site. " +
      "A second scan inside the repeat window answers status 'repeat' and changes nothing. " +
      '409 for a request not confirmed or a day over; 404 for an unknown code or another company’s.',
    checkVisitorCode,
  );
  codeCheckRoute(
    '/get-qr-user-data/:uidn',
    "Checks a QR user's or member's code like get-qr-data. An expired code may not come in (409); " +
      'a re-issued card’s old code is refused (409). The check is recorded at the desk’s site: ?site=, else the ' +
      'scanner’s home site, else the company’s main site.',
    checkQrUserCode,
  );

  app.post(
    '/kiosk/check',
    {
      config: checkConfig,
      schema: {
        tags: ['checkins'],
        summary:
          "The camera scanner's kiosk presence (ARCHITECTURE §6): an e-mail-shaped code of a QR user or member " +
          "of the caller's company checks them in, the same code again checks them out. Signs nobody in. " +
          'Only where the company turned e-mail presence on (kiosk_email_enabled; 409 otherwise, nothing recorded). ' +
          "`photo` is the person's photo, signed for the caller's session, for the agent to compare the face. " +
          "The desk's site (`site` in the body or ?site=) is where the check is recorded, as for get-qr-user-data.",
        querystring: kioskCheckQuerySchema,
        body: kioskCheckSchema,
        response: { 200: kioskCheckResultSchema },
      },
    },
    async (request) => {
      const context = checkContext(request, 'kiosk', request.query.site ?? request.body.site);
      // The photo's link is bound to the scanning staff member's session (files/urls.ts).
      const viewer = { sessionId: context.caller.sid };
      const photoUrl = (fileId: string | null) => app.fileUrls.signed(fileId, viewer);
      const key = scanKey(request, context.caller.sub);
      try {
        const result = await (key
          ? oncePerKey(app.db, key, (db) => checkByEmail(db, request.body.email, context, photoUrl))
          : checkByEmail(app.db, request.body.email, context, photoUrl));
        app.metrics.codeCheck(result.status === 'repeat' ? 'repeat' : result.action);
        return result;
      } catch (error) {
        app.metrics.codeCheck(checkFailureOutcome(error));
        throw error;
      }
    },
  );

  // ── Undo a check (issue 14) ───────────────────────────────────────────────

  app.post(
    '/checks/:checkId/undo',
    {
      config: { action: 'checks.record' },
      schema: {
        tags: ['checkins'],
        summary:
          `Undoes a person's last arrival (an open check) or departure (a closed one) within ${UNDO_WINDOW_MINUTES} minutes, ` +
          'with a reason: nothing is deleted, the check stays in the logs struck through with who undid it and why. ' +
          "An undone arrival no longer counts as presence; an undone departure puts the person back inside. 409 when too late, not the person's last check, or already undone; another company's check 404.",
        params: checkUndoParamsSchema,
        body: checkUndoSchema,
        response: { 200: checkUndoResultSchema },
      },
    },
    async (request) => {
      const { who, record } = await loadAuthorized(
        request,
        findCheckForUndo,
        request.params.checkId,
      );
      const result = await undoCheck(app.db, record, who.userId, request.body.reason, request.lang);
      request.log.info({ undone: result.undone }, 'check undone');
      return result;
    },
  );

  // ── Presence of one code (the thank-you pages) ────────────────────────────

  app.get(
    '/visitorLog-checkIn/:uidn',
    {
      config: { public: true, rateLimit: codeLimit },
      schema: {
        tags: ['checkins'],
        summary:
          "A visitor's card by their code (the thank-you pages): name, company and latest check. The code is " +
          "the visitor's secret, but it reveals the card, not the person: the identity image and the check " +
          `history (last ${PRESENCE_HISTORY}) only go to signed-in staff of the company.`,
        params: uidnParams,
        response: { 200: presenceSchema },
      },
    },
    async (request) => {
      const [visitor] = await app.db
        .select({
          id: visitors.id,
          companyId: visitors.companyId,
          firstname: visitors.firstname,
          lastname: visitors.lastname,
          imageId: visitors.requestImageId,
          company: { name: companies.name, slug: companies.slug },
        })
        .from(visitors)
        .innerJoin(companies, eq(companies.id, visitors.companyId))
        .where(eq(visitors.uidn, storedUidn(request.params.uidn)))
        .limit(1);
      if (!visitor) throw notFound();
      const staff = seesLog(request.principal, 'visitorLogs.list', visitor.companyId);
      const checks = await app.db
        .select({ checkInAt: visitorChecks.checkInAt, checkOutAt: visitorChecks.checkOutAt })
        .from(visitorChecks)
        .where(and(eq(visitorChecks.visitorId, visitor.id), isNull(visitorChecks.undoneAt)))
        .orderBy(desc(visitorChecks.checkInAt))
        .limit(staff ? PRESENCE_HISTORY : 1);
      return {
        data: {
          firstname: visitor.firstname,
          lastname: visitor.lastname,
          image: staff ? app.fileUrls.signed(visitor.imageId, request.principal) : null,
          image_type: null,
          company: visitor.company,
          checks: checks.map((c) => ({
            check_in_time: c.checkInAt.toISOString(),
            check_out_time: c.checkOutAt?.toISOString() ?? null,
          })),
        },
      };
    },
  );

  app.get(
    '/userLog-checkIn/:uidn',
    {
      config: { public: true, rateLimit: codeLimit },
      schema: {
        tags: ['checkins'],
        summary:
          "A QR user's or member's card by their code (the thank-you pages): name, company and latest check; " +
          `the photo and the check history (last ${PRESENCE_HISTORY}) only for signed-in staff of the company.`,
        params: uidnParams,
        response: { 200: presenceSchema },
      },
    },
    async (request) => {
      const [person] = await app.db
        .select({
          id: qrUsers.id,
          companyId: qrUsers.companyId,
          firstname: qrUsers.firstname,
          lastname: qrUsers.lastname,
          documentId: qrUsers.documentId,
          company: { name: companies.name, slug: companies.slug },
        })
        .from(qrUsers)
        .innerJoin(companies, eq(companies.id, qrUsers.companyId))
        .where(and(eq(qrUsers.uidn, storedUidn(request.params.uidn))))
        .limit(1);
      if (!person) throw notFound();
      const staff = seesLog(request.principal, 'userChecks.list', person.companyId);
      const checks = await app.db
        .select({ checkInAt: userChecks.checkInAt, checkOutAt: userChecks.checkOutAt })
        .from(userChecks)
        .where(and(eq(userChecks.qrUserId, person.id), isNull(userChecks.undoneAt)))
        .orderBy(desc(userChecks.checkInAt))
        .limit(staff ? PRESENCE_HISTORY : 1);
      return {
        data: {
          firstname: person.firstname ?? '',
          lastname: person.lastname ?? '',
          image: staff ? app.fileUrls.signed(person.documentId, request.principal) : null,
          image_type: null,
          company: person.company,
          checks: checks.map((c) => ({
            check_in_time: c.checkInAt.toISOString(),
            check_out_time: c.checkOutAt?.toISOString() ?? null,
          })),
        },
      };
    },
  );

  // ── Logs ──────────────────────────────────────────────────────────────────

  const logQueryHelp =
    'Newest check-in first. ?page=&per_page= (default 10), ?q= name, e-mail or code, ' +
    "?from=&to= ISO instants bounding the check-in time, ?site= one site's checks (a site beyond the " +
    "caller's reach: 404; without it, every site the caller may see). Each row says its site. " +
    'meta.total counts up to 10 000 rows (meta.total_capped says there are more: narrow the range).';

  /** The sites a log covers for the caller (sites/service.ts `siteScope`). */
  const logSites = (request: FastifyRequest, action: Action, companyId: string | undefined) =>
    // The route's querystring schema (CheckLogQuery) has parsed request.query before this runs.
    siteScope(app.db, signedIn(request), action, companyId, (request.query as CheckLogQuery).site);

  const visitorLogPage = async (
    query: CheckLogQuery,
    companyId: string | undefined,
    siteIds: string[] | undefined,
    viewer: Principal | null,
  ) => {
    const page = await listVisitorLog(app.db, query, companyId, siteIds);
    const fileUrls = app.fileUrls.for(viewer);
    return listAnswer(
      query,
      page.total,
      page.rows.map((row) => presentVisitorLog(row, fileUrls)),
      { total_capped: page.totalCapped },
    );
  };

  /** The company of a `{company}` segment or `?company=`, reachable by the caller for the route's right. */
  const companyOf = async (request: FastifyRequest, slugOrId: string) =>
    (await loadAuthorized(request, findCompany, slugOrId, { companyOf: companyItself })).record.id;

  app.get(
    '/visitorlog',
    {
      config: { action: 'visitorLogs.list' },
      schema: {
        tags: ['checkins'],
        summary: `'Liste Check in': visitors' checks, every company for admin, their own for others. ${logQueryHelp}`,
        querystring: checkLogQuerySchema,
        response: { 200: checkLogPageSchema(visitorLogRowSchema) },
      },
    },
    async (request) => {
      const who = signedIn(request);
      const companyId = companyScope(who, 'visitorLogs.list');
      const siteIds = await logSites(request, 'visitorLogs.list', companyId);
      return visitorLogPage(request.query, companyId, siteIds, who);
    },
  );

  app.get(
    '/visitorLog/:company',
    {
      config: { action: 'visitorLogs.list' },
      schema: {
        tags: ['checkins'],
        summary: `Visitors' checks of one company (slug or id); another company's answers 404 except for admin. ${logQueryHelp}`,
        params: z.object({ company: z.string().min(1).max(100) }),
        querystring: checkLogQuerySchema,
        response: { 200: checkLogPageSchema(visitorLogRowSchema) },
      },
    },
    async (request) => {
      const companyId = await companyOf(request, request.params.company);
      const siteIds = await logSites(request, 'visitorLogs.list', companyId);
      return visitorLogPage(request.query, companyId, siteIds, request.principal);
    },
  );

  app.get(
    '/visitorlog/export',
    {
      config: { action: 'visitorLogs.list' },
      schema: {
        tags: ['checkins'],
        summary:
          "The visitor log of the filtered range as CSV for French Excel (UTF-8 with BOM, semicolons), with each check's site, in that site's time zone. " +
          `Same scope and filters as /visitorlog (?company= a slug to limit it); at most ${EXPORT_MAX_ROWS} rows.`,
        querystring: checkLogQuerySchema.extend({ company: z.string().min(1).max(100).optional() }),
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const who = signedIn(request);
      const companyId = request.query.company
        ? await companyOf(request, request.query.company)
        : companyScope(who, 'visitorLogs.list');
      const siteIds = await logSites(request, 'visitorLogs.list', companyId);
      // Streamed from a cursor (issue 12 §9). The first row is read before answering,
      // so a database out still answers 503 rather than a cut download.
      const rows = streamVisitorLog(app.db, request.query, companyId, EXPORT_MAX_ROWS, siteIds);
      const first = await rows.next();
      async function* all() {
        if (first.done) return;
        yield first.value;
        yield* rows;
      }
      const stamp = new Date().toISOString().slice(0, 10);
      return sendCsv(
        reply,
        `${catalogue(request.lang).csv.visitorLog.fileName}-${stamp}.csv`,
        Readable.from(visitorLogCsvChunks(all(), request.lang)),
      );
    },
  );

  app.get(
    '/userLog',
    {
      config: { action: 'userChecks.list' },
      schema: {
        tags: ['checkins'],
        summary: `QR users' and members' checks, one row per check (/user-check-in-out). ${logQueryHelp}`,
        querystring: checkLogQuerySchema,
        response: { 200: checkLogPageSchema(userLogRowSchema) },
      },
    },
    async (request) => {
      const who = signedIn(request);
      const companyId = companyScope(who, 'userChecks.list');
      const siteIds = await logSites(request, 'userChecks.list', companyId);
      const page = await listUserLog(app.db, request.query, companyId, siteIds);
      return listAnswer(request.query, page.total, page.rows.map(presentUserLog), {
        total_capped: page.totalCapped,
      });
    },
  );

  app.get(
    '/userCheckInList',
    {
      config: { action: 'userChecks.list' },
      schema: {
        tags: ['checkins'],
        summary:
          "'Liste Check in / Check out Participants': a page of QR users and members by name, each with their " +
          'checks inside ?from=&to= (newest first, at most 50), at ?site= only when given (the people are the ' +
          "company's at every site). Every company for admin, their own for others.",
        querystring: checkLogQuerySchema,
        response: { 200: checkLogPageSchema(userCheckRowSchema) },
      },
    },
    async (request) => {
      const who = signedIn(request);
      const companyId = companyScope(who, 'userChecks.list');
      const siteIds = await logSites(request, 'userChecks.list', companyId);
      const page = await listUserAttendance(app.db, request.query, companyId, siteIds);
      return listAnswer(
        request.query,
        page.total,
        page.rows.map((row) => presentAttendance(row, app.fileUrls.for(who))),
        { total_capped: false },
      );
    },
  );
};
