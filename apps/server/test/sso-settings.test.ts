/**
 * Issue 33, a company's single sign-on settings and SCIM tokens (`/api/company/{id}/sso`,
 * `/api/company/{id}/scim-tokens`): who may (its super admin, the platform's admin on any
 * company; a manager 403, another company's super admin 404), the defaults, the client
 * secret write-only and sealed at rest, the 400s and the 409 of a domain another company
 * covers, "Tester la connexion" against a discovery document served here (and a provider
 * that is no provider, a wrong issuer, a closed port, no PKCE), and the tokens: shown once,
 * listed without it, revoked, at most 10 live, found by the SCIM check only while live;
 * every change audited.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCIM_TOKEN_PREFIX,
  SSO_LIMITS,
  sayIn,
  type ScimToken,
  type SsoSettingsInput,
  type SsoSettingsView,
} from '@sesame/shared';
import { auditEvents, companySso, scimTokens, ssoDomains } from '../src/db/schema';
import { findScimToken } from '../src/sso/scim-tokens';
import { SecretBox } from '../src/sso/secret-box';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildTenant } from './helpers/factories';
import { freePort } from './helpers/smtp';

const fr = (say: Parameters<typeof sayIn>[1]) => sayIn('fr', say);
let serial = 0;
const fresh = () => `${Date.now().toString(36)}${(serial++).toString(36)}`;

/** A discovery server: `/{name}/.well-known/openid-configuration` answers per `name`. */
async function startProvider(): Promise<{ base: string; server: Server }> {
  const server = createServer((req, res) => {
    const [, name] = (req.url ?? '').split('/');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const issuer = `${base}/${name}`;
    const document = {
      issuer,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code', 'id_token'],
      code_challenge_methods_supported: ['S256'],
      end_session_endpoint: `${issuer}/logout`,
    };
    if (!req.url?.endsWith('/.well-known/openid-configuration') || name === 'missing') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const answer =
      name === 'mismatch'
        ? { ...document, issuer: `${base}/elsewhere` }
        : name === 'nopkce'
          ? { ...document, code_challenge_methods_supported: ['plain'] }
          : name === 'nologout'
            ? { ...document, end_session_endpoint: undefined }
            : document;
    if (name === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome</html>');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe(`SSO settings and SCIM tokens (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let globex: Awaited<ReturnType<typeof buildTenant>>;
  const tokens: Record<string, string> = {};
  let provider: { base: string; server: Server };
  const box = () => new SecretBox(ctx.config.ssoSecretKey);

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    tokens.superAdmin = await tokenFor(ctx.app, acme.staff.ROLE_SUPER_ADMIN.email);
    tokens.manager = await tokenFor(ctx.app, acme.staff.ROLE_MANAGER.email);
    tokens.platformAdmin = await tokenFor(ctx.app, globex.staff.ROLE_ADMIN.email);
    tokens.otherSuperAdmin = await tokenFor(ctx.app, globex.staff.ROLE_SUPER_ADMIN.email);
    provider = await startProvider();
  });
  afterAll(async () => {
    await new Promise((resolve) => provider?.server.close(resolve));
  });

  const call = (who: keyof typeof tokens) => as(ctx.app, tokens[who]!);
  const url = (company: { id: string }, tail = 'sso') => `/api/company/${company.id}/${tail}`;
  const settings = (overrides: Partial<SsoSettingsInput> = {}): SsoSettingsInput => ({
    enabled: true,
    issuer_url: `${provider.base}/good`,
    client_id: 'sesame-client',
    client_secret: 'first-secret',
    domains: [`acme-${fresh()}.example`],
    groups_claim: 'groups',
    role_mappings: [{ group: 'Sésame Admins', role: 'ROLE_SUPER_ADMIN' }],
    default_role: 'ROLE_EMPLOYEE',
    allow_jit: true,
    enforced: false,
    ...overrides,
  });
  const auditOf = (companyId: string, action: string) =>
    ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, companyId), eq(auditEvents.action, action)));

  it('answers the defaults before anything is saved, with the addresses to register', async () => {
    const res = await call('superAdmin')({ method: 'GET', url: url(acme.company) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: SsoSettingsView }>().data).toEqual({
      enabled: false,
      issuer_url: '',
      client_id: '',
      has_client_secret: false,
      domains: [],
      groups_claim: 'groups',
      role_mappings: [],
      default_role: 'ROLE_USER',
      allow_jit: false,
      enforced: false,
      redirect_uri: 'http://sesame.test/api/sso/callback',
      scim_base_url: 'http://sesame.test/scim/v2',
      updated_at: null,
    });
  });

  it("the company's super admin and the platform's admin manage it; a manager 403, another company 404", async () => {
    expect((await call('superAdmin')({ method: 'GET', url: url(acme.company) })).statusCode).toBe(
      200,
    );
    expect(
      (await call('platformAdmin')({ method: 'GET', url: url(acme.company) })).statusCode,
    ).toBe(200);
    const manager = await call('manager')({ method: 'GET', url: url(acme.company) });
    expect(manager.statusCode).toBe(403);
    expect(manager.json().message).toBe(fr((m) => m.api.forbidden));
    const other = await call('otherSuperAdmin')({ method: 'GET', url: url(acme.company) });
    expect(other.statusCode).toBe(404);
    const otherPut = await call('otherSuperAdmin')({
      method: 'PUT',
      url: url(acme.company),
      payload: settings(),
    });
    expect(otherPut.statusCode).toBe(404);
    const otherTokens = await call('otherSuperAdmin')({
      method: 'GET',
      url: url(acme.company, 'scim-tokens'),
    });
    expect(otherTokens.statusCode).toBe(404);
    const anonymous = await as(ctx.app, null)({ method: 'GET', url: url(acme.company) });
    expect(anonymous.statusCode).toBe(401);
  });

  it('saves the settings: the secret sealed at rest, never answered, kept when left blank; audited', async () => {
    const input = settings({ domains: ['@Acme-Saved.example', 'filiale-acme.example'] });
    const res = await call('superAdmin')({ method: 'PUT', url: url(acme.company), payload: input });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ message: string; data: SsoSettingsView }>();
    expect(body.message).toBe(fr((m) => m.sso.saved));
    expect(body.data).toMatchObject({
      enabled: true,
      issuer_url: `${provider.base}/good`,
      client_id: 'sesame-client',
      has_client_secret: true,
      domains: ['acme-saved.example', 'filiale-acme.example'],
      role_mappings: [{ group: 'Sésame Admins', role: 'ROLE_SUPER_ADMIN' }],
      default_role: 'ROLE_EMPLOYEE',
      allow_jit: true,
    });
    expect(body.data.updated_at).not.toBeNull();
    expect(res.body).not.toContain('first-secret');

    const [row] = await ctx.db
      .select()
      .from(companySso)
      .where(eq(companySso.companyId, acme.company.id));
    expect(row!.clientSecretEncrypted).not.toBe('first-secret');
    expect(row!.clientSecretEncrypted).not.toContain('first-secret');
    expect(box().open(row!.clientSecretEncrypted!)).toBe('first-secret');
    expect(row!.updatedBy).toBe(acme.staff.ROLE_SUPER_ADMIN.id);

    // Blank, then absent: the stored secret stays.
    for (const secret of ['  ', undefined]) {
      const again = await call('superAdmin')({
        method: 'PUT',
        url: url(acme.company),
        payload: { ...input, client_secret: secret, client_id: `client-${fresh()}` },
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json<{ data: SsoSettingsView }>().data.has_client_secret).toBe(true);
    }
    const [kept] = await ctx.db
      .select()
      .from(companySso)
      .where(eq(companySso.companyId, acme.company.id));
    expect(box().open(kept!.clientSecretEncrypted!)).toBe('first-secret');

    // A new value replaces it.
    const replaced = await call('platformAdmin')({
      method: 'PUT',
      url: url(acme.company),
      payload: { ...input, client_secret: 'second-secret' },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const [now] = await ctx.db
      .select()
      .from(companySso)
      .where(eq(companySso.companyId, acme.company.id));
    expect(box().open(now!.clientSecretEncrypted!)).toBe('second-secret');

    const read = await call('superAdmin')({ method: 'GET', url: url(acme.company) });
    expect(read.body).not.toContain('second-secret');
    expect(read.body).not.toContain(now!.clientSecretEncrypted!);

    const entries = await auditOf(acme.company.id, 'sso.updated');
    expect(entries).toHaveLength(4);
    const first = entries.find(
      (e) =>
        e.actorUserId === acme.staff.ROLE_SUPER_ADMIN.id &&
        (e.detail as { secretChanged: boolean }).secretChanged,
    )!;
    expect(first.detail).toMatchObject({ secretChanged: true, enabled: true });
    expect((first.detail as { changed: string[] }).changed).toEqual(
      expect.arrayContaining(['enabled', 'issuer_url', 'client_id', 'domains', 'role_mappings']),
    );
    const byPlatform = entries.find((e) => e.actorUserId === globex.staff.ROLE_ADMIN.id)!;
    expect(byPlatform.detail).toMatchObject({ secretChanged: true, changed: ['client_id'] });
    expect(
      entries.filter((e) => (e.detail as { secretChanged: boolean }).secretChanged),
    ).toHaveLength(2);
    for (const entry of entries) {
      expect(JSON.stringify(entry.detail)).not.toMatch(/first-secret|second-secret/);
    }
  });

  it('refuses in the product’s words: no secret to enable with, a bad issuer, no domain', async () => {
    const { company } = await buildTenant(ctx.db);
    const admin = call('platformAdmin');
    const noSecret = await admin({
      method: 'PUT',
      url: url(company),
      payload: settings({ client_secret: '' }),
    });
    expect(noSecret.statusCode).toBe(400);
    expect(noSecret.json()).toMatchObject({
      message: fr((m) => m.sso.secretRequired),
      errors: { client_secret: fr((m) => m.sso.secretRequired) },
    });

    const badIssuer = await admin({
      method: 'PUT',
      url: url(company),
      payload: settings({ issuer_url: 'http://idp.example.com' }),
    });
    expect(badIssuer.statusCode).toBe(400);
    expect(badIssuer.json().errors.issuer_url).toBe(fr((m) => m.sso.issuerInvalid));

    const noDomain = await admin({
      method: 'PUT',
      url: url(company),
      payload: settings({ domains: [] }),
    });
    expect(noDomain.statusCode).toBe(400);
    expect(noDomain.json().errors.domains).toBe(fr((m) => m.sso.domainsRequired));

    // Disabled settings may be saved without a secret.
    const draft = await admin({
      method: 'PUT',
      url: url(company),
      payload: settings({ enabled: false, client_secret: undefined }),
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json<{ data: SsoSettingsView }>().data.has_client_secret).toBe(false);
  });

  it("a domain another company's provider covers is a 409 naming it; its own domains may be saved again", async () => {
    const domain = `shared-${fresh()}.example`;
    const mine = await call('otherSuperAdmin')({
      method: 'PUT',
      url: url(globex.company),
      payload: settings({ domains: [domain] }),
    });
    expect(mine.statusCode, mine.body).toBe(200);
    const again = await call('otherSuperAdmin')({
      method: 'PUT',
      url: url(globex.company),
      payload: settings({ domains: [domain, `more-${fresh()}.example`], client_secret: '' }),
    });
    expect(again.statusCode, again.body).toBe(200);

    const before = await ctx.db
      .select()
      .from(ssoDomains)
      .where(eq(ssoDomains.companyId, acme.company.id));
    const taken = await call('superAdmin')({
      method: 'PUT',
      url: url(acme.company),
      payload: settings({ domains: [`free-${fresh()}.example`, domain.toUpperCase()] }),
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(fr((m) => m.sso.domainTaken(domain)));
    // Nothing of the refused save was written.
    const after = await ctx.db
      .select()
      .from(ssoDomains)
      .where(eq(ssoDomains.companyId, acme.company.id));
    expect(after).toEqual(before);
    const [held] = await ctx.db.select().from(ssoDomains).where(eq(ssoDomains.domain, domain));
    expect(held!.companyId).toBe(globex.company.id);
  });

  it('two companies saving the same domain at once: one keeps it, the other is told so (409)', async () => {
    const one = await buildTenant(ctx.db);
    const two = await buildTenant(ctx.db);
    const domain = `race-${fresh()}.example`;
    const answers = await Promise.all(
      [one.company, two.company].map((company) =>
        call('platformAdmin')({
          method: 'PUT',
          url: url(company),
          payload: settings({ domains: [domain] }),
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const refused = answers.find((a) => a.statusCode === 409)!;
    expect(refused.json().message).toBe(fr((m) => m.sso.domainTaken(domain)));
    const held = await ctx.db.select().from(ssoDomains).where(eq(ssoDomains.domain, domain));
    expect(held).toHaveLength(1);
  });

  describe('"Tester la connexion"', () => {
    const test = (issuer: string) =>
      call('superAdmin')({
        method: 'POST',
        url: url(acme.company, 'sso/test'),
        payload: { issuer_url: issuer },
      });

    it('a provider that answers its discovery document: ok, with its sign-out', async () => {
      const issuer = `${provider.base}/good`;
      const res = await test(issuer);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        ok: true,
        message: fr((m) => m.sso.testOk(issuer)),
        end_session: true,
      });
      const noLogout = await test(`${provider.base}/nologout`);
      expect(noLogout.json()).toMatchObject({ ok: true, end_session: false });
    });

    it('says what is wrong, always a 200', async () => {
      const mismatch = await test(`${provider.base}/mismatch`);
      expect(mismatch.statusCode).toBe(200);
      expect(mismatch.json()).toEqual({
        ok: false,
        message: fr((m) => m.sso.testIssuerMismatch(`${provider.base}/elsewhere`)),
        end_session: false,
      });

      const missing = `${provider.base}/missing`;
      expect((await test(missing)).json()).toMatchObject({
        ok: false,
        message: fr((m) => m.sso.testNotOidc(missing)),
      });
      const html = `${provider.base}/html`;
      expect((await test(html)).json()).toMatchObject({
        ok: false,
        message: fr((m) => m.sso.testNotOidc(html)),
      });

      const closed = `http://127.0.0.1:${await freePort()}`;
      const unreachable = await test(closed);
      expect(unreachable.statusCode).toBe(200);
      expect(unreachable.json()).toMatchObject({
        ok: false,
        message: fr((m) => m.sso.testUnreachable(closed)),
      });

      expect((await test(`${provider.base}/nopkce`)).json()).toMatchObject({
        ok: false,
        message: fr((m) => m.sso.testNoCodeFlow),
      });
    });

    it('in English for an English caller; a URL that is no issuer is a 400', async () => {
      const issuer = `${provider.base}/good`;
      const res = await call('superAdmin')({
        method: 'POST',
        url: url(acme.company, 'sso/test'),
        headers: { 'accept-language': 'en' },
        payload: { issuer_url: issuer },
      });
      expect(res.json().message).toBe(sayIn('en', (m) => m.sso.testOk(issuer)));
      const bad = await test('ftp://idp.example.com');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors.issuer_url).toBe(fr((m) => m.sso.issuerInvalid));
      expect(
        (
          await call('manager')({
            method: 'POST',
            url: url(acme.company, 'sso/test'),
            payload: { issuer_url: issuer },
          })
        ).statusCode,
      ).toBe(403);
    });
  });

  describe('SCIM tokens', () => {
    it('a token is shown once, listed without it, found by the SCIM check until revoked', async () => {
      const { company, staff } = await buildTenant(ctx.db);
      const admin = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_SUPER_ADMIN.email));
      const created = await admin({
        method: 'POST',
        url: url(company, 'scim-tokens'),
        payload: { name: 'Entra ID' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const body = created.json<{ message: string; data: ScimToken & { token: string } }>();
      expect(body.message).toBe(fr((m) => m.sso.tokenCreated));
      expect(body.data).toMatchObject({
        name: 'Entra ID',
        created_by: staff.ROLE_SUPER_ADMIN.id,
        last_used_at: null,
        revoked_at: null,
      });
      const token = body.data.token;
      expect(token.startsWith(SCIM_TOKEN_PREFIX)).toBe(true);
      expect(Buffer.from(token.slice(SCIM_TOKEN_PREFIX.length), 'base64url')).toHaveLength(32);

      const [row] = await ctx.db.select().from(scimTokens).where(eq(scimTokens.id, body.data.id));
      expect(row!.tokenHash).not.toContain(token.slice(SCIM_TOKEN_PREFIX.length));

      const list = await admin({ method: 'GET', url: url(company, 'scim-tokens') });
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(token);
      expect(list.json<{ data: ScimToken[] }>().data).toEqual([
        expect.objectContaining({ id: body.data.id, name: 'Entra ID', revoked_at: null }),
      ]);
      expect(Object.keys(list.json<{ data: ScimToken[] }>().data[0]!)).not.toContain('token');

      const secret = ctx.config.jwtSecret;
      expect(await findScimToken(ctx.db, secret, token)).toEqual({
        tokenId: body.data.id,
        companyId: company.id,
      });
      const [used] = await ctx.db.select().from(scimTokens).where(eq(scimTokens.id, body.data.id));
      expect(used!.lastUsedAt).not.toBeNull();
      // Marked used at most once a minute.
      const lastUsed = async () =>
        (
          await ctx.db.select().from(scimTokens).where(eq(scimTokens.id, body.data.id))
        )[0]!.lastUsedAt!.getTime();
      const first = await lastUsed();
      await findScimToken(ctx.db, secret, token, new Date(first + 30_000));
      expect(await lastUsed()).toBe(first);
      await findScimToken(ctx.db, secret, token, new Date(first + 61_000));
      expect(await lastUsed()).toBe(first + 61_000);
      expect(await findScimToken(ctx.db, secret, `${token}x`)).toBeNull();
      expect(await findScimToken(ctx.db, 'another-secret-entirely', token)).toBeNull();

      const revoked = await admin({
        method: 'DELETE',
        url: url(company, `scim-tokens/${body.data.id}`),
      });
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(revoked.json().message).toBe(fr((m) => m.sso.tokenRevoked));
      expect(revoked.json().data.revoked_at).not.toBeNull();
      expect(await findScimToken(ctx.db, secret, token)).toBeNull();

      // Again: the same answer, one entry only.
      const twice = await admin({
        method: 'DELETE',
        url: url(company, `scim-tokens/${body.data.id}`),
      });
      expect(twice.statusCode).toBe(200);
      expect(twice.json().data.revoked_at).toBe(revoked.json().data.revoked_at);

      const listed = await admin({ method: 'GET', url: url(company, 'scim-tokens') });
      expect(listed.json<{ data: ScimToken[] }>().data[0]!.revoked_at).not.toBeNull();

      expect(await auditOf(company.id, 'scim.token_created')).toEqual([
        expect.objectContaining({
          actorUserId: staff.ROLE_SUPER_ADMIN.id,
          detail: { tokenId: body.data.id },
        }),
      ]);
      expect(await auditOf(company.id, 'scim.token_revoked')).toHaveLength(1);
      const entries = await ctx.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.companyId, company.id));
      expect(JSON.stringify(entries)).not.toContain(token);
    });

    it("another company's token, or none, is a 404; a nameless token a 400", async () => {
      const created = await call('otherSuperAdmin')({
        method: 'POST',
        url: url(globex.company, 'scim-tokens'),
        payload: { name: 'Okta' },
      });
      expect(created.statusCode).toBe(201);
      const id = created.json().data.id as string;
      const viaAcme = await call('superAdmin')({
        method: 'DELETE',
        url: url(acme.company, `scim-tokens/${id}`),
      });
      expect(viaAcme.statusCode).toBe(404);
      const direct = await call('superAdmin')({
        method: 'DELETE',
        url: url(globex.company, `scim-tokens/${id}`),
      });
      expect(direct.statusCode).toBe(404);
      const [row] = await ctx.db.select().from(scimTokens).where(eq(scimTokens.id, id));
      expect(row!.revokedAt).toBeNull();
      const unknown = await call('superAdmin')({
        method: 'DELETE',
        url: url(acme.company, `scim-tokens/${crypto.randomUUID()}`),
      });
      expect(unknown.statusCode).toBe(404);
      // The platform's admin revokes any company's.
      const platform = await call('platformAdmin')({
        method: 'DELETE',
        url: url(globex.company, `scim-tokens/${id}`),
      });
      expect(platform.statusCode).toBe(200);

      const nameless = await call('superAdmin')({
        method: 'POST',
        url: url(acme.company, 'scim-tokens'),
        payload: { name: ' ' },
      });
      expect(nameless.statusCode).toBe(400);
      expect(nameless.json().errors.name).toBe(fr((m) => m.sso.tokenNameRequired));
    });

    it(`at most ${SSO_LIMITS.scimTokensMax} live tokens: the next one is a 409, a revoked one frees a place`, async () => {
      const { company, staff } = await buildTenant(ctx.db);
      const admin = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_SUPER_ADMIN.email));
      const create = (name: string) =>
        admin({ method: 'POST', url: url(company, 'scim-tokens'), payload: { name } });
      const ids: string[] = [];
      for (let i = 0; i < SSO_LIMITS.scimTokensMax; i += 1) {
        const res = await create(`Token ${i}`);
        expect(res.statusCode, res.body).toBe(201);
        ids.push(res.json().data.id as string);
      }
      const tooMany = await create('One more');
      expect(tooMany.statusCode).toBe(409);
      expect(tooMany.json().message).toBe(fr((m) => m.sso.tokensTooMany(SSO_LIMITS.scimTokensMax)));

      const list = await admin({ method: 'GET', url: url(company, 'scim-tokens') });
      const names = list.json<{ data: ScimToken[] }>().data.map((t) => t.name);
      expect(names).toHaveLength(SSO_LIMITS.scimTokensMax);
      expect(new Set(names)).toEqual(new Set(ids.map((_, i) => `Token ${i}`)));

      expect(
        (await admin({ method: 'DELETE', url: url(company, `scim-tokens/${ids[0]}`) })).statusCode,
      ).toBe(200);
      const freed = await create('Replacement');
      expect(freed.statusCode, freed.body).toBe(201);
      const newest = await admin({ method: 'GET', url: url(company, 'scim-tokens') });
      expect(newest.json<{ data: ScimToken[] }>().data[0]!.name).toBe('Replacement');
    });
  });
});
