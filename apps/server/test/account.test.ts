/**
 * Issue 17 'Mon compte': every signed-in person changes their own password
 * (PUT /api/me/password). The ladder (401, then 400 with the exact message; no role
 * lacks the right, so no 403), the current password checked through the sign-in
 * throttle, the policy, the other sessions ended, the audit entry, and tenancy: the
 * route acts on the caller's own account only.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, ROLES, USER_MESSAGES } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { auditEvents } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { TEST_PASSWORD, buildCompany, buildTenant, buildUser } from './helpers/factories';

const FREE_FAILURES = 3;
const NEW_PASSWORD = 'Baobab-Pirogue-Lagune-27';

describe(`Mon compte: one's own password (${testDatabaseKind})`, () => {
  const ctx = useTestApp({
    rateLimits: {
      ...DEFAULT_RATE_LIMITS,
      loginAccountFreeAttempts: FREE_FAILURES,
      loginClientFreeAttempts: 10_000,
      loginFirstDelaySeconds: 600,
      publicFormPerWindow: 10_000,
    },
  });
  let tenant: Awaited<ReturnType<typeof buildTenant>>;

  beforeAll(async () => {
    tenant = await buildTenant(ctx.db);
  });

  const change = (token: string | null, payload: object) =>
    as(ctx.app, token)({ method: 'PUT', url: '/api/me/password', payload });
  const form = (overrides: Record<string, string> = {}) => ({
    current_password: TEST_PASSWORD,
    new_password: NEW_PASSWORD,
    confirm_password: NEW_PASSWORD,
    ...overrides,
  });
  const newUser = async () => {
    const user = await buildUser(ctx.db, { company: tenant.company, role: 'ROLE_EMPLOYEE' });
    return { user, token: await tokenFor(ctx.app, user.email) };
  };
  const entriesFor = (userId: string) =>
    ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.subjectId, userId), eq(auditEvents.action, 'user.password_changed')),
      );

  it('401 without a token, before the body is read', async () => {
    const res = await change(null, {});
    expect(res.statusCode).toBe(401);
  });

  it('400 with the exact message for each bad input, and nothing changes', async () => {
    const { user, token } = await newUser();
    const cases: [Record<string, string>, string, string][] = [
      [{ current_password: '' }, 'current_password', ACCOUNT_MESSAGES.required('current_password')],
      [{ new_password: '' }, 'new_password', ACCOUNT_MESSAGES.required('new_password')],
      [
        { new_password: 'court', confirm_password: 'court' },
        'new_password',
        USER_MESSAGES.passwordTooShort,
      ],
      [
        { confirm_password: 'Autre-chose-encore-1' },
        'confirm_password',
        ACCOUNT_MESSAGES.passwordMismatch,
      ],
      [
        { new_password: TEST_PASSWORD, confirm_password: TEST_PASSWORD },
        'new_password',
        ACCOUNT_MESSAGES.passwordUnchanged,
      ],
      // Long enough, but common: the server's policy refuses it.
      [
        { new_password: 'password1234', confirm_password: 'password1234' },
        'new_password',
        USER_MESSAGES.passwordWeak,
      ],
      [{ new_password: 'x'.repeat(1000), confirm_password: 'x' }, 'new_password', ''],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await change(token, form(overrides));
      expect(res.statusCode, JSON.stringify(overrides).slice(0, 80)).toBe(400);
      expect(res.json().errors).toHaveProperty(field);
      if (message) expect(res.json().message).toBe(message);
    }
    expect(await entriesFor(user.id)).toHaveLength(0);
    expect((await tokenFor(ctx.app, user.email)).length).toBeGreaterThan(10);
  });

  it('400 on the field when the current password is wrong; nothing changes, nothing is audited', async () => {
    const { user, token } = await newUser();
    const res = await change(token, form({ current_password: 'Pas-le-bon-mot-de-passe' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: ACCOUNT_MESSAGES.currentPasswordWrong,
      errors: { current_password: ACCOUNT_MESSAGES.currentPasswordWrong },
    });
    expect(await entriesFor(user.id)).toHaveLength(0);
    expect((await tokenFor(ctx.app, user.email)).length).toBeGreaterThan(10);
  });

  it('guessing the current password goes through the sign-in throttle (429), for this account only', async () => {
    const { user, token } = await newUser();
    const wrong = form({ current_password: 'Encore-raté-0' });
    for (let attempt = 1; attempt <= FREE_FAILURES; attempt++) {
      expect((await change(token, wrong)).statusCode).toBe(400);
    }
    const refused = await change(token, form());
    expect(refused.statusCode).toBe(429);
    // The right password is not even read while the account must wait: nothing changed.
    expect(await entriesFor(user.id)).toHaveLength(0);
    // Another account from the same client is not slowed down.
    const other = await newUser();
    expect((await change(other.token, form())).statusCode).toBe(200);
  });

  it('changes the password: 200 with the message, the other sessions end, this one stays, one audit entry', async () => {
    const { user, token } = await newUser();
    const elsewhere = await tokenFor(ctx.app, user.email);
    const res = await change(token, form());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Mot de passe modifié.' });

    expect((await as(ctx.app, token)({ method: 'GET', url: '/api/user/info' })).statusCode).toBe(
      200,
    );
    expect(
      (await as(ctx.app, elsewhere)({ method: 'GET', url: '/api/user/info' })).statusCode,
    ).toBe(401);
    await expect(tokenFor(ctx.app, user.email, TEST_PASSWORD)).rejects.toThrow(/401/);
    expect((await tokenFor(ctx.app, user.email, NEW_PASSWORD)).length).toBeGreaterThan(10);

    const entries = await entriesFor(user.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      companyId: tenant.company.id,
      actorUserId: user.id,
      subjectType: 'user',
      detail: { otherSessionsEnded: true },
    });
    expect(JSON.stringify(entries[0])).not.toContain(NEW_PASSWORD);
  });

  it('every role may change its own password', async () => {
    for (const role of ROLES) {
      const user = await buildUser(ctx.db, { company: tenant.company, role });
      const token = await tokenFor(ctx.app, user.email);
      const res = await change(token, form());
      expect(res.statusCode, role).toBe(200);
    }
  });

  it("acts on the caller's own account only: another company's user keeps password and sessions", async () => {
    const other = await buildCompany(ctx.db);
    const outsider = await buildUser(ctx.db, { company: other, role: 'ROLE_ADMIN' });
    const outsiderToken = await tokenFor(ctx.app, outsider.email);
    const { token } = await newUser();
    // Fields naming someone else are not part of the form: ignored.
    const res = await change(token, { ...form(), user_id: outsider.id, email: outsider.email });
    expect(res.statusCode).toBe(200);
    expect(
      (await as(ctx.app, outsiderToken)({ method: 'GET', url: '/api/user/info' })).statusCode,
    ).toBe(200);
    expect((await tokenFor(ctx.app, outsider.email, TEST_PASSWORD)).length).toBeGreaterThan(10);
    expect(await entriesFor(outsider.id)).toHaveLength(0);
  });
});
