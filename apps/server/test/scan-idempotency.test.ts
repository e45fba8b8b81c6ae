/**
 * Issue 12 §2: the scanner's offline queue retries a scan with the same
 * Idempotency-Key; the server remembers the first answer and never toggles twice.
 * Issue 26 §6: the key is bound to its route and request; the same key with another
 * request answers 422, never the stored answer, never a 500, and records nothing.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AVAILABILITY_MESSAGES,
  ENGLISH_MESSAGES,
  type CheckResult,
  type KioskCheckResult,
} from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { forgetOldScanKeys } from '../src/checkins/idempotency';
import { companies, scanRequests, userChecks, visitorChecks } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildQrUser, buildRequest, buildTenant, buildVisitor } from './helpers/factories';

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
    // The kiosk's e-mail presence on, so one agent scans codes and e-mails with one queue.
    await ctx.db
      .update(companies)
      .set({ kioskEmailEnabled: true })
      .where(eq(companies.id, acme.company.id));
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
  const kiosk = (email: string, key?: string, lang = 'fr') =>
    as(
      ctx.app,
      token,
    )({
      method: 'POST',
      url: '/api/kiosk/check',
      headers: { 'accept-language': lang, ...(key ? { 'idempotency-key': key } : {}) },
      payload: { email },
    });
  const member = () => buildQrUser(ctx.db, { company: acme.company, kind: 'member' });
  const memberChecksOf = (qrUserId: string) =>
    ctx.db.select().from(userChecks).where(eq(userChecks.qrUserId, qrUserId));
  const storedKey = (key: string) =>
    ctx.db.select().from(scanRequests).where(eq(scanRequests.key, key));

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

  it('a second code sent with the first code’s key answers 422, not the first person’s answer', async () => {
    const first = await visitor();
    const second = await visitor();
    const answer = await scan(first.uidn, 'reused-key-0001');
    expect(answer.json<CheckResult>().action).toBe('check_in');
    const reused = await scan(second.uidn, 'reused-key-0001');
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual({ message: AVAILABILITY_MESSAGES.idempotencyKeyReused });
    expect(reused.body).not.toContain(first.firstname);
    // Nothing recorded for the second code, nothing more for the first; the key still
    // answers its own request with its first answer.
    expect(await checksOf(second.id)).toHaveLength(0);
    expect(await checksOf(first.id)).toHaveLength(1);
    expect((await scan(first.uidn, 'reused-key-0001')).json()).toEqual(answer.json());
    // The second code with a key of its own is checked in as usual.
    expect((await scan(second.uidn, 'fresh-key-00001')).json<CheckResult>().action).toBe(
      'check_in',
    );
  });

  it('a scan as a manual validation is another request: the key answers 422', async () => {
    const v = await visitor();
    expect((await scan(v.uidn, 'manual-key-0001')).statusCode).toBe(200);
    const manual = await as(
      ctx.app,
      token,
    )({
      method: 'GET',
      url: `/api/get-qr-data/${v.uidn}?type=1`,
      headers: { 'idempotency-key': 'manual-key-0001' },
    });
    expect(manual.statusCode).toBe(422);
    expect(await checksOf(v.id)).toHaveLength(1);
  });

  it('kiosk/check with a code scan’s key answers 422 in the caller’s language, never 500', async () => {
    const v = await visitor();
    const person = await member();
    expect((await scan(v.uidn, 'cross-route-001')).statusCode).toBe(200);
    const fr = await kiosk(person.email!, 'cross-route-001');
    expect(fr.statusCode).toBe(422);
    expect(fr.json().message).toBe("Cette clé d'idempotence a déjà servi pour une autre demande.");
    const english = await kiosk(person.email!, 'cross-route-001', 'en');
    expect(english.statusCode).toBe(422);
    expect(english.json().message).toBe(ENGLISH_MESSAGES.availability.idempotencyKeyReused);
    expect(await memberChecksOf(person.id)).toHaveLength(0);
    expect(await checksOf(v.id)).toHaveLength(1);
    // And the other way: a code scan with a kiosk check's key.
    expect((await kiosk(person.email!, 'cross-route-002')).statusCode).toBe(200);
    expect((await scan(v.uidn, 'cross-route-002')).statusCode).toBe(422);
    expect(await checksOf(v.id)).toHaveLength(1);
    expect(await memberChecksOf(person.id)).toHaveLength(1);
  });

  it('kiosk/check: the same key with another e-mail answers 422; the same e-mail gets its answer', async () => {
    const first = await member();
    const second = await member();
    const answer = await kiosk(first.email!, 'kiosk-key-00001');
    expect(answer.statusCode).toBe(200);
    expect(answer.json<KioskCheckResult>().uidn).toBe(first.uidn);
    const reused = await kiosk(second.email!, 'kiosk-key-00001');
    expect(reused.statusCode).toBe(422);
    expect(reused.body).not.toContain(first.uidn);
    expect(await memberChecksOf(second.id)).toHaveLength(0);
    const replay = await kiosk(first.email!, 'kiosk-key-00001');
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(answer.json());
    expect(await memberChecksOf(first.id)).toHaveLength(1);
  });

  it('stores the route and a hash of the request with the key, never the code itself', async () => {
    const v = await visitor();
    await scan(v.uidn, 'stored-key-0001');
    const [row] = await storedKey('stored-key-0001');
    expect(row!.route).toBe('GET /api/get-qr-data/:uidn');
    expect(row!.requestHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.requestHash).not.toContain(v.uidn);
  });

  it('a key stored before its request was recorded (migration 0020) matches no request', async () => {
    const v = await visitor();
    await ctx.db.insert(scanRequests).values({
      userId: acme.staff.ROLE_EMPLOYEE.id,
      key: 'legacy-key-0001',
      route: '',
      requestHash: '',
      result: { status: 'success', action: 'check_in' },
    });
    expect((await scan(v.uidn, 'legacy-key-0001')).statusCode).toBe(422);
    expect(await checksOf(v.id)).toHaveLength(0);
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

  it.runIf(testDatabaseKind === 'postgres')(
    'one key raced by two codes: one is checked in, every other answer is its answer or a 422',
    async () => {
      const a = await visitor();
      const b = await visitor();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => scan(i % 2 ? b.uidn : a.uidn, 'race-key-00001')),
      );
      const [aChecks, bChecks] = [await checksOf(a.id), await checksOf(b.id)];
      expect(aChecks.length + bChecks.length).toBe(1);
      const winner = aChecks.length === 1 ? 0 : 1;
      answers.forEach((answer, i) => {
        // 200 with the one answer for the winning code's scans, 422 for the other code's.
        expect(answer.statusCode).toBe(i % 2 === winner ? 200 : 422);
      });
      const ok = answers.filter((r) => r.statusCode === 200).map((r) => r.json<CheckResult>());
      expect(new Set(ok.map((r) => JSON.stringify(r))).size).toBe(1);
    },
  );
});
