/**
 * Issue 26 §9: the platform's own staff, seen by the tenant. ROLE_ADMIN and ROLE_SESAME reach
 * every company; whatever they do to a company's users, cards, settings or visitors is in that
 * company's audit log (the company acted upon, not the actor's), marked as done by the platform
 * by the database itself (migration 0022), and the company's managers read it with a filter.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CROSS_TENANT_ROLES, ROLES, activeRole, catalogue, type Role } from '@sesame/shared';
import { audit } from '../src/audit/service';
import { auditEvents, sessions, users } from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { as, callAs, multipart, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildQrUser,
  buildRequest,
  buildTenant,
  buildUser,
  buildVisitor,
} from './helpers/factories';
import { storeIdentityDocument } from './helpers/documents';

const png = await qrPng('identity document');
const NEW_PASSWORD = 'Reinitialise-par-Sesame-42';

interface ListedEntry {
  id: string;
  company_id: string | null;
  actor_id: string | null;
  action: string;
  subject_id: string | null;
  by_platform: boolean;
}

describe(`platform actions in the company's audit log (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  const call = callAs(ctx);

  it('the database marks an entry as by the platform exactly when activeRole and CROSS_TENANT_ROLES say so', async () => {
    const home = await buildCompany(ctx.db);
    const elsewhere = await buildCompany(ctx.db);
    const actor = await buildUser(ctx.db, { company: home, role: 'ROLE_USER' });
    // Every role alone and every ordered pair: the active role is the first known one.
    const lists: string[][] = [
      [],
      ['ROLE_UNKNOWN'],
      ['ROLE_UNKNOWN', 'ROLE_SESAME'],
      ...ROLES.map((role) => [role]),
      ...ROLES.flatMap((first) => ROLES.filter((r) => r !== first).map((r) => [first, r])),
    ];
    for (const roles of lists) {
      await ctx.db.update(users).set({ roles }).where(eq(users.id, actor.id));
      const crossTenant = (CROSS_TENANT_ROLES as readonly Role[]).includes(activeRole(roles));
      for (const company of [home, elsewhere]) {
        const expected = crossTenant && company.id !== home.id;
        // The insert says the opposite: the database decides, not the writer.
        const [row] = await ctx.db
          .insert(auditEvents)
          .values({
            companyId: company.id,
            actorUserId: actor.id,
            action: 'user.updated',
            byPlatform: !expected,
          })
          .returning({ byPlatform: auditEvents.byPlatform });
        expect(row!.byPlatform, `${roles.join(',') || '(none)'} on ${company.name}`).toBe(expected);
      }
    }
    // No actor (the system), or no company: never the platform's mark.
    await ctx.db
      .update(users)
      .set({ roles: ['ROLE_SESAME'] })
      .where(eq(users.id, actor.id));
    await audit(ctx.db, { companyId: elsewhere.id, actorUserId: null, action: 'retention.purged' });
    await audit(ctx.db, { companyId: null, actorUserId: actor.id, action: 'company.deleted' });
    const unmarked = await ctx.db
      .select({ byPlatform: auditEvents.byPlatform })
      .from(auditEvents)
      .where(
        sql`(${auditEvents.companyId} = ${elsewhere.id} and ${auditEvents.actorUserId} is null)
            or (${auditEvents.companyId} is null and ${auditEvents.actorUserId} = ${actor.id})`,
      );
    expect(unmarked).toEqual([{ byPlatform: false }, { byPlatform: false }]);
  });

  /**
   * The platform (its own company, a ROLE_SESAME and a ROLE_ADMIN) acts on a tenant's users,
   * cards, settings and visitors, and moves one of its users to a second tenant. Built once.
   */
  let built: Promise<Awaited<ReturnType<typeof buildJourney>>> | undefined;
  const journey = () => (built ??= buildJourney());

  async function buildJourney() {
    const platform = await buildCompany(ctx.db, { name: 'Sésame' });
    const sesame = await buildUser(ctx.db, { company: platform, role: 'ROLE_SESAME' });
    const platformAdmin = await buildUser(ctx.db, { company: platform, role: 'ROLE_ADMIN' });
    const tenant = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    const { company } = tenant;
    const supervisor = tenant.staff.ROLE_SUPERVISOR;
    const ok = (res: { statusCode: number; body: string }, what: string) =>
      expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);

    // ROLE_SESAME resets the tenant supervisor's password, then signs in as them.
    ok(
      await call(
        {
          method: 'PUT',
          url: `/api/user/${supervisor.id}`,
          payload: {
            name: supervisor.name,
            firstname: supervisor.firstname,
            email: supervisor.email,
            title: 'Superviseur',
            contact: '0102030405',
            role: 'ROLE_SUPERVISOR',
            status: true,
            company_id: company.id,
            password: NEW_PASSWORD,
          },
        },
        sesame.email,
      ),
      'password reset',
    );
    await tokenFor(ctx.app, supervisor.email, NEW_PASSWORD);

    // ROLE_SESAME edits a QR code's expiry and a member card, and the company itself.
    const card = await buildQrUser(ctx.db, { company });
    const member = await buildQrUser(ctx.db, { company, kind: 'member' });
    ok(
      await call(
        { method: 'PUT', url: `/api/qruser/${card.id}`, payload: { dateExp: '2031-01-31' } },
        sesame.email,
      ),
      'card edit',
    );
    ok(
      await call(
        { method: 'PUT', url: `/api/qrusermembre/${member.id}`, payload: { title: 'Chef' } },
        sesame.email,
      ),
      'member card edit',
    );
    ok(
      await call(
        {
          method: 'PUT',
          url: `/api/company/${company.id}`,
          ...multipart({ name: company.name, description: 'Revue par la plateforme' }),
        },
        sesame.email,
      ),
      'company edit',
    );
    // ROLE_SESAME moves a tenant employee to the other tenant: both logs say so.
    const moved = tenant.staff.ROLE_EMPLOYEE;
    ok(
      await call(
        {
          method: 'PUT',
          url: `/api/user/${moved.id}`,
          payload: {
            name: moved.name,
            firstname: moved.firstname,
            email: moved.email,
            title: 'Agent',
            contact: '0102030405',
            role: 'ROLE_EMPLOYEE',
            status: true,
            company_id: other.company.id,
          },
        },
        sesame.email,
      ),
      'user moved',
    );

    // The platform admin changes retention, decides a request, checks a visitor in by hand
    // (a database trigger writes that entry), views their identity document, erases them,
    // and deletes another visitor.
    ok(
      await call(
        {
          method: 'PUT',
          url: `/api/company/${company.id}/privacy`,
          payload: {
            documents_days: 40,
            identity_days: 400,
            checks_days: 800,
            audit_days: 1200,
            privacy_notice: '',
          },
        },
        platformAdmin.email,
      ),
      'retention change',
    );
    const visitor = await buildVisitor(ctx.db, { company });
    const visitRequest = await buildRequest(ctx.db, { company, visitor });
    ok(
      await call(
        {
          method: 'PUT',
          url: `/api/requests/update/${visitRequest.id}`,
          payload: { status: 1, confirmed: 1 },
        },
        platformAdmin.email,
      ),
      'request confirmed',
    );
    ok(
      await call(
        { method: 'GET', url: `/api/get-qr-data/${visitor.uidn}?type=1` },
        platformAdmin.email,
      ),
      'manual check-in',
    );
    const file = await storeIdentityDocument(ctx.app, ctx.db, visitor, png);
    const adminToken = await tokenFor(ctx.app, platformAdmin.email);
    const [session] = await ctx.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, platformAdmin.id), isNull(sessions.revokedAt)))
      .orderBy(sql`${sessions.createdAt} desc`)
      .limit(1);
    const url = ctx.app.fileUrls.signed(file.id, { sessionId: session!.id })!;
    ok(await as(ctx.app, adminToken)({ method: 'GET', url }), 'document viewed');
    ok(
      await call(
        { method: 'POST', url: `/api/privacy/visitor/${visitor.id}/erase` },
        platformAdmin.email,
      ),
      'person erased',
    );
    const doomed = await buildVisitor(ctx.db, { company });
    ok(
      await call(
        { method: 'DELETE', url: `/api/visitor/delete/${doomed.id}` },
        platformAdmin.email,
      ),
      'visitor deleted',
    );

    // The tenant's own admin edits its company: the company's own doing, not the platform's.
    ok(
      await call(
        {
          method: 'PUT',
          url: `/api/company/${company.id}`,
          ...multipart({ name: company.name, description: 'Revue par nous' }),
        },
        tenant.staff.ROLE_ADMIN.email,
      ),
      "the tenant admin's edit",
    );
    return { platform, sesame, platformAdmin, tenant, other, card, member, visitor, moved };
  }

  /** A company's stored entries by the given actors, as [action, subject, byPlatform]. */
  async function entriesOf(companyId: string, actorIds: string[]) {
    const rows = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, companyId), inArray(auditEvents.actorUserId, actorIds)));
    return rows.sort((a, b) => a.at.getTime() - b.at.getTime() || a.id.localeCompare(b.id));
  }

  it("writes each platform action into the company acted upon, marked, and the company's own actions unmarked", async () => {
    const { platform, sesame, platformAdmin, tenant, other, card, member, visitor, moved } =
      await journey();
    const supervisor = tenant.staff.ROLE_SUPERVISOR;
    const inTenant = await entriesOf(tenant.company.id, [
      sesame.id,
      platformAdmin.id,
      supervisor.id,
      tenant.staff.ROLE_ADMIN.id,
    ]);
    const seen = inTenant.map((e) => [e.action, e.actorUserId, e.subjectId, e.byPlatform]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['user.password_reset', sesame.id, supervisor.id, true],
        ['qr_user.updated', sesame.id, card.id, true],
        ['qr_user.updated', sesame.id, member.id, true],
        ['company.updated', sesame.id, tenant.company.id, true],
        ['user.updated', sesame.id, moved.id, true],
        ['retention.changed', platformAdmin.id, tenant.company.id, true],
        ['request.confirmed', platformAdmin.id, expect.any(String), true],
        ['check.manual_in', platformAdmin.id, visitor.id, true],
        ['document.viewed', platformAdmin.id, visitor.id, true],
        ['person.erased', platformAdmin.id, visitor.id, true],
        ['visitor.deleted', platformAdmin.id, expect.any(String), true],
        // The supervisor signing in with the new password is the supervisor's own sign-in.
        ['auth.signed_in', supervisor.id, supervisor.id, false],
        ['company.updated', tenant.staff.ROLE_ADMIN.id, tenant.company.id, false],
      ]),
    );
    // Every entry by a platform actor in the tenant is marked; none of theirs went elsewhere
    // but the moved user's destination, and the platform's own log holds only their sign-ins.
    expect(
      inTenant.filter((e) => [sesame.id, platformAdmin.id].includes(e.actorUserId!)),
    ).not.toContainEqual(expect.objectContaining({ byPlatform: false }));
    const card0 = inTenant.find((e) => e.subjectId === card.id)!;
    expect(card0.detail).toEqual({ kind: 'permanent', fields: ['dateExp'] });
    const inOther = await entriesOf(other.company.id, [sesame.id, platformAdmin.id]);
    expect(inOther.map((e) => [e.action, e.subjectId, e.byPlatform, e.detail])).toEqual([
      ['user.updated', moved.id, true, expect.objectContaining({ movedFrom: tenant.company.id })],
    ]);
    const inPlatform = await entriesOf(platform.id, [sesame.id, platformAdmin.id]);
    expect(new Set(inPlatform.map((e) => e.action))).toEqual(new Set(['auth.signed_in']));
    expect(inPlatform.every((e) => !e.byPlatform)).toBe(true);
  });

  it("shows the tenant's manager the platform's entries with the filter, and no other company's", async () => {
    const { sesame, platformAdmin, tenant, other } = await journey();
    const manager = tenant.staff.ROLE_MANAGER.email;
    const list = async (query: string, email = manager) => {
      const res = await call({ method: 'GET', url: `/api/audit?per_page=100${query}` }, email);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ data: ListedEntry[]; meta: { total: number } }>().data;
    };

    const platformOnly = await list('&by=platform');
    expect(platformOnly).toHaveLength(11);
    for (const entry of platformOnly) {
      expect(entry).toMatchObject({ company_id: tenant.company.id, by_platform: true });
      expect([sesame.id, platformAdmin.id]).toContain(entry.actor_id);
    }
    expect(new Set(platformOnly.map((e) => e.action))).toEqual(
      new Set([
        'user.password_reset',
        'qr_user.updated',
        'company.updated',
        'user.updated',
        'retention.changed',
        'request.confirmed',
        'check.manual_in',
        'document.viewed',
        'person.erased',
        'visitor.deleted',
      ]),
    );
    const companyOnly = await list('&by=company');
    expect(companyOnly.every((e) => !e.by_platform && e.company_id === tenant.company.id)).toBe(
      true,
    );
    expect(companyOnly).toContainEqual(
      expect.objectContaining({
        action: 'auth.signed_in',
        actor_id: tenant.staff.ROLE_SUPERVISOR.id,
      }),
    );
    const everything = await list('');
    expect(everything.filter((e) => e.by_platform).map((e) => e.id)).toEqual(
      platformOnly.map((e) => e.id),
    );
    // Combined with another filter.
    const resets = await list('&by=platform&action=user.password_reset');
    expect(resets.map((e) => e.actor_id)).toEqual([sesame.id]);

    // The other tenant's manager sees the move into their company, and nothing of the first.
    const theirs = await list('&by=platform', other.staff.ROLE_MANAGER.email);
    expect(theirs.map((e) => [e.company_id, e.action])).toEqual([
      [other.company.id, 'user.updated'],
    ]);

    // The CSV says it too, in the reader's language.
    const csv = await call(
      { method: 'GET', url: '/api/audit/export?by=platform', headers: { 'accept-language': 'en' } },
      manager,
    );
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toContain('Origin');
    expect(lines).toHaveLength(platformOnly.length + 1);
    expect(lines.slice(1).every((line) => line.includes(';Sésame platform;'))).toBe(true);
  });

  it('refuses an unknown origin with 400, in the reader language, on the list and the export', async () => {
    const { tenant } = await journey();
    const manager = tenant.staff.ROLE_MANAGER.email;
    for (const [value, lang] of [
      ['everyone', 'fr'],
      ['PLATFORM', 'en'],
      ['', 'fr'],
    ] as const) {
      for (const path of ['/api/audit', '/api/audit/export']) {
        const res = await call(
          {
            method: 'GET',
            url: `${path}?by=${encodeURIComponent(value)}`,
            headers: { 'accept-language': lang },
          },
          manager,
        );
        expect(res.statusCode, `${path} by=${value}`).toBe(400);
        expect(res.json().message).toBe(catalogue(lang).audit.originInvalid);
      }
    }
    // A role that may not read the log is refused before its input is looked at.
    const employee = tenant.staff.ROLE_USER.email;
    expect(
      (await call({ method: 'GET', url: '/api/audit?by=platform' }, employee)).statusCode,
    ).toBe(403);
  });
});
