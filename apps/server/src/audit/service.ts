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
import { alias, type AnyPgColumn, type PgSelect } from 'drizzle-orm/pg-core';
import type {
  AuditAction,
  AuditQuery,
  AuditSubject,
  AuditSubjectState,
  Role,
} from '@sesame/shared';
import { activeRoleOf } from '../auth/session-rule';
import type { Db } from '../db/client';
import {
  apiKeys,
  auditEvents,
  companies,
  events,
  files,
  kiosks,
  qrUsers,
  users,
  visitRequests,
  visitors,
} from '../db/schema';
import { newId } from '../db/ids';
import { fullNames, likeAny, offsetOf } from '../db/pagination';

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

/**
 * An entry's detail, with `api_key_id` when its actor is an API key's service account (issue
 * 34: the entry reads as the key, its account being the actor): read in the insert itself.
 */
function detailOf(entry: AuditEntryInput): AuditEntryInput['detail'] | SQL | null {
  const detail = entry.detail ?? null;
  if (!entry.actorUserId) return detail;
  const given = sql`${detail === null ? null : JSON.stringify(detail)}::jsonb`;
  return sql`coalesce(
    (select coalesce(${given}, '{}'::jsonb) || jsonb_build_object('api_key_id', k.id)
       from ${apiKeys} k where k.user_id = ${entry.actorUserId}::uuid),
    ${given})`;
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
    detail: detailOf(entry),
  });
}

/**
 * The tables an entry points at, each under its own name: the actor and their company, the
 * entry's company, and the subject by its type. Every join is on a primary key (one row at
 * most each), so a page of entries is one query whatever it names.
 */
const actor = alias(users, 'actor');
const actorCompany = alias(companies, 'actor_company');
const entryCompany = alias(companies, 'entry_company');
const subjectUser = alias(users, 'subject_user');
const subjectUserCompany = alias(companies, 'subject_user_company');
const subjectVisitor = alias(visitors, 'subject_visitor');
const subjectRequest = alias(visitRequests, 'subject_request');
const requestVisitor = alias(visitors, 'request_visitor');
const subjectCard = alias(qrUsers, 'subject_card');
const subjectCompany = alias(companies, 'subject_company');
const subjectEvent = alias(events, 'subject_event');
const subjectFile = alias(files, 'subject_file');
const subjectKiosk = alias(kiosks, 'subject_kiosk');
const subjectApiKey = alias(apiKeys, 'subject_api_key');
const otherCompany = alias(companies, 'other_company');

/** The subject's row, when the entry's subject is of `type`. */
const subjectIs = (type: AuditSubject, id: AnyPgColumn) =>
  and(eq(auditEvents.subjectType, type), eq(id, auditEvents.subjectId));

/** A uuid a detail names by `key`, or null when it holds none (never a cast error). */
const detailUuid = (key: string) =>
  sql`case when ${auditEvents.detail} ->> ${key} ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
           then (${auditEvents.detail} ->> ${key})::uuid end`;

/** Entries with what they point at (every join keeps one row per entry). */
function joined<T extends PgSelect>(query: T) {
  return query
    .leftJoin(actor, eq(actor.id, auditEvents.actorUserId))
    .leftJoin(actorCompany, eq(actorCompany.id, actor.companyId))
    .leftJoin(entryCompany, eq(entryCompany.id, auditEvents.companyId))
    .leftJoin(subjectUser, subjectIs('user', subjectUser.id))
    .leftJoin(subjectUserCompany, eq(subjectUserCompany.id, subjectUser.companyId))
    .leftJoin(subjectVisitor, subjectIs('visitor', subjectVisitor.id))
    .leftJoin(subjectRequest, subjectIs('request', subjectRequest.id))
    .leftJoin(requestVisitor, eq(requestVisitor.id, subjectRequest.visitorId))
    .leftJoin(subjectCard, subjectIs('qr_user', subjectCard.id))
    .leftJoin(subjectCompany, subjectIs('company', subjectCompany.id))
    .leftJoin(subjectEvent, subjectIs('event', subjectEvent.id))
    .leftJoin(subjectFile, subjectIs('file', subjectFile.id))
    .leftJoin(subjectKiosk, subjectIs('kiosk', subjectKiosk.id))
    .leftJoin(subjectApiKey, subjectIs('api_key', subjectApiKey.id))
    .leftJoin(
      otherCompany,
      eq(otherCompany.id, sql`coalesce(${detailUuid('movedTo')}, ${detailUuid('movedFrom')})`),
    );
}

/** 'First Last' of a row, null when both are empty. */
const nameOf = (first: AnyPgColumn, last: AnyPgColumn) =>
  sql<string | null>`nullif(trim(coalesce(${first}, '') || ' ' || coalesce(${last}, '')), '')`;

/** A visitor's name, unless the retention purge anonymised them. */
const visitorName = (v: {
  anonymisedAt: AnyPgColumn;
  firstname: AnyPgColumn;
  lastname: AnyPgColumn;
}) =>
  sql<
    string | null
  >`case when ${v.anonymisedAt} is null then ${nameOf(v.firstname, v.lastname)} end`;

/** Whether the subject is still there, anonymised, or gone; null without a subject. */
const subjectState = sql<AuditSubjectState | null>`case
  when ${auditEvents.subjectType} is null then null
  when coalesce(${subjectUser.id}, ${subjectVisitor.id}, ${subjectRequest.id}, ${subjectCard.id},
                ${subjectCompany.id}, ${subjectEvent.id}, ${subjectFile.id}, ${subjectKiosk.id},
                ${subjectApiKey.id}) is null
    then 'gone'
  when ${subjectVisitor.anonymisedAt} is not null or ${requestVisitor.anonymisedAt} is not null
    then 'anonymised'
  else 'present' end`;

/** The names a search matches: the actor's and the subject's (issue 27), folded. */
const searchedNames: (SQL | AnyPgColumn)[] = [
  ...fullNames(actor.firstname, actor.name),
  actor.email,
  ...fullNames(subjectUser.firstname, subjectUser.name),
  subjectUser.email,
  ...fullNames(subjectVisitor.firstname, subjectVisitor.lastname),
  subjectVisitor.email,
  ...fullNames(requestVisitor.firstname, requestVisitor.lastname),
  requestVisitor.email,
  ...fullNames(subjectCard.firstname, subjectCard.lastname),
  subjectCard.email,
  subjectCompany.name,
  subjectEvent.name,
];

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
      likeAny(query.q, [auditEvents.action, ...searchedNames, sql`${auditEvents.subjectId}::text`]),
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
  actorRole: Role | null;
  actorCompanyName: string | null;
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  subjectName: string | null;
  subjectRole: Role | null;
  subjectCompanyName: string | null;
  subjectState: AuditSubjectState | null;
  otherCompanyName: string | null;
  detail: unknown;
  byPlatform: boolean;
}

const columns = {
  id: auditEvents.id,
  at: auditEvents.at,
  companyId: auditEvents.companyId,
  companyName: entryCompany.name,
  actorUserId: auditEvents.actorUserId,
  actorName: sql<
    string | null
  >`case when ${actor.id} is null then null else ${actor.firstname} || ' ' || ${actor.name} end`,
  actorRole: sql<Role | null>`case when ${actor.id} is not null then ${activeRoleOf(sql`${actor.roles}`)} end`,
  actorCompanyName: actorCompany.name,
  action: auditEvents.action,
  subjectType: auditEvents.subjectType,
  subjectId: auditEvents.subjectId,
  subjectName: sql<string | null>`coalesce(
    ${nameOf(subjectUser.firstname, subjectUser.name)},
    ${visitorName(subjectVisitor)},
    ${visitorName(requestVisitor)},
    ${nameOf(subjectCard.firstname, subjectCard.lastname)},
    ${subjectCompany.name},
    ${subjectEvent.name},
    ${subjectKiosk.name},
    ${subjectApiKey.name})`,
  subjectRole: sql<Role | null>`case when ${subjectUser.id} is not null then ${activeRoleOf(sql`${subjectUser.roles}`)} end`,
  subjectCompanyName: sql<string | null>`coalesce(
    ${subjectUserCompany.name},
    case when ${subjectVisitor.anonymisedAt} is null then nullif(${subjectVisitor.organisationName}, '') end,
    case when ${requestVisitor.anonymisedAt} is null then nullif(${requestVisitor.organisationName}, '') end)`,
  subjectState,
  otherCompanyName: otherCompany.name,
  detail: auditEvents.detail,
  byPlatform: auditEvents.byPlatform,
};

/** A page of entries, newest first, with the names they point at, and their total. */
export async function listAudit(
  db: Db,
  query: AuditQuery,
  companyId: string | undefined,
  limit = query.per_page,
  offset = offsetOf(query),
): Promise<{ rows: AuditRow[]; total: number }> {
  const where = auditWhere(query, companyId);
  const rows = await joined(db.select(columns).from(auditEvents).$dynamic())
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(limit)
    .offset(offset);
  // Without a search the conditions read the entry alone: no join to count it.
  const counting = db
    .select({ total: sql<number>`count(*)::int` })
    .from(auditEvents)
    .$dynamic();
  const [counted] = await (query.q ? joined(counting) : counting).where(where);
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
