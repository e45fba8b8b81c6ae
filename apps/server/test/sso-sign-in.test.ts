/**
 * Issue 33: staff sign in through their company's identity provider, a real one
 * (oidc-provider on 127.0.0.1, test/helpers/oidc-provider.ts): the code flow with PKCE,
 * state and nonce, the one-time ticket, accounts created at their first sign-in with their
 * mapped role, the refusals (tampered, foreign, expired ID tokens, a replayed state, no
 * account, another company's, a disabled one), passwords refused when the company enforces
 * its provider, and the provider's sign-out URL at logout.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRENCH_MESSAGES } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { auditEvents, companySso, sessions, ssoDomains, ssoSignIns, users } from '../src/db/schema';
import { NO_PASSWORD } from '../src/auth/passwords';
import { retentionSweep } from '../src/privacy/retention';
import { forgetProviders } from '../src/sso/oidc-client';
import { SecretBox } from '../src/sso/secret-box';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildUser, TEST_PASSWORD } from './helpers/factories';
import { closedPort, startTestProvider, type TestProvider } from './helpers/oidc-provider';

describe(`signing in through the company's identity provider (${testDatabaseKind})`, () => {
  const ctx = useTestApp({
    rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 10_000 },
  });
  let provider: TestProvider;

  beforeAll(async () => {
    provider = await startTestProvider({
      redirectUri: `${ctx.config.publicUrl}/api/sso/callback`,
      postLogoutRedirectUris: [`${ctx.config.publicUrl}/sign-in`],
    });
  });
  afterAll(async () => {
    await provider?.close();
    forgetProviders();
  });

  const unique = () => randomBytes(4).toString('hex');

  /** A company whose provider is the test provider, covering one new domain. */
  async function ssoCompany(settings: Partial<typeof companySso.$inferInsert> = {}) {
    const company = await buildCompany(ctx.db);
    const domain = `corp-${unique()}.example`;
    await ctx.db.insert(companySso).values({
      companyId: company.id,
      enabled: true,
      issuerUrl: provider.issuer,
      clientId: provider.clientId,
      clientSecretEncrypted: new SecretBox(ctx.config.ssoSecretKey).seal(provider.clientSecret),
      groupsClaim: 'groups',
      roleMappings: [
        { group: 'Reception', role: 'ROLE_EMPLOYEE' },
        { group: 'Security-Leads', role: 'ROLE_MANAGER' },
        { group: 'Sesame-Admins', role: 'ROLE_SUPER_ADMIN' },
      ],
      defaultRole: 'ROLE_USER',
      allowJit: false,
      enforced: false,
      ...settings,
    });
    await ctx.db.insert(ssoDomains).values({ domain, companyId: company.id });
    return { company, domain };
  }

  /** A person of the provider's directory at `domain`. */
  function person(domain: string, extra: { groups?: string[]; email_verified?: boolean } = {}) {
    const sub = `sub-${unique()}`;
    const account = {
      sub,
      email: `${sub}@${domain}`,
      given_name: 'Awa',
      family_name: 'Koné',
      ...extra,
    };
    provider.accounts.set(sub, account);
    return account;
  }

  const begin = (email: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/sso/begin', payload: { email } });

  /** Begin, go through the provider as `sub`, come back: where Sésame sends the browser. */
  async function signInVia(email: string, sub: string, options: { cancel?: boolean } = {}) {
    const started = await begin(email);
    expect(started.statusCode, started.body).toBe(200);
    const body = started.json<{ sso: boolean; redirect_url: string }>();
    expect(body.sso).toBe(true);
    const back = new URL(await provider.signInThroughProvider(body.redirect_url, sub, options));
    const landed = await callback(back.search);
    return { ...landed, search: back.search };
  }

  async function callback(search: string) {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/sso/callback${search}` });
    expect(res.statusCode, res.body).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(`${ctx.config.publicUrl}/sign-in`);
    return {
      ticket: location.searchParams.get('sso_ticket'),
      error: location.searchParams.get('sso_error'),
    };
  }

  const exchange = (ticket: string) =>
    ctx.app.inject({ method: 'POST', url: '/api/sso/exchange', payload: { ticket } });

  const sessionsOf = (userId: string) =>
    ctx.db.select().from(sessions).where(eq(sessions.userId, userId));

  const auditOf = (userId: string, action: string) =>
    ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, userId), eq(auditEvents.action, action)));

  it('signs in through the full code flow: the ticket is traded once for a session of the provider', async () => {
    const { company, domain } = await ssoCompany();
    const account = person(domain);
    const user = await buildUser(ctx.db, { company, email: account.email, role: 'ROLE_EMPLOYEE' });

    const started = await begin(account.email);
    const redirect = new URL(started.json<{ redirect_url: string }>().redirect_url);
    expect(redirect.origin).toBe(provider.issuer);
    expect(redirect.searchParams.get('code_challenge_method')).toBe('S256');
    expect(redirect.searchParams.get('scope')).toBe('openid email profile');
    expect(redirect.searchParams.get('login_hint')).toBe(account.email);
    expect(redirect.searchParams.get('redirect_uri')).toBe(
      `${ctx.config.publicUrl}/api/sso/callback`,
    );
    // The state is kept as a digest only.
    const state = redirect.searchParams.get('state')!;
    const [row] = await ctx.db
      .select()
      .from(ssoSignIns)
      .where(eq(ssoSignIns.loginHint, account.email));
    expect(row!.stateHash).not.toBe(state);

    const back = new URL(await provider.signInThroughProvider(redirect.href, account.sub));
    const { ticket, error } = await callback(back.search);
    expect(error).toBeNull();
    expect(ticket).toBeTruthy();

    const traded = await exchange(ticket!);
    expect(traded.statusCode, traded.body).toBe(200);
    const { token, expires_at } = traded.json<{ token: string; expires_at: string }>();
    expect(new Date(expires_at).getTime()).toBeGreaterThan(Date.now());
    expect(String(traded.headers['set-cookie'])).toContain('Path=/api/files');
    const info = await as(ctx.app, token)({ method: 'GET', url: '/api/user/info' });
    expect(info.statusCode, info.body).toBe(200);

    // Once only.
    const again = await exchange(ticket!);
    expect(again.statusCode).toBe(401);

    const opened = await sessionsOf(user.id);
    expect(opened).toHaveLength(1);
    expect(opened[0]!.ssoCompanyId).toBe(company.id);
    const signedIn = await auditOf(user.id, 'auth.signed_in');
    expect(signedIn).toHaveLength(1);
    expect(signedIn[0]!.detail).toMatchObject({ via: 'sso' });

    // The provider's answer replayed: its state is spent.
    expect(await callback(back.search)).toMatchObject({ error: 'signInExpired', ticket: null });
    expect(await sessionsOf(user.id)).toHaveLength(1);
  });

  it.each([
    ['signature', 'a tampered signature'],
    ['nonce', 'another nonce'],
    ['expired', 'an expiry in the past'],
    ['audience', 'another audience'],
  ] as const)('refuses an ID token with %s (%s): no session', async (fault, _what) => {
    const { company, domain } = await ssoCompany();
    const account = person(domain);
    const user = await buildUser(ctx.db, { company, email: account.email });
    provider.setIdTokenFault(fault);
    try {
      expect(await signInVia(account.email, account.sub)).toMatchObject({
        error: 'signInFailed',
        ticket: null,
      });
    } finally {
      provider.setIdTokenFault(null);
    }
    expect(await sessionsOf(user.id)).toHaveLength(0);
  });

  it("accepts an ID token signed again with the provider's key (the faults above are the only change)", async () => {
    const { company, domain } = await ssoCompany();
    const account = person(domain);
    await buildUser(ctx.db, { company, email: account.email });
    provider.setIdTokenFault('resigned');
    try {
      expect((await signInVia(account.email, account.sub)).ticket).toBeTruthy();
    } finally {
      provider.setIdTokenFault(null);
    }
  });

  it('refuses an unknown or expired state, and says when the person cancelled at the provider', async () => {
    const { company, domain } = await ssoCompany();
    const account = person(domain);
    await buildUser(ctx.db, { company, email: account.email });

    expect(await callback('?code=abc&state=never-issued')).toMatchObject({
      error: 'signInExpired',
    });
    expect(await callback('')).toMatchObject({ error: 'signInExpired' });

    const started = await begin(account.email);
    const url = started.json<{ redirect_url: string }>().redirect_url;
    await ctx.db
      .update(ssoSignIns)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(ssoSignIns.loginHint, account.email));
    const back = new URL(await provider.signInThroughProvider(url, account.sub));
    expect(await callback(back.search)).toMatchObject({ error: 'signInExpired' });

    expect(await signInVia(account.email, account.sub, { cancel: true })).toMatchObject({
      error: 'signInCancelled',
    });
  });

  it('creates the account at its first sign-in when the company allows it, with its mapped role', async () => {
    const { company, domain } = await ssoCompany({ allowJit: true, defaultRole: 'ROLE_USER' });
    const lead = person(domain, { groups: ['reception', 'Security-Leads', 'Unmapped'] });
    const plain = person(domain);

    const first = await signInVia(lead.email, lead.sub);
    expect(first.ticket, String(first.error)).toBeTruthy();
    const [created] = await ctx.db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, lead.email.toLowerCase()));
    expect(created).toMatchObject({
      companyId: company.id,
      firstname: 'Awa',
      name: 'Koné',
      roles: ['ROLE_MANAGER'],
      passwordHash: NO_PASSWORD,
      provisionedBy: 'sso',
      homeSiteId: null,
    });
    const createdEntries = await auditOf(created!.id, 'user.created_by_sso');
    expect(createdEntries).toHaveLength(1);
    expect(createdEntries[0]!.detail).toMatchObject({ role: 'ROLE_MANAGER' });
    const traded = await exchange(first.ticket!);
    expect(traded.statusCode).toBe(200);
    // Its password is the provider's business.
    const change = await as(
      ctx.app,
      traded.json<{ token: string }>().token,
    )({
      method: 'PUT',
      url: '/api/me/password',
      payload: {
        current_password: 'anything-at-all-1',
        new_password: 'Another-Password-456',
        confirm_password: 'Another-Password-456',
      },
    });
    expect(change.statusCode, change.body).toBe(403);

    // Without a mapped group: the company's default role.
    await signInVia(plain.email, plain.sub);
    const [defaulted] = await ctx.db
      .select({ roles: users.roles })
      .from(users)
      .where(eq(sql`lower(${users.email})`, plain.email.toLowerCase()));
    expect(defaulted!.roles).toEqual(['ROLE_USER']);

    // The managed account follows its groups at its next sign-in (audited); never a platform role.
    provider.accounts.set(lead.sub, { ...lead, groups: ['Reception'] });
    expect((await signInVia(lead.email, lead.sub)).ticket).toBeTruthy();
    const [moved] = await ctx.db.select().from(users).where(eq(users.id, created!.id));
    expect(moved!.roles).toEqual(['ROLE_EMPLOYEE']);
    const changes = await auditOf(created!.id, 'user.role_changed');
    expect(changes).toHaveLength(1);
    expect(changes[0]!.detail).toMatchObject({ fromRole: 'ROLE_MANAGER', toRole: 'ROLE_EMPLOYEE' });
  });

  it("keeps a local account's role whatever its groups", async () => {
    const { company, domain } = await ssoCompany();
    const account = person(domain, { groups: ['Sesame-Admins'] });
    const user = await buildUser(ctx.db, { company, email: account.email, role: 'ROLE_EMPLOYEE' });
    expect((await signInVia(account.email, account.sub)).ticket).toBeTruthy();
    const [after] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.roles).toEqual(['ROLE_EMPLOYEE']);
  });

  it('refuses without an account (JIT off), with another company’s account, a disabled one, an unverified address', async () => {
    const { company, domain } = await ssoCompany({ allowJit: false });
    const nobody = person(domain);
    expect(await signInVia(nobody.email, nobody.sub)).toMatchObject({ error: 'noAccount' });
    expect(
      await ctx.db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, nobody.email.toLowerCase())),
    ).toHaveLength(0);

    const other = await buildCompany(ctx.db);
    const elsewhere = person(domain);
    const foreign = await buildUser(ctx.db, { company: other, email: elsewhere.email });
    expect(await signInVia(elsewhere.email, elsewhere.sub)).toMatchObject({ error: 'noAccount' });
    expect(await sessionsOf(foreign.id)).toHaveLength(0);

    const off = person(domain);
    const disabled = await buildUser(ctx.db, { company, email: off.email, status: false });
    expect(await signInVia(off.email, off.sub)).toMatchObject({ error: 'accountDisabled' });
    expect(await sessionsOf(disabled.id)).toHaveLength(0);

    const unverified = person(domain, { email_verified: false });
    const unverifiedUser = await buildUser(ctx.db, { company, email: unverified.email });
    expect(await signInVia(unverified.email, unverified.sub)).toMatchObject({
      error: 'signInFailed',
    });
    expect(await sessionsOf(unverifiedUser.id)).toHaveLength(0);
  });

  it("never signs the platform's staff in through a company's provider, even with their address", async () => {
    const { company, domain } = await ssoCompany({ allowJit: true });
    for (const role of ['ROLE_ADMIN', 'ROLE_SESAME'] as const) {
      const named = person(domain, { groups: ['Sesame-Admins'] });
      // The company's provider vouches for the address of a platform account of the company.
      const staff = await buildUser(ctx.db, { company, email: named.email, role });
      expect(await signInVia(named.email, named.sub)).toMatchObject({ error: 'noAccount' });
      expect(await sessionsOf(staff.id)).toHaveLength(0);
      const [after] = await ctx.db.select().from(users).where(eq(users.id, staff.id));
      expect(after!.roles).toEqual([role]);
    }
  });

  it("refuses an address of a domain the company's provider does not cover", async () => {
    const { company, domain } = await ssoCompany();
    const { domain: otherDomain } = await ssoCompany();
    const account = person(domain);
    // The provider vouches for an address of another company's domain.
    const stray = { ...account, sub: `stray-${unique()}`, email: `x-${unique()}@${otherDomain}` };
    provider.accounts.set(stray.sub, stray);
    await buildUser(ctx.db, { company, email: stray.email });
    expect(await signInVia(account.email, stray.sub)).toMatchObject({ error: 'signInFailed' });
  });

  it('forgets sign-ins an hour past their expiry (the hourly sweep), keeping those in flight', async () => {
    const { company } = await ssoCompany();
    const row = (expiresAt: Date) => ({
      companyId: company.id,
      stateHash: randomBytes(16).toString('hex'),
      nonce: 'n',
      codeVerifier: 'v',
      loginHint: `someone-${unique()}@example.com`,
      expiresAt,
    });
    const [old] = await ctx.db
      .insert(ssoSignIns)
      .values(row(new Date(Date.now() - 2 * 3_600_000)))
      .returning();
    const [recent] = await ctx.db
      .insert(ssoSignIns)
      .values(row(new Date(Date.now() - 60_000)))
      .returning();
    await retentionSweep(ctx.db, ctx.app.storage, { auditMinDays: ctx.config.auditMinDays });
    const left = await ctx.db.select({ id: ssoSignIns.id }).from(ssoSignIns);
    expect(left.map((r) => r.id)).not.toContain(old!.id);
    expect(left.map((r) => r.id)).toContain(recent!.id);
  });

  it('answers sso:false for a domain no enabled provider covers', async () => {
    const res = await begin(`someone@nowhere-${unique()}.example`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sso: false });

    const { domain } = await ssoCompany({ enabled: false });
    expect((await begin(`a@${domain}`)).json()).toEqual({ sso: false });
  });

  it('answers 503 when the provider does not answer', async () => {
    const { domain } = await ssoCompany({ issuerUrl: `http://127.0.0.1:${await closedPort()}` });
    const res = await begin(`a@${domain}`);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json<{ message: string }>().message).toBe(FRENCH_MESSAGES.sso.providerUnavailable);
  });

  it('refuses a password when the company enforces its provider, except for the platform admin', async () => {
    const { company } = await ssoCompany({ enforced: true });
    const staff = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/login_check',
      payload: { username: staff.email, password: 'not-the-password-1' },
    });
    expect(wrong.statusCode).toBe(401);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/login_check',
      headers: { 'accept-language': 'en' },
      payload: { username: staff.email, password: TEST_PASSWORD },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toContain('identity provider');
    expect(await sessionsOf(staff.id)).toHaveLength(0);

    const admin = await buildUser(ctx.db, { company, role: 'ROLE_ADMIN' });
    const adminToken = await tokenFor(ctx.app, admin.email);
    expect(adminToken).toBeTruthy();

    // Nor may the password be changed while the provider is enforced.
    await ctx.db
      .update(companySso)
      .set({ enforced: false })
      .where(eq(companySso.companyId, company.id));
    const token = await tokenFor(ctx.app, staff.email);
    await ctx.db
      .update(companySso)
      .set({ enforced: true })
      .where(eq(companySso.companyId, company.id));
    const change = await as(
      ctx.app,
      token,
    )({
      method: 'PUT',
      url: '/api/me/password',
      payload: {
        current_password: TEST_PASSWORD,
        new_password: 'Another-Password-456',
        confirm_password: 'Another-Password-456',
      },
    });
    expect(change.statusCode, change.body).toBe(403);
    // The account page knows beforehand (user/info): the form is not offered.
    const info = async (bearer: string) =>
      (await as(ctx.app, bearer)({ method: 'GET', url: '/api/user/info' })).json<{
        password_managed: boolean;
      }>().password_managed;
    expect(await info(token)).toBe(true);
    expect(await info(adminToken)).toBe(false);
    await ctx.db
      .update(companySso)
      .set({ enforced: false })
      .where(eq(companySso.companyId, company.id));
    expect(await info(token)).toBe(false);
    // An account the provider created has no password of its own, enforced or not.
    await ctx.db.update(users).set({ provisionedBy: 'sso' }).where(eq(users.id, staff.id));
    expect(await info(token)).toBe(true);
  });

  it("answers the provider's end-session URL at logout of a session it signed in", async () => {
    const { company, domain } = await ssoCompany();
    const account = person(domain);
    await buildUser(ctx.db, { company, email: account.email });
    const { ticket } = await signInVia(account.email, account.sub);
    const { token } = (await exchange(ticket!)).json<{ token: string }>();

    const out = await as(ctx.app, token)({ method: 'POST', url: '/api/logout' });
    expect(out.statusCode, out.body).toBe(200);
    const endSession = new URL(out.json<{ end_session_url: string }>().end_session_url);
    expect(endSession.origin).toBe(provider.issuer);
    expect(endSession.searchParams.get('client_id')).toBe(provider.clientId);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(
      `${ctx.config.publicUrl}/sign-in`,
    );
    // The provider itself accepts it (its sign-out confirmation page).
    const page = await fetch(endSession, { redirect: 'manual' });
    expect(page.status).toBe(200);

    // A password session answers no such URL.
    const local = await buildUser(ctx.db, { company });
    const localToken = await tokenFor(ctx.app, local.email);
    const plain = await as(ctx.app, localToken)({ method: 'POST', url: '/api/logout' });
    expect(plain.json()).not.toHaveProperty('end_session_url');
  });
});
