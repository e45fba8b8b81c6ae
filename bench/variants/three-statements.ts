/**
 * A variant of the code check for `npm run bench -- checkin` only, never served by
 * Sésame: the design the single statement (check-statement.ts) replaced, as it was at
 * commit 101c691, with today's rules. Three prepared statements, three round trips:
 *   1. the principal: the app's guard runs loadPrincipal for a route with an `action`;
 *   2. the holder by code, with their latest check and what refuses them entry;
 *   3. one guarded write: close only a check still open, or insert only if the
 *      one-open-check index allows (two racing scans make one change).
 * The decision (repeat window, confirmed request, the day's stored instants with the
 * early arrival of the visitor's site, issue 28) is made in TypeScript between 2 and 3. It answers like the real
 * route: same path shape under /api/bench, same guard, rate limit and response schema.
 */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CHECK_MESSAGES,
  actsOnAllCompanies,
  checkResultSchema,
  codeCheckQuerySchema,
  formatPerZone,
  MANUAL_CHECK_TYPE,
  type CheckResult,
} from '@sesame/shared';
import type { Db } from '../../apps/server/src/db/client';
import { newId } from '../../apps/server/src/db/ids';
import { prepared } from '../../apps/server/src/db/prepared';
import {
  events,
  sites,
  visitorChecks,
  visitRequests,
  visitors,
} from '../../apps/server/src/db/schema';
import { HttpError, notFound } from '../../apps/server/src/errors';
import { storedUidn } from '../../apps/server/src/checkins/toggle';

export const THREE_STATEMENTS_PATH = '/api/bench/three-statements/get-qr-data';

const latest = (column: SQL) =>
  sql`(select ${column} from ${visitorChecks} where ${visitorChecks.visitorId} = ${visitors.id}
        order by ${visitorChecks.checkInAt} desc limit 1)`;

const holderQuery = (db: Db) =>
  db
    .select({
      id: visitors.id,
      companyId: visitors.companyId,
      firstname: visitors.firstname,
      lastname: visitors.lastname,
      requestDate: visitors.requestDate,
      eventDate: events.dateEvent,
      dayStartsAt:
        sql<Date | null>`coalesce(${events.dayStartsAt}, ${visitors.dayStartsAt})`.mapWith(
          visitors.dayStartsAt,
        ),
      dayEndsAt: sql<Date | null>`coalesce(${events.dayEndsAt}, ${visitors.dayEndsAt})`.mapWith(
        visitors.dayEndsAt,
      ),
      siteId: visitors.siteId,
      timezone: sites.timezone,
      earlyMinutes: sites.arrivalEarlyMinutes,
      confirmed: sql<boolean>`exists (select 1 from ${visitRequests}
        where ${visitRequests.visitorId} = ${visitors.id} and ${visitRequests.confirmed})`,
      latestId: latest(sql`${visitorChecks.id}`).mapWith(String),
      latestIn: latest(sql`${visitorChecks.checkInAt}`).mapWith(visitorChecks.checkInAt),
      latestOut: latest(sql`${visitorChecks.checkOutAt}`).mapWith(visitorChecks.checkOutAt),
    })
    .from(visitors)
    .innerJoin(sites, eq(sites.id, visitors.siteId))
    .leftJoin(events, eq(events.id, visitors.eventId))
    .where(eq(visitors.uidn, sql.placeholder('code')))
    .limit(1)
    .prepare('bench3_visitor_holder');

const closeQuery = (db: Db) =>
  db
    .update(visitorChecks)
    .set({
      checkOutAt: sql`${sql.placeholder('at')}`,
      checkOutMethod: sql`${sql.placeholder('method')}`,
      checkOutBy: sql`${sql.placeholder('by')}`,
    })
    .where(and(eq(visitorChecks.id, sql.placeholder('checkId')), isNull(visitorChecks.checkOutAt)))
    .returning({ id: visitorChecks.id })
    .prepare('bench3_close');

const openQuery = (db: Db) =>
  db
    .insert(visitorChecks)
    .values({
      id: sql.placeholder('id'),
      companyId: sql.placeholder('companyId'),
      siteId: sql.placeholder('siteId'),
      visitorId: sql.placeholder('visitorId'),
      checkInAt: sql.placeholder('at'),
      checkInMethod: sql.placeholder('method'),
      checkInBy: sql.placeholder('by'),
    })
    .onConflictDoNothing()
    .returning({ id: visitorChecks.id })
    .prepare('bench3_open');

const clock = formatPerZone('fr-FR', { hour: '2-digit', minute: '2-digit' });

export const threeStatementsRoute: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  app.get(
    `${THREE_STATEMENTS_PATH}/:uidn`,
    {
      config: {
        rateLimit: { max: limits.codeLookupPerWindow, timeWindow: limits.windowMs },
        action: 'checks.record',
      },
      schema: {
        params: z.object({ uidn: z.string().trim().min(1).max(40) }),
        querystring: codeCheckQuerySchema,
        response: { 200: checkResultSchema },
      },
    },
    async (request): Promise<CheckResult> => {
      // Statement 1 ran in the guard: the principal, whose role may record checks.
      const who = request.principal!;
      const method = request.query.type === MANUAL_CHECK_TYPE ? 'manual' : 'scan';
      const code = storedUidn(request.params.uidn);
      // Statement 2: the holder and their latest check.
      const [h] = await prepared(app.db, 'bench3_visitor_holder', holderQuery).execute({ code });
      if (!h || (h.companyId !== who.companyId && !actsOnAllCompanies(who.role, 'checks.record')))
        throw notFound((m) => m.check.unknownCode);
      const now = new Date();
      const since = now.getTime() - app.config.repeatScanWindowMs;
      const name = `${h.firstname} ${h.lastname}`.trim();
      const person = { firstname: h.firstname, lastname: h.lastname };
      const repeat = (action: 'check_in' | 'check_out', at: Date): CheckResult => {
        const time = clock(h.timezone).format(at);
        return {
          status: 'repeat',
          action,
          at: at.toISOString(),
          message:
            action === 'check_in'
              ? CHECK_MESSAGES.alreadyIn(name, time)
              : CHECK_MESSAGES.alreadyOut(name, time),
          person,
        };
      };
      const success = (action: 'check_in' | 'check_out'): CheckResult => ({
        status: 'success',
        action,
        at: now.toISOString(),
        message:
          action === 'check_in' ? CHECK_MESSAGES.checkedIn(name) : CHECK_MESSAGES.checkedOut(name),
        person,
        redirectUrl: `/${action === 'check_in' ? 'success-checkin' : 'success-checkout'}/${code}`,
      });
      const values = { at: now, method, by: who.userId };

      if (h.latestId && h.latestIn && !h.latestOut) {
        if (h.latestIn.getTime() > since) return repeat('check_in', h.latestIn);
        // Statement 3: the guarded check-out.
        const closed = await prepared(app.db, 'bench3_close', closeQuery).execute({
          ...values,
          checkId: h.latestId,
        });
        return closed.length ? success('check_out') : repeat('check_out', now);
      }
      if (h.latestOut && h.latestOut.getTime() > since) return repeat('check_out', h.latestOut);
      if (!h.confirmed) throw new HttpError(409, (m) => m.check.notConfirmed);
      const day = h.eventDate ?? h.requestDate ?? '';
      if (h.dayStartsAt && h.dayEndsAt) {
        const t = now.getTime();
        if (t >= h.dayEndsAt.getTime())
          throw new HttpError(409, (m) =>
            h.eventDate ? m.check.eventOver : m.check.meetingDayOver,
          );
        if (t < h.dayStartsAt.getTime() - h.earlyMinutes * 60_000)
          throw new HttpError(409, (m) =>
            (h.eventDate ? m.check.eventNotYet : m.check.meetingNotYet)(day),
          );
      }
      // Statement 3: the guarded check-in.
      const opened = await prepared(app.db, 'bench3_open', openQuery).execute({
        ...values,
        id: newId(),
        companyId: h.companyId,
        siteId: h.siteId,
        visitorId: h.id,
      });
      return opened.length ? success('check_in') : repeat('check_in', now);
    },
  );
};
