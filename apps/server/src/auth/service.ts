/**
 * Signing in and out, and an account's own password: the work behind the auth
 * routes (routes.ts parses, calls these, presents).
 */
import { eq, sql } from 'drizzle-orm';
import { API_MESSAGES } from '@sesame/shared';
import { audit } from '../audit/service';
import type { Database } from '../db/client';
import { sessions, users } from '../db/schema';
import { HttpError } from '../errors';
import type { LoginThrottle } from './login-throttle';
import { decoyHash, verifyPassword } from './passwords';
import { tokenExpiry, type TokenService } from './tokens';

export interface SignInAttempt {
  email: string;
  password: string;
  /** The client's address, for the throttle. */
  client: string;
  /** False for an allow-listed client (the throttle is skipped). */
  throttled: boolean;
}

export interface SignedIn {
  token: string;
  expiresAt: Date;
  userId: string;
}

/**
 * Sign-in (issue 11 §3, issue 16): the attempt claims a turn from the throttle (429
 * when it must wait) before the password is read; an unknown e-mail is checked
 * against a decoy hash so timing tells nothing; a wrong password or a disabled
 * account is audited against that account (an unknown address names nobody, nothing
 * is kept). A success clears the throttle, opens a session and audits it, in one
 * transaction, and answers its signed token.
 */
export async function signIn(
  db: Database,
  tokens: TokenService,
  throttle: LoginThrottle,
  attempt: SignInAttempt,
): Promise<SignedIn> {
  const email = attempt.email.toLowerCase();
  if (attempt.throttled && !(await throttle.claim(db, email, attempt.client))) {
    throw new HttpError(429, API_MESSAGES.tooManyRequests);
  }
  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  const valid = await verifyPassword(user?.passwordHash ?? (await decoyHash()), attempt.password);
  if (!user) throw new HttpError(401, API_MESSAGES.badCredentials);
  if (!valid || !user.status) {
    await audit(db, {
      companyId: user.companyId,
      actorUserId: user.id,
      action: 'auth.sign_in_failed',
      subjectType: 'user',
      subjectId: user.id,
      detail: { reason: valid ? 'disabled' : 'password' },
    });
    if (!valid) throw new HttpError(401, API_MESSAGES.badCredentials);
    throw new HttpError(403, API_MESSAGES.accountDisabled);
  }
  if (attempt.throttled) await throttle.succeeded(db, email, attempt.client);

  const expiresAt = tokenExpiry();
  const sessionId = await db.transaction(async (tx) => {
    const [opened] = await tx
      .insert(sessions)
      .values({ userId: user.id, expiresAt })
      .returning({ id: sessions.id });
    if (!opened) throw new Error('the session insert returned no row');
    await audit(tx, {
      companyId: user.companyId,
      actorUserId: user.id,
      action: 'auth.signed_in',
      subjectType: 'user',
      subjectId: user.id,
    });
    return opened.id;
  });
  const token = await tokens.sign({ sub: user.id, sid: sessionId }, expiresAt);
  return { token, expiresAt, userId: user.id };
}

/** Logout: the token's session ends on the server. */
export async function signOut(db: Database, sessionId: string): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
}
