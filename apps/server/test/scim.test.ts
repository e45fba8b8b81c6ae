/**
 * Issue 33, SCIM 2.0 at /scim/v2: the requests of a common directory client (Entra ID,
 * Okta) from an empty company to a deleted account — look a person up, create them, find
 * them, deactivate them (disabled at once: their session refused), reactivate, put them in
 * groups mapped to roles and take them out again (the role follows), replace, delete — then
 * the errors a client meets, each in SCIM's error schema: 409 uniqueness, 404 (an unknown
 * id, another company's account, the platform's staff), 400 invalidFilter, 401 without or
 * with a revoked token, an unknown path; the content type of every answer and the
 * ListResponse's shape. Discovery documents and paging too.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { SSO_LIMITS } from '@sesame/shared';
import { NO_PASSWORD } from '../src/auth/passwords';
import { tokenExpiry } from '../src/auth/tokens';
import {
  auditEvents,
  companySso,
  scimGroupMembers,
  scimTokens,
  sessions,
  users,
} from '../src/db/schema';
import { createScimToken } from '../src/sso/scim-tokens';
import { as, startTestApp, useTestApp } from './helpers/app';
import { buildCompany, buildUser } from './helpers/factories';

const ctx = useTestApp();

const SCIM_TYPE = 'application/scim+json; charset=utf-8';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let company: Awaited<ReturnType<typeof buildCompany>>;
let other: Awaited<ReturnType<typeof buildCompany>>;
let token: string;
let tokenId: string;
let otherToken: string;

/** A SCIM call with the company's token (or the one given, or none with null). */
function scim(
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  bearer: string | null = token,
  contentType = 'application/scim+json',
) {
  return ctx.app.inject({
    method,
    url: `/scim/v2${url}`,
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body !== undefined ? { 'content-type': contentType } : {}),
    },
    ...(body !== undefined
      ? { payload: typeof body === 'string' ? body : JSON.stringify(body) }
      : {}),
  });
}

const filter = (text: string) => `/Users?filter=${encodeURIComponent(text)}`;
const patch = (...operations: Json[]) => ({ schemas: [PATCH_SCHEMA], Operations: operations });

async function expectError(
  res: Awaited<ReturnType<typeof scim>>,
  status: number,
  scimType?: string,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toBe(SCIM_TYPE);
  const body = res.json<Json>();
  expect(body.schemas).toEqual([ERROR_SCHEMA]);
  expect(body.status).toBe(String(status));
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  if (scimType) expect(body.scimType).toBe(scimType);
  else expect(body.scimType).toBeUndefined();
}

async function rolesOf(id: string) {
  const [row] = await ctx.db.select({ roles: users.roles }).from(users).where(eq(users.id, id));
  return row?.roles;
}

/** A live session of the account and its bearer token, as a sign-in would open. */
async function sessionFor(userId: string) {
  const expiresAt = tokenExpiry();
  const [session] = await ctx.db
    .insert(sessions)
    .values({ userId, expiresAt })
    .returning({ id: sessions.id });
  return ctx.app.tokens.sign({ sub: userId, sid: session!.id }, expiresAt);
}

async function auditsOf(action: string, subjectId?: string) {
  return ctx.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, action),
        eq(auditEvents.companyId, company.id),
        ...(subjectId ? [eq(auditEvents.subjectId, subjectId)] : []),
      ),
    );
}

beforeAll(async () => {
  company = await buildCompany(ctx.db);
  other = await buildCompany(ctx.db);
  const secret = ctx.config.jwtSecret;
  const made = await createScimToken(ctx.db, company.id, 'Entra ID', { userId: null, secret });
  token = made.token;
  tokenId = made.row.id;
  otherToken = (await createScimToken(ctx.db, other.id, 'Okta', { userId: null, secret })).token;
  await ctx.db.insert(companySso).values({
    companyId: company.id,
    roleMappings: [
      { group: 'Sesame Managers', role: 'ROLE_MANAGER' },
      { group: 'sesame desk', role: 'ROLE_SUPERVISOR' },
    ],
    defaultRole: 'ROLE_EMPLOYEE',
  });
});

describe('SCIM 2.0: a directory client from lookup to deletion', () => {
  const email = `jane.doe-${randomUUID().slice(0, 8)}@acme.test`;
  let userId: string;
  let managersId: string;
  let deskId: string;

  it('looks the person up first: an empty ListResponse', async () => {
    const res = await scim('GET', filter(`userName eq "${email}"`));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(SCIM_TYPE);
    expect(res.json()).toEqual({
      schemas: [LIST_SCHEMA],
      totalResults: 0,
      itemsPerPage: 0,
      startIndex: 1,
      Resources: [],
    });
  });

  it('creates the account: no password, provisioned by SCIM, the default role, audited', async () => {
    const res = await scim('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: email,
      externalId: 'entra-0001',
      name: { givenName: 'Jane', familyName: 'Doe' },
      emails: [{ value: email, type: 'work', primary: true }],
      title: 'Accueil',
      phoneNumbers: [{ value: '07 07 07 07 07', type: 'work' }],
      active: true,
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Lobby' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toBe(SCIM_TYPE);
    const body = res.json<Json>();
    userId = body.id;
    expect(res.headers.location).toBe(`http://sesame.test/scim/v2/Users/${userId}`);
    expect(body).toMatchObject({
      schemas: [USER_SCHEMA],
      externalId: 'entra-0001',
      userName: email,
      name: { givenName: 'Jane', familyName: 'Doe' },
      displayName: 'Jane Doe',
      emails: [{ value: email, primary: true, type: 'work' }],
      phoneNumbers: [{ value: '+2250707070707', type: 'work' }],
      title: 'Accueil',
      active: true,
      groups: [],
      meta: { resourceType: 'User', location: res.headers.location },
    });
    expect(body.password).toBeUndefined();
    const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
    expect(row).toMatchObject({
      companyId: company.id,
      passwordHash: NO_PASSWORD,
      provisionedBy: 'scim',
      externalId: 'entra-0001',
      roles: ['ROLE_EMPLOYEE'],
      status: true,
      homeSiteId: null,
      siteIds: [],
    });
    const [entry] = await auditsOf('scim.user_created', userId);
    expect(entry).toMatchObject({ actorUserId: null, subjectType: 'user' });
    expect(entry!.detail).toMatchObject({ tokenId, role: 'ROLE_EMPLOYEE' });
  });

  it('finds it by userName (any case), externalId and e-mail, displayName', async () => {
    for (const text of [
      `userName eq "${email.toUpperCase()}"`,
      `externalId eq "entra-0001" and emails.value eq "${email}"`,
      'displayName eq "jane doe"',
      `urn:ietf:params:scim:schemas:core:2.0:User:userName eq "${email}"`,
    ]) {
      const res = await scim('GET', filter(text));
      expect(res.statusCode, text).toBe(200);
      const list = res.json<Json>();
      expect(list.totalResults, text).toBe(1);
      expect(list.itemsPerPage).toBe(1);
      expect(list.Resources[0].id).toBe(userId);
    }
    const missing = await scim('GET', filter('externalId eq "ENTRA-0001"'));
    expect(missing.json<Json>().totalResults).toBe(0);
    const got = await scim('GET', `/Users/${userId}`);
    expect(got.statusCode).toBe(200);
    expect(got.json<Json>().userName).toBe(email);
  });

  it('moves meta.lastModified when the account changes anywhere (a screen, a sign-in), not only by SCIM', async () => {
    const before = (await scim('GET', `/Users/${userId}`)).json<Json>().meta.lastModified;
    // As the users screen writes a change: the database stamps it (migration 0031's trigger).
    await ctx.db.execute(sql`select pg_sleep(0.01)`);
    await ctx.db.update(users).set({ title: 'Accueil' }).where(eq(users.id, userId));
    const after = (await scim('GET', `/Users/${userId}`)).json<Json>().meta.lastModified;
    expect(Date.parse(after)).toBeGreaterThan(Date.parse(before));
  });

  it('deactivates it (Entra ID style): disabled at once, its session refused, audited', async () => {
    const bearer = await sessionFor(userId);
    expect((await as(ctx.app, bearer)({ method: 'GET', url: '/api/user/info' })).statusCode).toBe(
      200,
    );
    const res = await scim(
      'PATCH',
      `/Users/${userId}`,
      patch({ op: 'Replace', value: { active: false } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Json>().active).toBe(false);
    const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
    expect(row!.status).toBe(false);
    const open = await ctx.db.select().from(sessions).where(eq(sessions.userId, userId));
    expect(open.every((s) => s.revokedAt !== null)).toBe(true);
    expect((await as(ctx.app, bearer)({ method: 'GET', url: '/api/user/info' })).statusCode).toBe(
      401,
    );
    const [entry] = await auditsOf('scim.user_deactivated', userId);
    expect(entry!.detail).toMatchObject({ tokenId, fields: ['status'] });
  });

  it('reactivates it (Okta style) and patches names, e-mail and externalId by path', async () => {
    const res = await scim(
      'PATCH',
      `/Users/${userId}`,
      patch({ op: 'replace', path: 'active', value: true }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Json>().active).toBe(true);
    const renamed = `janet.doe-${randomUUID().slice(0, 8)}@acme.test`;
    const changed = await scim(
      'PATCH',
      `/Users/${userId}`,
      patch(
        { op: 'replace', path: 'name.givenName', value: 'Janet' },
        { op: 'replace', path: 'emails[type eq "work"].value', value: renamed },
        { op: 'add', path: 'externalId', value: 'entra-0002' },
        { op: 'replace', path: 'phoneNumbers[type eq "mobile"].value', value: '0101010101' },
        { op: 'remove', path: 'title' },
      ),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Json>()).toMatchObject({
      userName: renamed,
      name: { givenName: 'Janet', familyName: 'Doe' },
      externalId: 'entra-0002',
      phoneNumbers: [{ value: '+2250707070707' }],
      active: true,
    });
    expect(changed.json<Json>().title).toBeUndefined();
    const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
    expect(row).toMatchObject({ status: true, firstname: 'Janet', email: renamed, title: null });
    expect(row!.updatedAt.getTime()).toBeGreaterThan(row!.createdAt.getTime());
  });

  it('puts it in groups mapped to roles: the highest mapped role; out of them, the default', async () => {
    const managers = await scim('POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: 'Sesame Managers',
      externalId: 'g-1',
      members: [{ value: userId }],
    });
    expect(managers.statusCode, managers.body).toBe(201);
    expect(managers.headers['content-type']).toBe(SCIM_TYPE);
    managersId = managers.json<Json>().id;
    expect(managers.json<Json>()).toMatchObject({
      schemas: [GROUP_SCHEMA],
      displayName: 'Sesame Managers',
      externalId: 'g-1',
      members: [{ value: userId, display: 'Janet Doe' }],
      meta: { resourceType: 'Group' },
    });
    expect(await rolesOf(userId)).toEqual(['ROLE_MANAGER']);
    const user = await scim('GET', `/Users/${userId}`);
    expect(user.json<Json>().groups).toMatchObject([
      { value: managersId, display: 'Sesame Managers' },
    ]);

    const desk = await scim('POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: 'Sesame Desk',
    });
    expect(desk.statusCode, desk.body).toBe(201);
    deskId = desk.json<Json>().id;
    // Entra ID adds a member so…
    const added = await scim(
      'PATCH',
      `/Groups/${deskId}`,
      patch({ op: 'Add', path: 'members', value: [{ value: userId }] }),
    );
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json<Json>().members).toMatchObject([{ value: userId }]);
    expect(await rolesOf(userId)).toEqual(['ROLE_MANAGER']);
    // …Okta removes one so: the role falls to the desk's.
    const removed = await scim(
      'PATCH',
      `/Groups/${managersId}`,
      patch({ op: 'remove', path: `members[value eq "${userId}"]` }),
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<Json>().members).toEqual([]);
    expect(await rolesOf(userId)).toEqual(['ROLE_SUPERVISOR']);
    // Entra ID's remove names the members in its value: no group mapped left, the default role.
    const out = await scim(
      'PATCH',
      `/Groups/${deskId}`,
      patch({ op: 'Remove', path: 'members', value: [{ value: userId }] }),
    );
    expect(out.statusCode, out.body).toBe(200);
    expect(await rolesOf(userId)).toEqual(['ROLE_EMPLOYEE']);
    const changes = await auditsOf('scim.user_role_changed', userId);
    expect(changes.map((c) => c.detail)).toEqual([
      { tokenId, fromRole: 'ROLE_EMPLOYEE', toRole: 'ROLE_MANAGER' },
      { tokenId, fromRole: 'ROLE_MANAGER', toRole: 'ROLE_SUPERVISOR' },
      { tokenId, fromRole: 'ROLE_SUPERVISOR', toRole: 'ROLE_EMPLOYEE' },
    ]);
    expect(changes.every((c) => c.actorUserId === null)).toBe(true);
  });

  it('renames a group (no path, Okta style) and the members’ roles follow the new name', async () => {
    await scim(
      'PATCH',
      `/Groups/${deskId}`,
      patch({ op: 'add', path: 'members', value: [{ value: userId }] }),
    );
    expect(await rolesOf(userId)).toEqual(['ROLE_SUPERVISOR']);
    const renamed = await scim(
      'PATCH',
      `/Groups/${deskId}`,
      patch({ op: 'replace', value: { id: deskId, displayName: 'Sesame Managers 2' } }),
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<Json>().displayName).toBe('Sesame Managers 2');
    expect(await rolesOf(userId)).toEqual(['ROLE_EMPLOYEE']);
    const listed = await scim(
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "sesame managers 2"')}&excludedAttributes=members`,
    );
    expect(listed.json<Json>()).toMatchObject({ totalResults: 1, Resources: [{ id: deskId }] });
    expect(listed.json<Json>().Resources[0].members).toBeUndefined();
    expect(await scim('DELETE', `/Groups/${deskId}`)).toMatchObject({ statusCode: 204 });
    expect(
      await ctx.db.select().from(scimGroupMembers).where(eq(scimGroupMembers.groupId, deskId)),
    ).toEqual([]);
    await expectError(await scim('GET', `/Groups/${deskId}`), 404);
  });

  it('follows a mapping changed on the SSO screen at once, audited as the admin’s change', async () => {
    await scim(
      'PATCH',
      `/Groups/${managersId}`,
      patch({ op: 'add', path: 'members', value: [{ value: userId }] }),
    );
    expect(await rolesOf(userId)).toEqual(['ROLE_MANAGER']);
    const admin = await buildUser(ctx.db, { company, role: 'ROLE_SUPER_ADMIN' });
    const settings = {
      enabled: false,
      issuer_url: '',
      client_id: '',
      domains: [],
      groups_claim: 'groups',
      role_mappings: [{ group: 'Sesame Managers', role: 'ROLE_SUPERVISOR' }],
      default_role: 'ROLE_EMPLOYEE',
      allow_jit: false,
      enforced: false,
    };
    const put = await as(
      ctx.app,
      await sessionFor(admin.id),
    )({
      method: 'PUT',
      url: `/api/company/${company.id}/sso`,
      payload: settings,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await rolesOf(userId)).toEqual(['ROLE_SUPERVISOR']);
    const [change] = (await auditsOf('scim.user_role_changed', userId)).slice(-1);
    expect(change).toMatchObject({
      actorUserId: admin.id,
      detail: { adminUserId: admin.id, fromRole: 'ROLE_MANAGER', toRole: 'ROLE_SUPERVISOR' },
    });
    // The mapping as it was, and the account out of the group again, for what follows.
    await ctx.db
      .update(companySso)
      .set({
        roleMappings: [
          { group: 'Sesame Managers', role: 'ROLE_MANAGER' },
          { group: 'sesame desk', role: 'ROLE_SUPERVISOR' },
        ],
      })
      .where(eq(companySso.companyId, company.id));
    await scim(
      'PATCH',
      `/Groups/${managersId}`,
      patch({ op: 'remove', path: `members[value eq "${userId}"]` }),
    );
    expect(await rolesOf(userId)).toEqual(['ROLE_EMPLOYEE']);
  });

  it('replaces the account (PUT): what is left out is cleared, active kept', async () => {
    const res = await scim('PUT', `/Users/${userId}`, {
      schemas: [USER_SCHEMA],
      userName: email,
      name: { givenName: 'Jane', familyName: 'Doe-Kouamé' },
      title: 'Responsable',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<Json>();
    expect(body).toMatchObject({
      userName: email,
      displayName: 'Jane Doe-Kouamé',
      title: 'Responsable',
      active: true,
    });
    expect(body.externalId).toBeUndefined();
    expect(body.phoneNumbers).toBeUndefined();
    expect(await auditsOf('scim.user_updated', userId)).toHaveLength(3);
  });

  it('deletes the account: 204, then 404; its row and sessions gone, audited', async () => {
    const res = await scim('DELETE', `/Users/${userId}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    await expectError(await scim('GET', `/Users/${userId}`), 404);
    expect(await ctx.db.select().from(users).where(eq(users.id, userId))).toEqual([]);
    expect(await ctx.db.select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
    const [entry] = await auditsOf('scim.user_deleted', userId);
    expect(entry).toMatchObject({ actorUserId: null });
    expect(entry!.detail).toEqual({ tokenId });
    await expectError(await scim('DELETE', `/Users/${userId}`), 404);
  });
});

describe('SCIM 2.0: what a client gets wrong', () => {
  it('409 uniqueness: the same userName (any case, any company), the same group name', async () => {
    const email = `twice-${randomUUID().slice(0, 8)}@acme.test`;
    expect((await scim('POST', '/Users', { userName: email })).statusCode).toBe(201);
    await expectError(
      await scim('POST', '/Users', { userName: email.toUpperCase() }),
      409,
      'uniqueness',
    );
    const elsewhere = await buildUser(ctx.db, { company: other });
    await expectError(
      await scim('POST', '/Users', { userName: elsewhere.email }),
      409,
      'uniqueness',
    );
    expect((await scim('POST', '/Groups', { displayName: 'Visitors desk' })).statusCode).toBe(201);
    await expectError(
      await scim('POST', '/Groups', { displayName: 'VISITORS DESK' }),
      409,
      'uniqueness',
    );
  });

  it('names a person from the e-mail when the directory sends no names', async () => {
    const email = `solo-${randomUUID().slice(0, 8)}@acme.test`;
    const res = await scim('POST', '/Users', { userName: email, displayName: 'Awa Koné Traoré' });
    expect(res.json<Json>().name).toMatchObject({ givenName: 'Awa', familyName: 'Koné Traoré' });
    const bare = `bare-${randomUUID().slice(0, 8)}@acme.test`;
    const plain = await scim('POST', '/Users', { userName: bare });
    expect(plain.json<Json>().name).toMatchObject({
      givenName: '',
      familyName: bare.split('@')[0],
    });
  });

  it('404: an unknown id, another company’s account or group, the platform’s staff', async () => {
    await expectError(await scim('GET', `/Users/${randomUUID()}`), 404);
    await expectError(await scim('GET', '/Users/not-an-id'), 404);
    const theirs = await buildUser(ctx.db, { company: other });
    await expectError(await scim('GET', `/Users/${theirs.id}`), 404);
    await expectError(
      await scim(
        'PATCH',
        `/Users/${theirs.id}`,
        patch({ op: 'replace', path: 'active', value: false }),
      ),
      404,
    );
    await expectError(await scim('DELETE', `/Users/${theirs.id}`), 404);
    const [theirRow] = await ctx.db.select().from(users).where(eq(users.id, theirs.id));
    expect(theirRow!.status).toBe(true);
    const platform = await buildUser(ctx.db, { company, role: 'ROLE_ADMIN' });
    await expectError(await scim('GET', `/Users/${platform.id}`), 404);
    await expectError(await scim('DELETE', `/Users/${platform.id}`), 404);
    const listed = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${platform.email}"`)}`,
    );
    expect(listed.json<Json>().totalResults).toBe(0);
    await expectError(
      await scim('POST', '/Groups', {
        displayName: 'With staff',
        members: [{ value: platform.id }],
      }),
      400,
      'invalidValue',
    );
    await expectError(
      await scim('POST', '/Groups', {
        displayName: 'With theirs',
        members: [{ value: theirs.id }],
      }),
      400,
      'invalidValue',
    );
    const mine = await buildUser(ctx.db, { company });
    const seen = await scim('GET', `/Users/${mine.id}`, undefined, otherToken);
    await expectError(seen, 404);
  });

  it('400 invalidFilter for a filter Sésame does not answer', async () => {
    for (const text of [
      'userName co "jane"',
      'title eq "x"',
      'userName eq',
      'userName eq "x" and',
      'emails[type eq "work"]',
      '(userName eq "x"',
      'not (userName eq "x")',
      'active eq "yes"',
    ]) {
      await expectError(await scim('GET', filter(text)), 400, 'invalidFilter');
    }
    await expectError(await scim('GET', '/Groups?filter=members%20pr'), 400, 'invalidFilter');
  });

  it('400 for a malformed body or PATCH, mutability for read-only attributes', async () => {
    await expectError(await scim('POST', '/Users', '{"userName":'), 400, 'invalidSyntax');
    await expectError(
      await scim('POST', '/Users', { userName: 'not an e-mail' }),
      400,
      'invalidValue',
    );
    await expectError(
      await scim('POST', '/Users', { name: { givenName: 'X' } }),
      400,
      'invalidValue',
    );
    const created = await scim('POST', '/Users', {
      userName: `ro-${randomUUID().slice(0, 8)}@acme.test`,
    });
    const id = created.json<Json>().id as string;
    await expectError(
      await scim('PATCH', `/Users/${id}`, { Operations: 'x' }),
      400,
      'invalidSyntax',
    );
    await expectError(
      await scim('PATCH', `/Users/${id}`, patch({ op: 'move', path: 'active' })),
      400,
      'invalidSyntax',
    );
    await expectError(
      await scim('PATCH', `/Users/${id}`, patch({ op: 'remove' })),
      400,
      'noTarget',
    );
    await expectError(
      await scim('PATCH', `/Users/${id}`, patch({ op: 'add', path: 'groups', value: [] })),
      400,
      'mutability',
    );
    await expectError(
      await scim(
        'PATCH',
        `/Users/${id}`,
        patch({ op: 'replace', path: 'id', value: randomUUID() }),
      ),
      400,
      'mutability',
    );
    await expectError(
      await scim('PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'shoeSize', value: 42 })),
      400,
      'invalidPath',
    );
    await expectError(
      await scim('PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'active', value: 'maybe' })),
      400,
      'invalidValue',
    );
    await expectError(
      await scim(
        'PATCH',
        `/Users/${id}`,
        patch({ op: 'replace', path: 'phoneNumbers[type eq "work"].value', value: '12' }),
      ),
      400,
      'invalidValue',
    );
    await expectError(
      await scim('POST', '/Users', { userName: 'nul\u0000@acme.test' }),
      400,
      'invalidSyntax',
    );
  });

  it('401 without a token, with an unknown or revoked one, or a staff session’s', async () => {
    await expectError(await scim('GET', '/Users', undefined, null), 401);
    await expectError(await scim('GET', '/Users', undefined, 'scim_unknown'), 401);
    await expectError(await scim('POST', '/Users', { userName: 'x@acme.test' }, null), 401);
    const made = await createScimToken(ctx.db, company.id, 'Old', {
      userId: null,
      secret: ctx.config.jwtSecret,
    });
    expect((await scim('GET', '/ServiceProviderConfig', undefined, made.token)).statusCode).toBe(
      200,
    );
    await ctx.db
      .update(scimTokens)
      .set({ revokedAt: new Date() })
      .where(eq(scimTokens.id, made.row.id));
    await expectError(await scim('GET', '/Users', undefined, made.token), 401);
    const staff = await buildUser(ctx.db, { company, role: 'ROLE_SUPER_ADMIN' });
    await expectError(await scim('GET', '/Users', undefined, await sessionFor(staff.id)), 401);
  });

  it('404 in SCIM’s schema for an unknown path, never the web app', async () => {
    await expectError(await scim('GET', '/Nope'), 404);
    await expectError(await scim('GET', '/Users/a/b'), 404);
    await expectError(await scim('POST', '/Bulk', { Operations: [] }), 404);
  });

  it('answers SCIM, never the web app’s page, when the web app is served too', async () => {
    const webDist = await mkdtemp(path.join(os.tmpdir(), 'sesame-web-'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Sésame</title>');
    const served = await startTestApp({ webDist });
    try {
      for (const url of ['/scim/v2/Nope', '/scim/v2/Users', '/scim/v2']) {
        const res = await served.app.inject({ method: 'GET', url });
        expect(res.headers['content-type'], url).toBe(SCIM_TYPE);
        expect(res.json<Json>().schemas, url).toEqual([ERROR_SCHEMA]);
      }
      expect((await served.app.inject({ method: 'GET', url: '/menu' })).body).toContain('<title>');
    } finally {
      await served.close();
      await rm(webDist, { recursive: true, force: true });
    }
  });

  it('takes application/json as well as application/scim+json', async () => {
    const res = await scim(
      'POST',
      '/Users',
      { userName: `json-${randomUUID().slice(0, 8)}@acme.test` },
      token,
      'application/json; charset=utf-8',
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toBe(SCIM_TYPE);
  });

  it('pages a list: startIndex from 1, count capped at scimPageMax, the company’s accounts only', async () => {
    const all = await scim('GET', '/Users');
    const total = all.json<Json>().totalResults as number;
    expect(total).toBeGreaterThan(3);
    expect(all.json<Json>().Resources.every((r: Json) => r.schemas[0] === USER_SCHEMA)).toBe(true);
    const page = await scim('GET', '/Users?startIndex=2&count=2');
    expect(page.json<Json>()).toMatchObject({
      schemas: [LIST_SCHEMA],
      totalResults: total,
      itemsPerPage: 2,
      startIndex: 2,
    });
    expect(page.json<Json>().Resources.map((r: Json) => r.id)).toEqual(
      all
        .json<Json>()
        .Resources.slice(1, 3)
        .map((r: Json) => r.id),
    );
    const counted = await scim('GET', '/Users?count=0');
    expect(counted.json<Json>()).toMatchObject({
      totalResults: total,
      itemsPerPage: 0,
      Resources: [],
    });
    const capped = await scim('GET', '/Users?count=100000&attributes=userName');
    expect(capped.json<Json>().itemsPerPage).toBeLessThanOrEqual(SSO_LIMITS.scimPageMax);
    expect(Object.keys(capped.json<Json>().Resources[0]).sort()).toEqual([
      'id',
      'schemas',
      'userName',
    ]);
    const theirs = await scim('GET', '/Users', undefined, otherToken);
    const ids = new Set(all.json<Json>().Resources.map((r: Json) => r.id));
    expect(theirs.json<Json>().Resources.some((r: Json) => ids.has(r.id))).toBe(false);
  });

  it('describes itself: ServiceProviderConfig, ResourceTypes, Schemas', async () => {
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.headers['content-type']).toBe(SCIM_TYPE);
    expect(config.json<Json>()).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: SSO_LIMITS.scimPageMax },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [{ type: 'oauthbearertoken' }],
    });
    const types = await scim('GET', '/ResourceTypes');
    expect(types.json<Json>()).toMatchObject({ schemas: [LIST_SCHEMA], totalResults: 2 });
    expect(types.json<Json>().Resources.map((t: Json) => t.endpoint)).toEqual([
      '/Users',
      '/Groups',
    ]);
    const schemas = await scim('GET', '/Schemas');
    expect(schemas.json<Json>().Resources.map((s: Json) => s.id)).toEqual([
      USER_SCHEMA,
      GROUP_SCHEMA,
    ]);
    expect(
      (await scim('GET', `/Schemas/${USER_SCHEMA}`)).json<Json>().attributes.length,
    ).toBeGreaterThan(5);
  });

  it('429 in SCIM’s schema past the limit per token, other tokens unaffected', async () => {
    const made = await createScimToken(ctx.db, other.id, 'Flood', {
      userId: null,
      secret: ctx.config.jwtSecret,
    });
    for (let sent = 0; sent < SSO_LIMITS.scimRequestsPerMinute; sent += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, () =>
          scim('GET', '/ServiceProviderConfig', undefined, made.token),
        ),
      );
      expect(batch.every((r) => r.statusCode === 200)).toBe(true);
    }
    await expectError(await scim('GET', '/ServiceProviderConfig', undefined, made.token), 429);
    expect((await scim('GET', '/ServiceProviderConfig', undefined, otherToken)).statusCode).toBe(
      200,
    );
  });
});
