/**
 * The watchlist's records (issue 31): a company's entries (added, edited, removed, each
 * audited with ids only), its name threshold, and the review of the visits it held:
 * allow once (this visit goes on: a held request reaches its host, a held invitation its
 * visitor, a scan passes) or deny (the request is declined, the code refused). The match
 * and the hold themselves are match.ts's.
 */
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type {
  HoldStatus,
  ListQuery,
  WatchlistEntry,
  WatchlistHold,
  watchlistEntryInputSchema,
} from '@sesame/shared';
import type { z } from 'zod';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import { newId } from '../db/ids';
import { likeAny, offsetOf } from '../db/pagination';
import {
  companies,
  sites,
  visitRequests,
  visitors,
  watchlistEntries,
  watchlistHolds,
} from '../db/schema';
import { conflict, notFound } from '../errors';
import { dayBounds } from '../events/time';
import { sendHeldInvitation } from '../invitations/service';
import { enqueueOnce, VISITOR_DECLINED_MAIL } from '../mail/outbox';
import { queueRequestFiledMails } from '../requests/host-loop';
import { mainSite } from '../sites/service';
import { dayOf } from '../time-zones';
import { requestOfVisitor } from './held';

export type EntryRow = typeof watchlistEntries.$inferSelect;
export type HoldRow = typeof watchlistHolds.$inferSelect;

/** An entry as the parsed body says it (the phone already E.164: readPhones). */
export type EntryFields = z.output<typeof watchlistEntryInputSchema>;

/** 'YYYY-MM-DD' → 'DD/MM/YYYY'. */
const toFormDay = (iso: string) => iso.split('-').reverse().join('/');

/** The last day an entry holds, DD/MM/YYYY, read in `zone` from its end (the next midnight). */
export function untilDay(until: Date | null, zone: string): string | null {
  return until ? toFormDay(dayOf(new Date(until.getTime() - 1), zone)) : null;
}

export function presentEntry(row: EntryRow, zone: string, now = new Date()): WatchlistEntry {
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    phone: row.phone,
    id_number: row.idNumber,
    reason: row.reason,
    until: untilDay(row.until, zone),
    active: row.until === null || row.until > now,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
  };
}

/** The zone a company's watchlist days are read in: its main site's. */
export async function watchlistZone(db: Db, companyId: string): Promise<string> {
  return (await mainSite(db, companyId)).timezone;
}

/** The stored columns of an entry's input: e-mail lower-cased, the end day as its instant end. */
function entryColumns(input: EntryFields, zone: string) {
  const until = input.until ? dayBounds(input.until, zone)!.dayEndsAt : null;
  return {
    firstname: input.firstname ?? '',
    lastname: input.lastname ?? '',
    email: input.email ? input.email.trim().toLowerCase() : null,
    phone: input.phone || null,
    idNumber: input.id_number ? input.id_number.trim() : null,
    reason: input.reason,
    until,
  };
}

export async function listEntries(
  db: Db,
  companyId: string,
  query: ListQuery,
): Promise<{ rows: EntryRow[]; total: number }> {
  const q = query.q?.trim();
  const where = and(
    eq(watchlistEntries.companyId, companyId),
    q
      ? likeAny(q, [
          sql`${watchlistEntries.firstname} || ' ' || ${watchlistEntries.lastname}`,
          sql`${watchlistEntries.lastname} || ' ' || ${watchlistEntries.firstname}`,
          sql`coalesce(${watchlistEntries.email}, '')`,
          sql`coalesce(${watchlistEntries.phone}, '')`,
          sql`coalesce(${watchlistEntries.idNumber}, '')`,
          watchlistEntries.reason,
        ])
      : undefined,
  );
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(watchlistEntries)
      .where(where)
      .orderBy(desc(watchlistEntries.createdAt), asc(watchlistEntries.id))
      .limit(query.per_page)
      .offset(offsetOf(query)),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(watchlistEntries)
      .where(where),
  ]);
  return { rows, total: Number(counted?.total ?? 0) };
}

export async function findEntry(db: Db, id: string): Promise<EntryRow | null> {
  const [row] = await db.select().from(watchlistEntries).where(eq(watchlistEntries.id, id));
  return row ?? null;
}

export async function addEntry(
  tx: Db,
  companyId: string,
  input: EntryFields,
  actorUserId: string,
): Promise<EntryRow> {
  const zone = await watchlistZone(tx, companyId);
  const [row] = await tx
    .insert(watchlistEntries)
    .values({ id: newId(), companyId, ...entryColumns(input, zone), createdBy: actorUserId })
    .returning();
  await audit(tx, {
    companyId,
    actorUserId,
    action: 'watchlist.added',
    subjectType: 'watchlist_entry',
    subjectId: row!.id,
    detail: { until: row!.until ? untilDay(row!.until, zone) : null },
  });
  return row!;
}

export async function updateEntry(
  tx: Db,
  entry: EntryRow,
  input: EntryFields,
  actorUserId: string,
): Promise<EntryRow> {
  const zone = await watchlistZone(tx, entry.companyId);
  const [row] = await tx
    .update(watchlistEntries)
    .set({ ...entryColumns(input, zone), updatedAt: new Date() })
    .where(eq(watchlistEntries.id, entry.id))
    .returning();
  await audit(tx, {
    companyId: entry.companyId,
    actorUserId,
    action: 'watchlist.updated',
    subjectType: 'watchlist_entry',
    subjectId: entry.id,
    detail: { until: row!.until ? untilDay(row!.until, zone) : null },
  });
  return row!;
}

/** Removes an entry; its holds stay (their entry null: set null), decided or not. */
export async function removeEntry(tx: Db, entry: EntryRow, actorUserId: string): Promise<void> {
  await tx.delete(watchlistEntries).where(eq(watchlistEntries.id, entry.id));
  await audit(tx, {
    companyId: entry.companyId,
    actorUserId,
    action: 'watchlist.removed',
    subjectType: 'watchlist_entry',
    subjectId: entry.id,
  });
}

export async function nameThreshold(db: Db, companyId: string): Promise<number> {
  const [row] = await db
    .select({ threshold: companies.watchlistNameThreshold })
    .from(companies)
    .where(eq(companies.id, companyId));
  return Number(row?.threshold ?? 0.6);
}

export async function setNameThreshold(
  tx: Db,
  companyId: string,
  threshold: number,
  actorUserId: string,
): Promise<number> {
  const before = await nameThreshold(tx, companyId);
  await tx
    .update(companies)
    .set({ watchlistNameThreshold: threshold })
    .where(eq(companies.id, companyId));
  await audit(tx, {
    companyId,
    actorUserId,
    action: 'watchlist.settings_changed',
    subjectType: 'company',
    subjectId: companyId,
    detail: { name_threshold: threshold, before },
  });
  return nameThreshold(tx, companyId);
}

// ── Holds ────────────────────────────────────────────────────────────────

const holdColumns = {
  hold: watchlistHolds,
  siteName: sites.name,
  visitor: {
    id: visitors.id,
    firstname: visitors.firstname,
    lastname: visitors.lastname,
    email: visitors.email,
    organisation: visitors.organisationName,
  },
  entry: {
    id: watchlistEntries.id,
    firstname: watchlistEntries.firstname,
    lastname: watchlistEntries.lastname,
    reason: watchlistEntries.reason,
  },
};

type HoldJoined = {
  hold: HoldRow;
  siteName: string;
  visitor: {
    id: string | null;
    firstname: string | null;
    lastname: string | null;
    email: string | null;
    organisation: string | null;
  } | null;
  entry: { id: string; firstname: string; lastname: string; reason: string } | null;
};

function selectHolds(db: Db, where: SQL | undefined) {
  return db
    .select(holdColumns)
    .from(watchlistHolds)
    .innerJoin(sites, eq(sites.id, watchlistHolds.siteId))
    .leftJoin(visitors, eq(visitors.id, watchlistHolds.visitorId))
    .leftJoin(watchlistEntries, eq(watchlistEntries.id, watchlistHolds.entryId))
    .where(where);
}

export function presentHold(row: HoldJoined): WatchlistHold {
  const { hold } = row;
  return {
    id: hold.id,
    site_id: hold.siteId,
    site_name: row.siteName,
    // text columns: source, matched_on and status are written only from their enums.
    source: hold.source as WatchlistHold['source'],
    matched_on: hold.matchedOn as WatchlistHold['matched_on'],
    similarity: hold.similarity === null ? null : Number(hold.similarity),
    status: hold.status as HoldStatus,
    visitor: {
      id: row.visitor?.id ?? null,
      firstname: row.visitor?.firstname ?? '',
      lastname: row.visitor?.lastname ?? '',
      email: row.visitor?.email ?? '',
      organisation: row.visitor?.organisation ?? '',
    },
    entry: row.entry?.id ? row.entry : null,
    request_id: hold.requestId,
    created_at: hold.createdAt.toISOString(),
    decided_at: hold.decidedAt?.toISOString() ?? null,
    decided_by: hold.decidedBy,
    decision_reason: hold.decisionReason,
  };
}

/** A company's holds (newest first), of one status when said, within `siteIds` when limited. */
export async function listHolds(
  db: Db,
  companyId: string,
  filter: { status?: HoldStatus; siteIds?: string[] },
): Promise<WatchlistHold[]> {
  const rows = await selectHolds(
    db,
    and(
      eq(watchlistHolds.companyId, companyId),
      filter.status ? eq(watchlistHolds.status, filter.status) : undefined,
      filter.siteIds ? inArray(watchlistHolds.siteId, filter.siteIds) : undefined,
    ),
  )
    .orderBy(desc(watchlistHolds.createdAt), asc(watchlistHolds.id))
    .limit(500);
  return rows.map(presentHold);
}

export async function findHold(db: Db, id: string): Promise<HoldRow | null> {
  const [row] = await db.select().from(watchlistHolds).where(eq(watchlistHolds.id, id));
  return row ?? null;
}

export async function presentHoldById(db: Db, id: string): Promise<WatchlistHold> {
  const [row] = await selectHolds(db, eq(watchlistHolds.id, id));
  if (!row) throw notFound();
  return presentHold(row);
}

/**
 * A reviewer's decision on a held visit, in the caller's transaction (the hold locked: two
 * reviewers deciding at once make one decision; a decided hold is a 409). Allow: the visit
 * goes on where it stopped — a pending request's host (or front desk) gets the request mail,
 * an invitation's visitor their invitation. Deny: the request is declined and the visitor
 * gets the ordinary decline mail, without any reason (a visitor invited and held was never
 * told of the invitation, and is not told now).
 */
export async function decideHold(
  tx: Db,
  holdId: string,
  decision: { decision: 'allow' | 'deny'; reason: string },
  actorUserId: string,
): Promise<HoldRow> {
  const [locked] = await tx
    .select()
    .from(watchlistHolds)
    .where(eq(watchlistHolds.id, holdId))
    .for('update');
  if (!locked) throw notFound();
  if (locked.status !== 'pending') throw conflict((m) => m.watchlist.alreadyDecided);
  const allow = decision.decision === 'allow';
  const now = new Date();
  const [decided] = await tx
    .update(watchlistHolds)
    .set({
      status: allow ? 'allowed' : 'denied',
      decidedBy: actorUserId,
      decidedAt: now,
      decisionReason: decision.reason,
    })
    .where(eq(watchlistHolds.id, locked.id))
    .returning();
  const requestId = locked.requestId ?? (await requestOfVisitor(tx, locked.visitorId));
  const [request] = requestId
    ? await tx
        .select({
          id: visitRequests.id,
          companyId: visitRequests.companyId,
          visitorId: visitRequests.visitorId,
          hostUserId: visitRequests.hostUserId,
          confirmed: visitRequests.confirmed,
          invitationId: visitRequests.invitationId,
          eventId: visitors.eventId,
          email: visitors.email,
        })
        .from(visitRequests)
        .innerJoin(visitors, eq(visitors.id, visitRequests.visitorId))
        .where(eq(visitRequests.id, requestId))
        .for('update', { of: visitRequests })
    : [];
  if (request && allow) {
    if (request.invitationId) await sendHeldInvitation(tx, request.id);
    else if (request.confirmed === null && !request.eventId) {
      await queueRequestFiledMails(tx, request);
    }
  } else if (request && request.confirmed !== false) {
    await tx
      .update(visitRequests)
      .set({
        status: 2,
        confirmed: false,
        decidedBy: actorUserId,
        decidedAt: now,
        declineReason: null,
      })
      .where(eq(visitRequests.id, request.id));
    if (locked.source !== 'invitation' && request.email) {
      await enqueueOnce(tx, {
        companyId: request.companyId,
        kind: VISITOR_DECLINED_MAIL,
        toAddress: request.email,
        payload: { visitorId: request.visitorId, requestId: request.id },
        dedupeKey: `${VISITOR_DECLINED_MAIL}:${request.id}`,
      });
    }
    await audit(tx, {
      companyId: request.companyId,
      actorUserId,
      action: 'request.declined',
      subjectType: 'request',
      subjectId: request.id,
      detail: { watchlist_hold_id: locked.id },
    });
  }
  await audit(tx, {
    companyId: locked.companyId,
    actorUserId,
    action: allow ? 'watchlist.allowed' : 'watchlist.denied',
    subjectType: 'watchlist_hold',
    subjectId: locked.id,
    detail: { visitor_id: locked.visitorId, request_id: requestId ?? null },
  });
  return decided!;
}
