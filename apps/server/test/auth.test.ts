import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { as, startTestApp, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { TEST_PASSWORD, buildCompany, buildUser } from './helpers/factories';

describe(`authentication (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let company: Awaited<ReturnType<typeof buildCompany>>;
  let manager: Awaited<ReturnType<typeof buildUser>>;

  beforeAll(async () => {
    company = await buildCompany(ctx.db, { slug: 'acme', name: 'Acme' });
    manager = await buildUser(ctx.db, {
      company,
      role: 'ROLE_MANAGER',
      email: 'Manager@Acme.test',
    });
  });

  const login = (payload: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/api/login_check', payload: payload as object });

  it('signs in with the e-mail in any case and returns a token with an expiry', async () => {
    const res = await login({ username: 'manager@acme.test', password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ token: string; expires_at: string }>();
    expect(body.token.length).toBeGreaterThan(10);
    const hours = (Date.parse(body.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(7.9);
    expect(hours).toBeLessThanOrEqual(8);
  });

  it.each([
    [{ username: '', password: 'x' }, "L'adresse email est requise."],
    [{ password: 'x' }, "L'adresse email est requise."],
    [{ username: 'not-an-email', password: 'x' }, 'Veuillez saisir une adresse email valide.'],
    [{ username: 'manager@acme.test', password: '' }, 'Le mot de passe est requis.'],
  ])('refuses %j with 400 and the spec message', async (payload, message) => {
    const res = await login(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('answers 401 "Identifiants incorrects." for a wrong password or an unknown e-mail', async () => {
    for (const payload of [
      { username: 'manager@acme.test', password: 'wrong' },
      { username: 'nobody@acme.test', password: 'wrong' },
    ]) {
      const res = await login(payload);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Identifiants incorrects.');
    }
  });

  it('answers 403 "Accès refusé." for a disabled account', async () => {
    const disabled = await buildUser(ctx.db, { company, status: false });
    const res = await login({ username: disabled.email, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Accès refusé.');
  });

  it('answers 400, never 500, to malformed JSON or a wrong field type', async () => {
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/login_check',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('La requête est mal formée.');
    const wrongType = await login({ username: 42, password: ['x'] });
    expect(wrongType.statusCode).toBe(400);
  });

  it('gives the user info: id, roles with the active one first, company slug', async () => {
    const token = await tokenFor(ctx.app, manager.email);
    const res = await as(ctx.app, token)({ method: 'GET', url: '/api/user/info' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: manager.id,
      roles: ['ROLE_MANAGER'],
      company: 'acme',
      company_id: company.id,
    });
  });

  it('refuses a missing, forged or garbage token with 401', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/user/info' })).statusCode).toBe(401);
    const forged = (await tokenFor(ctx.app, manager.email)).slice(0, -3) + 'abc';
    expect((await as(ctx.app, forged)({ method: 'GET', url: '/api/user/info' })).statusCode).toBe(
      401,
    );
    expect(
      (await as(ctx.app, 'garbage')({ method: 'GET', url: '/api/user/info' })).json().message,
    ).toBe('Vous devez être authentifié.');
  });

  it('revokes the token on logout: the old token then gets 401, other sessions live on', async () => {
    const token = await tokenFor(ctx.app, manager.email);
    const other = await tokenFor(ctx.app, manager.email);
    const out = await as(ctx.app, token)({ method: 'POST', url: '/api/logout' });
    expect(out.statusCode).toBe(200);
    expect(out.json().message).toBe('Déconnecté');
    expect((await as(ctx.app, token)({ method: 'GET', url: '/api/user/info' })).statusCode).toBe(
      401,
    );
    expect((await as(ctx.app, other)({ method: 'GET', url: '/api/user/info' })).statusCode).toBe(
      200,
    );
  });

  it("stops a deleted user's tokens", async () => {
    const gone = await buildUser(ctx.db, { company });
    const token = await tokenFor(ctx.app, gone.email);
    await ctx.db.delete(users).where(eq(users.id, gone.id));
    expect((await as(ctx.app, token)({ method: 'GET', url: '/api/user/info' })).statusCode).toBe(
      401,
    );
  });

  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe("La ressource demandée n'existe pas.");
  });

  it('checks the database in /api/health and serves the OpenAPI document', async () => {
    const health = (await ctx.app.inject({ method: 'GET', url: '/api/health' })).json();
    expect(health).toMatchObject({ status: 'ok', database: 'ok' });
    // PostgreSQL: the pool's slots for the operator's monitoring (issue 26 §0); PGlite has none.
    if (testDatabaseKind === 'postgres') {
      expect(health.database_pool).toMatchObject({ max: expect.any(Number), waiting: 0 });
    } else {
      expect(health.database_pool).toBeUndefined();
    }
    const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toContain('/api/login_check');
  });
});

describe(`login rate limit (${testDatabaseKind})`, () => {
  it('answers 429 after repeated failures, even with the right password', async () => {
    const ctx = await startTestApp();
    try {
      const company = await buildCompany(ctx.db);
      const user = await buildUser(ctx.db, { company });
      const limit = ctx.config.rateLimits.loginAccountFreeAttempts;
      for (let i = 0; i < limit; i++) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/login_check',
          payload: { username: user.email, password: 'wrong' },
        });
        expect(res.statusCode).toBe(401);
      }
      const blocked = await ctx.app.inject({
        method: 'POST',
        url: '/api/login_check',
        payload: { username: user.email, password: TEST_PASSWORD },
      });
      expect(blocked.statusCode).toBe(429);
    } finally {
      await ctx.close();
    }
  });
});
