/**
 * Issue 31, a site's documents to sign on the server, on PGlite and PostgreSQL: written as
 * version 1; an edit that changes a title or a text writes the next version and one that
 * changes nothing writes none; each version read back exactly; archived, leaving the types
 * that listed it; every change audited; and the refusals (401, 400 with its message, 403,
 * 404 for another company's document or a version it never had).
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sayIn, type SiteDocument } from '@sesame/shared';
import { auditEvents, documentVersions, siteDocuments } from '../src/db/schema';
import { callAs, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildSite, buildTenant, buildUser } from './helpers/factories';

const fr = sayIn.bind(null, 'fr');
const en = sayIn.bind(null, 'en');
const ctx = useTestApp();
const call = callAs(ctx);

const docBody = (siteId: string, overrides: Record<string, unknown> = {}) => ({
  site_id: siteId,
  title_fr: 'Consignes de sécurité',
  title_en: 'Safety rules',
  body_fr: '# Sécurité\n\n- Portez votre badge.\n- Suivez votre hôte.',
  body_en: '# Safety\n\n- Wear your badge.\n- Follow your host.',
  ...overrides,
});

describe(`documents to sign (issue 31, ${testDatabaseKind})`, () => {
  it('writes version 1, a new version only when a text changes, and reads each version back', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const manager = staff.ROLE_MANAGER.email;
    const url = `/api/company/${company.slug}/documents`;
    const created = await call({ method: 'POST', url, payload: docBody(company.siteId) }, manager);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().message).toBe(fr((m) => m.visitorType.documentCreated));
    const doc = created.json().data as SiteDocument;
    expect(doc).toMatchObject({
      site_id: company.siteId,
      version: 1,
      title_fr: 'Consignes de sécurité',
      title_en: 'Safety rules',
      body_fr: '# Sécurité\n\n- Portez votre badge.\n- Suivez votre hôte.',
      archived: false,
      versions: [{ version: 1, created_at: expect.any(String) }],
    });

    // The same text again (trailing blanks of the titles trimmed): nothing changes.
    const same = await call(
      {
        method: 'PUT',
        url: `${url}/${doc.id}`,
        payload: docBody(company.siteId, { title_fr: '  Consignes de sécurité ' }),
      },
      manager,
    );
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().message).toBe(fr((m) => m.visitorType.documentUnchanged));
    expect(same.json().data).toMatchObject({ version: 1, versions: [{ version: 1 }] });

    // An English text changed: version 2, in the caller's language.
    const changed = await call(
      {
        method: 'PUT',
        url: `${url}/${doc.id}`,
        headers: { 'accept-language': 'en' },
        payload: docBody(company.siteId, { body_en: '# Safety\n\nWear your badge at all times.' }),
      },
      manager,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().message).toBe(en((m) => m.visitorType.documentUpdated(2)));
    expect(changed.json().data).toMatchObject({
      version: 2,
      body_en: '# Safety\n\nWear your badge at all times.',
      versions: [{ version: 1 }, { version: 2 }],
    });
    // A title changed: version 3.
    const retitled = await call(
      {
        method: 'PUT',
        url: `${url}/${doc.id}`,
        payload: docBody(company.siteId, {
          title_fr: 'Règles de sécurité',
          body_en: '# Safety\n\nWear your badge at all times.',
        }),
      },
      manager,
    );
    expect(retitled.json().message).toBe(fr((m) => m.visitorType.documentUpdated(3)));

    const v1 = await call({ method: 'GET', url: `${url}/${doc.id}/versions/1` }, manager);
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.json().data).toEqual({
      version: 1,
      title_fr: 'Consignes de sécurité',
      title_en: 'Safety rules',
      body_fr: '# Sécurité\n\n- Portez votre badge.\n- Suivez votre hôte.',
      body_en: '# Safety\n\n- Wear your badge.\n- Follow your host.',
      created_at: expect.any(String),
    });
    const v3 = await call({ method: 'GET', url: `${url}/${doc.id}/versions/3` }, manager);
    expect(v3.json().data).toMatchObject({ version: 3, title_fr: 'Règles de sécurité' });
    expect(
      (await call({ method: 'GET', url: `${url}/${doc.id}/versions/4` }, manager)).statusCode,
    ).toBe(404);

    const stored = await ctx.db
      .select()
      .from(documentVersions)
      .where(eq(documentVersions.documentId, doc.id));
    expect(stored.map((v) => v.version).sort()).toEqual([1, 2, 3]);
    expect(stored.every((v) => v.createdBy === staff.ROLE_MANAGER.id)).toBe(true);

    const entries = await ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.subjectId, doc.id))
      .orderBy(auditEvents.at, auditEvents.id);
    expect(entries.map((e) => [e.action, e.detail])).toEqual([
      ['document.created', { siteId: company.siteId, version: 1 }],
      ['document.versioned', { siteId: company.siteId, version: 2 }],
      ['document.versioned', { siteId: company.siteId, version: 3 }],
    ]);
  });

  it('archives a document: listed as archived, no longer asked by the types that listed it', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const manager = staff.ROLE_MANAGER.email;
    const base = `/api/company/${company.id}`;
    const doc = await call(
      { method: 'POST', url: `${base}/documents`, payload: docBody(company.siteId) },
      manager,
    );
    const docId = doc.json().data.id as string;
    const type = await call(
      {
        method: 'POST',
        url: `${base}/visitor-types`,
        payload: {
          site_id: company.siteId,
          name_fr: 'Prestataire',
          name_en: 'Contractor',
          color: '#E8590C',
          documents: [{ document_id: docId, validity: 'visit' }],
        },
      },
      manager,
    );
    expect(type.json().data.documents).toHaveLength(1);

    const archived = await call(
      { method: 'POST', url: `${base}/documents/${docId}/archive` },
      manager,
    );
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json()).toMatchObject({
      message: fr((m) => m.visitorType.documentArchived),
      data: { id: docId, archived: true, version: 1 },
    });
    const list = await call(
      { method: 'GET', url: `${base}/documents?site=${company.siteId}` },
      manager,
    );
    expect(list.json().data).toEqual([expect.objectContaining({ id: docId, archived: true })]);
    const types = await call(
      { method: 'GET', url: `${base}/visitor-types?site=${company.siteId}` },
      manager,
    );
    expect(types.json().data[0].documents).toEqual([]);
    const publicTypes = await call({
      method: 'GET',
      url: `/api/public/visitor-types?company=${company.slug}`,
    });
    expect(publicTypes.json().data[0].documents).toEqual([]);
    // Its versions stay readable.
    expect(
      (await call({ method: 'GET', url: `${base}/documents/${docId}/versions/1` }, manager))
        .statusCode,
    ).toBe(200);
    const entries = await ctx.db.select().from(auditEvents).where(eq(auditEvents.subjectId, docId));
    expect(entries.map((e) => e.action).sort()).toEqual(['document.archived', 'document.created']);
  });

  it("lists a company's documents, one site's with ?site=, within the caller's limits", async () => {
    const company = await buildCompany(ctx.db);
    const annex = await buildSite(ctx.db, { company });
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const limited = await buildUser(ctx.db, {
      company,
      role: 'ROLE_MANAGER',
      siteIds: [annex.id],
      homeSiteId: annex.id,
    });
    const url = `/api/company/${company.id}/documents`;
    await call(
      { method: 'POST', url, payload: docBody(company.siteId, { title_fr: 'Siège' }) },
      manager.email,
    );
    await call(
      { method: 'POST', url, payload: docBody(annex.id, { title_fr: 'Annexe' }) },
      manager.email,
    );
    const titles = (res: { json: () => { data: SiteDocument[] } }) =>
      res.json().data.map((d) => d.title_fr);
    expect(titles(await call({ method: 'GET', url }, manager.email))).toEqual(['Siège', 'Annexe']);
    expect(
      titles(await call({ method: 'GET', url: `${url}?site=${annex.id}` }, manager.email)),
    ).toEqual(['Annexe']);
    expect(titles(await call({ method: 'GET', url }, limited.email))).toEqual(['Annexe']);
    expect(
      (await call({ method: 'GET', url: `${url}?site=${company.siteId}` }, limited.email))
        .statusCode,
    ).toBe(404);
    // A document at a site beyond the caller's limits: 403 to change, 404 to read a version.
    const [hq] = await ctx.db
      .select()
      .from(siteDocuments)
      .where(eq(siteDocuments.siteId, company.siteId));
    const put = await call(
      { method: 'PUT', url: `${url}/${hq!.id}`, payload: docBody(company.siteId) },
      limited.email,
    );
    expect(put.statusCode).toBe(403);
    expect(put.json().message).toBe(fr((m) => m.site.notYours));
    expect(
      (await call({ method: 'POST', url, payload: docBody(company.siteId) }, limited.email))
        .statusCode,
    ).toBe(403);
    expect(
      (await call({ method: 'GET', url: `${url}/${hq!.id}/versions/1` }, limited.email)).statusCode,
    ).toBe(404);
  });

  it('refuses: 401, 400 with its message, 403, 404 for another company', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const manager = staff.ROLE_MANAGER.email;
    const url = `/api/company/${company.id}/documents`;
    expect((await call({ method: 'GET', url })).statusCode).toBe(401);
    expect((await call({ method: 'POST', url, payload: docBody(company.siteId) })).statusCode).toBe(
      401,
    );

    const noTitle = await call(
      { method: 'POST', url, payload: docBody(company.siteId, { title_en: '' }) },
      manager,
    );
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().errors.title_en).toBe(fr((m) => m.visitorType.required('title_en')));
    const noBody = await call(
      { method: 'POST', url, payload: docBody(company.siteId, { body_fr: ' \n ' }) },
      manager,
    );
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().errors.body_fr).toBe(fr((m) => m.visitorType.bodyRequired));
    const tab = await call(
      { method: 'POST', url, payload: docBody(company.siteId, { body_fr: 'a\tb' }) },
      manager,
    );
    expect(tab.statusCode).toBe(400);

    // Roles without visitorTypes.manage: a host, a supervisor.
    for (const role of ['ROLE_EMPLOYEE', 'ROLE_SUPERVISOR', 'ROLE_USER'] as const) {
      expect((await call({ method: 'GET', url }, staff[role].email)).statusCode, role).toBe(403);
      expect(
        (await call({ method: 'POST', url, payload: docBody(company.siteId) }, staff[role].email))
          .statusCode,
        role,
      ).toBe(403);
    }

    // Another company's site: 400; another company's document: 404 on every route.
    const other = await buildCompany(ctx.db);
    const atOther = await call({ method: 'POST', url, payload: docBody(other.siteId) }, manager);
    expect(atOther.statusCode).toBe(400);
    expect(atOther.json().errors.site_id).toBe(fr((m) => m.site.choose));
    const otherAdmin = await buildUser(ctx.db, { company: other, role: 'ROLE_SUPER_ADMIN' });
    const foreign = await call(
      {
        method: 'POST',
        url: `/api/company/${other.id}/documents`,
        payload: docBody(other.siteId),
      },
      otherAdmin.email,
    );
    expect(foreign.statusCode, foreign.body).toBe(201);
    const foreignId = foreign.json().data.id as string;
    for (const base of [`/api/company/${other.id}`, `/api/company/${company.id}`]) {
      expect(
        (
          await call(
            {
              method: 'PUT',
              url: `${base}/documents/${foreignId}`,
              payload: docBody(other.siteId),
            },
            manager,
          )
        ).statusCode,
      ).toBe(404);
      expect(
        (await call({ method: 'POST', url: `${base}/documents/${foreignId}/archive` }, manager))
          .statusCode,
      ).toBe(404);
      expect(
        (await call({ method: 'GET', url: `${base}/documents/${foreignId}/versions/1` }, manager))
          .statusCode,
      ).toBe(404);
    }
    // A document stays at its site.
    const mine = await call({ method: 'POST', url, payload: docBody(company.siteId) }, manager);
    const annex = await buildSite(ctx.db, { company });
    const moved = await call(
      { method: 'PUT', url: `${url}/${mine.json().data.id}`, payload: docBody(annex.id) },
      manager,
    );
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors.site_id).toBe(fr((m) => m.site.choose));
    // The platform's roles reach another company's document.
    const platform = await call(
      { method: 'GET', url: `/api/company/${other.id}/documents/${foreignId}/versions/1` },
      staff.ROLE_SESAME.email,
    );
    expect(platform.statusCode, platform.body).toBe(200);
  });
});
