/**
 * Presence logs: who came and left, when, how and recorded by whom. Every list is
 * a page of the newest check-ins first, limited to a company unless the role sees
 * every company, to sites (issue 28: `siteIds` from `siteScope`, undefined: every
 * site), to a check-in range, and to a search. Each check says its site, whose zone
 * its times are read in.
 *
 * Totals are counted up to LOG_COUNT_CAP rows: counting a million rows on every
 * page would cost more than the page, and past ten thousand rows a person narrows
 * the range rather than pages through.
 */
import {
  aliasedTable,
  and,
  count,
  desc,
  eq,
  gte,
  inArray,
  lte,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import {
  LOG_COUNT_CAP,
  USER_CHECK_LOGS_PER_ROW,
  formatUidn,
  isUidnShaped,
  type CheckLogQuery,
  type CheckMethod,
} from '@sesame/shared';
import type { Database, Db } from '../db/client';
import {
  companies,
  files,
  qrUsers,
  sites,
  userChecks,
  users,
  visitorChecks,
  visitorSearchText,
  visitors,
} from '../db/schema';
import { likeAny, offsetOf } from '../db/pagination';
import { qrUserSearch } from '../qr-users/service';

const checkInUser = aliasedTable(users, 'check_in_user');
const checkOutUser = aliasedTable(users, 'check_out_user');
const photo = aliasedTable(files, 'photo');

const staffName = (table: typeof checkInUser) =>
  sql<
    string | null
  >`nullif(trim(coalesce(${table.firstname}, '') || ' ' || coalesce(${table.name}, '')), '')`;

function rangeOf(
  column: typeof visitorChecks.checkInAt | typeof userChecks.checkInAt,
  query: CheckLogQuery,
) {
  return [
    query.from ? gte(column, new Date(query.from)) : undefined,
    query.to ? lte(column, new Date(query.to)) : undefined,
  ];
}

/** Checks at the sites `siteIds` (undefined: every site; empty: none). */
function atSites(
  column: typeof visitorChecks.siteId | typeof userChecks.siteId,
  siteIds: string[] | undefined,
): SQL | undefined {
  if (siteIds === undefined) return undefined;
  return siteIds.length === 0 ? sql`false` : inArray(column, siteIds);
}

/** A check's site, as every log row says it (its zone is the check's). */
export interface SiteOfEntry {
  siteId: string;
  siteName: string;
  timezone: string;
}

const siteFields = (table: typeof visitorChecks | typeof userChecks) => ({
  siteId: table.siteId,
  siteName: sites.name,
  timezone: sites.timezone,
});

export interface LogPage<T> {
  rows: T[];
  total: number;
  totalCapped: boolean;
}

/** Counts the log rows matching `where`, up to LOG_COUNT_CAP + 1. */
async function cappedCount(
  db: Db,
  table: typeof visitorChecks | typeof userChecks,
  where: SQL | undefined,
): Promise<{ total: number; totalCapped: boolean }> {
  const limited = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(LOG_COUNT_CAP + 1)
    .as('capped');
  const [row] = await db.select({ n: count() }).from(limited);
  const n = Number(row?.n ?? 0);
  return n > LOG_COUNT_CAP
    ? { total: LOG_COUNT_CAP, totalCapped: true }
    : { total: n, totalCapped: false };
}

/** When, how and by whom a check was recorded: the same columns in every log. */
function checkFields(table: typeof visitorChecks | typeof userChecks) {
  return {
    checkInAt: table.checkInAt,
    checkOutAt: table.checkOutAt,
    checkInMethod: sql<CheckMethod>`${table.checkInMethod}`,
    checkOutMethod: sql<CheckMethod | null>`${table.checkOutMethod}`,
    checkInBy: staffName(checkInUser),
    checkOutBy: staffName(checkOutUser),
    undoneAt: table.undoneAt,
    undoneBy: staffNameOf(table.undoneBy),
    undoReason: table.undoReason,
    undoneOutAt: table.undoneOutAt,
    undoneOutMethod: sql<CheckMethod | null>`${table.undoneOutMethod}`,
    undoneOutBy: staffNameOf(table.undoneOutBy),
    outUndoneAt: table.outUndoneAt,
    outUndoneBy: staffNameOf(table.outUndoneBy),
    outUndoReason: table.outUndoReason,
  };
}

/** What every log row says besides its person: its company, its site, and its check. */
const entryFields = (table: typeof visitorChecks | typeof userChecks) => ({
  companyName: companies.name,
  companySlug: companies.slug,
  ...siteFields(table),
  ...checkFields(table),
});

/** The joins `entryFields` reads: the check's company and site, and who recorded it. */
function joinEntry<Query extends PgSelect>(
  query: Query,
  table: typeof visitorChecks | typeof userChecks,
) {
  return query
    .innerJoin(companies, eq(companies.id, table.companyId))
    .innerJoin(sites, eq(sites.id, table.siteId))
    .leftJoin(checkInUser, eq(checkInUser.id, table.checkInBy))
    .leftJoin(checkOutUser, eq(checkOutUser.id, table.checkOutBy));
}

/** A staff member's name by id, for the rarely set undo columns (no join on every row). */
const staffNameOf = (id: SQLWrapper) =>
  sql<
    string | null
  >`(select nullif(trim(coalesce(u.firstname, '') || ' ' || coalesce(u.name, '')), '')
                        from users u where u.id = ${id})`;

/** The undo columns of a log entry (issue 14, checkins/undo.ts). */
export interface UndoEntry {
  undoneAt: Date | null;
  undoneBy: string | null;
  undoReason: string | null;
  undoneOutAt: Date | null;
  undoneOutMethod: CheckMethod | null;
  undoneOutBy: string | null;
  outUndoneAt: Date | null;
  outUndoneBy: string | null;
  outUndoReason: string | null;
}

/** A log entry's check: what `checkFields` selects, in every log. */
export interface CheckEntry extends UndoEntry {
  checkInAt: Date;
  checkOutAt: Date | null;
  checkInMethod: CheckMethod;
  checkOutMethod: CheckMethod | null;
  checkInBy: string | null;
  checkOutBy: string | null;
}

// ── Visitor log ('Liste Check in') ────────────────────────────────────────────

/**
 * The filter reads the checks table alone: a search first finds the matching
 * people (a scan of the people, not of the log), then their checks by index, and
 * the capped count needs no join.
 */
function visitorLogWhere(
  db: Db,
  query: CheckLogQuery,
  companyId: string | undefined,
  siteIds: string[] | undefined,
): SQL | undefined {
  const q = query.q?.trim();
  const company = companyId ? eq(visitorChecks.companyId, companyId) : undefined;
  const matching = q
    ? db
        .select({ id: visitors.id })
        .from(visitors)
        .where(
          and(
            companyId ? eq(visitors.companyId, companyId) : undefined,
            or(
              // The expression of visitors_search_trgm_idx, so the index serves it.
              likeAny(q, [visitorSearchText(visitors)], { folded: true }),
              isUidnShaped(q) ? eq(visitors.uidn, formatUidn(q)) : undefined,
            ),
          ),
        )
    : undefined;
  return and(
    company,
    atSites(visitorChecks.siteId, siteIds),
    ...rangeOf(visitorChecks.checkInAt, query),
    matching ? inArray(visitorChecks.visitorId, matching) : undefined,
  );
}

export interface VisitorLogEntry extends CheckEntry, SiteOfEntry {
  id: string;
  visitorId: string;
  uidn: string;
  firstname: string;
  lastname: string;
  email: string;
  organisationName: string;
  imageId: string | null;
  imageType: string | null;
  companyName: string;
  companySlug: string;
  createdAt: Date;
}

function selectVisitorLog(db: Db) {
  const select = db
    .select({
      id: visitorChecks.id,
      visitorId: visitors.id,
      uidn: visitors.uidn,
      firstname: visitors.firstname,
      lastname: visitors.lastname,
      email: visitors.email,
      organisationName: visitors.organisationName,
      imageId: visitors.requestImageId,
      imageType: photo.mediaType,
      createdAt: visitorChecks.createdAt,
      ...entryFields(visitorChecks),
    })
    .from(visitorChecks)
    .innerJoin(visitors, eq(visitors.id, visitorChecks.visitorId))
    .leftJoin(photo, eq(photo.id, visitors.requestImageId))
    .$dynamic();
  return joinEntry(select, visitorChecks);
}

export async function listVisitorLog(
  db: Db,
  query: CheckLogQuery,
  companyId: string | undefined,
  siteIds?: string[],
): Promise<LogPage<VisitorLogEntry>> {
  const where = visitorLogWhere(db, query, companyId, siteIds);
  const rows = await selectVisitorLog(db)
    .where(where)
    .orderBy(desc(visitorChecks.checkInAt), desc(visitorChecks.id))
    .limit(query.per_page)
    .offset(offsetOf(query));
  return { rows, ...(await cappedCount(db, visitorChecks, where)) };
}

/** Rows fetched per round trip when the export streams. */
const EXPORT_BATCH = 500;

/**
 * The export's rows as they come (issue 12 §9), page by page on the sort key:
 * constant memory whatever the range, and a pooled connection held only for one
 * page's query, never for a download's whole length (a cursor did: twenty slow
 * downloads then held every connection and the front desk's scans waited).
 * Newest first, up to `max`.
 */
export async function* streamVisitorLog(
  db: Database,
  query: CheckLogQuery,
  companyId: string | undefined,
  max: number,
  siteIds?: string[],
): AsyncGenerator<VisitorLogEntry> {
  const where = visitorLogWhere(db, query, companyId, siteIds);
  const order = [desc(visitorChecks.checkInAt), desc(visitorChecks.id)] as const;
  let sent = 0;
  // The last row's id: the next page starts below its (check_in_at, id) as stored.
  // Not its instant as read back: JavaScript keeps milliseconds, PostgreSQL keeps
  // microseconds, and the rows of the lost microseconds would be skipped.
  let after: string | undefined;
  while (sent < max) {
    const page = await selectVisitorLog(db)
      .where(
        and(
          where,
          after
            ? sql`(${visitorChecks.checkInAt}, ${visitorChecks.id}) < (select last.check_in_at, last.id from ${visitorChecks} as last where last.id = ${after})`
            : undefined,
        ),
      )
      .orderBy(...order)
      .limit(Math.min(EXPORT_BATCH, max - sent));
    for (const row of page) yield row;
    sent += page.length;
    const last = page.at(-1);
    if (!last || page.length < EXPORT_BATCH) return;
    after = last.id;
  }
}

// ── QR users' and members' checks ─────────────────────────────────────────────

/** A QR user or member, as both of their lists name them. */
export interface QrPersonOfEntry {
  userId: string;
  uidn: string;
  kind: string;
  firstname: string | null;
  lastname: string | null;
  email: string | null;
}

const qrPersonFields = {
  userId: qrUsers.id,
  uidn: qrUsers.uidn,
  kind: qrUsers.kind,
  firstname: qrUsers.firstname,
  lastname: qrUsers.lastname,
  email: qrUsers.email,
};

export interface UserLogEntry extends QrPersonOfEntry, CheckEntry, SiteOfEntry {
  id: string;
  companyName: string;
  companySlug: string;
}

/** The flat log of QR users' and members' checks, newest first. */
export async function listUserLog(
  db: Db,
  query: CheckLogQuery,
  companyId: string | undefined,
  siteIds?: string[],
): Promise<LogPage<UserLogEntry>> {
  const q = query.q?.trim();
  const where = and(
    companyId ? eq(userChecks.companyId, companyId) : undefined,
    atSites(userChecks.siteId, siteIds),
    ...rangeOf(userChecks.checkInAt, query),
    q
      ? inArray(
          userChecks.qrUserId,
          db
            .select({ id: qrUsers.id })
            .from(qrUsers)
            .where(and(companyId ? eq(qrUsers.companyId, companyId) : undefined, qrUserSearch(q))),
        )
      : undefined,
  );
  const select = db
    .select({
      id: userChecks.id,
      ...qrPersonFields,
      ...entryFields(userChecks),
    })
    .from(userChecks)
    .innerJoin(qrUsers, eq(qrUsers.id, userChecks.qrUserId))
    .$dynamic();
  const rows = await joinEntry(select, userChecks)
    .where(where)
    .orderBy(desc(userChecks.checkInAt), desc(userChecks.id))
    .limit(query.per_page)
    .offset(offsetOf(query));
  return { rows, ...(await cappedCount(db, userChecks, where)) };
}

export interface AttendanceEntry extends QrPersonOfEntry {
  contact: string | null;
  companyId: string;
  dateExp: Date | null;
  documentId: string | null;
  documentType: string | null;
  checks: { checkInAt: Date; checkOutAt: Date | null }[];
}

/**
 * 'Liste Check in / Check out Participants': a page of live QR users and members
 * (by name), each with their checks inside the range (newest first, at most
 * USER_CHECK_LOGS_PER_ROW) at the sites `siteIds` (undefined: every site; a QR user
 * belongs to the company, so the people listed are the same at every site).
 */
export async function listUserAttendance(
  db: Db,
  query: CheckLogQuery,
  companyId: string | undefined,
  siteIds?: string[],
): Promise<{ rows: AttendanceEntry[]; total: number }> {
  const q = query.q?.trim();
  const where = and(
    companyId ? eq(qrUsers.companyId, companyId) : undefined,
    sql`${qrUsers.revokedAt} is null`,
    q ? qrUserSearch(q) : undefined,
  );
  const people = await db
    .select({
      ...qrPersonFields,
      contact: qrUsers.contact,
      companyId: qrUsers.companyId,
      dateExp: qrUsers.dateExp,
      documentId: qrUsers.documentId,
      documentType: photo.mediaType,
    })
    .from(qrUsers)
    .leftJoin(photo, eq(photo.id, qrUsers.documentId))
    .where(where)
    .orderBy(sql`lower(${qrUsers.lastname})`, sql`lower(${qrUsers.firstname})`, qrUsers.id)
    .limit(query.per_page)
    .offset(offsetOf(query));
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(qrUsers)
    .where(where);

  const ids = people.map((p) => p.userId);
  const ranked = db
    .select({
      qrUserId: userChecks.qrUserId,
      checkInAt: userChecks.checkInAt,
      checkOutAt: userChecks.checkOutAt,
      rank: sql<number>`row_number() over (partition by ${userChecks.qrUserId} order by ${userChecks.checkInAt} desc)`.as(
        'rank',
      ),
    })
    .from(userChecks)
    .where(
      and(
        inArray(userChecks.qrUserId, ids),
        atSites(userChecks.siteId, siteIds),
        ...rangeOf(userChecks.checkInAt, query),
      ),
    )
    .as('ranked');
  const checks = ids.length
    ? await db
        .select({
          qrUserId: ranked.qrUserId,
          checkInAt: ranked.checkInAt,
          checkOutAt: ranked.checkOutAt,
        })
        .from(ranked)
        .where(lte(ranked.rank, USER_CHECK_LOGS_PER_ROW))
        .orderBy(desc(ranked.checkInAt))
    : [];
  const byUser = new Map<string, AttendanceEntry['checks']>();
  for (const check of checks) {
    const list = byUser.get(check.qrUserId) ?? [];
    list.push({ checkInAt: check.checkInAt, checkOutAt: check.checkOutAt });
    byUser.set(check.qrUserId, list);
  }
  return {
    rows: people.map((p) => ({ ...p, checks: byUser.get(p.userId) ?? [] })),
    total: Number(total),
  };
}
