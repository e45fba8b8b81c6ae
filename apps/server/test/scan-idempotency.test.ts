/**
 * Issue 12 §2: the scanner's offline queue retries a scan with the same
 * Idempotency-Key; the server remembers the first answer and never toggles twice.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AVAILABILITY_MESSAGES, type CheckResult } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { forgetOldScanKeys } from '../src/checkins/idempotency';
import { scanRequests, visitorChecks } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildRequest, buildTenant, buildVisitor } from './helpers/factories';

function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

describe(`idempotent scans (${testDatabaseKind})`, () => {
  // No repeat window: without the key, a second scan would check the visitor out.
  const ctx = useTestApp({
    rateLimits: { ...DEFAULT_RATE_LIMITS, codeLookupPerWindow: 100_000 },
    repeatScanWindowMs: 0,
  });
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let token: string;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
  });

  async function visitor() {
    const v = await buildVisitor(ctx.db, { company: acme.company, requestDate: today() });
    await buildRequest(ctx.db, { company: acme.company, visitor: v, status: 1, confirmed: true });
    return v;
  }
  const scan = (uidn: string, key?: string, bearer = token) =>
    as(
      ctx.app,
      bearer,
    )({
      method: 'GET',
      url: `/api/get-qr-data/${uidn}`,
      headers: key ? { 'idempotency-key': key } : {},
    });
  const checksOf = (visitorId: string) =>
    ctx.db.select().from(visitorChecks).where(eq(visitorChecks.visitorId, visitorId));

  it('a retry with the same key gets the first answer and changes nothing', async () => {
    const v = await visitor();
    const first = await scan(v.uidn, 'retry-key-0001');
    expect(first.statusCode).toBe(200);
    expect(first.json<CheckResult>().action).toBe('check_in');
    const again = await scan(v.uidn, 'retry-key-0001');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const checks = await checksOf(v.id);
    expect(checks).toHaveLength(1);
    expect(checks[0]!.checkOutAt).toBeNull();
    // A new scan (new key) is a new toggle.
    const out = await scan(v.uidn, 'retry-key-0002');
    expect(out.json<CheckResult>().action).toBe('check_out');
  });

  it('a refusal stores nothing: the same key asks again', async () => {
    const v = await buildVisitor(ctx.db, { company: acme.company, requestDate: today() });
    const request = await buildRequest(ctx.db, { company: acme.company, visitor: v });
    expect((await scan(v.uidn, 'refused-key-01')).statusCode).toBe(409);
    const [row] = await ctx.db
      .select()
      .from(scanRequests)
      .where(eq(scanRequests.key, 'refused-key-01'));
    expect(row).toBeUndefined();
    expect(request).toBeDefined();
  });

  it('answers 400 with a readable message for a malformed key, 401 without a token', async () => {
    const v = await visitor();
    const bad = await scan(v.uidn, 'short');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(AVAILABILITY_MESSAGES.idempotencyKeyInvalid);
    expect((await scan(v.uidn, 'no-token-key-1', '')).statusCode).toBe(401);
    expect(await checksOf(v.id)).toHaveLength(0);
  });

  it('keys are per user', async () => {
    const v = await visitor();
    const other = await tokenFor(ctx.app, acme.staff.ROLE_ADMIN.email);
    expect((await scan(v.uidn, 'shared-key-001')).json<CheckResult>().action).toBe('check_in');
    expect((await scan(v.uidn, 'shared-key-001', other)).json<CheckResult>().action).toBe(
      'check_out',
    );
  });

  it('forgets keys after a day', async () => {
    const v = await visitor();
    await scan(v.uidn, 'old-key-000001');
    await forgetOldScanKeys(ctx.db, Date.now() + 25 * 3600_000);
    const [row] = await ctx.db
      .select()
      .from(scanRequests)
      .where(eq(scanRequests.key, 'old-key-000001'));
    expect(row).toBeUndefined();
  });

  it.runIf(testDatabaseKind === 'postgres')(
    'twenty concurrent retries of one key make one change',
    async () => {
      const v = await visitor();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => scan(v.uidn, 'burst-key-0001')),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
      expect(new Set(answers.map((a) => a.json<CheckResult>().action))).toEqual(
        new Set(['check_in']),
      );
      expect(await checksOf(v.id)).toHaveLength(1);
    },
  );
});
