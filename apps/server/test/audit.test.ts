/**
 * Issue 16: the audit log. Every audited action writes exactly one entry, in the same
 * transaction as its change; entries carry no personal field; the log is paged, filtered
 * and exported to its readers only; and no API (nor any SQL but the retention purge)
 * changes or deletes an entry.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents } from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { as, multipart, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { TEST_PASSWORD, buildRequest, buildTenant, buildVisitor } from './helpers/factories';
import { storeIdentityDocument } from './helpers/documents';

const png = await qrPng('identity document');

describe(`audit log (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  /** Entries written while `run` runs (the log is append-only: the newest rows). */
  async function entriesDuring(run: () => Promise<unknown>) {
    const [{ n }] = (await ctx.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents)) as [
      { n: number },
    ];
    await run();
    const rows = await ctx.db
      .select()
      .from(auditEvents)
      .orderBy(desc(auditEvents.at), desc(auditEvents.id));
    return rows.slice(0, rows.length - n);
  }

  it('every audited action writes exactly one entry, without a personal field', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const admin = staff.ROLE_ADMIN;
    const token = await tokenFor(ctx.app, admin.email);
    const call = as(ctx.app, token);
    const one = async (
      action: string,
      run: () => Promise<{ statusCode: number; body: string }>,
    ) => {
      const entries = await entriesDuring(async () => {
        const res = await run();
        expect(res.statusCode, `${action}: ${res.body}`).toBeLessThan(300);
      });
      expect(
        entries.map((e) => e.action),
        action,
      ).toEqual([action]);
      return entries[0]!;
    };

    // Sign-ins, and a failed one (an unknown address records nothing).
    const signedIn = await one('auth.signed_in', () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/login_check',
        payload: { username: admin.email, password: TEST_PASSWORD },
      }),
    );
    expect(signedIn).toMatchObject({ companyId: company.id, actorUserId: admin.id });
    const failed = await entriesDuring(() =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/login_check',
        payload: { username: admin.email, password: 'wrong-password-1' },
      }),
    );
    expect(failed.map((e) => e.action)).toEqual(['auth.sign_in_failed']);
    expect(
      await entriesDuring(() =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/login_check',
          payload: { username: 'nobody@example.com', password: 'x-password-1' },
        }),
      ),
    ).toEqual([]);

    // Users: created, role changed, disabled, password reset, deleted.
    const created = await one('user.created', () =>
      call({
        method: 'POST',
        url: '/api/user/create',
        payload: {
          name: 'Traoré',
          firstname: 'Mariam',
          email: `mariam-${Date.now()}@example.com`,
          password: 'Un-mot-de-passe-solide-42',
          title: 'Agent',
          contact: '0102030405',
          role: 'ROLE_EMPLOYEE',
          status: true,
          company_id: company.id,
        },
      }),
    );
    const userId = created.subjectId!;
    const edit = (changes: Record<string, unknown>) =>
      call({
        method: 'PUT',
        url: `/api/user/${userId}`,
        payload: {
          name: 'Traoré',
          firstname: 'Mariam',
          email: `mariam-${userId}@example.com`,
          title: 'Agent',
          contact: '0102030405',
          role: 'ROLE_EMPLOYEE',
          status: true,
          company_id: company.id,
          ...changes,
        },
      });
    await one('user.updated', () => edit({}));
    const roleChanged = await one('user.role_changed', () => edit({ role: 'ROLE_SUPERVISOR' }));
    expect(roleChanged.detail).toMatchObject({
      fromRole: 'ROLE_EMPLOYEE',
      toRole: 'ROLE_SUPERVISOR',
    });
    await one('user.password_reset', () =>
      edit({ role: 'ROLE_SUPERVISOR', password: 'Encore-un-mot-de-passe-77' }),
    );
    await one('user.disabled', () => edit({ role: 'ROLE_SUPERVISOR', status: false }));
    await one('user.deleted', () => call({ method: 'DELETE', url: `/api/user/${userId}` }));

    // Companies.
    await one('company.updated', () =>
      call({
        method: 'PUT',
        url: `/api/company/${company.id}`,
        ...multipart({ name: company.name, description: 'Nouvelle' }),
      }),
    );

    // A request decided; a manual check in and out.
    const visitor = await buildVisitor(ctx.db, { company });
    const visitRequest = await buildRequest(ctx.db, { company, visitor });
    await one('request.confirmed', () =>
      call({
        method: 'PUT',
        url: `/api/requests/update/${visitRequest.id}`,
        payload: { status: 1, confirmed: 1 },
      }),
    );
    const manualIn = await one('check.manual_in', () =>
      call({ method: 'GET', url: `/api/get-qr-data/${visitor.uidn}?type=1` }),
    );
    expect(manualIn).toMatchObject({
      subjectType: 'visitor',
      subjectId: visitor.id,
      actorUserId: admin.id,
    });
    expect(
      await entriesDuring(() => call({ method: 'GET', url: `/api/get-qr-data/${visitor.uidn}` })),
    ).toEqual([]);

    // A visitor deleted by the admin.
    const doomed = await buildVisitor(ctx.db, { company });
    await one('visitor.deleted', () =>
      call({ method: 'DELETE', url: `/api/visitor/delete/${doomed.id}` }),
    );

    // QR users issued and re-issued.
    const issued = await one('qr_user.issued', () =>
      call({
        method: 'POST',
        url: '/api/create-qr',
        ...multipart(
          {
            firstname: 'Yao',
            lastname: 'Kouassi',
            email: 'yao@example.com',
            contact: '0102030405',
            title: 'Technicien',
            type: 'permanent',
            dateExp: '2030-05-01',
          },
          { user_document: { filename: 'doc.png', contentType: 'image/png', bytes: png } },
        ),
      }),
    );
    await one('qr_user.reissued', () =>
      call({ method: 'POST', url: `/api/qruser/${issued.subjectId}/reissue` }),
    );

    // Retention changed; a document viewed; a person exported and erased.
    await one('retention.changed', () =>
      call({
        method: 'PUT',
        url: `/api/company/${company.id}/privacy`,
        payload: {
          documents_days: 10,
          identity_days: 200,
          checks_days: 400,
          audit_days: 900,
          privacy_notice: '',
        },
      }),
    );
    const file = await storeIdentityDocument(ctx.app, ctx.db, visitor, png);
    // Signed for the session of the admin's bearer token, and opened with that token: the
    // URL alone opens nothing (issue 26 §3).
    const { sid } = (await ctx.app.tokens.verify(token))!;
    const url = ctx.app.fileUrls.signed(file.id, { sessionId: sid })!;
    const viewed = await one('document.viewed', () => call({ method: 'GET', url }));
    expect(viewed).toMatchObject({
      subjectType: 'visitor',
      subjectId: visitor.id,
      actorUserId: admin.id,
    });
    await one('person.exported', () =>
      call({ method: 'GET', url: `/api/privacy/visitor/${visitor.id}/export` }),
    );
    await one('person.erased', () =>
      call({ method: 'POST', url: `/api/privacy/visitor/${visitor.id}/erase` }),
    );

    // No entry carries a personal field of anyone involved.
    const all = JSON.stringify(await ctx.db.select().from(auditEvents));
    for (const personal of [
      'Awa',
      'Koné',
      visitor.email,
      'Mariam',
      'Traoré',
      admin.email,
      'yao@example.com',
      '0102030405',
    ]) {
      expect(all).not.toContain(personal);
    }
  });

  it('is read by admins and managers of the company, filtered, paged and exported', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const other = await buildTenant(ctx.db);
    await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
    await tokenFor(ctx.app, other.staff.ROLE_EMPLOYEE.email);
    const manager = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_MANAGER.email));
    const list = await manager({ method: 'GET', url: '/api/audit?per_page=100' });
    expect(list.statusCode).toBe(200);
    const body = list.json<{
      data: { company_id: string; action: string; actor_name: string }[];
      meta: { total: number };
    }>();
    expect(body.data.length).toBeGreaterThanOrEqual(2);
    expect(body.data.every((e) => e.company_id === company.id)).toBe(true);
    const byActor = await manager({
      method: 'GET',
      url: `/api/audit?actor=${staff.ROLE_EMPLOYEE.id}&action=auth.signed_in`,
    });
    expect(byActor.json().data).toHaveLength(1);
    const searched = await manager({
      method: 'GET',
      url: `/api/audit?q=${encodeURIComponent(staff.ROLE_EMPLOYEE.name)}`,
    });
    expect(searched.json().data.length).toBeGreaterThanOrEqual(1);
    const future = await manager({
      method: 'GET',
      url: `/api/audit?from=${encodeURIComponent('2999-01-01T00:00:00Z')}`,
    });
    expect(future.json().data).toHaveLength(0);
    const paged = await manager({ method: 'GET', url: '/api/audit?per_page=1&page=2' });
    expect(paged.json().data).toHaveLength(1);
    const csv = await manager({ method: 'GET', url: '/api/audit/export?action=auth.signed_in' });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('auth.signed_in');
    expect(csv.body).not.toContain(other.company.name);
    const employee = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email));
    expect((await employee({ method: 'GET', url: '/api/audit' })).statusCode).toBe(403);
    expect((await as(ctx.app, null)({ method: 'GET', url: '/api/audit' })).statusCode).toBe(401);
  });

  it('no route updates or deletes an entry, and the database refuses it too', async () => {
    // The route table: no route under /api/audit writes.
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of [
        '/api/audit',
        '/api/audit/:id',
        '/api/audit/export',
        '/api/audit/actors',
      ]) {
        expect(ctx.app.hasRoute({ method, url }), `${method} ${url}`).toBe(false);
      }
    }
    expect(ctx.app.hasRoute({ method: 'GET', url: '/api/audit' })).toBe(true);
    // Every route, every writing method, on an entry's id: the entry is unchanged.
    const { staff } = await buildTenant(ctx.db);
    const token = await tokenFor(ctx.app, staff.ROLE_ADMIN.email);
    const [entry] = await ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actorUserId, staff.ROLE_ADMIN.id));
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
      for (const url of [`/api/audit/${entry!.id}`, `/api/audit?id=${entry!.id}`, '/api/audit']) {
        await as(ctx.app, token)({ method, url, payload: { action: 'x' } });
      }
    }
    const [after] = await ctx.db.select().from(auditEvents).where(eq(auditEvents.id, entry!.id));
    expect(after).toEqual(entry);
    // The database itself: UPDATE, DELETE and TRUNCATE are refused.
    await expect(
      ctx.db.update(auditEvents).set({ action: 'forged' }).where(eq(auditEvents.id, entry!.id)),
    ).rejects.toThrow();
    await expect(ctx.db.delete(auditEvents).where(eq(auditEvents.id, entry!.id))).rejects.toThrow();
    await expect(ctx.db.execute(sql`truncate audit_events`)).rejects.toThrow();
    expect(
      await ctx.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.id, entry!.id))),
    ).toHaveLength(1);
  });
});
