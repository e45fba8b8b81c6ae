/**
 * Issue 31, a site's visitor types on the server, on PGlite and PostgreSQL: the four defaults
 * of a new company and of a new site; created, edited, archived and restored by the sites'
 * managers with every change audited, and the refusals (401, 400 with its message, 403, 404,
 * 409); read by every staff member within their site limits; the public form's list; a type's
 * own automatic check-out; the badge's band in the type's name and colour; a site's security
 * contacts; and a clean site or an empty company still deleted with their types and documents.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { VISITOR_TYPE_LIMITS, sayIn, type VisitorType } from '@sesame/shared';
import { autoCheckOut } from '../src/checkins/auto-check-out';
import {
  auditEvents,
  companies,
  documentVersions,
  siteDocuments,
  sites,
  visitorChecks,
  visitorTypes,
} from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { as, callAs, multipart, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildRequest,
  buildSite,
  buildTenant,
  buildUser,
  buildVisitor,
  companyFormFields,
} from './helpers/factories';

const fr = sayIn.bind(null, 'fr');
const run = promisify(execFile);
const ctx = useTestApp();
const call = callAs(ctx);

const DEFAULT_NAMES = ['Visiteur', 'Prestataire', "Entretien d'embauche", 'Livraison'];

const typeBody = (siteId: string, overrides: Record<string, unknown> = {}) => ({
  site_id: siteId,
  name_fr: 'Auditeur',
  name_en: 'Auditor',
  color: '#7048e8',
  required_fields: ['phone', 'organisation'],
  host_approval: true,
  auto_check_out_at: '16:30',
  documents: [],
  ...overrides,
});

const docBody = (siteId: string, overrides: Record<string, unknown> = {}) => ({
  site_id: siteId,
  title_fr: 'Accord de confidentialité',
  title_en: 'Non-disclosure agreement',
  body_fr: '# Confidentialité\n\nJe garde pour moi ce que je vois.',
  body_en: '# Confidentiality\n\nI keep what I see to myself.',
  ...overrides,
});

async function auditOf(subjectId: string) {
  return ctx.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.subjectId, subjectId))
    .orderBy(auditEvents.at, auditEvents.id);
}

/** A site's types as the staff list reads them. */
async function typesOf(companyId: string, siteId: string, email: string, archived = false) {
  const res = await call(
    {
      method: 'GET',
      url: `/api/company/${companyId}/visitor-types?site=${siteId}${archived ? '&archived=1' : ''}`,
    },
    email,
  );
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: VisitorType[] }).data;
}

describe(`visitor types (issue 31, ${testDatabaseKind})`, () => {
  it('a new company and a new site start with the four default types, in order', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const admin = staff.ROLE_ADMIN.email;
    const png = await qrPng('logo');
    const created = await call(
      {
        method: 'POST',
        url: '/api/company',
        ...multipart(companyFormFields({ name: `Types ${Date.now()}`, id_number: 'RC-VT' }), {
          logo: { filename: 'logo.png', contentType: 'image/png', bytes: png },
        }),
      },
      admin,
    );
    expect(created.statusCode, created.body).toBe(201);
    const newCompany = created.json().data as { id: string };
    const [main] = await ctx.db.select().from(sites).where(eq(sites.companyId, newCompany.id));
    const types = await typesOf(newCompany.id, main!.id, admin);
    expect(types.map((t) => t.name_fr)).toEqual(DEFAULT_NAMES);
    expect(types.map((t) => t.position)).toEqual([0, 1, 2, 3]);
    expect(types[0]).toMatchObject({
      name_en: 'Visitor',
      required_fields: ['organisation', 'phone', 'id_number', 'id_document'],
      host_approval: true,
      auto_check_out_at: null,
      archived: false,
      documents: [],
    });
    expect(types[3]).toMatchObject({ name_en: 'Delivery', host_approval: false });

    const site = await call(
      {
        method: 'POST',
        url: `/api/company/${company.id}/sites`,
        payload: { name: 'Annexe Cocody', timezone: 'Africa/Abidjan' },
      },
      staff.ROLE_SUPER_ADMIN.email,
    );
    expect(site.statusCode, site.body).toBe(201);
    const siteTypes = await typesOf(company.id, site.json().data.id, staff.ROLE_EMPLOYEE.email);
    expect(siteTypes.map((t) => t.name_fr)).toEqual(DEFAULT_NAMES);
  });

  it('creates, edits, archives and restores a type, each change audited', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const manager = staff.ROLE_MANAGER.email;
    const doc = await call(
      {
        method: 'POST',
        url: `/api/company/${company.id}/documents`,
        payload: docBody(company.siteId),
      },
      manager,
    );
    expect(doc.statusCode, doc.body).toBe(201);
    const docId = doc.json().data.id as string;

    const created = await call(
      {
        method: 'POST',
        url: `/api/company/${company.slug}/visitor-types`,
        payload: typeBody(company.siteId, {
          required_fields: ['photo', 'phone', 'organisation'],
          documents: [{ document_id: docId, validity: 'days', validity_days: 30 }],
        }),
      },
      manager,
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().message).toBe(fr((m) => m.visitorType.created));
    const type = created.json().data as VisitorType;
    expect(type).toMatchObject({
      site_id: company.siteId,
      name_fr: 'Auditeur',
      name_en: 'Auditor',
      color: '#7048E8',
      // The fields in the forms' order, whatever the order sent.
      required_fields: ['organisation', 'phone', 'photo'],
      host_approval: true,
      auto_check_out_at: '16:30',
      archived: false,
      documents: [
        {
          document_id: docId,
          version: 1,
          title_fr: 'Accord de confidentialité',
          title_en: 'Non-disclosure agreement',
          validity: 'days',
          validity_days: 30,
        },
      ],
    });
    // The factory's site has no type yet: the new one is its first (position 0), the next one after it.
    expect(type.position).toBe(0);
    const second = await call(
      {
        method: 'POST',
        url: `/api/company/${company.id}/visitor-types`,
        payload: typeBody(company.siteId, { name_fr: 'Stagiaire', name_en: 'Intern' }),
      },
      manager,
    );
    expect(second.json().data.position).toBe(1);

    const edited = await call(
      {
        method: 'PUT',
        url: `/api/company/${company.id}/visitor-types/${type.id}`,
        payload: typeBody(company.siteId, {
          name_fr: 'Auditeur externe',
          auto_check_out_at: '',
          host_approval: false,
          documents: [],
        }),
      },
      manager,
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      message: fr((m) => m.visitorType.updated),
      data: {
        name_fr: 'Auditeur externe',
        auto_check_out_at: null,
        host_approval: false,
        documents: [],
        position: 0,
      },
    });

    const archived = await call(
      { method: 'POST', url: `/api/company/${company.id}/visitor-types/${type.id}/archive` },
      manager,
    );
    expect(archived.json()).toMatchObject({
      message: fr((m) => m.visitorType.archived),
      data: { archived: true },
    });
    expect((await typesOf(company.id, company.siteId, manager)).map((t) => t.name_fr)).toEqual([
      'Stagiaire',
    ]);
    expect(
      (await typesOf(company.id, company.siteId, manager, true)).map((t) => t.name_fr),
    ).toEqual(['Auditeur externe', 'Stagiaire']);
    const restored = await call(
      { method: 'POST', url: `/api/company/${company.id}/visitor-types/${type.id}/restore` },
      manager,
    );
    expect(restored.json()).toMatchObject({
      message: fr((m) => m.visitorType.restored),
      data: { archived: false },
    });

    const entries = await auditOf(type.id);
    expect(entries.map((e) => e.action)).toEqual([
      'visitor_type.created',
      'visitor_type.updated',
      'visitor_type.archived',
      'visitor_type.restored',
    ]);
    expect(
      entries.every((e) => e.companyId === company.id && e.actorUserId === staff.ROLE_MANAGER.id),
    ).toBe(true);
    expect(entries[0]!.detail).toMatchObject({ siteId: company.siteId, documents: 1 });
    expect(entries[1]!.detail).toMatchObject({
      fields: expect.arrayContaining(['nameFr', 'hostApproval', 'autoCheckOutAt']),
    });
  });

  it('refuses: 401, 400 with its message, 403, 404 for another company, 409', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const manager = staff.ROLE_MANAGER.email;
    const url = `/api/company/${company.id}/visitor-types`;
    expect((await call({ method: 'GET', url })).statusCode).toBe(401);
    expect(
      (await call({ method: 'POST', url, payload: typeBody(company.siteId) })).statusCode,
    ).toBe(401);

    // Bad input.
    const badColor = await call(
      { method: 'POST', url, payload: typeBody(company.siteId, { color: 'blue' }) },
      manager,
    );
    expect(badColor.statusCode).toBe(400);
    expect(badColor.json().errors.color).toBe(fr((m) => m.visitorType.colorInvalid));
    const badTime = await call(
      { method: 'POST', url, payload: typeBody(company.siteId, { auto_check_out_at: '25:00' }) },
      manager,
    );
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().errors.auto_check_out_at).toBe(fr((m) => m.visitorType.timeInvalid));
    const noName = await call(
      { method: 'POST', url, payload: typeBody(company.siteId, { name_fr: '  ' }) },
      manager,
    );
    expect(noName.statusCode).toBe(400);
    expect(noName.json().errors.name_fr).toBe(fr((m) => m.visitorType.required('name_fr')));

    // A role without the right (an employee reads the types, never changes them).
    expect(
      (
        await call(
          { method: 'POST', url, payload: typeBody(company.siteId) },
          staff.ROLE_EMPLOYEE.email,
        )
      ).statusCode,
    ).toBe(403);
    expect((await call({ method: 'GET', url }, staff.ROLE_EMPLOYEE.email)).statusCode).toBe(200);

    // A document of another site of the company: 400.
    const annex = await buildSite(ctx.db, { company });
    const otherDoc = await call(
      { method: 'POST', url: `/api/company/${company.id}/documents`, payload: docBody(annex.id) },
      manager,
    );
    expect(otherDoc.statusCode, otherDoc.body).toBe(201);
    const elsewhere = await call(
      {
        method: 'POST',
        url,
        payload: typeBody(company.siteId, {
          documents: [{ document_id: otherDoc.json().data.id, validity: 'visit' }],
        }),
      },
      manager,
    );
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().message).toBe(fr((m) => m.visitorType.documentOtherSite));
    // An archived document of the site: 400 too.
    const oldDoc = await call(
      {
        method: 'POST',
        url: `/api/company/${company.id}/documents`,
        payload: docBody(company.siteId),
      },
      manager,
    );
    await call(
      {
        method: 'POST',
        url: `/api/company/${company.id}/documents/${oldDoc.json().data.id}/archive`,
      },
      manager,
    );
    const archivedDoc = await call(
      {
        method: 'POST',
        url,
        payload: typeBody(company.siteId, {
          documents: [{ document_id: oldDoc.json().data.id, validity: 'version' }],
        }),
      },
      manager,
    );
    expect(archivedDoc.statusCode).toBe(400);
    expect(archivedDoc.json().message).toBe(fr((m) => m.visitorType.documentOtherSite));

    // Another company's site, or an archived site: 400 on site_id.
    const other = await buildCompany(ctx.db);
    const otherSite = await call({ method: 'POST', url, payload: typeBody(other.siteId) }, manager);
    expect(otherSite.statusCode).toBe(400);
    expect(otherSite.json().errors.site_id).toBe(fr((m) => m.site.choose));
    const closed = await buildSite(ctx.db, { company, archivedAt: new Date() });
    const atClosed = await call({ method: 'POST', url, payload: typeBody(closed.id) }, manager);
    expect(atClosed.statusCode).toBe(400);
    expect(atClosed.json().errors.site_id).toBe(fr((m) => m.site.archivedSite));

    // The same name twice at a site (whatever its case): 409; at another site, fine.
    const first = await call({ method: 'POST', url, payload: typeBody(company.siteId) }, manager);
    expect(first.statusCode).toBe(201);
    const again = await call(
      { method: 'POST', url, payload: typeBody(company.siteId, { name_fr: 'AUDITEUR' }) },
      manager,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(fr((m) => m.visitorType.nameTaken));
    expect(
      (await call({ method: 'POST', url, payload: typeBody(annex.id) }, manager)).statusCode,
    ).toBe(201);
    // A rename onto another type's name: 409 as well.
    const renamed = await call(
      { method: 'POST', url, payload: typeBody(company.siteId, { name_fr: 'Consultant' }) },
      manager,
    );
    const clash = await call(
      {
        method: 'PUT',
        url: `${url}/${renamed.json().data.id}`,
        payload: typeBody(company.siteId, { name_fr: 'auditeur' }),
      },
      manager,
    );
    expect(clash.statusCode).toBe(409);
    // A type stays at its site.
    const moved = await call(
      { method: 'PUT', url: `${url}/${renamed.json().data.id}`, payload: typeBody(annex.id) },
      manager,
    );
    expect(moved.statusCode).toBe(400);

    // Another company's type: 404 on every route, through either company's path.
    const [foreign] = await ctx.db
      .insert(visitorTypes)
      .values({
        companyId: other.id,
        siteId: other.siteId,
        nameFr: 'Étranger',
        nameEn: 'Foreign',
        color: '#000000',
      })
      .returning();
    for (const base of [`/api/company/${other.id}`, `/api/company/${company.id}`]) {
      const put = await call(
        {
          method: 'PUT',
          url: `${base}/visitor-types/${foreign!.id}`,
          payload: typeBody(other.siteId),
        },
        manager,
      );
      expect(put.statusCode).toBe(404);
      for (const action of ['archive', 'restore']) {
        expect(
          (
            await call(
              { method: 'POST', url: `${base}/visitor-types/${foreign!.id}/${action}` },
              manager,
            )
          ).statusCode,
        ).toBe(404);
      }
    }
    expect(
      (await call({ method: 'GET', url: `/api/company/${other.id}/visitor-types` }, manager))
        .statusCode,
    ).toBe(404);
    // Another company's site named in the list: 404.
    expect(
      (await call({ method: 'GET', url: `${url}?site=${other.siteId}` }, manager)).statusCode,
    ).toBe(404);
    // The platform's admin reaches it.
    const platform = await call(
      {
        method: 'PUT',
        url: `/api/company/${other.id}/visitor-types/${foreign!.id}`,
        payload: typeBody(other.siteId, { name_fr: 'Étranger', name_en: 'Foreign' }),
      },
      staff.ROLE_ADMIN.email,
    );
    expect(platform.statusCode, platform.body).toBe(200);
  });

  it('a site holds at most its limit of active types (409), restoring one included', async () => {
    const company = await buildCompany(ctx.db);
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const max = VISITOR_TYPE_LIMITS.maxTypesPerSite;
    await ctx.db.insert(visitorTypes).values(
      Array.from({ length: max }, (_, i) => ({
        companyId: company.id,
        siteId: company.siteId,
        nameFr: `Type ${i}`,
        nameEn: `Type ${i}`,
        color: '#123456',
        position: i,
        archivedAt: i === 0 ? new Date() : null,
      })),
    );
    const url = `/api/company/${company.id}/visitor-types`;
    // One archived: room for one more, last in order.
    const last = await call(
      { method: 'POST', url, payload: typeBody(company.siteId) },
      manager.email,
    );
    expect(last.statusCode, last.body).toBe(201);
    expect(last.json().data.position).toBe(max);
    const over = await call(
      { method: 'POST', url, payload: typeBody(company.siteId, { name_fr: 'Encore' }) },
      manager.email,
    );
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(fr((m) => m.visitorType.tooManyTypes(max)));
    const [archived] = await ctx.db
      .select()
      .from(visitorTypes)
      .where(and(eq(visitorTypes.siteId, company.siteId), eq(visitorTypes.nameFr, 'Type 0')));
    const restore = await call(
      { method: 'POST', url: `${url}/${archived!.id}/restore` },
      manager.email,
    );
    expect(restore.statusCode).toBe(409);
  });

  it("lists within the caller's site limits; a change at a site beyond them is a 403", async () => {
    const company = await buildCompany(ctx.db);
    const annex = await buildSite(ctx.db, { company });
    await ctx.db.insert(visitorTypes).values([
      {
        companyId: company.id,
        siteId: company.siteId,
        nameFr: 'Siège',
        nameEn: 'HQ',
        color: '#111111',
      },
      {
        companyId: company.id,
        siteId: annex.id,
        nameFr: 'Annexe',
        nameEn: 'Annex',
        color: '#222222',
      },
    ]);
    const limited = await buildUser(ctx.db, {
      company,
      role: 'ROLE_MANAGER',
      siteIds: [annex.id],
      homeSiteId: annex.id,
    });
    const everywhere = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    const url = `/api/company/${company.id}/visitor-types`;
    const mine = await call({ method: 'GET', url }, limited.email);
    expect(mine.json().data.map((t: VisitorType) => t.name_fr)).toEqual(['Annexe']);
    const all = await call({ method: 'GET', url }, everywhere.email);
    expect(all.json().data.map((t: VisitorType) => t.name_fr)).toEqual(['Siège', 'Annexe']);
    expect(
      (await call({ method: 'GET', url: `${url}?site=${company.siteId}` }, limited.email))
        .statusCode,
    ).toBe(404);
    const beyond = await call(
      { method: 'POST', url, payload: typeBody(company.siteId) },
      limited.email,
    );
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json().message).toBe(fr((m) => m.site.notYours));
    const [hq] = await ctx.db
      .select()
      .from(visitorTypes)
      .where(eq(visitorTypes.siteId, company.siteId));
    expect(
      (await call({ method: 'POST', url: `${url}/${hq!.id}/archive` }, limited.email)).statusCode,
    ).toBe(403);
  });

  it("the public list: a site's active types in order, with their documents in both languages", async () => {
    const company = await buildCompany(ctx.db);
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const doc = await call(
      {
        method: 'POST',
        url: `/api/company/${company.id}/documents`,
        payload: docBody(company.siteId),
      },
      manager.email,
    );
    const docId = doc.json().data.id as string;
    const url = `/api/company/${company.id}/visitor-types`;
    const contractor = await call(
      {
        method: 'POST',
        url,
        payload: typeBody(company.siteId, {
          name_fr: 'Prestataire',
          name_en: 'Contractor',
          documents: [{ document_id: docId, validity: 'version' }],
        }),
      },
      manager.email,
    );
    const gone = await call(
      { method: 'POST', url, payload: typeBody(company.siteId, { name_fr: 'Ancien' }) },
      manager.email,
    );
    await call({ method: 'POST', url: `${url}/${gone.json().data.id}/archive` }, manager.email);
    await call(
      {
        method: 'POST',
        url,
        payload: typeBody(company.siteId, { name_fr: 'Livreur', name_en: 'Courier' }),
      },
      manager.email,
    );
    // A new version: the public list shows it.
    await call(
      {
        method: 'PUT',
        url: `/api/company/${company.id}/documents/${docId}`,
        payload: docBody(company.siteId, { body_fr: 'Version 2.' }),
      },
      manager.email,
    );

    for (const query of [
      `company=${company.slug}`,
      `company=${company.id}&site=${company.siteId}`,
    ]) {
      const res = await as(
        ctx.app,
        null,
      )({ method: 'GET', url: `/api/public/visitor-types?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(data.map((t: { name_fr: string }) => t.name_fr)).toEqual(['Prestataire', 'Livreur']);
      expect(data[0]).toEqual({
        id: contractor.json().data.id,
        name_fr: 'Prestataire',
        name_en: 'Contractor',
        color: '#7048E8',
        required_fields: ['organisation', 'phone'],
        host_approval: true,
        documents: [
          {
            document_id: docId,
            version: 2,
            title_fr: 'Accord de confidentialité',
            title_en: 'Non-disclosure agreement',
            body_fr: 'Version 2.',
            body_en: '# Confidentiality\n\nI keep what I see to myself.',
          },
        ],
      });
      // Nothing of the staff's settings beyond what the steps need.
      expect(data[0]).not.toHaveProperty('auto_check_out_at');
    }

    // Several sites and none chosen: 400; an unknown company or another company's site.
    await buildSite(ctx.db, { company });
    const ambiguous = await as(
      ctx.app,
      null,
    )({
      method: 'GET',
      url: `/api/public/visitor-types?company=${company.slug}`,
    });
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json().message).toBe(fr((m) => m.site.choose));
    const unknown = await as(
      ctx.app,
      null,
    )({
      method: 'GET',
      url: '/api/public/visitor-types?company=no-such-company',
    });
    expect(unknown.statusCode).toBe(404);
    const other = await buildCompany(ctx.db);
    const foreignSite = await as(
      ctx.app,
      null,
    )({
      method: 'GET',
      url: `/api/public/visitor-types?company=${company.slug}&site=${other.siteId}`,
    });
    expect(foreignSite.statusCode).toBe(400);
    const malformed = await as(
      ctx.app,
      null,
    )({
      method: 'GET',
      url: `/api/public/visitor-types?company=${company.slug}&site=not-a-uuid`,
    });
    expect(malformed.statusCode).toBe(400);
  });

  it("checks a visitor out at their type's own time, else at the site's day end", async () => {
    // Paris in November is UTC+1: a 16:30 type time is 15:30Z, an 18:00 day end 17:00Z.
    const company = await buildCompany(ctx.db, { timezone: 'Europe/Paris', dayEnd: '18:00' });
    const [early, plain] = await ctx.db
      .insert(visitorTypes)
      .values([
        {
          companyId: company.id,
          siteId: company.siteId,
          nameFr: 'Entretien',
          nameEn: 'Interview',
          color: '#2F9E44',
          autoCheckOutAt: '16:30',
        },
        {
          companyId: company.id,
          siteId: company.siteId,
          nameFr: 'Visiteur',
          nameEn: 'Visitor',
          color: '#1971C2',
        },
      ])
      .returning();
    const open = async (typeId: string | null, at: string) => {
      const visitor = await buildVisitor(ctx.db, { company, visitorTypeId: typeId });
      const [row] = await ctx.db
        .insert(visitorChecks)
        .values({
          companyId: company.id,
          siteId: company.siteId,
          visitorId: visitor.id,
          checkInAt: new Date(at),
          checkInMethod: 'scan',
        })
        .returning();
      return row!;
    };
    const candidate = await open(early!.id, '2026-11-23T09:00:00Z');
    // Arrived after the type's time: the next day's.
    const late = await open(early!.id, '2026-11-23T16:00:00Z');
    const guest = await open(plain!.id, '2026-11-23T09:00:00Z');
    const untyped = await open(null, '2026-11-23T09:00:00Z');
    const checkOf = async (id: string) =>
      (await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.id, id)))[0]!;

    await autoCheckOut(ctx.db, new Date('2026-11-23T15:29:59Z'));
    expect((await checkOf(candidate.id)).checkOutAt).toBeNull();
    expect(await autoCheckOut(ctx.db, new Date('2026-11-23T15:30:30Z'))).toBe(1);
    expect(await checkOf(candidate.id)).toMatchObject({
      checkOutAt: new Date('2026-11-23T15:30:00Z'),
      checkOutMethod: 'automatic',
      checkOutBy: null,
    });
    expect((await checkOf(late.id)).checkOutAt).toBeNull();
    expect((await checkOf(guest.id)).checkOutAt).toBeNull();

    expect(await autoCheckOut(ctx.db, new Date('2026-11-23T17:00:30Z'))).toBe(2);
    expect((await checkOf(guest.id)).checkOutAt).toEqual(new Date('2026-11-23T17:00:00Z'));
    expect((await checkOf(untyped.id)).checkOutAt).toEqual(new Date('2026-11-23T17:00:00Z'));
    expect((await checkOf(late.id)).checkOutAt).toBeNull();
    await autoCheckOut(ctx.db, new Date('2026-11-24T15:30:30Z'));
    expect((await checkOf(late.id)).checkOutAt).toEqual(new Date('2026-11-24T15:30:00Z'));
  });

  it("the badge shows the visitor's type: its name in the badge's language, on a band of its colour", async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const [type] = await ctx.db
      .insert(visitorTypes)
      .values({
        companyId: company.id,
        siteId: company.siteId,
        nameFr: 'Prestataire',
        nameEn: 'Contractor',
        color: '#E8590C',
      })
      .returning();
    const badgeOf = async (values: { visitorTypeId?: string; language?: string }, query = '') => {
      const visitor = await buildVisitor(ctx.db, { company, ...values });
      const request = await buildRequest(ctx.db, {
        company,
        visitor,
        status: 1,
        confirmed: true,
      });
      return call(
        { method: 'GET', url: `/api/badges/${request.id}${query}` },
        staff.ROLE_SUPERVISOR.email,
      );
    };
    const typed = await badgeOf({ visitorTypeId: type!.id });
    expect(typed.statusCode, typed.body).toBe(200);
    expect(typed.body).toContain('>PRESTATAIRE<');
    expect(typed.body).not.toContain('>VISITEUR<');
    expect(typed.body).toContain('background: #E8590C');
    const english = await badgeOf({ visitorTypeId: type!.id, language: 'en' });
    expect(english.body).toContain('>CONTRACTOR<');
    // Without a type: today's band.
    const plain = await badgeOf({});
    expect(plain.body).toContain('>VISITEUR<');
    expect(plain.body).toContain('background: #1B3A6B; color: #FFFFFF');

    const pdf = await badgeOf({ visitorTypeId: type!.id }, '?format=pdf');
    expect(pdf.statusCode).toBe(200);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sesame-type-badge-'));
    try {
      const file = path.join(dir, 'badge.pdf');
      await writeFile(file, pdf.rawPayload);
      const text = (await run('pdftotext', [file, '-'])).stdout;
      expect(text).toContain('PRESTATAIRE');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a site's security contacts: set, read back, kept when left out, cleared", async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const admin = staff.ROLE_SUPER_ADMIN.email;
    const url = `/api/company/${company.id}/sites/${company.siteId}`;
    const set = await call(
      {
        method: 'PUT',
        url,
        payload: {
          security_emails: ['Securite@Acme.example', 'poste@acme.example', 'securite@acme.example'],
        },
      },
      admin,
    );
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.security_emails).toEqual([
      'securite@acme.example',
      'poste@acme.example',
    ]);
    const kept = await call({ method: 'PUT', url, payload: { name: 'Siège Plateau' } }, admin);
    expect(kept.json().data.security_emails).toEqual([
      'securite@acme.example',
      'poste@acme.example',
    ]);
    expect(
      (await call({ method: 'GET', url }, staff.ROLE_EMPLOYEE.email)).json().data.security_emails,
    ).toEqual(['securite@acme.example', 'poste@acme.example']);

    const wrong = await call(
      { method: 'PUT', url, payload: { security_emails: ['not-an-address'] } },
      admin,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(fr((m) => m.validation.emailInvalid));
    const tooMany = await call(
      {
        method: 'PUT',
        url,
        payload: { security_emails: Array.from({ length: 11 }, (_, i) => `s${i}@acme.example`) },
      },
      admin,
    );
    expect(tooMany.statusCode).toBe(400);

    const cleared = await call({ method: 'PUT', url, payload: { security_emails: [] } }, admin);
    expect(cleared.json().data.security_emails).toEqual([]);
    const created = await call(
      {
        method: 'POST',
        url: `/api/company/${company.id}/sites`,
        payload: { name: 'Annexe', timezone: 'UTC', security_emails: ['garde@acme.example'] },
      },
      admin,
    );
    expect(created.json().data.security_emails).toEqual(['garde@acme.example']);
    const [row] = await ctx.db.select().from(sites).where(eq(sites.id, created.json().data.id));
    expect(row!.securityEmails).toEqual(['garde@acme.example']);
  });

  it('deletes a site without history with its types and documents, and an empty company with its own', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const admin = staff.ROLE_SUPER_ADMIN.email;
    const annex = await call(
      {
        method: 'POST',
        url: `/api/company/${company.id}/sites`,
        payload: { name: 'Annexe', timezone: 'UTC' },
      },
      admin,
    );
    const annexId = annex.json().data.id as string;
    const doc = await call(
      { method: 'POST', url: `/api/company/${company.id}/documents`, payload: docBody(annexId) },
      admin,
    );
    await call(
      {
        method: 'PUT',
        url: `/api/company/${company.id}/documents/${doc.json().data.id}`,
        payload: docBody(annexId, { title_fr: 'Accord v2' }),
      },
      admin,
    );
    await call(
      {
        method: 'POST',
        url: `/api/company/${company.id}/visitor-types`,
        payload: typeBody(annexId, {
          documents: [{ document_id: doc.json().data.id, validity: 'visit' }],
        }),
      },
      admin,
    );
    const deleted = await call(
      { method: 'DELETE', url: `/api/company/${company.id}/sites/${annexId}` },
      admin,
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(
      await ctx.db.select().from(visitorTypes).where(eq(visitorTypes.siteId, annexId)),
    ).toEqual([]);
    expect(
      await ctx.db.select().from(siteDocuments).where(eq(siteDocuments.siteId, annexId)),
    ).toEqual([]);
    expect(
      await ctx.db
        .select()
        .from(documentVersions)
        .where(eq(documentVersions.documentId, doc.json().data.id)),
    ).toEqual([]);

    // An empty company made through the API (its main site has the defaults), a document and a type.
    const png = await qrPng('logo');
    const made = await call(
      {
        method: 'POST',
        url: '/api/company',
        ...multipart(companyFormFields({ name: `Vide ${Date.now()}`, id_number: 'RC-EMPTY' }), {
          logo: { filename: 'logo.png', contentType: 'image/png', bytes: png },
        }),
      },
      staff.ROLE_ADMIN.email,
    );
    const emptyId = made.json().data.id as string;
    const [main] = await ctx.db.select().from(sites).where(eq(sites.companyId, emptyId));
    const emptyDoc = await call(
      { method: 'POST', url: `/api/company/${emptyId}/documents`, payload: docBody(main!.id) },
      staff.ROLE_ADMIN.email,
    );
    expect(emptyDoc.statusCode, emptyDoc.body).toBe(201);
    await call(
      {
        method: 'POST',
        url: `/api/company/${emptyId}/visitor-types`,
        payload: typeBody(main!.id, {
          documents: [{ document_id: emptyDoc.json().data.id, validity: 'visit' }],
        }),
      },
      staff.ROLE_ADMIN.email,
    );
    const gone = await call(
      { method: 'DELETE', url: `/api/company/delete/${emptyId}` },
      staff.ROLE_ADMIN.email,
    );
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await ctx.db.select().from(companies).where(eq(companies.id, emptyId))).toEqual([]);
    expect(
      await ctx.db.select().from(visitorTypes).where(eq(visitorTypes.companyId, emptyId)),
    ).toEqual([]);
  });
});
