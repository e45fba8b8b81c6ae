/**
 * Issue 27: an audit log people can read. Each entry of `GET /api/audit` names its actor
 * (name, role, company) and its subject (a name where there is one) as they are now, from
 * joins at read time — the stored `detail` keeps no name; an anonymised or erased person is
 * said so, without a name; the search finds the actor's and the subject's names, accents
 * and case ignored; a retention or settings change carries its before → after values.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AuditListEntry } from '@sesame/shared';
import { audit } from '../src/audit/service';
import { auditEvents, users } from '../src/db/schema';
import { ANONYMOUS_VISITOR } from '../src/privacy/retention';
import { qrPng } from '../src/qr/qr';
import { as, callAs, multipart, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildEvent,
  buildQrUser,
  buildRequest,
  buildTenant,
  buildUser,
  buildVisitor,
  companyFormFields,
} from './helpers/factories';
import { storeIdentityDocument } from './helpers/documents';

const png = await qrPng('identity document');

describe(`the audit log names people (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  const call = callAs(ctx);

  /** The caller's log, searched by `q` when given (every entry: at most 100 here). */
  async function log(email: string, query = ''): Promise<AuditListEntry[]> {
    const res = await call({ method: 'GET', url: `/api/audit?per_page=100${query}` }, email);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ data: AuditListEntry[]; meta: { total: number } }>();
    expect(body.meta.total).toBe(body.data.length);
    return body.data;
  }
  const search = (email: string, q: string) => log(email, `&q=${encodeURIComponent(q)}`);

  /** A tenant whose manager, Séverine Kouamé, reads the log; a visitor Aïcha Traoré. */
  async function tenant() {
    const { company, staff } = await buildTenant(ctx.db);
    const manager = await buildUser(ctx.db, {
      company,
      role: 'ROLE_MANAGER',
      firstname: 'Séverine',
      name: 'Kouamé',
    });
    const visitor = await buildVisitor(ctx.db, {
      company,
      firstname: 'Aïcha',
      lastname: 'Traoré',
      organisationName: 'Banque Atlantique',
    });
    const visitRequest = await buildRequest(ctx.db, { company, visitor });
    return { company, staff, manager, visitor, visitRequest };
  }

  it("names the actor (name, role, company) and the subject by its type, as they are now, not from the entry's detail", async () => {
    const { company, staff, manager, visitor, visitRequest } = await tenant();
    // The manager confirms the request, the front desk checks the visitor in by hand.
    const confirmed = await call(
      {
        method: 'PUT',
        url: `/api/requests/update/${visitRequest.id}`,
        payload: { status: 1, confirmed: 1 },
      },
      manager.email,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const checked = await call(
      { method: 'GET', url: `/api/get-qr-data/${visitor.uidn}?type=1` },
      staff.ROLE_EMPLOYEE.email,
    );
    expect(checked.statusCode, checked.body).toBe(200);
    // The manager views the visitor's identity document, through its signed URL.
    const file = await storeIdentityDocument(ctx.app, ctx.db, visitor, png);
    const token = await tokenFor(ctx.app, manager.email);
    const { sid } = (await ctx.app.tokens.verify(token))!;
    const viewed = await as(
      ctx.app,
      token,
    )({ method: 'GET', url: ctx.app.fileUrls.signed(file.id, { sessionId: sid })! });
    expect(viewed.statusCode).toBe(200);

    // The other kinds of subject, written as their routes write them.
    const employee = await buildUser(ctx.db, {
      company,
      role: 'ROLE_SUPERVISOR',
      firstname: 'Koffi',
      name: "N'Guessan",
    });
    const card = await buildQrUser(ctx.db, { company, firstname: 'Yao', lastname: 'Kouassi' });
    const event = await buildEvent(ctx.db, { company, name: 'Salon de l’habitat' });
    const admin = staff.ROLE_ADMIN;
    for (const entry of [
      { action: 'user.role_changed', subjectType: 'user', subjectId: employee.id },
      { action: 'qr_user.updated', subjectType: 'qr_user', subjectId: card.id },
      { action: 'company.updated', subjectType: 'company', subjectId: company.id },
      { action: 'event.created', subjectType: 'event', subjectId: event.id },
    ] as const) {
      await audit(ctx.db, { companyId: company.id, actorUserId: admin.id, ...entry });
    }

    const entries = await log(manager.email);
    const one = (action: string) => {
      const found = entries.filter((e) => e.action === action);
      expect(found, action).toHaveLength(1);
      return found[0]!;
    };
    const byManager = {
      actor_id: manager.id,
      actor_name: 'Séverine Kouamé',
      actor_role: 'ROLE_MANAGER',
      actor_company_name: company.name,
    };
    const aboutAicha = {
      subject_name: 'Aïcha Traoré',
      subject_company_name: 'Banque Atlantique',
      subject_role: null,
      subject_state: 'present',
    };
    expect(one('request.confirmed')).toMatchObject({
      ...byManager,
      ...aboutAicha,
      subject_type: 'request',
      subject_id: visitRequest.id,
    });
    expect(one('check.manual_in')).toMatchObject({
      actor_name: `${staff.ROLE_EMPLOYEE.firstname} ${staff.ROLE_EMPLOYEE.name}`,
      actor_role: 'ROLE_EMPLOYEE',
      actor_company_name: company.name,
      ...aboutAicha,
      subject_type: 'visitor',
    });
    expect(one('document.viewed')).toMatchObject({
      ...byManager,
      ...aboutAicha,
      subject_type: 'visitor',
    });
    const byAdmin = {
      actor_name: `${admin.firstname} ${admin.name}`,
      actor_role: 'ROLE_ADMIN',
      actor_company_name: company.name,
    };
    expect(one('user.role_changed')).toMatchObject({
      ...byAdmin,
      subject_name: "Koffi N'Guessan",
      subject_role: 'ROLE_SUPERVISOR',
      subject_company_name: company.name,
      subject_state: 'present',
    });
    expect(one('qr_user.updated')).toMatchObject({
      subject_name: 'Yao Kouassi',
      subject_state: 'present',
    });
    expect(one('company.updated')).toMatchObject({
      subject_name: company.name,
      subject_state: 'present',
    });
    expect(one('event.created')).toMatchObject({
      subject_name: 'Salon de l’habitat',
      subject_state: 'present',
    });
    // A sign-in has no other subject than its actor; a manager's own sign-in reads so.
    const signIn = entries.find((e) => e.action === 'auth.signed_in' && e.actor_id === manager.id);
    expect(signIn).toMatchObject({ subject_name: 'Séverine Kouamé', subject_role: 'ROLE_MANAGER' });

    // Names as they are now: a corrected name reads corrected in every entry. The stored
    // entries never held one.
    await ctx.db.update(users).set({ name: 'Kouamé-Diallo' }).where(eq(users.id, manager.id));
    const renamed = await log(manager.email, '&action=request.confirmed');
    expect(renamed[0]!.actor_name).toBe('Séverine Kouamé-Diallo');
    const written = JSON.stringify(
      await ctx.db.select().from(auditEvents).where(eq(auditEvents.companyId, company.id)),
    );
    for (const personal of ['Séverine', 'Aïcha', 'Traoré', 'Koffi', 'Banque Atlantique']) {
      expect(written).not.toContain(personal);
    }
  });

  it('an anonymised or erased person is said so without their name; a deleted account, a moved user and the platform read right', async () => {
    const { company, staff, manager, visitor, visitRequest } = await tenant();
    await audit(ctx.db, {
      companyId: company.id,
      actorUserId: manager.id,
      action: 'request.confirmed',
      subjectType: 'request',
      subjectId: visitRequest.id,
    });
    // A second visitor, anonymised by the retention purge's own statement.
    const forgotten = await buildVisitor(ctx.db, {
      company,
      firstname: 'Ibrahim',
      lastname: 'Sangaré',
      organisationName: 'Orange CI',
    });
    await audit(ctx.db, {
      companyId: company.id,
      actorUserId: manager.id,
      action: 'check.manual_in',
      subjectType: 'visitor',
      subjectId: forgotten.id,
    });
    await ctx.db.execute(sql`update visitors set ${ANONYMOUS_VISITOR} where id = ${forgotten.id}`);
    // Aïcha Traoré erased at her request.
    const erased = await call(
      { method: 'POST', url: `/api/privacy/visitor/${visitor.id}/erase` },
      staff.ROLE_ADMIN.email,
    );
    expect(erased.statusCode, erased.body).toBe(200);

    // An employee who signed in, then was deleted.
    const leaver = await buildUser(ctx.db, { company, firstname: 'Paul', name: 'Yapi' });
    await tokenFor(ctx.app, leaver.email);
    await ctx.db.delete(users).where(eq(users.id, leaver.id));

    // The platform: a ROLE_SESAME of another company moves a supervisor into this one.
    const platformCompany = await buildCompany(ctx.db, { name: 'Équipe Sésame' });
    const sesame = await buildUser(ctx.db, {
      company: platformCompany,
      role: 'ROLE_SESAME',
      firstname: 'Serge',
      name: 'Kouadio',
    });
    const elsewhere = await buildCompany(ctx.db, { name: 'Filiale Nord' });
    const moved = await buildUser(ctx.db, {
      company: elsewhere,
      role: 'ROLE_SUPERVISOR',
      firstname: 'Nadia',
      name: 'Bamba',
    });
    const move = await call(
      {
        method: 'PUT',
        url: `/api/user/${moved.id}`,
        payload: {
          name: 'Bamba',
          firstname: 'Nadia',
          email: moved.email,
          title: 'Agent',
          contact: '0102030405',
          role: 'ROLE_SUPERVISOR',
          status: true,
          company_id: company.id,
        },
      },
      sesame.email,
    );
    expect(move.statusCode, move.body).toBe(200);

    const entries = await log(manager.email);
    const confirmed = entries.find((e) => e.action === 'request.confirmed')!;
    expect(confirmed).toMatchObject({
      subject_type: 'request',
      subject_state: 'gone',
      subject_name: null,
      subject_company_name: null,
    });
    const anonymised = entries.find(
      (e) => e.action === 'check.manual_in' && e.subject_id === forgotten.id,
    )!;
    expect(anonymised).toMatchObject({
      subject_state: 'anonymised',
      subject_name: null,
      subject_company_name: null,
    });
    const leaverSignIn = entries.find(
      (e) => e.action === 'auth.signed_in' && e.actor_id === leaver.id,
    )!;
    expect(leaverSignIn).toMatchObject({
      actor_name: null,
      actor_role: null,
      actor_company_name: null,
      subject_state: 'gone',
      subject_name: null,
    });
    const movedIn = entries.find((e) => e.subject_id === moved.id)!;
    expect(movedIn).toMatchObject({
      actor_name: 'Serge Kouadio',
      actor_role: 'ROLE_SESAME',
      actor_company_name: 'Équipe Sésame',
      by_platform: true,
      subject_name: 'Nadia Bamba',
      subject_company_name: company.name,
      other_company_name: 'Filiale Nord',
      detail: expect.objectContaining({ movedFrom: elsewhere.id }),
    });
    // Nothing of the erased nor of the anonymised person's identity goes out.
    const body = JSON.stringify(entries);
    for (const personal of [
      'Aïcha',
      'Traoré',
      'Banque Atlantique',
      'Ibrahim',
      'Sangaré',
      'Orange CI',
    ]) {
      expect(body).not.toContain(personal);
    }
    expect(await search(manager.email, 'Sangaré')).toEqual([]);
  });

  it("the search finds a visitor's and a staff member's name, in either order, without accents or case, in the caller's company only", async () => {
    const { company, staff, manager, visitor, visitRequest } = await tenant();
    const card = await buildQrUser(ctx.db, {
      company,
      kind: 'member',
      firstname: 'Chloé',
      lastname: 'Ehui',
    });
    const writes = [
      { action: 'request.confirmed', subjectType: 'request', subjectId: visitRequest.id },
      { action: 'check.manual_in', subjectType: 'visitor', subjectId: visitor.id },
      { action: 'member.issued', subjectType: 'qr_user', subjectId: card.id },
    ] as const;
    for (const entry of writes) {
      await audit(ctx.db, { companyId: company.id, actorUserId: staff.ROLE_ADMIN.id, ...entry });
    }
    // Another company's visitor of the same name, and its manager's own entries.
    const other = await tenant();
    await audit(ctx.db, {
      companyId: other.company.id,
      actorUserId: other.manager.id,
      action: 'check.manual_in',
      subjectType: 'visitor',
      subjectId: other.visitor.id,
    });
    await tokenFor(ctx.app, manager.email);
    await tokenFor(ctx.app, other.manager.email);

    // The visitor, by either name, unaccented, in any case and order.
    for (const q of ['aicha', 'TRAORE', 'traoré aïcha', 'Aicha Traore']) {
      const found = await search(manager.email, q);
      expect(found.map((e) => e.action).sort(), q).toEqual([
        'check.manual_in',
        'request.confirmed',
      ]);
      expect(found.every((e) => e.company_id === company.id)).toBe(true);
    }
    // A card holder by name.
    expect((await search(manager.email, 'chloe ehui')).map((e) => e.action)).toEqual([
      'member.issued',
    ]);
    // A staff member by name: the manager's own sign-in (the actor, and its subject).
    for (const q of ['severine', 'kouame severine', 'SÉVERINE KOUAMÉ']) {
      const found = await search(manager.email, q);
      expect(found.length, q).toBeGreaterThanOrEqual(1);
      expect(found.every((e) => e.actor_id === manager.id || e.subject_id === manager.id)).toBe(
        true,
      );
    }
    // Paged as the list is: the total counts what the search found.
    const paged = await call(
      { method: 'GET', url: '/api/audit?q=aicha&per_page=1&page=2' },
      manager.email,
    );
    expect(paged.json()).toMatchObject({ data: [{}], meta: { total: 2, page: 2 } });
    // Nobody of that name in the log: nothing.
    expect(await search(manager.email, 'Zoumana')).toEqual([]);
  });

  it('a retention change reads before → after, and a settings change its changed settings', async () => {
    const { company, manager } = await tenant();
    const saved = await call(
      {
        method: 'PUT',
        url: `/api/company/${company.id}/privacy`,
        payload: {
          documents_days: 45,
          identity_days: 365,
          checks_days: 730,
          audit_days: 1095,
          privacy_notice: '',
        },
      },
      manager.email,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const [retention] = await log(manager.email, '&action=retention.changed');
    expect(retention).toMatchObject({
      actor_name: 'Séverine Kouamé',
      subject_type: 'company',
      subject_name: company.name,
      detail: expect.objectContaining({
        documentsDays: '30→45',
        identityDays: '365→365',
        checksDays: '730→730',
        auditDays: '1095→1095',
        noticeChanged: false,
      }),
    });

    // The company's form: its arrival window widened, nothing else changed.
    const updated = await call(
      {
        method: 'POST',
        url: `/api/company/${company.id}`,
        ...multipart({
          ...companyFormFields({ name: company.name }),
          address: company.address ?? '1 rue',
          arrival_early_minutes: '15',
        }),
      },
      manager.email,
    );
    expect(updated.statusCode, updated.body).toBe(200);
    const [first] = await log(manager.email, '&action=company.updated');
    expect(first!.detail).toMatchObject({ arrivalEarlyMinutes: '0→15' });
    expect(first!.detail!.fields).toContain('arrivalEarlyMinutes');
    // Saved again unchanged: no field changed, no setting before → after.
    await call(
      {
        method: 'POST',
        url: `/api/company/${company.id}`,
        ...multipart({
          ...companyFormFields({ name: company.name }),
          arrival_early_minutes: '15',
        }),
      },
      manager.email,
    );
    const [again] = await log(manager.email, '&action=company.updated');
    expect(again!.id).not.toBe(first!.id);
    expect(again!.detail).toEqual({ fields: [] });
  });
});
