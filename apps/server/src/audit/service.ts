/**
 * The audit log (issue 16): who looked at which identity document and who changed what.
 * An entry is written with `audit(tx, ...)` in the same transaction as the change it
 * records, so a change without its entry (or the reverse) never commits. Entries are
 * append-only (a database trigger refuses UPDATE and DELETE, migration 0012); `detail`
 * carries ids, roles, days and counts, never a name, an e-mail or a phone number.
 * Checks made or closed by hand are audited by triggers on the check tables, since the
 * code check is one SQL statement.
 *
 * An entry belongs to the company acted upon (the record's company, never the actor's), so
 * that company's admins and managers read what the platform's own staff (ROLE_ADMIN,
 * ROLE_SESAME of another company) did to it. Whether an entry is by the platform is not the
 * caller's to say: the database sets `by_platform` from the actor's row as the entry is
 * written (migration 0022), for these entries and the triggers' alike.
 */
import { and, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditQuery, AuditSubject } from '@sesame/shared';
import type { Db } from '../db/client';
import { auditEvents, companies, users } from '../db/schema';
import { newId } from '../db/ids';
import { likeAny, offsetOf } from '../db/pagination';

export interface AuditEntryInput {
  /** The company acted upon: the record's own company, not the actor's. */
  companyId: string | null;
  /** The staff member who acted; null for the system (the retention purge). */
  actorUserId: string | null;
  action: AuditAction;
  subjectType?: AuditSubject;
  subjectId?: string | null;
  /** Ids, roles, days, counts: never a personal field. */
  detail?: Record<string, string | number | boolean | null | string[]>;
}

/** Writes one entry, in the caller's transaction. */
export async function audit(db: Db, entry: AuditEntryInput): Promise<void> {
  await db.insert(auditEvents).values({
    id: newId(),
    companyId: entry.companyId,
    actorUserId: entry.actorUserId,
    action: entry.action,
    subjectType: entry.subjectType ?? null,
    subjectId: entry.subjectId ?? null,
    detail: entry.detail ?? null,
  });
}

/** The conditions of a list or an export; `companyId` undefined: every company. */
export function auditWhere(
  query: Omit<AuditQuery, 'page' | 'per_page'>,
  companyId: string | undefined,
): SQL | undefined {
  const conditions: (SQL | undefined)[] = [
    companyId ? eq(auditEvents.companyId, companyId) : undefined,
    !companyId && query.company ? eq(auditEvents.companyId, query.company) : undefined,
    query.actor ? eq(auditEvents.actorUserId, query.actor) : undefined,
    query.action ? eq(auditEvents.action, query.action) : undefined,
    query.by ? eq(auditEvents.byPlatform, query.by === 'platform') : undefined,
    query.from ? gte(auditEvents.at, new Date(query.from)) : undefined,
    query.to ? lte(auditEvents.at, new Date(query.to)) : undefined,
  ];
  if (query.q) {
    conditions.push(
      likeAny(query.q, [
        auditEvents.action,
        sql`${users.firstname} || ' ' || ${users.name}`,
        users.email,
        sql`${auditEvents.subjectId}::text`,
      ]),
    );
  }
  return and(...conditions);
}

export interface AuditRow {
  id: string;
  at: Date;
  companyId: string | null;
  companyName: string | null;
  actorUserId: string | null;
  actorName: string | null;
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  detail: unknown;
  byPlatform: boolean;
}

const columns = {
  id: auditEvents.id,
  at: auditEvents.at,
  companyId: auditEvents.companyId,
  companyName: companies.name,
  actorUserId: auditEvents.actorUserId,
  actorName: sql<
    string | null
  >`case when ${users.id} is null then null else ${users.firstname} || ' ' || ${users.name} end`,
  action: auditEvents.action,
  subjectType: auditEvents.subjectType,
  subjectId: auditEvents.subjectId,
  detail: auditEvents.detail,
  byPlatform: auditEvents.byPlatform,
};

/** A page of entries, newest first, and their total. */
export async function listAudit(
  db: Db,
  query: AuditQuery,
  companyId: string | undefined,
  limit = query.per_page,
  offset = offsetOf(query),
): Promise<{ rows: AuditRow[]; total: number }> {
  const where = auditWhere(query, companyId);
  const rows = await db
    .select(columns)
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .leftJoin(companies, eq(companies.id, auditEvents.companyId))
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(limit)
    .offset(offset);
  const [counted] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .where(where);
  return { rows, total: Number(counted?.total ?? 0) };
}

/** The staff members who appear in a scope's log (the actor filter's choices). */
export async function auditActors(db: Db, companyId: string | undefined) {
  return db
    .selectDistinct({ id: users.id, firstname: users.firstname, name: users.name })
    .from(auditEvents)
    .innerJoin(users, eq(users.id, auditEvents.actorUserId))
    .where(companyId ? eq(auditEvents.companyId, companyId) : undefined)
    .orderBy(users.firstname, users.name, users.id)
    .limit(500);
}
