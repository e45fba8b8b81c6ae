import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { activeRole, type Role } from '@sesame/shared';
import type { Db } from '../db/client';
import { prepared } from '../db/prepared';
import { companies, sessions, users } from '../db/schema';

/** The signed-in staff member a request acts for. */
export interface Principal {
  userId: string;
  sessionId: string;
  role: Role;
  roles: string[];
  companyId: string;
  companySlug: string;
  companyName: string;
  name: string;
  firstname: string;
  email: string;
}

const principalQuery = (db: Db) =>
  db
    .select({
      userId: users.id,
      roles: users.roles,
      companyId: users.companyId,
      companySlug: companies.slug,
      companyName: companies.name,
      name: users.name,
      firstname: users.firstname,
      email: users.email,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        eq(users.status, true),
      ),
    )
    .limit(1)
    .prepare('load_principal');

/** One query (prepared: every authenticated request runs it): a live session of an active user. */
export async function loadPrincipal(
  db: Db,
  sessionId: string,
  userId: string,
): Promise<Principal | null> {
  const rows = await prepared(db, 'load_principal', principalQuery).execute({ sessionId, userId });
  const row = rows[0];
  if (!row) return null;
  return { ...row, sessionId, role: activeRole(row.roles) };
}
