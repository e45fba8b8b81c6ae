/**
 * Visit requests: the staff list (paged on the server, scoped per company),
 * the host's decision, and what the waiting screen polls.
 */
import { and, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { formatUidn, isUidnShaped, type RequestListQuery } from '@sesame/shared';
import type { Db } from '../db/client';
import {
  companies,
  events,
  files,
  sites,
  users,
  visitRequests,
  visitorChecks,
  visitors,
} from '../db/schema';
import { fullNames, likeAny } from '../db/pagination';
import { enqueueVisitorCodeMailIfAddressed } from '../mail/outbox';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The visitor's check-ins, oldest first (at most the last 20). */
const checkInsOf = sql<{ check_in_time: string; check_out_time: string | null }[]>`coalesce((
  select json_agg(json_build_object('check_in_time', c.check_in_at, 'check_out_time', c.check_out_at) order by c.check_in_at)
  from (
    select ${visitorChecks.checkInAt} as check_in_at, ${visitorChecks.checkOutAt} as check_out_at
    from ${visitorChecks}
    where ${visitorChecks.visitorId} = ${visitors.id}
    order by ${visitorChecks.checkInAt} desc
    limit 20
  ) c
), '[]'::json)`;

const rowSelection = {
  request: visitRequests,
  visitor: visitors,
  company: { id: companies.id, name: companies.name, slug: companies.slug },
  site: { id: sites.id, name: sites.name, timezone: sites.timezone },
  event: { id: events.id, name: events.name, slug: events.slug },
  checkIns: checkInsOf,
  documentType: files.mediaType,
  hostUser: { id: users.id, firstname: users.firstname, name: users.name },
};

export type RequestListRow = {
  request: typeof visitRequests.$inferSelect;
  visitor: typeof visitors.$inferSelect;
  company: { id: string; name: string; slug: string };
  site: { id: string; name: string; timezone: string };
  event: { id: string; name: string; slug: string } | null;
  checkIns: { check_in_time: string; check_out_time: string | null }[];
  documentType: string | null;
  hostUser: { id: string; firstname: string; name: string } | null;
};

function selectRows(db: Db) {
  return db
    .select(rowSelection)
    .from(visitRequests)
    .innerJoin(visitors, eq(visitors.id, visitRequests.visitorId))
    .innerJoin(companies, eq(companies.id, visitRequests.companyId))
    .innerJoin(sites, eq(sites.id, visitors.siteId))
    .leftJoin(events, eq(events.id, visitors.eventId))
    .leftJoin(files, eq(files.id, visitors.requestImageId))
    .leftJoin(users, eq(users.id, visitRequests.hostUserId));
}

/** How `?event=` narrows the list; `null` when the event does not exist in that scope. */
async function eventCondition(
  db: Db,
  event: string | undefined,
  companyId: string | undefined,
): Promise<SQL | undefined | null> {
  if (!event) return isNull(visitors.eventId);
  if (event === 'all') return undefined;
  const match = UUID.test(event)
    ? or(eq(events.id, event), eq(events.slug, event))
    : eq(events.slug, event);
  const found = await db
    .select({ id: events.id })
    .from(events)
    .where(companyId ? and(match, eq(events.companyId, companyId)) : match);
  if (found.length === 0) return null;
  return or(...found.map((e) => eq(visitors.eventId, e.id)));
}

/**
 * One page of requests, pending first, then newest first. `companyId` undefined = every company.
 * Returns null when `?event=` names no event of that company (the route answers 404).
 */
export async function listRequests(
  db: Db,
  query: RequestListQuery,
  companyId: string | undefined,
  siteIds?: string[],
): Promise<{ rows: RequestListRow[]; total: number } | null> {
  const byEvent = await eventCondition(db, query.event, companyId);
  if (byEvent === null) return null;
  const conditions: (SQL | undefined)[] = [
    companyId ? eq(visitRequests.companyId, companyId) : undefined,
    byEvent,
    siteIds ? inArray(visitors.siteId, siteIds) : undefined,
  ];
  if (query.q) {
    conditions.push(
      or(
        likeAny(query.q, [
          ...fullNames(visitors.firstname, visitors.lastname),
          visitors.email,
          visitors.contact,
          visitors.organisationName,
          visitRequests.host,
          // A piece of a code finds it ("9PJF" → 108P-9PJF-6PNV): the list is the
          // company's own, so a fragment cannot reach another company's visitor.
          visitors.uidn,
        ]),
        // A whole code typed without its dashes.
        isUidnShaped(query.q) ? eq(visitors.uidn, formatUidn(query.q)) : undefined,
      ),
    );
  }
  const where = and(...conditions);
  const [rows, totals] = await Promise.all([
    selectRows(db)
      .where(where)
      // Pending requests first (issue 14: the front desk acts on them), then newest first.
      .orderBy(
        desc(sql`(${visitRequests.confirmed} is not true and ${visitRequests.status} is null)`),
        desc(visitRequests.createdAt),
        desc(visitRequests.id),
      )
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db
      .select({ total: count() })
      .from(visitRequests)
      .innerJoin(visitors, eq(visitors.id, visitRequests.visitorId))
      .where(where),
  ]);
  return { rows, total: Number(totals[0]?.total ?? 0) };
}

/** One request as a list row (any company: the caller authorizes with the row's company). */
export async function findRequestRow(db: Db, id: string): Promise<RequestListRow | null> {
  const [row] = await selectRows(db).where(eq(visitRequests.id, id)).limit(1);
  return row ?? null;
}

export async function findRequest(db: Db, id: string) {
  const [row] = await db.select().from(visitRequests).where(eq(visitRequests.id, id)).limit(1);
  return row ?? null;
}

/** Whether a visitor already has a request (one visitor, one request). */
export async function visitorHasRequest(db: Db, visitorId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: visitRequests.id })
    .from(visitRequests)
    .where(eq(visitRequests.visitorId, visitorId))
    .limit(1);
  return !!row;
}

/**
 * Valider (spec §4): status 1, confirmed. The row is locked so two hosts pressing
 * Valider at once confirm once and queue one mail; confirming again changes nothing.
 * Returns whether this call confirmed it.
 */
export async function confirmRequest(
  tx: Db,
  request: { id: string; companyId: string; visitorId: string },
  decidedBy: string,
): Promise<boolean> {
  const [locked] = await tx
    .select({ confirmed: visitRequests.confirmed })
    .from(visitRequests)
    .where(eq(visitRequests.id, request.id))
    .for('update');
  // Decided already (confirmed, or declined by its host): never overwritten.
  if (!locked || locked.confirmed !== null) return false;
  await tx
    .update(visitRequests)
    .set({ status: 1, confirmed: true, decidedBy, decidedAt: new Date() })
    .where(eq(visitRequests.id, request.id));
  await enqueueVisitorCodeMailIfAddressed(tx, {
    companyId: request.companyId,
    visitorId: request.visitorId,
  });
  return true;
}
