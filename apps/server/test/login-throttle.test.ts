/**
 * Issue 11 §3: the sign-in throttle counts and decides in one atomic step in
 * PostgreSQL, slows an account down per client with growing delays instead of a
 * lockout anyone can trigger, and keys on the socket's address unless TRUST_PROXY
 * says which proxy to believe.
 *
 * Issue 26 §1: successes never count against an address (an office behind one NAT, a
 * visitor burning failures on the guest Wi-Fi), and an account's verifications are
 * spaced after failures from many addresses, without ever refusing the right password
 * to a client that has not failed.
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

/** The row of one throttle key, or undefined. */
const throttleRow = async (ctx: TestContext, key: string) => {
  const [row] = await ctx.db
    .select({
      failures: loginThrottle.failures,
      waitsSeconds: sql<number>`case when ${loginThrottle.nextAllowedAt} <= now() then 0 else extract(epoch from ${loginThrottle.nextAllowedAt} - now())::float8 end`,
    })
    .from(loginThrottle)
    .where(eq(loginThrottle.key, key));
  return row && { failures: row.failures, waitsSeconds: Number(row.waitsSeconds) };
};

describe(`one address shared by many people (issue 26 §1, ${testDatabaseKind})`, () => {
  let ctx: Started;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(async () => ctx.close());

  it('a front desk’s morning: 100 right passwords from one address all sign in, and count nothing', async () => {
    const company = await buildCompany(ctx.db);
    const staff = await Promise.all(
      Array.from({ length: 20 }, () => buildUser(ctx.db, { company })),
    );
    const office = '203.0.113.20';
    const answers: number[] = [];
    // Ten at a time, as people arrive together (each one's own account).
    for (let round = 0; round < 10; round++) {
      const batch = await Promise.all(
        staff
          .slice((round % 2) * 10, (round % 2) * 10 + 10)
          .map((person) => signIn(ctx, person.email, TEST_PASSWORD, office)),
      );
      answers.push(...batch.map((res) => res.statusCode));
    }
    expect(answers).toEqual(Array.from({ length: 100 }, () => 200));
    // More than the address's 30 free failures, and it does not wait at all.
    expect(await throttleRow(ctx, `client:${office}`)).toEqual({ failures: 0, waitsSeconds: 0 });
    for (const person of staff) {
      expect(await throttleRow(ctx, `account-wide:${person.email.toLowerCase()}`)).toEqual({
        failures: 0,
        waitsSeconds: 0,
      });
    }
  });

  it('a visitor burning wrong passwords on the guest Wi-Fi slows their own guessing, not the staff’s sign-in', async () => {
    const company = await buildCompany(ctx.db);
    const [first, second] = [
      await buildUser(ctx.db, { company }),
      await buildUser(ctx.db, { company }),
    ];
    const lobby = '198.51.100.30';
    const free = ctx.config.rateLimits.loginClientFreeAttempts;
    const tried = Array.from({ length: free + 5 }, (_, i) => `guess-${i}@example.com`);
    for (const email of tried) {
      expect((await signIn(ctx, email, 'Mauvais-mot-de-passe-1', lobby)).statusCode).toBe(401);
    }
    const address = await throttleRow(ctx, `client:${lobby}`);
    expect(address?.failures).toBe(free + 5);
    expect(address?.waitsSeconds).toBeGreaterThan(10);
    // Spraying goes on waiting: a second guess at an account tried from here is refused.
    const again = await signIn(ctx, tried[0]!, 'Mauvais-mot-de-passe-2', lobby);
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toBe('Trop de tentatives. Réessayez dans une minute.');
    // Staff typing their right password from the same address are verified, and sign in.
    expect((await signIn(ctx, first.email, TEST_PASSWORD, lobby)).statusCode).toBe(200);
    expect((await signIn(ctx, second.email, TEST_PASSWORD, lobby)).statusCode).toBe(200);
    // Their successes gave their counts back, and did not make the address wait longer.
    const after = await throttleRow(ctx, `client:${lobby}`);
    expect(after?.failures).toBe(free + 5);
    expect(after!.waitsSeconds).toBeLessThanOrEqual(address!.waitsSeconds);
  });

  it('a success leaves the address’s failures to be forgotten a day after the last one', async () => {
    const person = await buildUser(ctx.db, { company: await buildCompany(ctx.db) });
    const office = '198.51.100.40';
    const key = `client:${office}`;
    const free = ctx.config.rateLimits.loginClientFreeAttempts;
    // A visitor's failures of yesterday: their last one 23 hours ago, its wait long over.
    await ctx.db.insert(loginThrottle).values({
      key,
      failures: free + 3,
      nextAllowedAt: sql`now() - interval '23 hours' + interval '8 seconds'`,
      updatedAt: sql`now() - interval '23 hours'`,
    });
    expect((await signIn(ctx, person.email, TEST_PASSWORD, office)).statusCode).toBe(200);
    expect(await throttleRow(ctx, key)).toEqual({ failures: free + 3, waitsSeconds: 0 });
    // The day still counts from the visitor's last failure: within the hour, it is forgotten.
    const [row] = await ctx.db
      .select({ updatedAt: loginThrottle.updatedAt })
      .from(loginThrottle)
      .where(eq(loginThrottle.key, key));
    expect(Date.now() - row!.updatedAt.getTime()).toBeGreaterThan(22 * 3600_000);
  });
});

describe(`failures from many addresses against one account (issue 26 §1, ${testDatabaseKind})`, () => {
  const hold = 1;
  let ctx: Started;
  beforeAll(async () => {
    ctx = await startTestApp({
      rateLimits: {
        ...DEFAULT_RATE_LIMITS,
        loginAccountWideFreeAttempts: 3,
        loginFirstDelaySeconds: 0.3,
        loginHoldSeconds: hold,
      },
    });
  });
  afterAll(async () => ctx.close());

  it('spaces the account’s verifications, and still lets the real user in from a clean client', async () => {
    const user = await buildUser(ctx.db, { company: await buildCompany(ctx.db) });
    const accountKey = `account-wide:${user.email.toLowerCase()}`;
    const attackers = Array.from({ length: 8 }, (_, i) => `192.0.2.${100 + i}`);
    // Eight at once, one per address: each is this address's first guess, so each is
    // verified (none refused), but counted one by one across every address.
    const answers = await Promise.all(
      attackers.map((address) => signIn(ctx, user.email, 'Mauvais-mot-de-passe-1', address)),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(attackers.map(() => 401));
    const account = await throttleRow(ctx, accountKey);
    expect(account?.failures).toBe(attackers.length);
    expect(account?.waitsSeconds).toBeGreaterThan(hold);

    // The next verification of this account waits its turn, from whatever address.
    let started = Date.now();
    const next = await signIn(ctx, user.email, 'Mauvais-mot-de-passe-2', '192.0.2.200');
    expect(next.statusCode).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(hold * 1000 - 100);

    // An address that already failed is refused rather than held: one guess per address.
    const attackerAgain = await signIn(ctx, user.email, TEST_PASSWORD, attackers[0]);
    expect(attackerAgain.statusCode).toBe(429);

    // The real user, right password, from a client that never failed: delayed, never refused.
    started = Date.now();
    const real = await signIn(ctx, user.email, TEST_PASSWORD, '203.0.113.150');
    expect(real.statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(hold * 1000 - 100);
    // Their success counts nothing against the account: the failures are the attackers'.
    expect((await throttleRow(ctx, accountKey))?.failures).toBe(attackers.length + 1);
  });

  it('another account is not slowed by this one’s attackers', async () => {
    const company = await buildCompany(ctx.db);
    const target = await buildUser(ctx.db, { company });
    const colleague = await buildUser(ctx.db, { company });
    for (let i = 0; i < 3; i++) await signIn(ctx, target.email, 'Mauvais-1', `192.0.2.${30 + i}`);
    expect((await signIn(ctx, colleague.email, TEST_PASSWORD, '192.0.2.30')).statusCode).toBe(200);
    expect((await throttleRow(ctx, `account-wide:${target.email.toLowerCase()}`))?.failures).toBe(
      3,
    );
    expect(await throttleRow(ctx, `account-wide:${colleague.email.toLowerCase()}`)).toEqual({
      failures: 0,
      waitsSeconds: 0,
    });
  });
});

describe(`the sign-in route's own rate limit (issue 26 §1, ${testDatabaseKind})`, () => {
  it('caps the requests of one address per window, right or wrong; other addresses go on', async () => {
    const ctx = await startTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, loginPerWindow: 3 } });
    try {
      const user = await buildUser(ctx.db, { company: await buildCompany(ctx.db) });
      const codes = [];
      for (let i = 0; i < 4; i++)
        codes.push((await signIn(ctx, user.email, TEST_PASSWORD, '198.51.100.70')).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
      expect((await signIn(ctx, user.email, TEST_PASSWORD, '198.51.100.71')).statusCode).toBe(200);
    } finally {
      await ctx.close();
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
