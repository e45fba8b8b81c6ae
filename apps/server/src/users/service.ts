import { and, desc, eq, ne, not, sql, type SQL } from 'drizzle-orm';
import { activeRole, type ListQuery } from '@sesame/shared';
import { activeRoleOf } from '../auth/session-rule';
import type { Db } from '../db/client';
import { countRows, likeAny, offsetOf } from '../db/pagination';
import { companies, sessions, users } from '../db/schema';

export type UserRow = typeof users.$inferSelect & { companySlug: string; companyName: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The active role (spec §6: the first known role of the list) is ROLE_ADMIN. */
const activeRoleIsAdmin = sql`${activeRoleOf(users.roles)} = 'ROLE_ADMIN'`;

function selectUsers(db: Db) {
  return db
    .select({ user: users, companySlug: companies.slug, companyName: companies.name })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId));
}

function toRow(r: { user: typeof users.$inferSelect; companySlug: string; companyName: string }) {
  return { ...r.user, companySlug: r.companySlug, companyName: r.companyName };
}

export async function findUser(db: Db, id: string): Promise<UserRow | null> {
  if (!UUID.test(id)) return null;
  const rows = await selectUsers(db).where(eq(users.id, id)).limit(1);
  return rows[0] ? toRow(rows[0]) : null;
}

export interface UserListFilter {
  /** undefined: every company. */
  companyId?: string;
  /** A supervisor's view: no user holding ROLE_ADMIN, and not the viewer. */
  hideAdminsAndUserId?: string;
}

export async function listUsers(
  db: Db,
  query: ListQuery,
  filter: UserListFilter,
): Promise<{ rows: UserRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (filter.companyId) conditions.push(eq(users.companyId, filter.companyId));
  if (filter.hideAdminsAndUserId) {
    conditions.push(ne(users.id, filter.hideAdminsAndUserId));
    conditions.push(not(sql`'ROLE_ADMIN' = any(${users.roles})`));
  }
  if (query.q) {
    conditions.push(likeAny(query.q, [users.name, users.firstname, users.email]));
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, total] = await Promise.all([
    selectUsers(db)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(query.per_page)
      .offset(offsetOf(query)),
    countRows(db, users, where),
  ]);
  return { rows: rows.map(toRow), total };
}

/** Is a user with this e-mail already there (e-mails are unique case-insensitively)? */
export async function emailTaken(db: Db, email: string, exceptUserId?: string): Promise<boolean> {
  const conditions: SQL[] = [eq(sql`lower(${users.email})`, email.toLowerCase())];
  if (exceptUserId) conditions.push(ne(users.id, exceptUserId));
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(...conditions))
    .limit(1);
  return rows.length > 0;
}

export function isActiveAdmin(user: { roles: string[]; status: boolean }): boolean {
  return user.status && activeRole(user.roles) === 'ROLE_ADMIN';
}

/**
 * How many enabled admins other than `userId` there are. The admin rows are locked
 * for the rest of the transaction, so two admins demoting each other at the same
 * moment cannot both succeed.
 */
export async function otherActiveAdmins(tx: Db, userId: string): Promise<number> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(activeRoleIsAdmin, eq(users.status, true)))
    .for('update');
  return rows.filter((r) => r.id !== userId).length;
}

/** Ends every session of a user but `keepSessionId` (after a password change). */
export async function revokeSessions(db: Db, userId: string, keepSessionId?: string) {
  const conditions: SQL[] = [eq(sessions.userId, userId)];
  if (keepSessionId) conditions.push(ne(sessions.id, keepSessionId));
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(...conditions, sql`${sessions.revokedAt} is null`));
}
