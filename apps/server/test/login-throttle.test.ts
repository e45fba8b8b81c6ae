/**
 * Issue 11 §3: the sign-in throttle counts and decides in one atomic step in
 * PostgreSQL, slows an account down per client with growing delays instead of a
 * lockout anyone can trigger, and keys on the socket's address unless TRUST_PROXY
 * says which proxy to believe.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { loginThrottle } from '../src/db/schema';
import { startTestApp, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { TEST_PASSWORD, buildCompany, buildUser } from './helpers/factories';

type Started = Awaited<ReturnType<typeof startTestApp>>;

const signIn = (
  ctx: TestContext,
  email: string,
  password: string,
  remoteAddress = '203.0.113.7',
  headers: Record<string, string> = {},
) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/login_check',
    remoteAddress,
    headers,
    payload: { username: email, password },
  });

describe(`login throttle (${testDatabaseKind})`, () => {
  let ctx: Started;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(async () => ctx.close());

  it('counts sixty concurrent wrong passwords one by one: only the free ones are evaluated', async () => {
    // A first wait longer than the sixty checks can take, however busy the machine:
    // the point is the count, not how soon the wait ends.
    const slow = await startTestApp({
      rateLimits: { ...DEFAULT_RATE_LIMITS, loginFirstDelaySeconds: 3600 },
    });
    const user = await buildUser(slow.db, { company: await buildCompany(slow.db) });
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => signIn(slow, user.email, 'wrong-password')),
    ).finally(() => slow.close());
    const evaluated = answers.filter((res) => res.statusCode === 401).length;
    const refused = answers.filter((res) => res.statusCode === 429).length;
    expect(evaluated).toBe(ctx.config.rateLimits.loginAccountFreeAttempts);
    expect(refused).toBe(60 - evaluated);
    expect(answers.find((res) => res.statusCode === 429)?.json().message).toBe(
      'Trop de tentatives. Réessayez dans une minute.',
    );
  });

  it('slows only the client that failed: the account still signs in from elsewhere', async () => {
    const admin = await buildUser(ctx.db, {
      company: await buildCompany(ctx.db),
      role: 'ROLE_ADMIN',
    });
    for (let i = 0; i < 12; i++) await signIn(ctx, admin.email, 'guess', '198.51.100.9');
    expect((await signIn(ctx, admin.email, TEST_PASSWORD, '198.51.100.9')).statusCode).toBe(429);
    expect((await signIn(ctx, admin.email, TEST_PASSWORD, '192.0.2.44')).statusCode).toBe(200);
  });

  it('waits longer after each further failure, and forgets after a success', async () => {
    const user = await buildUser(ctx.db, { company: await buildCompany(ctx.db) });
    const client = '203.0.113.80';
    const free = ctx.config.rateLimits.loginAccountFreeAttempts;
    for (let i = 0; i < free; i++) await signIn(ctx, user.email, 'wrong', client);
    const key = `account:${user.email.toLowerCase()}|client:${client}`;
    const delay = async () => {
      const [row] = await ctx.db
        .select({
          seconds: sql<number>`extract(epoch from ${loginThrottle.nextAllowedAt} - ${loginThrottle.updatedAt})::float8`,
        })
        .from(loginThrottle)
        .where(eq(loginThrottle.key, key));
      return Number(row?.seconds);
    };
    const waitIsOver = () =>
      ctx.db
        .update(loginThrottle)
        .set({ nextAllowedAt: sql`now() - interval '1 second'` })
        .where(eq(loginThrottle.key, key));
    expect(await delay()).toBe(1);
    await waitIsOver();
    expect((await signIn(ctx, user.email, 'wrong', client)).statusCode).toBe(401);
    expect(await delay()).toBe(2);
    await waitIsOver();
    expect((await signIn(ctx, user.email, 'wrong', client)).statusCode).toBe(401);
    expect(await delay()).toBe(4);
    await waitIsOver();
    expect((await signIn(ctx, user.email, TEST_PASSWORD, client)).statusCode).toBe(200);
    const rows = await ctx.db.select().from(loginThrottle).where(eq(loginThrottle.key, key));
    expect(rows).toEqual([]);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const user = await buildUser(ctx.db, { company: await buildCompany(ctx.db) });
    const free = ctx.config.rateLimits.loginAccountFreeAttempts;
    for (let i = 0; i < free + 3; i++) {
      const res = await signIn(ctx, user.email, 'wrong', '203.0.113.99', {
        'x-forwarded-for': `10.0.0.${i}`,
      });
      expect(res.statusCode).toBe(i < free ? 401 : 429);
    }
  });
});

describe(`TRUST_PROXY (${testDatabaseKind})`, () => {
  let ctx: Started;
  beforeAll(async () => {
    ctx = await startTestApp({ trustProxy: ['127.0.0.1'] });
  });
  afterAll(async () => ctx.close());

  it('believes the named proxy about the client, and nobody else', async () => {
    const user = await buildUser(ctx.db, { company: await buildCompany(ctx.db) });
    const free = ctx.config.rateLimits.loginAccountFreeAttempts;
    for (let i = 0; i < free; i++) {
      await signIn(ctx, user.email, 'wrong', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1' });
    }
    const sameClient = await signIn(ctx, user.email, TEST_PASSWORD, '127.0.0.1', {
      'x-forwarded-for': '198.51.100.1',
    });
    expect(sameClient.statusCode).toBe(429);
    const otherClient = await signIn(ctx, user.email, TEST_PASSWORD, '127.0.0.1', {
      'x-forwarded-for': '198.51.100.2',
    });
    expect(otherClient.statusCode).toBe(200);
    // Not the trusted proxy: its header is ignored, the socket's address counts.
    const keys = await ctx.db.select({ key: loginThrottle.key }).from(loginThrottle);
    expect(keys.map((k) => k.key)).toContain(`client:198.51.100.1`);
  });
});
