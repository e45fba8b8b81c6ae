/**
 * Issue 34: a company's API keys. Kept at `/api/company/{id}/api-keys` by its admin side
 * (shown once, stored hashed, revocable, last use shown); a key calls the screens' routes
 * with `Authorization: Bearer sk_…` as a caller of its company limited to its scopes: each
 * scope opens its routes and no other (403), never another company's records (404); a
 * revoked or expired key is refused (401) at once on every instance; every call is in the
 * audit log as the key; its calls are limited per minute; and its hidden service account
 * shows nowhere a person shows.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY_LIMITS,
  ENGLISH_MESSAGES,
  FRENCH_MESSAGES,
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeyScope,
} from '@sesame/shared';
import { buildApp } from '../src/app';
import { serviceAccountEmail } from '../src/api-keys/service';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { openPostgres, type DatabaseHandle } from '../src/db/client';
import {
  apiKeys,
  auditEvents,
  companies,
  invitations,
  users,
  visitorChecks,
  visitRequests,
} from '../src/db/schema';
import { findStaffReader } from '../src/mail/sources';
import { deciders, findHost, findHostByEmail, searchHosts } from '../src/requests/host-loop';
import { createScimToken } from '../src/sso/scim-tokens';
import { as, startTestApp, tokenFor, useTestApp, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildRequest,
  buildTenant,
  buildUser,
  buildVisitor,
} from './helpers/factories';

const ctx = useTestApp();
const fr = FRENCH_MESSAGES.integrations;

type Tenant = Awaited<ReturnType<typeof buildTenant>>;

let acme: Tenant;
let globex: Tenant;
const tokens = new Map<string, string>();
const tokenOf = async (email: string) => {
  const token = tokens.get(email) ?? (await tokenFor(ctx.app, email));
  tokens.set(email, token);
  return token;
};

/** A key of `tenant`'s company, created through the route by its super admin. */
async function newKey(
  tenant: Tenant,
  scopes: ApiKeyScope[],
  extra: Record<string, unknown> = {},
  app: FastifyInstance = ctx.app,
  token?: string,
): Promise<ApiKeyCreated & { userId: string }> {
  const res = await as(
    app,
    token ?? (await tokenOf(tenant.staff.ROLE_SUPER_ADMIN.email)),
  )({
    method: 'POST',
    url: `/api/company/${tenant.company.id}/api-keys`,
    payload: { name: `Outil ${scopes.join('+')}`, scopes, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  const data = res.json<{ data: ApiKeyCreated }>().data;
  const [row] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, data.id));
  return { ...data, userId: row!.userId };
}

/** A confirmed meeting of today at `tenant`'s company: its visitor and request. */
async function visitOf(tenant: Tenant, confirmed: boolean | null = true) {
  const visitor = await buildVisitor(ctx.db, { company: tenant.company });
  const request = await buildRequest(ctx.db, {
    company: tenant.company,
    visitor,
    status: confirmed ? 1 : 0,
    confirmed,
  });
  return { visitor, request };
}

const invitationBody = (tenant: Tenant, extra: Record<string, unknown> = {}) => ({
  site_id: tenant.company.siteId,
  date: '04/03/2030',
  time: '09:00',
  end_time: '10:00',
  reason: 'Entretien',
  visitors: [{ firstname: 'Awa', lastname: 'Candidate', email: 'awa.candidate@example.com' }],
  ...extra,
});

beforeAll(async () => {
  acme = await buildTenant(ctx.db);
  globex = await buildTenant(ctx.db);
});

describe('GET/POST/DELETE /api/company/{id}/api-keys', () => {
  it('the company’s super admin and the platform’s admin keep its keys; others 403, another company 404', async () => {
    const url = `/api/company/${acme.company.id}/api-keys`;
    const payload = { name: 'Outil RH', scopes: ['visits.read'] };
    for (const role of ['ROLE_MANAGER', 'ROLE_EMPLOYEE', 'ROLE_SUPERVISOR', 'ROLE_USER'] as const) {
      const token = await tokenOf(acme.staff[role].email);
      expect((await as(ctx.app, token)({ method: 'GET', url })).statusCode, role).toBe(403);
      expect((await as(ctx.app, token)({ method: 'POST', url, payload })).statusCode, role).toBe(
        403,
      );
    }
    expect((await as(ctx.app, null)({ method: 'GET', url })).statusCode).toBe(401);
    const stranger = await tokenOf(globex.staff.ROLE_SUPER_ADMIN.email);
    expect((await as(ctx.app, stranger)({ method: 'GET', url })).statusCode).toBe(404);
    expect((await as(ctx.app, stranger)({ method: 'POST', url, payload })).statusCode).toBe(404);

    const byAdmin = await as(
      ctx.app,
      await tokenOf(acme.staff.ROLE_ADMIN.email),
    )({ method: 'POST', url, payload });
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
    const bySuper = await newKey(acme, ['presence.read']);
    // Another company's key, by its own id under this company's path: 404.
    const theirs = await newKey(globex, ['visits.read']);
    const superToken = await tokenOf(acme.staff.ROLE_SUPER_ADMIN.email);
    expect(
      (await as(ctx.app, superToken)({ method: 'DELETE', url: `${url}/${theirs.id}` })).statusCode,
    ).toBe(404);
    expect(
      (await as(ctx.app, stranger)({ method: 'DELETE', url: `${url}/${bySuper.id}` })).statusCode,
    ).toBe(404);
    expect(
      (
        await as(
          ctx.app,
          await tokenOf(acme.staff.ROLE_MANAGER.email),
        )({ method: 'DELETE', url: `${url}/${bySuper.id}` })
      ).statusCode,
    ).toBe(403);

    // The list: newest first, never a key.
    const list = await as(ctx.app, superToken)({ method: 'GET', url });
    expect(list.statusCode).toBe(200);
    const keys = list.json<{ data: ApiKey[] }>().data;
    expect(keys[0]!.id).toBe(bySuper.id);
    expect(keys.map((k) => k.id)).toContain(byAdmin.json<{ data: ApiKey }>().data.id);
    expect(keys.map((k) => k.id)).not.toContain(theirs.id);
    expect(list.body).not.toContain(bySuper.key);
    expect(keys.every((k) => !('key' in k))).toBe(true);
  });

  it('shows the key once, prefixed sk_, and keeps only its digest; revoking disables its account', async () => {
    const superToken = await tokenOf(acme.staff.ROLE_SUPER_ADMIN.email);
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const res = await as(
      ctx.app,
      superToken,
    )({
      method: 'POST',
      url: `/api/company/${acme.company.slug}/api-keys`,
      headers: { 'accept-language': 'en' },
      payload: {
        name: 'Contrôle d’accès',
        scopes: ['codes.scan', 'codes.scan'],
        expires_at: expires,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { message, data } = res.json<{ message: string; data: ApiKeyCreated }>();
    expect(message).toBe(ENGLISH_MESSAGES.integrations.keyCreated);
    expect(data.key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(data.prefix).toBe(data.key.slice(0, 7));
    expect(data.scopes).toEqual(['codes.scan']);
    expect(data.expires_at).toBe(expires);
    expect(data.last_used_at).toBeNull();
    expect(data.created_by).toBe(acme.staff.ROLE_SUPER_ADMIN.id);

    const [row] = await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, data.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(data.key.slice(7));
    const [account] = await ctx.db.select().from(users).where(eq(users.id, row!.userId));
    expect(account).toMatchObject({
      companyId: acme.company.id,
      roles: ['ROLE_SUPER_ADMIN'],
      status: true,
      provisionedBy: 'api_key',
      firstname: fr.keyAccountFirstname,
      name: 'Contrôle d’accès',
      email: serviceAccountEmail(data.id),
    });
    expect(account!.passwordHash).toBe('!no-password');

    const revoked = await as(
      ctx.app,
      superToken,
    )({ method: 'DELETE', url: `/api/company/${acme.company.id}/api-keys/${data.id}` });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().message).toBe(fr.keyRevoked);
    expect(revoked.json().data.revoked_at).not.toBeNull();
    const [disabled] = await ctx.db.select().from(users).where(eq(users.id, row!.userId));
    expect(disabled!.status).toBe(false);
    // Again: the same answer, no second entry in the log.
    const again = await as(
      ctx.app,
      superToken,
    )({ method: 'DELETE', url: `/api/company/${acme.company.id}/api-keys/${data.id}` });
    expect(again.json().data.revoked_at).toBe(revoked.json().data.revoked_at);
    const entries = await ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.subjectId, data.id));
    expect(entries.map((e) => [e.action, e.actorUserId, e.subjectType]).sort()).toEqual([
      ['api_key.created', acme.staff.ROLE_SUPER_ADMIN.id, 'api_key'],
      ['api_key.revoked', acme.staff.ROLE_SUPER_ADMIN.id, 'api_key'],
    ]);
  });

  it('refuses a nameless key, no scope, a past expiry (400), and past the most keys (409)', async () => {
    const tenant = await buildTenant(ctx.db);
    const token = await tokenOf(tenant.staff.ROLE_SUPER_ADMIN.email);
    const post = (payload: Record<string, unknown>) =>
      as(
        ctx.app,
        token,
      )({
        method: 'POST',
        url: `/api/company/${tenant.company.id}/api-keys`,
        payload,
      });
    const refused = async (payload: Record<string, unknown>, field: string, said: string) => {
      const res = await post(payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors?.[field]).toBe(said);
    };
    await refused({ name: ' ', scopes: ['visits.read'] }, 'name', fr.nameRequired);
    await refused({ name: 'RH', scopes: [] }, 'scopes', fr.scopesRequired);
    await refused(
      {
        name: 'RH',
        scopes: ['visits.read'],
        expires_at: new Date(Date.now() - 1000).toISOString(),
      },
      'expires_at',
      fr.expiryPast,
    );
    expect((await post({ name: 'RH', scopes: ['admin.all'] })).statusCode).toBe(400);

    for (let i = 0; i < API_KEY_LIMITS.keysMax; i++) {
      expect((await post({ name: `Clé ${i}`, scopes: ['visits.read'] })).statusCode).toBe(201);
    }
    const tooMany = await post({ name: 'Une de trop', scopes: ['visits.read'] });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().message).toBe(fr.keysTooMany(API_KEY_LIMITS.keysMax));
  });
});

describe('a key calls the routes its scopes open, and no other', () => {
  const call = (
    key: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => as(ctx.app, key)({ method, url, ...(payload ? { payload } : {}) });

  /** Every route a person uses for themself, and the others no scope opens. */
  const alwaysRefused = (tenant: Tenant) =>
    [
      ['GET', '/api/user/info'],
      ['POST', '/api/logout'],
      ['GET', '/api/me/mail-preferences'],
      ['PUT', '/api/me/password'],
      ['GET', '/api/user/list'],
      ['GET', `/api/company/${tenant.company.id}/api-keys`],
      ['GET', '/api/audit'],
    ] as const;

  const expectRefused = async (key: string, method: 'GET' | 'POST' | 'PUT', url: string) => {
    const res = await call(key, method, url, method === 'GET' ? undefined : {});
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
    expect(res.json().message).toBe(fr.keyScopeMissing);
  };

  it('visits.read lists the requests and the visitor log; refuses the rest', async () => {
    const key = (await newKey(acme, ['visits.read'])).key;
    const { request } = await visitOf(acme, null);
    const list = await call(key, 'GET', '/api/requests/list?per_page=100');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((r: { id: string }) => r.id)).toContain(request.id);
    expect((await call(key, 'GET', `/api/company/${acme.company.id}/sites`)).statusCode).toBe(200);

    await expectRefused(key, 'PUT', `/api/requests/update/${request.id}`);
    await expectRefused(key, 'GET', '/api/on-site');
    for (const [method, url] of alwaysRefused(acme)) await expectRefused(key, method, url);
    // The code check verifies the caller in its own statement: the guard refuses a key first.
    const { visitor } = await visitOf(acme);
    await expectRefused(key, 'GET', `/api/get-qr-data/${visitor.uidn}`);
    // Another company's list: 404, as for a person.
    const theirs = await call(key, 'GET', `/api/requests/list/${globex.company.slug}`);
    expect(theirs.statusCode).toBe(404);
    // A person's own route for a key: 403 in English too.
    const en = await as(
      ctx.app,
      key,
    )({
      method: 'GET',
      url: '/api/user/info',
      headers: { 'accept-language': 'en' },
    });
    expect(en.json().message).toBe(ENGLISH_MESSAGES.integrations.keyScopeMissing);
  });

  it('visits.write confirms a request and invites with a named host, as the key', async () => {
    const created = await newKey(acme, ['visits.write']);
    const key = created.key;
    const { request } = await visitOf(acme, null);
    const confirmed = await call(key, 'PUT', `/api/requests/update/${request.id}`, {
      status: 1,
      confirmed: 1,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const [decided] = await ctx.db
      .select()
      .from(visitRequests)
      .where(eq(visitRequests.id, request.id));
    expect(decided).toMatchObject({ confirmed: true, decidedBy: created.userId });

    // Another company's request: 404, nothing changed.
    const { request: theirs } = await visitOf(globex, null);
    const foreign = await call(key, 'PUT', `/api/requests/update/${theirs.id}`, {
      status: 1,
      confirmed: 1,
    });
    expect(foreign.statusCode).toBe(404);
    const [untouched] = await ctx.db
      .select()
      .from(visitRequests)
      .where(eq(visitRequests.id, theirs.id));
    expect(untouched!.confirmed).toBeNull();

    // An invitation names its host: required, an active person of the company.
    const host = acme.staff.ROLE_USER;
    const noHost = await call(key, 'POST', '/api/invitations', invitationBody(acme));
    expect(noHost.statusCode).toBe(400);
    expect(noHost.json().errors.host_email).toBe(FRENCH_MESSAGES.invitation.hostRequired);
    for (const email of [
      'nobody@example.com',
      globex.staff.ROLE_USER.email,
      serviceAccountEmail(created.id),
    ]) {
      const unknown = await call(
        key,
        'POST',
        '/api/invitations',
        invitationBody(acme, { host_email: email }),
      );
      expect(unknown.statusCode, email).toBe(400);
      expect(unknown.json().errors.host_email).toBe(FRENCH_MESSAGES.invitation.hostUnknown);
    }
    const invited = await call(
      key,
      'POST',
      '/api/invitations',
      invitationBody(acme, { host_email: host.email.toUpperCase() }),
    );
    expect(invited.statusCode, invited.body).toBe(201);
    const invitationId = invited.json().invitation_id as string;
    const [invitation] = await ctx.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, invitationId));
    expect(invitation!.hostUserId).toBe(host.id);
    const requestId = invited.json().visitors[0].request_id as string;
    const [written] = await ctx.db
      .select()
      .from(visitRequests)
      .where(eq(visitRequests.id, requestId));
    expect(written).toMatchObject({ hostUserId: host.id, decidedBy: created.userId });
    // A CSV names no host: refused to a key.
    const imported = await call(key, 'POST', '/api/invitations/import');
    expect(imported.statusCode).toBe(400);
    // A person's invitation: the field is not heard, they host it.
    const person = await as(
      ctx.app,
      await tokenOf(host.email),
    )({
      method: 'POST',
      url: '/api/invitations',
      payload: invitationBody(acme, { host_email: acme.staff.ROLE_MANAGER.email }),
    });
    expect(person.statusCode, person.body).toBe(201);
    const [own] = await ctx.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, person.json().invitation_id));
    expect(own!.hostUserId).toBe(host.id);

    await expectRefused(key, 'GET', '/api/requests/list');
    for (const [method, url] of alwaysRefused(acme)) await expectRefused(key, method, url);
  });

  it('presence.read lists who is inside; codes.scan checks a code in, as the key', async () => {
    const presence = (await newKey(acme, ['presence.read'])).key;
    const onSite = await call(presence, 'GET', '/api/on-site');
    expect(onSite.statusCode, onSite.body).toBe(200);
    expect((await call(presence, 'GET', '/api/on-site/expected')).statusCode).toBe(200);
    await expectRefused(presence, 'GET', '/api/requests/list');
    for (const [method, url] of alwaysRefused(acme)) await expectRefused(presence, method, url);
    const { visitor } = await visitOf(acme);
    await expectRefused(presence, 'GET', `/api/get-qr-data/${visitor.uidn}`);

    const scanner = await newKey(acme, ['codes.scan']);
    const scanned = await call(scanner.key, 'GET', `/api/get-qr-data/${visitor.uidn}`);
    expect(scanned.statusCode, scanned.body).toBe(200);
    expect(scanned.json()).toMatchObject({ status: 'success', action: 'check_in' });
    const [check] = await ctx.db
      .select()
      .from(visitorChecks)
      .where(eq(visitorChecks.visitorId, visitor.id));
    expect(check!.checkInBy).toBe(scanner.userId);
    // At a desk's site (the key's own statement with the desk's checks, issue 32): the same
    // visitor again is the check just made; a site of no company the key reaches, 404.
    const atDesk = await call(
      scanner.key,
      'GET',
      `/api/get-qr-data/${visitor.uidn}?site=${visitor.siteId}`,
    );
    expect(atDesk.statusCode, atDesk.body).toBe(200);
    expect(atDesk.json()).toMatchObject({ action: 'check_in' });
    const unknownDesk = await call(
      scanner.key,
      'GET',
      `/api/get-qr-data/${visitor.uidn}?site=${randomUUID()}`,
    );
    expect(unknownDesk.statusCode, unknownDesk.body).toBe(404);
    // Another company's code: 404, nothing written.
    const { visitor: theirs } = await visitOf(globex);
    expect((await call(scanner.key, 'GET', `/api/get-qr-data/${theirs.uidn}`)).statusCode).toBe(
      404,
    );
    const none = await ctx.db
      .select()
      .from(visitorChecks)
      .where(eq(visitorChecks.visitorId, theirs.id));
    expect(none).toEqual([]);
    await expectRefused(scanner.key, 'GET', '/api/on-site');
    for (const [method, url] of alwaysRefused(acme)) await expectRefused(scanner.key, method, url);
  });

  it('an unknown, revoked or expired key is 401 keyRefused; a public route stays public', async () => {
    const refused = async (key: string) => {
      const res = await call(key, 'GET', '/api/requests/list');
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(fr.keyRefused);
    };
    await refused('sk_not-a-key');
    const expiring = await newKey(acme, ['visits.read']);
    expect((await call(expiring.key, 'GET', '/api/requests/list')).statusCode).toBe(200);
    await ctx.db
      .update(apiKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiKeys.id, expiring.id));
    await refused(expiring.key);
    // The code check's own statement reads the key too.
    const scanner = await newKey(acme, ['codes.scan']);
    const { visitor } = await visitOf(acme);
    await ctx.db
      .update(apiKeys)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(apiKeys.id, scanner.id));
    const scan = await call(scanner.key, 'GET', `/api/get-qr-data/${visitor.uidn}`);
    expect(scan.statusCode).toBe(401);
    // A public route: the host search answers whatever the bearer.
    const search = await call(
      'sk_not-a-key',
      'GET',
      `/api/requests/hosts/${acme.company.slug}?q=${encodeURIComponent(acme.staff.ROLE_USER.name)}`,
    );
    expect(search.statusCode).toBe(200);
  });

  it('marks the key used, at most once a minute', async () => {
    const created = await newKey(acme, ['presence.read']);
    const lastUse = async () =>
      (await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)))[0]!.lastUsedAt;
    expect(await lastUse()).toBeNull();
    expect((await call(created.key, 'GET', '/api/on-site')).statusCode).toBe(200);
    const first = await lastUse();
    expect(first).toBeInstanceOf(Date);
    expect((await call(created.key, 'GET', '/api/on-site')).statusCode).toBe(200);
    expect((await lastUse())!.getTime()).toBe(first!.getTime());
    // A minute later (the stored use made older): written again.
    await ctx.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(first!.getTime() - API_KEY_LIMITS.lastUseResolutionMs) })
      .where(eq(apiKeys.id, created.id));
    expect((await call(created.key, 'GET', '/api/on-site')).statusCode).toBe(200);
    expect((await lastUse())!.getTime()).toBeGreaterThan(first!.getTime() - 1000);
    const list = await as(
      ctx.app,
      await tokenOf(acme.staff.ROLE_SUPER_ADMIN.email),
    )({ method: 'GET', url: `/api/company/${acme.company.id}/api-keys` });
    const shown = list.json<{ data: ApiKey[] }>().data.find((k) => k.id === created.id);
    expect(shown!.last_used_at).not.toBeNull();
  });

  it('every call with a key is in the audit log as the key', async () => {
    const created = await newKey(acme, ['visits.write'], { name: 'Outil RH Zeta' });
    const { request } = await visitOf(acme, null);
    await call(created.key, 'PUT', `/api/requests/update/${request.id}`, {
      status: 1,
      confirmed: 1,
    });
    const [entry] = await ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.subjectId, request.id));
    expect(entry).toMatchObject({ action: 'request.confirmed', actorUserId: created.userId });
    expect(entry!.detail).toMatchObject({ api_key_id: created.id });
    // The log as the company reads it: the key's name as the actor, and as the subject.
    const log = await as(
      ctx.app,
      await tokenOf(acme.staff.ROLE_SUPER_ADMIN.email),
    )({ method: 'GET', url: `/api/audit?per_page=100&actor=${created.userId}` });
    expect(log.statusCode, log.body).toBe(200);
    const rows = log.json().data as { action: string; actor_name: string | null }[];
    expect(rows.map((r) => r.action)).toContain('request.confirmed');
    for (const row of rows) expect(row.actor_name).toBe(`${fr.keyAccountFirstname} Outil RH Zeta`);
    const creations = await as(
      ctx.app,
      await tokenOf(acme.staff.ROLE_SUPER_ADMIN.email),
    )({ method: 'GET', url: `/api/audit?per_page=100&action=api_key.created` });
    const mine = (
      creations.json().data as { subject_id: string; subject_name: string; subject_state: string }[]
    ).find((r) => r.subject_id === created.id);
    expect(mine).toMatchObject({ subject_name: 'Outil RH Zeta', subject_state: 'present' });
    // A person's entries carry no key.
    const [person] = await ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.subjectId, created.id));
    expect(JSON.stringify(person!.detail)).not.toContain('api_key_id');
  });

  it('the API description says which scope opens each route', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const paths = res.json().paths as Record<string, Record<string, { description?: string }>>;
    expect(paths['/api/requests/update/{id}']!.put!.description).toContain(
      'API keys: scope `visits.write`.',
    );
    expect(paths['/api/on-site']!.get!.description).toContain('API keys: scope `presence.read`.');
    expect(paths['/api/user/info']!.get!.description).toContain('API keys: not allowed.');
    expect(paths['/api/user/list']!.get!.description).toContain('API keys: not allowed.');
    expect(paths['/api/company/{id}/sites']!.get!.description).toContain(
      'API keys: scope `visits.read`, `visits.write` (any one).',
    );
  });
});

describe('a revoked key is refused at once on every instance', () => {
  let second: FastifyInstance;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    if (testDatabaseKind === 'postgres') {
      const pool = (ctx.db as unknown as { $client: pg.Pool }).$client;
      const url = (pool as unknown as { options: { connectionString: string } }).options
        .connectionString;
      const handle: DatabaseHandle = await openPostgres(url, 4);
      second = await buildApp({ config: ctx.config, db: handle.db, logger: false });
      cleanups.push(() => handle.close());
    } else {
      // PGlite is one process's database: a second app on the same one.
      second = await buildApp({ config: ctx.config, db: ctx.db, logger: false });
    }
    await second.ready();
    cleanups.unshift(() => second.close());
  });
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('revoked on one instance, 401 on both within a second', async () => {
    const created = await newKey(acme, ['visits.read']);
    const read = (app: FastifyInstance) =>
      as(app, created.key)({ method: 'GET', url: '/api/requests/list' });
    expect((await read(ctx.app)).statusCode).toBe(200);
    expect((await read(second)).statusCode).toBe(200);
    const revoked = await as(
      second,
      await tokenOf(acme.staff.ROLE_SUPER_ADMIN.email),
    )({ method: 'DELETE', url: `/api/company/${acme.company.id}/api-keys/${created.id}` });
    expect(revoked.statusCode).toBe(200);
    const at = Date.now();
    const [one, two] = await Promise.all([read(ctx.app), read(second)]);
    expect(Date.now() - at).toBeLessThan(1000);
    for (const res of [one, two]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(fr.keyRefused);
    }
  });
});

describe('per-key rate limit', () => {
  let limited: TestContext & { close(): Promise<void> };
  beforeAll(async () => {
    limited = await startTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, apiKeyPerMinute: 3 } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('answers 429 past the key’s calls a minute, every route together; other keys go on', async () => {
    const tenant = await buildTenant(limited.db);
    const admin = await tokenFor(limited.app, tenant.staff.ROLE_SUPER_ADMIN.email);
    const make = async () => {
      const res = await as(
        limited.app,
        admin,
      )({
        method: 'POST',
        url: `/api/company/${tenant.company.id}/api-keys`,
        payload: { name: 'Pressé', scopes: ['visits.read', 'presence.read'] },
      });
      return res.json<{ data: ApiKeyCreated }>().data.key;
    };
    const [busy, calm] = [await make(), await make()];
    const call = (key: string, url: string) => as(limited.app, key)({ method: 'GET', url });
    expect((await call(busy, '/api/requests/list')).statusCode).toBe(200);
    expect((await call(busy, '/api/on-site')).statusCode).toBe(200);
    // A refused route counts too: the limit is the key's, not the route's.
    expect((await call(busy, '/api/user/info')).statusCode).toBe(403);
    const over = await call(busy, '/api/on-site');
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe(FRENCH_MESSAGES.api.tooManyRequests);
    // Before the scope's 403: the order stays 429 → 401 → 403 → 400.
    expect((await call(busy, '/api/user/info')).statusCode).toBe(429);
    expect((await call(calm, '/api/on-site')).statusCode).toBe(200);
    // The people of the company are not held back by their keys.
    expect((await call(admin, '/api/on-site')).statusCode).toBe(200);
  });
});

describe('a key’s service account shows nowhere a person shows', () => {
  it('user list and routes, host pickers, mail readers, SCIM, sign-in, company holdings', async () => {
    const created = await newKey(acme, ['visits.read'], { name: 'Intégration Omega' });
    const account = created.userId;
    const admin = await tokenOf(acme.staff.ROLE_ADMIN.email);
    const superAdmin = await tokenOf(acme.staff.ROLE_SUPER_ADMIN.email);

    // The user list (every company, one company), and each user route: 404.
    for (const [token, url] of [
      [admin, '/api/user/list?per_page=100&q=Omega'],
      [admin, '/api/user/list?per_page=100'],
      [superAdmin, `/api/user/list/${acme.company.slug}?per_page=100`],
    ] as const) {
      const res = await as(ctx.app, token)({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(
        res.json().data.map((u: { id: string }) => u.id),
        url,
      ).not.toContain(account);
      expect(res.body).not.toContain('Omega');
    }
    const omega = await as(ctx.app, admin)({ method: 'GET', url: '/api/user/list?q=Omega' });
    expect(omega.json().meta.total).toBe(0);
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await as(ctx.app, admin)({ method, url: `/api/user/${account}` });
      expect(res.statusCode, method).toBe(404);
    }
    const put = await as(
      ctx.app,
      admin,
    )({
      method: 'PUT',
      url: `/api/user/${account}`,
      payload: {
        name: 'Omega',
        firstname: 'Clé',
        email: 'omega@example.com',
        role: 'ROLE_SUPER_ADMIN',
        status: true,
        company_id: acme.company.id,
      },
    });
    expect(put.statusCode, put.body).toBe(404);

    // Host pickers and mail readers.
    const hosts = await as(
      ctx.app,
      null,
    )({
      method: 'GET',
      url: `/api/requests/hosts/${acme.company.slug}?q=Omega`,
    });
    expect(hosts.json().data).toEqual([]);
    expect(await searchHosts(ctx.db, acme.company.id, 'Omega')).toEqual([]);
    expect(await findHost(ctx.db, acme.company.id, account)).toBeNull();
    expect(
      await findHostByEmail(ctx.db, acme.company.id, serviceAccountEmail(created.id)),
    ).toBeNull();
    expect(await findStaffReader(ctx.db, account, acme.company.id)).toBeNull();
    const desk = await deciders(ctx.db, acme.company.id, account, acme.company.siteId);
    expect(desk.map((d) => d.id)).not.toContain(account);

    // Sign-in by password: as unknown.
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/login_check',
      payload: { username: serviceAccountEmail(created.id), password: '!no-password' },
    });
    expect(signIn.statusCode).toBe(401);

    // SCIM: neither listed nor found, nor a group's member.
    const { token: scim } = await createScimToken(ctx.db, acme.company.id, 'Annuaire', {
      userId: null,
      secret: ctx.config.jwtSecret,
    });
    const scimCall = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      ctx.app.inject({
        method,
        url: `/scim/v2${url}`,
        headers: {
          authorization: `Bearer ${scim}`,
          ...(body ? { 'content-type': 'application/scim+json' } : {}),
        },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
    const listed = await scimCall('GET', '/Users?count=1000');
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(account);
    expect((await scimCall('GET', `/Users/${account}`)).statusCode).toBe(404);
    const filtered = await scimCall(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${serviceAccountEmail(created.id)}"`)}`,
    );
    expect(filtered.json().totalResults).toBe(0);
    const group = await scimCall('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Omega',
      members: [{ value: account }],
    });
    expect(group.statusCode).toBe(400);
  });

  it('a company holding only keys is deleted with them', async () => {
    const company = await buildCompany(ctx.db);
    const admin = await tokenOf(acme.staff.ROLE_ADMIN.email);
    const res = await as(
      ctx.app,
      admin,
    )({
      method: 'POST',
      url: `/api/company/${company.id}/api-keys`,
      payload: { name: 'Seule', scopes: ['visits.read'] },
    });
    expect(res.statusCode).toBe(201);
    const keyId = res.json().data.id as string;
    const deleted = await as(
      ctx.app,
      admin,
    )({
      method: 'DELETE',
      url: `/api/company/delete/${company.id}`,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await ctx.db.select().from(companies).where(eq(companies.id, company.id))).toEqual([]);
    expect(await ctx.db.select().from(apiKeys).where(eq(apiKeys.id, keyId))).toEqual([]);
    expect(await ctx.db.select().from(users).where(eq(users.companyId, company.id))).toEqual([]);
    // A person still holds a company back.
    const held = await buildCompany(ctx.db);
    await buildUser(ctx.db, { company: held });
    expect(
      (
        await as(
          ctx.app,
          admin,
        )({
          method: 'DELETE',
          url: `/api/company/delete/${held.id}`,
        })
      ).statusCode,
    ).toBe(409);
  });
});
