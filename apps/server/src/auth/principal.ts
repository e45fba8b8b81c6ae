import { eq, sql } from 'drizzle-orm';
import type { Role } from '@sesame/shared';
import type { Db } from '../db/client';
import { prepared } from '../db/prepared';
import { companies, sessions, users } from '../db/schema';
import { activeRoleOf, liveSession } from './session-rule';

/** The signed-in staff member a request acts for, or an API key (issue 34). */
export interface Principal {
  userId: string;
  /** The session's id; for an API key, the key's id (a key has no session row). */
  sessionId: string;
  role: Role;
  roles: string[];
  companyId: string;
  companySlug: string;
  companyName: string;
  name: string;
  firstname: string;
  email: string;
  /** Where their screens open (issue 28); null: the company's main site. */
  homeSiteId: string | null;
  /** The sites they are limited to; empty: every site of their company. */
  siteIds: string[];
  /**
   * Issue 34: the API key the call is made with. `userId` is then its hidden service account
   * (a ROLE_SUPER_ADMIN of its company), and it may only do what its scopes open
   * (`mayAct`, auth/authorize.ts).
   */
  apiKey?: { id: string; name: string; scopes: string[] };
}

/**
 * What a Principal reads of its account and company, for a session and an API key alike
 * (api-keys/service.ts): `users` and `companies` joined, the user's active role worked out.
 */
export const principalColumns = {
  userId: users.id,
  role: activeRoleOf(users.roles),
  roles: users.roles,
  companyId: users.companyId,
  companySlug: companies.slug,
  companyName: companies.name,
  name: users.name,
  firstname: users.firstname,
  email: users.email,
  homeSiteId: users.homeSiteId,
  siteIds: users.siteIds,
};

const principalQuery = (db: Db) =>
  db
    .select(principalColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(liveSession(sql`${sql.placeholder('sessionId')}`, sql`${sql.placeholder('userId')}`))
    .limit(1)
    .prepare('load_principal');

/**
 * One query (prepared: every authenticated request runs it): a live session of an active
 * user, and their active role (session-rule.ts, shared with the code check's statement).
 */
export async function loadPrincipal(
  db: Db,
  sessionId: string,
  userId: string,
): Promise<Principal | null> {
  const rows = await prepared(db, 'load_principal', principalQuery).execute({ sessionId, userId });
  const row = rows[0];
  if (!row) return null;
  return { ...row, sessionId };
}
