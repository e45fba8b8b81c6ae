/**
 * Who a token acts for, written once for every query that asks (loadPrincipal for
 * each request, and the code check's single statement, check-statement.ts):
 *   - a live session: the token's session, of the token's user, neither revoked nor
 *     expired, and the user's account enabled;
 *   - the active role: the first known role of the user's list, else ROLE_USER —
 *     `activeRole` of packages/shared in SQL (test/active-role.test.ts holds them equal).
 *   - a live API key (issue 34): neither revoked nor expired, and its service account enabled;
 *     read on every request, so a revoked key is refused at once on every instance.
 * They read the `sessions`, `api_keys` and `users` tables by their own names.
 */
import { and, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import { ROLES, type Role } from '@sesame/shared';
import { found } from '../db/rows';
import { apiKeys, sessions, users } from '../db/schema';

/** The condition on `sessions` joined to `users` that a token's session is live. */
export function liveSession(sessionId: SQL, userId: SQL): SQL {
  // `and` of given conditions is never undefined; drizzle types it so for an empty call.
  return found(
    and(
      eq(sessions.id, sessionId),
      eq(sessions.userId, userId),
      isNull(sessions.revokedAt),
      gt(sessions.expiresAt, sql`now()`),
      eq(users.status, true),
    ),
    'the live-session conditions',
  );
}

/**
 * The condition on `api_keys` joined to `users` (its service account) that a key is live.
 * `keyId` names the key (the code check's statement); omitted, the caller's query names it
 * otherwise (by its digest).
 */
export function liveApiKey(keyId?: SQL, userId?: SQL): SQL {
  return found(
    and(
      keyId ? eq(apiKeys.id, keyId) : undefined,
      userId ? eq(apiKeys.userId, userId) : undefined,
      eq(users.id, apiKeys.userId),
      isNull(apiKeys.revokedAt),
      or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)),
      eq(users.status, true),
    ),
    'the live API key conditions',
  );
}

/** Our own role names, as a constant of the SQL text (they hold no quote or comma). */
const KNOWN_ROLES = sql.raw(`'{${ROLES.join(',')}}'::text[]`);

/** A roles array's active role, in SQL: its first known role, else ROLE_USER. */
export function activeRoleOf(roles: SQL | typeof users.roles = users.roles): SQL<Role> {
  return sql<Role>`coalesce((select r from unnest(${roles}) with ordinality as t(r, i)
                              where r = any(${KNOWN_ROLES}) order by i limit 1), 'ROLE_USER')`;
}
