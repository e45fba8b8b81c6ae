/**
 * Signing in through a company's identity provider (issue 33): OpenID Connect's authorization
 * code flow with PKCE, state and nonce. Everything a sign-in needs between its steps lives in
 * its `sso_sign_ins` row, so any instance finishes what another began:
 *
 *   1. `beginSignIn`: the e-mail's domain names the company; a row keeps the state's digest,
 *      the nonce, the PKCE verifier; the browser goes to the provider.
 *   2. `finishSignIn`: the provider sends the browser back; the state is spent once, the code
 *      traded for tokens and the ID token verified by openid-client (issuer, audience,
 *      signature, expiry, nonce); the account is found (or created, when the company allows
 *      it), a session opened, and a one-time ticket's digest kept. The browser lands on the
 *      login page with the ticket, or with the key of what went wrong.
 *   3. `exchangeTicket`: the login page trades the ticket, once, for the session's token.
 *
 * Roles from the provider's groups (the company's `groups_claim`, each group mapped to a role):
 * an account created here takes the highest mapped role of its groups, else the company's
 * default role. An account the provider or the directory manages (`provisioned_by` set)
 * follows the highest mapped role at each sign-in (audited when it changes); with no mapped
 * group it keeps its role. An account made by hand in Sésame (a local account) keeps the role
 * its administrators gave it: the provider proves who the person is, not what they may do
 * here. ROLE_ADMIN and ROLE_SESAME never come from a provider, and an account holding one is
 * never changed by it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import {
  activeRole,
  asOneLine,
  emailDomainOf,
  EMAIL_PATTERN,
  highestMappedRole,
  SSO_LIMITS,
  SSO_MAPPABLE_ROLES,
  TEXT_MAX,
  type Language,
  type SsoBeginResult,
  type SsoError,
  type SsoMappableRole,
} from '@sesame/shared';
import { audit } from '../audit/service';
import { NO_PASSWORD } from '../auth/passwords';
import { openSession, type SignedIn } from '../auth/service';
import type { TokenService } from '../auth/tokens';
import type { Database, Db } from '../db/client';
import { companySso, sessions, ssoDomains, ssoSignIns, users } from '../db/schema';
import { errorCode, isUniqueViolation } from '../errors';
import { isPersonRow } from '../users/person';
import { openIdClient, providerConfiguration, ProviderUnavailable } from './oidc-client';
import { SecretBox } from './secret-box';

/** What the sign-in needs from the server. */
export interface SsoContext {
  db: Database;
  tokens: TokenService;
  publicUrl: string;
  ssoSecretKey: string;
  log: FastifyBaseLogger;
}

type ProviderRow = typeof companySso.$inferSelect;

const digest = (value: string) => createHash('sha256').update(value).digest('base64url');
const randomToken = () => randomBytes(32).toString('base64url');

export const callbackPath = '/api/sso/callback';
const redirectUriOf = (publicUrl: string) => `${publicUrl}${callbackPath}`;

/** Kept a while after their end, so a late callback still reads as expired rather than unknown. */
const SIGN_IN_KEPT_MS = 60 * 60_000;

/** The provider's client as stored; null when its secret no longer opens (another key). */
function clientOf(provider: ProviderRow, ssoSecretKey: string) {
  const clientSecret = provider.clientSecretEncrypted
    ? new SecretBox(ssoSecretKey).open(provider.clientSecretEncrypted)
    : null;
  if (!provider.issuerUrl || !provider.clientId || clientSecret === null) return null;
  return { issuerUrl: provider.issuerUrl, clientId: provider.clientId, clientSecret };
}

async function configurationOf(ctx: SsoContext, provider: ProviderRow) {
  const client = clientOf(provider, ctx.ssoSecretKey);
  if (!client) {
    ctx.log.warn(
      { companyId: provider.companyId },
      'sso: the provider has no usable client (issuer, client id or secret missing)',
    );
    throw new ProviderUnavailable(provider.issuerUrl, new Error('no usable client'));
  }
  return providerConfiguration(client);
}

/**
 * POST /api/sso/begin: whether the address's domain signs in through a company's enabled
 * provider and, when it does, the provider's authorization URL. Throws ProviderUnavailable
 * when the provider does not answer its discovery (nothing is written then).
 */
export async function beginSignIn(
  ctx: SsoContext,
  email: string,
  lang: Language,
): Promise<SsoBeginResult> {
  const [provider] = await ctx.db
    .select({ provider: companySso })
    .from(ssoDomains)
    .innerJoin(companySso, eq(companySso.companyId, ssoDomains.companyId))
    .where(and(eq(ssoDomains.domain, emailDomainOf(email)), eq(companySso.enabled, true)))
    .limit(1);
  if (!provider) return { sso: false };
  const configuration = await configurationOf(ctx, provider.provider);
  const oidc = await openIdClient();

  const state = randomToken();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const now = Date.now();
  await ctx.db.insert(ssoSignIns).values({
    companyId: provider.provider.companyId,
    stateHash: digest(state),
    nonce,
    codeVerifier,
    loginHint: email,
    language: lang,
    expiresAt: new Date(now + SSO_LIMITS.signInTtlMs),
  });
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUriOf(ctx.publicUrl),
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    login_hint: email,
    ui_locales: lang,
  });
  return { sso: true, redirect_url: url.href };
}

/**
 * Sign-ins begun at a provider and never finished, or finished long ago, are forgotten an
 * hour past their expiry (the hourly retention sweep): each row names an address typed on
 * the login page.
 */
export async function forgetOldSignIns(db: Db): Promise<void> {
  await db
    .delete(ssoSignIns)
    .where(lt(ssoSignIns.expiresAt, new Date(Date.now() - SIGN_IN_KEPT_MS)));
}

/** A refusal of the provider's answer: the login page says `m.sso[key]`. */
class SignInRefused extends Error {
  constructor(
    readonly key: SsoError,
    why: string,
  ) {
    super(why);
    this.name = 'SignInRefused';
  }
}

/** The login page, with the ticket or the refusal's key. */
const signInPage = (publicUrl: string, param: string, value: string) =>
  `${publicUrl}/sign-in?${new URLSearchParams({ [param]: value }).toString()}`;

/**
 * GET /api/sso/callback: the provider's answer (`query`, the raw query string). Answers
 * where to send the browser: the login page with a one-time ticket, or with the key of
 * what went wrong (`sso_error`). Never throws for what the provider or the browser sent.
 */
export async function finishSignIn(ctx: SsoContext, query: string): Promise<string> {
  try {
    const ticket = await finish(ctx, query);
    return signInPage(ctx.publicUrl, 'sso_ticket', ticket);
  } catch (error) {
    if (error instanceof SignInRefused) {
      ctx.log.warn({ reason: error.message, ssoError: error.key }, 'sso: sign-in refused');
      return signInPage(ctx.publicUrl, 'sso_error', error.key);
    }
    if (error instanceof ProviderUnavailable) {
      ctx.log.warn({ issuer: errorText(error) }, 'sso: the provider does not answer');
      return signInPage(ctx.publicUrl, 'sso_error', 'providerUnavailable');
    }
    throw error;
  }
}

/** What a library error says, without its cause (a response body may hold a token). */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  // openid-client's errors carry a code.
  const code = errorCode(error);
  return code ? `${code}: ${error.message}` : error.message;
}

async function finish(ctx: SsoContext, query: string): Promise<string> {
  const params = new URLSearchParams(query);
  const state = params.get('state');
  if (!state) throw new SignInRefused('signInExpired', 'no state');
  // The state is spent once, in one statement: a replayed or late answer finds nothing.
  const [signIn] = await ctx.db
    .update(ssoSignIns)
    .set({ returnedAt: sql`now()` })
    .where(
      and(
        eq(ssoSignIns.stateHash, digest(state)),
        isNull(ssoSignIns.returnedAt),
        gt(ssoSignIns.expiresAt, sql`now()`),
      ),
    )
    .returning();
  if (!signIn) throw new SignInRefused('signInExpired', 'unknown, spent or expired state');

  const providerError = params.get('error');
  if (providerError) {
    throw new SignInRefused(
      providerError === 'access_denied' ? 'signInCancelled' : 'signInFailed',
      `the provider answered ${providerError.slice(0, 100)}`,
    );
  }
  const [provider] = await ctx.db
    .select()
    .from(companySso)
    .where(and(eq(companySso.companyId, signIn.companyId), eq(companySso.enabled, true)))
    .limit(1);
  if (!provider) throw new SignInRefused('signInFailed', 'the provider was disabled meanwhile');
  const configuration = await configurationOf(ctx, provider);
  const oidc = await openIdClient();

  let claims: Record<string, unknown>;
  try {
    const answer = await oidc.authorizationCodeGrant(
      configuration,
      new URL(`${redirectUriOf(ctx.publicUrl)}?${query}`),
      {
        pkceCodeVerifier: signIn.codeVerifier,
        expectedState: state,
        expectedNonce: signIn.nonce,
        idTokenExpected: true,
      },
    );
    const idToken = answer.claims();
    if (!idToken) throw new Error('no ID token');
    claims = idToken;
  } catch (error) {
    throw new SignInRefused('signInFailed', `code exchange refused: ${errorText(error)}`);
  }

  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (!email || email.length > TEXT_MAX.email || !EMAIL_PATTERN.test(email)) {
    throw new SignInRefused('signInFailed', 'the ID token carries no usable email claim');
  }
  // A provider that says the address is not verified is not trusted with it (absent: the
  // provider vouches for the addresses of its own directory).
  if (claims.email_verified === false) {
    throw new SignInRefused('signInFailed', 'the email is not verified by the provider');
  }
  const [covered] = await ctx.db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(
      and(
        eq(ssoDomains.domain, emailDomainOf(email)),
        eq(ssoDomains.companyId, provider.companyId),
      ),
    )
    .limit(1);
  if (!covered) throw new SignInRefused('signInFailed', "the email's domain is not the company's");

  const mapped = mappedRole(provider, claims);
  const [found] = await ctx.db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  let user: typeof users.$inferSelect;
  if (!found) {
    if (!provider.allowJit) throw new SignInRefused('noAccount', 'no account, no JIT');
    user = await createAccount(ctx.db, provider, email, claims, mapped, signIn.language);
  } else {
    if (found.companyId !== provider.companyId) {
      throw new SignInRefused('noAccount', "the account is another company's");
    }
    // The platform's staff sign in with their password only: a company's provider vouches
    // for its own people, and whoever runs that provider must not become the platform's
    // admin by naming the admin's address in a token.
    if (found.roles.some((role) => PLATFORM_ROLES.has(role))) {
      throw new SignInRefused('noAccount', "the account is the platform's staff");
    }
    // Issue 34: an API key's service account is nobody's to sign in as.
    if (!isPersonRow(found)) throw new SignInRefused('noAccount', "the account is an API key's");
    if (!found.status) {
      await audit(ctx.db, {
        companyId: found.companyId,
        actorUserId: found.id,
        action: 'auth.sign_in_failed',
        subjectType: 'user',
        subjectId: found.id,
        detail: { reason: 'disabled', via: 'sso' },
      });
      throw new SignInRefused('accountDisabled', 'the account is disabled');
    }
    user = await followMappedRole(ctx.db, found, mapped);
  }

  const lang = signIn.language === 'en' ? 'en' : 'fr';
  const signed = await openSession(ctx.db, ctx.tokens, user, lang, {
    ssoCompanyId: provider.companyId,
  });
  const ticket = randomToken();
  await ctx.db
    .update(ssoSignIns)
    .set({
      sessionId: signed.sessionId,
      ticketHash: digest(ticket),
      ticketExpiresAt: new Date(Date.now() + SSO_LIMITS.ticketTtlMs),
    })
    .where(eq(ssoSignIns.id, signIn.id));
  ctx.log.info({ userId: user.id }, 'signed in through the identity provider');
  return ticket;
}

/** The highest role the ID token's groups are mapped to, or null (no claim, no mapped group). */
function mappedRole(
  provider: ProviderRow,
  claims: Record<string, unknown>,
): SsoMappableRole | null {
  const groups = claims[provider.groupsClaim];
  if (!Array.isArray(groups)) return null;
  const names = groups.filter((g): g is string => typeof g === 'string');
  return highestMappedRole(provider.roleMappings, names);
}

const PLATFORM_ROLES = new Set(['ROLE_ADMIN', 'ROLE_SESAME']);

/** A name claim as one line of at most TEXT_MAX.name characters. */
function nameClaim(value: unknown): string {
  return typeof value === 'string' ? asOneLine(value).trim().slice(0, TEXT_MAX.name).trim() : '';
}

/** The person's first and last names from the ID token (given/family, else the full name). */
function namesOf(claims: Record<string, unknown>, email: string) {
  let firstname = nameClaim(claims.given_name);
  let name = nameClaim(claims.family_name);
  if (!firstname && !name) {
    const [first = '', ...rest] = nameClaim(claims.name).split(' ');
    firstname = first;
    name = rest.join(' ');
  }
  if (!firstname && !name) name = email.slice(0, email.indexOf('@')).slice(0, TEXT_MAX.name);
  return { firstname, name };
}

/**
 * The account of a first sign-in (just in time): no password (NO_PASSWORD), managed by the
 * provider, no site limits and so no home site (as 'Créer un utilisateur' without sites).
 */
async function createAccount(
  db: Database,
  provider: ProviderRow,
  email: string,
  claims: Record<string, unknown>,
  mapped: SsoMappableRole | null,
  language: string,
): Promise<typeof users.$inferSelect> {
  const fallback = SSO_MAPPABLE_ROLES.find((r) => r === provider.defaultRole) ?? 'ROLE_USER';
  const role = mapped ?? fallback;
  try {
    return await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({
          companyId: provider.companyId,
          ...namesOf(claims, email),
          email,
          passwordHash: NO_PASSWORD,
          roles: [role],
          language: language === 'en' ? 'en' : 'fr',
          provisionedBy: 'sso',
          homeSiteId: null,
          siteIds: [],
        })
        .returning();
      if (!created) throw new Error('the user insert returned no row');
      await audit(tx, {
        companyId: provider.companyId,
        actorUserId: created.id,
        action: 'user.created_by_sso',
        subjectType: 'user',
        subjectId: created.id,
        detail: { role },
      });
      return created;
    });
  } catch (error) {
    // The same person's two first sign-ins at once: the other one created it.
    if (isUniqueViolation(error, 'users_email_key')) {
      throw new SignInRefused('signInFailed', 'the account was created meanwhile');
    }
    throw error;
  }
}

/** A managed account's role follows its mapped groups (see the header); audited when it changes. */
async function followMappedRole(
  db: Database,
  user: typeof users.$inferSelect,
  mapped: SsoMappableRole | null,
): Promise<typeof users.$inferSelect> {
  const current = activeRole(user.roles);
  if (
    !mapped ||
    user.provisionedBy === null ||
    PLATFORM_ROLES.has(current) ||
    user.roles.some((r) => PLATFORM_ROLES.has(r)) ||
    current === mapped
  ) {
    return user;
  }
  return db.transaction(async (tx) => {
    const [changed] = await tx
      .update(users)
      .set({ roles: [mapped] })
      .where(eq(users.id, user.id))
      .returning();
    await audit(tx, {
      companyId: user.companyId,
      actorUserId: user.id,
      action: 'user.role_changed',
      subjectType: 'user',
      subjectId: user.id,
      detail: { fromRole: current, toRole: mapped, via: 'sso' },
    });
    return changed ?? user;
  });
}

/**
 * POST /api/sso/exchange: the ticket spent once (one statement), and the token of the session
 * it names; null for an unknown, spent or expired ticket, or a session ended meanwhile.
 */
export async function exchangeTicket(
  db: Db,
  tokens: TokenService,
  ticket: string,
): Promise<SignedIn | null> {
  const [spent] = await db
    .update(ssoSignIns)
    .set({ ticketUsedAt: sql`now()` })
    .where(
      and(
        eq(ssoSignIns.ticketHash, digest(ticket)),
        isNull(ssoSignIns.ticketUsedAt),
        gt(ssoSignIns.ticketExpiresAt, sql`now()`),
      ),
    )
    .returning({ sessionId: ssoSignIns.sessionId });
  if (!spent?.sessionId) return null;
  const [session] = await db
    .select({ userId: sessions.userId, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, spent.sessionId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  if (!session) return null;
  const token = await tokens.sign({ sub: session.userId, sid: spent.sessionId }, session.expiresAt);
  return {
    token,
    expiresAt: session.expiresAt,
    userId: session.userId,
    sessionId: spent.sessionId,
  };
}

/**
 * The provider's end-session (sign-out) URL for a session it signed in, back to Sésame's
 * login page afterwards; null when the provider offers none, is not configured any more, or
 * does not answer (the sign-out in Sésame stands either way).
 */
export async function providerEndSessionUrl(
  app: FastifyInstance,
  companyId: string,
  log: FastifyBaseLogger,
): Promise<string | null> {
  const [provider] = await app.db
    .select()
    .from(companySso)
    .where(eq(companySso.companyId, companyId))
    .limit(1);
  const client = provider ? clientOf(provider, app.config.ssoSecretKey) : null;
  if (!client) return null;
  try {
    const configuration = await providerConfiguration(client);
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    const oidc = await openIdClient();
    return oidc.buildEndSessionUrl(configuration, {
      client_id: client.clientId,
      post_logout_redirect_uri: `${app.config.publicUrl}/sign-in`,
    }).href;
  } catch (error) {
    log.warn(
      { reason: errorText(error) },
      'sso: no end-session URL (the provider does not answer)',
    );
    return null;
  }
}
