/**
 * Who is on site, who is expected today, checking a person out from the list, and
 * the live stream that keeps those screens and the request list current (issue 14).
 *
 * The stream is Server-Sent Events read with fetch(), so it carries the ordinary
 * `Authorization: Bearer` header and goes through the same guard as every route
 * (401 → 403 → 400): no second kind of credential, nothing secret in a URL.
 *
 * A stream ends when its session ends or its person's rights change — logout, a new
 * password, a disabled account, another role or company — on every instance within a
 * moment: the database announces it (migration 0023, channel 'sesame_session', heard by
 * the hub). The browser reconnects and is authenticated again: a 401 ends its session,
 * a new role hears what that role may. Without a query per event. A stream also lives
 * at most LIVE_STREAM_MAX_MS, a backstop should an announcement be lost.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  actsOnAllCompanies,
  checkResultSchema,
  expectedPageSchema,
  liveQuerySchema,
  mayPerform,
  onSiteCheckParamsSchema,
  onSitePageSchema,
  onSiteQuerySchema,
  LIVE_HEARTBEAT_MS,
  type Action,
  type LiveEvent,
} from '@sesame/shared';
import { listAnswer } from '../db/pagination';
import type { FastifyRequest } from 'fastify';
import { companyItself, companyScope, loadAuthorized, signedIn } from '../auth/authorize';
import { loadPrincipal, type Principal } from '../auth/principal';
import { callerKindOf, checkOutFromList } from '../checkins/toggle';
import { findCompany } from '../companies/service';
import { HttpError, unauthenticated } from '../errors';
import type { AccessChange, LiveMessage } from './live';
import { findOpenCheck, listExpected, listOnSite } from './presence';
import { assertWithinSites, siteScope } from '../sites/service';

/** A stream ends after this long; the browser reconnects (and its session is checked again). */
export const LIVE_STREAM_MAX_MS = 5 * 60_000;
/** Open streams per session (a person's tabs); more is a mistake or an attack. */
export const LIVE_STREAMS_PER_SESSION = 10;

/** Which list an event belongs to, and so which action a screen needs to hear it. */
const LIVE_ACTIONS: Record<LiveEvent['type'], Action> = {
  presence: 'onSite.list',
  invitation: 'onSite.list',
  rollCall: 'rollCall.run',
  request: 'requests.list',
  // Issue 31: a visit held by the watchlist reaches its reviewers only.
  watchlist: 'watchlist.review',
};
const actionOf = (event: LiveEvent): Action => LIVE_ACTIONS[event.type];

/**
 * Whether `who` may hear `event` (its list's action, its company), within `onlyCompany`
 * and, for a screen opened on a site, `onlySite` (issue 28). An event of no site (a roll
 * call of every site) reaches every site's screens. A person limited to some sites hears
 * their own company's events of those sites only (and its roll calls of every site).
 */
export function hears(
  who: Principal,
  event: LiveEvent,
  onlyCompany: string | undefined,
  onlySite?: string,
): boolean {
  const action = actionOf(event);
  // An invitation's news (issue 30) reaches its own host whatever their role, in their company.
  if (event.type === 'invitation' && event.host_user_id === who.userId) {
    return event.company_id === who.companyId && (!onlyCompany || onlyCompany === who.companyId);
  }
  if (!mayPerform(who.role, action)) return false;
  if (onlyCompany && event.company_id !== onlyCompany) return false;
  const site = event.site_id ?? null;
  if (onlySite && site !== null && site !== onlySite) return false;
  if (who.siteIds.length > 0) {
    if (event.company_id !== who.companyId) return false;
    return site === null || who.siteIds.includes(site);
  }
  return event.company_id === who.companyId || actsOnAllCompanies(who.role, action);
}

/** Whether an announced change ends `who`'s stream: their session, or every session of theirs. */
export function endsStreamOf(change: AccessChange, who: Principal): boolean {
  return change.userId === who.userId && (change.sessionId ?? who.sessionId) === who.sessionId;
}

/**
 * Whether the session read again (`now`) still hears what the stream was opened for:
 * still live, the same role and company (what `hears` and the company scope read).
 */
export function sameAccess(opened: Principal, now: Principal | null): boolean {
  return (
    now !== null &&
    now.role === opened.role &&
    now.companyId === opened.companyId &&
    now.siteIds.join() === opened.siteIds.join()
  );
}

export const onSiteRoutes: FastifyPluginAsyncZod = async (app) => {
  // The app's one hub (app.ts): /api/ready and /metrics read its state too.
  const hub = app.liveHub;
  const streams = new Set<() => void>();
  const perSession = new Map<string, number>();
  // Open streams would hold app.close() forever: end them first.
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  /** The company `?company=` names (404 when out of reach), else the caller's scope. */
  const scopeOf = async (request: FastifyRequest, action: Action, company: string | undefined) => {
    const who = signedIn(request);
    if (!company) return companyScope(who, action);
    const { record } = await loadAuthorized(request, findCompany, company, {
      companyOf: companyItself,
    });
    return record.id;
  };

  app.get(
    '/on-site',
    {
      config: { action: 'onSite.list' },
      schema: {
        tags: ['on-site'],
        summary:
          'Everyone inside now (an open check): visitors, event guests, QR users and members, newest arrival ' +
          'first, with everyone inside counted by kind (meta.counts). ?q= a name or organisation, ?kind=, ' +
          '?company= a slug or id (roles that see every company; their own company otherwise), ' +
          "?site= one site's people (a site beyond the caller's reach: 404; without it, every site the " +
          'caller may see). Each row says its site (id, name, time zone).',
        querystring: onSiteQuerySchema,
        response: { 200: onSitePageSchema },
      },
    },
    async (request) => {
      const who = signedIn(request);
      const companyId = await scopeOf(request, 'onSite.list', request.query.company);
      const siteIds = await siteScope(app.db, who, 'onSite.list', companyId, request.query.site);
      const page = await listOnSite(
        app.db,
        request.query,
        companyId,
        app.fileUrls.for(who),
        siteIds,
      );
      return listAnswer(request.query, page.total, page.rows, { counts: page.counts });
    },
  );

  app.get(
    '/on-site/expected',
    {
      config: { action: 'onSite.list' },
      schema: {
        tags: ['on-site'],
        summary:
          "Expected today: confirmed meetings and event registrations of today (each site's time zone) " +
          'whose visitor has not arrived, by time. Same filters as /on-site (?site= included); each row says its site.',
        querystring: onSiteQuerySchema,
        response: { 200: expectedPageSchema },
      },
    },
    async (request) => {
      const who = signedIn(request);
      const companyId = await scopeOf(request, 'onSite.list', request.query.company);
      const siteIds = await siteScope(app.db, who, 'onSite.list', companyId, request.query.site);
      const page = await listExpected(app.db, request.query, companyId, siteIds);
      return listAnswer(request.query, page.total, page.rows);
    },
  );

  app.post(
    '/on-site/:checkId/check-out',
    {
      config: { action: 'onSite.checkOut' },
      schema: {
        tags: ['on-site'],
        summary:
          "Checks out the person of an open check, from the on-site list: a manual check-out by the caller, through the code check's own statement (closing only). " +
          "Someone who already left answers status 'repeat'; another company's check, or one already closed by then and unknown, 404; " +
          "a check at a site beyond the caller's site limits, 403.",
        params: onSiteCheckParamsSchema,
        response: { 200: checkResultSchema },
      },
    },
    async (request) => {
      const { record } = await loadAuthorized(request, findOpenCheck, request.params.checkId);
      assertWithinSites(signedIn(request), { id: record.siteId, companyId: record.companyId });
      if (!request.claims) throw unauthenticated();
      const result = await checkOutFromList(app.db, record.table, record.uidn, {
        caller: request.claims,
        callerKind: callerKindOf(request.principal),
        repeatWindowMs: app.config.repeatScanWindowMs,
        lang: request.lang,
      });
      request.log.info({ action: result.action, status: result.status }, 'checked out from list');
      return result;
    },
  );

  app.get(
    '/live',
    {
      config: { action: 'live.listen' },
      schema: {
        tags: ['on-site'],
        summary:
          'Server-Sent Events (text/event-stream; the request must accept it, else 406) for the live screens: `presence` when a check is made, closed or undone (`op` in, out, arrival_undone, departure_undone), ' +
          '`request` when a meeting request is filed or decided, `interrupted` when the server stopped hearing the database ' +
          '(events are being missed: show the feed as interrupted), `resync` when it hears again or events may have been missed (refetch). ' +
          "Each event only to whom its list reaches (a person limited to some sites: those sites' events); ?company= narrows to one company, " +
          "?site= to one site (a roll call of every site reaches every site's screens; a site beyond reach: 404). Read it with fetch() and the " +
          'bearer header. It ends when its session ends or its role or company changes (reconnect: a 401 means signed out), ' +
          `and after ${LIVE_STREAM_MAX_MS / 60_000} minutes: reconnect and refetch.`,
        querystring: liveQuerySchema,
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      const who = signedIn(request);
      const onlyCompany = request.query.company
        ? await scopeOf(request, 'live.listen', request.query.company)
        : undefined;
      // A site the caller may not see is a 404, as for its lists.
      const onlySite = request.query.site
        ? (await siteScope(app.db, who, 'live.listen', onlyCompany, request.query.site))?.[0]
        : undefined;
      // A client that cannot read a stream is told so (after the company check: 404 first).
      if (!request.headers.accept?.includes('text/event-stream'))
        throw new HttpError(406, (m) => m.live.eventStreamOnly);
      const open = perSession.get(who.sessionId) ?? 0;
      if (open >= LIVE_STREAMS_PER_SESSION) throw new HttpError(429, (m) => m.live.tooManyStreams);

      // What the hub says before the answer starts waits here (a logout included).
      const early: LiveMessage[] = [];
      let deliver = (message: LiveMessage) => void early.push(message);
      // Listening before answering: an event committed after the screen's first fetch is heard.
      const unsubscribe = await hub.subscribe((message) => deliver(message));
      perSession.set(who.sessionId, open + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        unsubscribe();
        const left = (perSession.get(who.sessionId) ?? 1) - 1;
        if (left > 0) perSession.set(who.sessionId, left);
        else perSession.delete(who.sessionId);
      };
      // The session was read before this stream listened: a logout or a role change
      // committed in between was announced before it could be heard. Read once more.
      let now: Principal | null;
      try {
        now = await loadPrincipal(app.db, who.sessionId, who.userId);
      } catch (error) {
        release();
        throw error;
      }
      if (!now) {
        release();
        throw unauthenticated();
      }

      const raw = reply.raw;
      reply.hijack();
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-content-type-options': 'nosniff',
        // Reverse proxies (nginx) must pass each event on at once.
        'x-accel-buffering': 'no',
      });
      raw.write(`retry: 2000\nevent: ready\ndata: {}\n\n`);
      let ended = false;
      const write = (type: string, data: object) => {
        if (!ended) raw.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const heartbeat = setInterval(() => raw.write(': ping\n\n'), LIVE_HEARTBEAT_MS);
      const lifetime = setTimeout(end, LIVE_STREAM_MAX_MS);
      heartbeat.unref();
      lifetime.unref();
      function end() {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        release();
        streams.delete(end);
        if (!raw.writableEnded) raw.end();
      }
      streams.add(end);
      request.raw.on('close', end);
      raw.on('error', end);
      // The screen may have gone while the session was read again.
      if (!raw.socket || raw.socket.destroyed) end();

      // Back from a cut: announcements were missed, a session's end among them maybe. The
      // screen is told to refetch only once its session is known to hear the same.
      const resync = async () => {
        const again = await loadPrincipal(app.db, who.sessionId, who.userId).catch(() => null);
        if (!sameAccess(who, again)) end();
        // Cut again meanwhile: the next `resync` will come.
        else if (!hub.interrupted) write('resync', {});
      };
      deliver = (message) => {
        switch (message.type) {
          case 'accessChanged':
            if (endsStreamOf(message, who)) end();
            return;
          case 'interrupted':
            write('interrupted', {});
            return;
          case 'resync':
            void resync();
            return;
          default:
            if (hears(who, message, onlyCompany, onlySite)) write(message.type, message);
        }
      };
      if (hub.interrupted) write('interrupted', {});
      // The feed's state is the hub's now (said just above); the rest waited in order.
      const missed = early.some((message) => message.type === 'resync');
      for (const message of early.splice(0)) {
        if (message.type !== 'interrupted' && message.type !== 'resync') deliver(message);
      }
      if (!sameAccess(who, now)) end();
      else if (missed && !hub.interrupted) void resync();
    },
  );
};
