/**
 * Issue 27: sign-ins the throttle refuses (429) leave a trace in the account's company audit
 * log, counted per account, client and minute: one entry with its count, not one per attempt,
 * and none for an e-mail that is no account.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushRefusals } from '../src/auth/refusals';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { auditEvents, signInRefusals } from '../src/db/schema';
import { as, startTestApp, tokenFor } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildUser } from './helpers/factories';

type Started = Awaited<ReturnType<typeof startTestApp>>;

describe(`throttled sign-ins in the audit log (${testDatabaseKind})`, () => {
  let ctx: Started;
  beforeAll(async () => {
    // Two free failures per account and client: the third attempt waits (429).
    ctx = await startTestApp({
      rateLimits: { ...DEFAULT_RATE_LIMITS, loginAccountFreeAttempts: 2 },
    });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const attempt = (email: string, remoteAddress: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/login_check',
      remoteAddress,
      payload: { username: email, password: 'not-the-password-1' },
    });

  it('counts the refusals of one minute per account and client, then writes one entry each', async () => {
    const company = await buildCompany(ctx.db);
    const user = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await attempt(user.email, '198.51.100.1')).statusCode);
    for (let i = 0; i < 5; i++)
      statuses.push((await attempt(user.email, '198.51.100.2')).statusCode);
    // Unknown e-mails are no account's: refused, never counted.
    for (let i = 0; i < 5; i++) await attempt('nobody@example.test', '198.51.100.1');
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThanOrEqual(5);

    const counted = await ctx.db
      .select()
      .from(signInRefusals)
      .where(eq(signInRefusals.userId, user.id));
    expect(counted.reduce((n, row) => n + row.attempts, 0)).toBe(refused);
    expect(new Set(counted.map((row) => row.client)).size).toBe(2);
    // The client is a short hash, never the address.
    for (const row of counted) {
      expect(row.client).toMatch(/^[0-9a-f]{12}$/);
      expect(row.client).not.toContain('198.51');
    }

    // The minute is not over: nothing is written yet; once it is, one entry per client.
    expect(await flushRefusals(ctx.db, new Date(counted[0]!.minute.getTime() + 30_000))).toBe(0);
    const written = await flushRefusals(ctx.db, new Date(Date.now() + 2 * 60_000));
    expect(written).toBe(counted.length);
    const entries = await ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'auth.sign_in_throttled'), eq(auditEvents.subjectId, user.id)),
      );
    expect(entries).toHaveLength(counted.length);
    expect(entries.every((e) => e.companyId === company.id && e.actorUserId === null)).toBe(true);
    const attempts = entries.map((e) => (e.detail as { attempts: number }).attempts);
    expect(attempts.reduce((a, b) => a + b, 0)).toBe(refused);
    // Taken once: a second flush (another instance) writes nothing more.
    expect(await flushRefusals(ctx.db, new Date(Date.now() + 2 * 60_000))).toBe(0);
    expect(
      await ctx.db.select().from(signInRefusals).where(eq(signInRefusals.userId, user.id)),
    ).toEqual([]);

    // The company's manager reads them in the audit log.
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const log = await as(
      ctx.app,
      await tokenFor(ctx.app, manager.email),
    )({ method: 'GET', url: '/api/audit?action=auth.sign_in_throttled' });
    expect(log.statusCode).toBe(200);
    expect((log.json() as { data: unknown[] }).data).toHaveLength(counted.length);
  });
});
