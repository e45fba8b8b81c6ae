/**
 * Signing in and out, and an account's own password: the work behind the auth
 * routes (routes.ts parses, calls these, presents).
 */
import { and, eq, sql } from 'drizzle-orm';
import { activeRole, type Say, type Language } from '@sesame/shared';
import { audit } from '../audit/service';
import type { Database, Db } from '../db/client';
import { companySso, sessions, users } from '../db/schema';
import { badRequest, HttpError } from '../errors';
import { isPerson } from '../users/person';
import { revokeSessions } from '../users/service';
import type { LoginThrottle } from './login-throttle';
import { recordRefusal } from './refusals';
import { passwordProblem } from './password-policy';
import { decoyHash, hashPassword, verifyPassword } from './passwords';
import type { Principal } from './principal';
import { tokenExpiry, type TokenService } from './tokens';

export interface SignInAttempt {
  email: string;
  password: string;
  /** The client's address, for the throttle. */
  client: string;
  /** The client as the audit log names a refused attempt (`clientTag`, refusals.ts). */
  clientTag: string;
  /** False for an allow-listed client (the throttle is skipped). */
  throttled: boolean;
  /** The language the person signs in with: their mails' too, unless they chose those. */
  lang: Language;
}

export interface SignedIn {
  token: string;
  expiresAt: Date;
  userId: string;
  /** The session opened: the files cookie names it (files/cookie.ts). */
  sessionId: string;
}

/**
 * Sign-in (issue 11 §3, issue 16): the attempt claims a turn from the throttle (429
 * when it must wait) before the password is read; an unknown e-mail is checked
 * against a decoy hash so timing tells nothing; a wrong password or a disabled
 * account is audited against that account (an unknown address names nobody, nothing
 * is kept), and the throttle remembers the failure for a day. A success gives the
 * throttle its counts back (issue 26 §1), opens a session and audits it, in one
 * transaction, and answers its signed token. It also sets the person's mail language
 * to the one they signed in with (the interface's), unless they chose it on their
 * mail preferences page: staff mails then read like the screens they use. When the
 * account's company signs in through its identity provider and enforces it (issue 33), a
 * right password is refused all the same (403), except for the platform's admins.
 */
export async function signIn(
  db: Database,
  tokens: TokenService,
  throttle: LoginThrottle,
  attempt: SignInAttempt,
): Promise<SignedIn> {
  const email = attempt.email.toLowerCase();
  if (attempt.throttled && !(await throttle.claim(db, email, attempt.client))) {
    await recordRefusal(db, email, attempt.clientTag);
    throw new HttpError(429, (m) => m.api.tooManyRequests);
  }
  // A person's account: an API key's (issue 34) never signs in, as if unknown.
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email), isPerson))
    .limit(1);
  const valid = await verifyPassword(user?.passwordHash ?? (await decoyHash()), attempt.password);
  if (attempt.throttled && !(user && valid && user.status)) {
    await throttle.failed(db, email, attempt.client);
  }
  if (!user) throw new HttpError(401, (m) => m.api.badCredentials);
  /** A refused sign-in of a known account, in its company's audit log. */
  const refused = (reason: 'disabled' | 'password' | 'sso_enforced') =>
    audit(db, {
      companyId: user.companyId,
      actorUserId: user.id,
      action: 'auth.sign_in_failed',
      subjectType: 'user',
      subjectId: user.id,
      detail: { reason },
    });
  if (!valid || !user.status) {
    await refused(valid ? 'disabled' : 'password');
    if (!valid) throw new HttpError(401, (m) => m.api.badCredentials);
    throw new HttpError(403, (m) => m.api.accountDisabled);
  }
  if (attempt.throttled) await throttle.succeeded(db, email, attempt.client);
  // Checked once the password is known to be right (issue 33): a wrong password reads as any
  // wrong password (401), so this answer tells only the account's owner that their company
  // now signs in through its provider. The platform's admins keep their password.
  if (activeRole(user.roles) !== 'ROLE_ADMIN' && (await ssoEnforced(db, user.companyId))) {
    await refused('sso_enforced');
    throw new HttpError(403, (m) => m.sso.passwordDisabled);
  }
  return openSession(db, tokens, user, attempt.lang);
}

/** Whether `companyId`'s staff must sign in through its identity provider (issue 33). */
export async function ssoEnforced(db: Db, companyId: string): Promise<boolean> {
  const [row] = await db
    .select({ enforced: companySso.enforced })
    .from(companySso)
    .where(and(eq(companySso.companyId, companyId), eq(companySso.enabled, true)))
    .limit(1);
  return row?.enforced === true;
}

/** How a session was opened, when not by password. */
export interface SessionOrigin {
  /** The company whose identity provider signed the person in (issue 33). */
  ssoCompanyId: string;
}

/**
 * Opens a session for an account already proven (a password checked, an identity provider's
 * ID token verified), in one transaction with its audit entry: the mail language follows the
 * interface's unless chosen. Answers the session's signed token.
 */
export async function openSession(
  db: Database,
  tokens: TokenService,
  user: Pick<typeof users.$inferSelect, 'id' | 'companyId' | 'language' | 'languageChosen'>,
  lang: Language,
  origin?: SessionOrigin,
): Promise<SignedIn> {
  const expiresAt = tokenExpiry();
  const sessionId = await db.transaction(async (tx) => {
    const [opened] = await tx
      .insert(sessions)
      .values({ userId: user.id, expiresAt, ssoCompanyId: origin?.ssoCompanyId ?? null })
      .returning({ id: sessions.id });
    if (!opened) throw new Error('the session insert returned no row');
    if (!user.languageChosen && user.language !== lang) {
      await tx.update(users).set({ language: lang }).where(eq(users.id, user.id));
    }
    await audit(tx, {
      companyId: user.companyId,
      actorUserId: user.id,
      action: 'auth.signed_in',
      subjectType: 'user',
      subjectId: user.id,
      ...(origin ? { detail: { via: 'sso' } } : {}),
    });
    return opened.id;
  });
  const token = await tokens.sign({ sub: user.id, sid: sessionId }, expiresAt);
  return { token, expiresAt, userId: user.id, sessionId };
}

/** When a session ends by itself, or null for an unknown one (the files cookie's expiry). */
export async function sessionExpiry(db: Database, sessionId: string): Promise<Date | null> {
  const [session] = await db
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return session?.expiresAt ?? null;
}

/**
 * Logout: the token's session ends on the server. Answers the company whose identity
 * provider signed the session in (issue 33: its sign-out page), or null.
 */
export async function signOut(db: Database, sessionId: string): Promise<string | null> {
  const [ended] = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(eq(sessions.id, sessionId))
    .returning({ ssoCompanyId: sessions.ssoCompanyId });
  return ended?.ssoCompanyId ?? null;
}

export interface PasswordChangeRequest {
  current: string;
  next: string;
  /** The client's address, for the throttle. */
  client: string;
  /** The client as the audit log names a refused attempt (`clientTag`, refusals.ts). */
  clientTag: string;
  /** False for an allow-listed client (the throttle is skipped). */
  throttled: boolean;
}

/**
 * Issue 33: whether `who`'s password is not Sésame's to change. An account the company's
 * provider or directory manages has no password of its own, and an enforced provider
 * leaves passwords unused (the platform's admins keep theirs, as at sign-in).
 */
export async function passwordManagedElsewhere(db: Db, who: Principal): Promise<boolean> {
  const [account] = await db
    .select({ provisionedBy: users.provisionedBy })
    .from(users)
    .where(eq(users.id, who.userId))
    .limit(1);
  if (account?.provisionedBy) return true;
  return who.role !== 'ROLE_ADMIN' && (await ssoEnforced(db, who.companyId));
}

/**
 * 'Mon compte' (issue 17): the signed-in person changes their own password. The new
 * one passes the policy (400 on `new_password`); the current one is checked like a
 * sign-in, through the same throttle and key (this account from this client), so the
 * form is no faster way to guess it (429 when it must wait, 400 on `current_password`
 * when wrong). Then, in one transaction: the new hash, every other session of the
 * account ended (this one stays), one audit entry. An account managed by the company's
 * identity provider or directory, or of a company that enforces its provider, has no
 * password to change (403, issue 33).
 */
export async function changeOwnPassword(
  db: Database,
  throttle: LoginThrottle,
  who: Principal,
  change: PasswordChangeRequest,
): Promise<void> {
  if (await passwordManagedElsewhere(db, who)) {
    throw new HttpError(403, (m) => m.sso.passwordChangeDisabled);
  }
  const problem = passwordProblem(change.next, [who.email, who.name, who.firstname]);
  if (problem) {
    const message: Say = (m) => m.user[problem];
    throw badRequest(message, { new_password: message });
  }
  const email = who.email.toLowerCase();
  if (change.throttled && !(await throttle.claim(db, email, change.client))) {
    await recordRefusal(db, email, change.clientTag);
    throw new HttpError(429, (m) => m.api.tooManyRequests);
  }
  const [account] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, who.userId))
    .limit(1);
  if (!account || !(await verifyPassword(account.passwordHash, change.current))) {
    if (change.throttled) await throttle.failed(db, email, change.client);
    const wrong: Say = (m) => m.account.currentPasswordWrong;
    throw badRequest(wrong, { current_password: wrong });
  }
  if (change.throttled) await throttle.succeeded(db, email, change.client);
  const passwordHash = await hashPassword(change.next);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, who.userId));
    await revokeSessions(tx, who.userId, who.sessionId);
    await audit(tx, {
      companyId: who.companyId,
      actorUserId: who.userId,
      action: 'user.password_changed',
      subjectType: 'user',
      subjectId: who.userId,
      detail: { otherSessionsEnded: true },
    });
  });
}
