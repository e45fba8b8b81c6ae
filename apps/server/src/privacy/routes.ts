import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  TEXT_MAX,
  defaultPrivacyNotice,
  erasurePreviewSchema,
  retentionSettingsResponseSchema,
  retentionSettingsSchema,
} from '@sesame/shared';
import { audit } from '../audit/service';
import { companyItself, loadAuthorized } from '../auth/authorize';
import { findCompany, type CompanyRow } from '../companies/service';
import { loadCompany } from '../companies/load';
import { companies } from '../db/schema';
import { notFound } from '../errors';
import { erasePerson, erasurePreview, exportPerson, findPerson, type PersonKind } from './rights';
import { say } from '../language';

function settingsOf(company: CompanyRow) {
  const days = {
    documents_days: company.retentionDocumentsDays,
    identity_days: company.retentionIdentityDays,
    checks_days: company.retentionChecksDays,
    audit_days: company.retentionAuditDays,
  };
  return {
    ...days,
    privacy_notice: company.privacyNotice,
    notice_text: company.privacyNotice?.trim() || defaultPrivacyNotice(company.name, days),
  };
}

/** A person by their record's id, or by their code (the meeting card knows only the code). */
const personParams = z.object({
  kind: z.enum(['visitor', 'qr_user']),
  id: z.string().min(1).max(TEXT_MAX.code),
});

/** Retention settings and privacy notice; a person's export and erasure (issue 16). */
export const privacyRoutes: FastifyPluginAsyncZod = async (app) => {
  const companyParams = z.object({ id: z.string().max(TEXT_MAX.slug) });

  app.get(
    '/company/:id/privacy',
    {
      config: { action: 'privacy.settings' },
      schema: {
        tags: ['privacy'],
        summary: "A company's retention periods (days) and privacy notice ('Confidentialité').",
        params: companyParams,
        response: { 200: z.object({ data: retentionSettingsResponseSchema }) },
      },
    },
    async (request) => {
      const { record } = await loadCompany(request, request.params.id);
      return { data: settingsOf(record) };
    },
  );

  app.put(
    '/company/:id/privacy',
    {
      config: { action: 'privacy.settings' },
      schema: {
        tags: ['privacy'],
        summary:
          'Sets the retention periods (documents and photos after the visit, identity after the last visit, check ' +
          'history, audit log) and the privacy notice (empty: the default text, filled from the periods). Audited.',
        params: companyParams,
        body: retentionSettingsSchema,
        response: { 200: z.object({ message: z.string(), data: retentionSettingsResponseSchema }) },
      },
    },
    async (request) => {
      const body = request.body;
      const updated = await app.db.transaction(async (tx) => {
        const { who, record } = await loadAuthorized(
          request,
          (_db, key: string) => findCompany(tx, key),
          request.params.id,
          { companyOf: companyItself },
        );
        await tx
          .update(companies)
          .set({
            retentionDocumentsDays: body.documents_days,
            retentionIdentityDays: body.identity_days,
            retentionChecksDays: body.checks_days,
            retentionAuditDays: body.audit_days,
            privacyNotice: body.privacy_notice?.trim() ? body.privacy_notice.trim() : null,
          })
          .where(eq(companies.id, record.id));
        const before = settingsOf(record);
        await audit(tx, {
          companyId: record.id,
          actorUserId: who.userId,
          action: 'retention.changed',
          subjectType: 'company',
          subjectId: record.id,
          detail: {
            documentsDays: [before.documents_days, body.documents_days].join('→'),
            identityDays: [before.identity_days, body.identity_days].join('→'),
            checksDays: [before.checks_days, body.checks_days].join('→'),
            auditDays: [before.audit_days, body.audit_days].join('→'),
            noticeChanged: (record.privacyNotice ?? '') !== (body.privacy_notice?.trim() ?? ''),
          },
        });
        const fresh = await findCompany(tx, record.id);
        if (!fresh) throw notFound();
        return fresh;
      });
      return { message: say(request, (m) => m.privacy.retentionSaved), data: settingsOf(updated) };
    },
  );

  app.get(
    '/public/privacy-notice/:slug',
    {
      config: { public: true },
      schema: {
        tags: ['privacy'],
        summary:
          "The privacy notice a company's visitor and event forms show, filled from its retention settings (public).",
        params: z.object({ slug: z.string().max(TEXT_MAX.slug) }),
        response: { 200: z.object({ notice: z.string() }) },
      },
    },
    async (request) => {
      const company = await findCompany(app.db, request.params.slug);
      if (!company || company.archivedAt) throw notFound();
      return { notice: settingsOf(company).notice_text };
    },
  );

  const findPersonOf = (kind: PersonKind) => (db: Parameters<typeof findPerson>[0], id: string) =>
    findPerson(db, kind, id);

  app.get(
    '/privacy/:kind/:id/erasure',
    {
      config: { action: 'privacy.rights' },
      schema: {
        tags: ['privacy'],
        summary: "What erasing this person removes (the confirmation's counts).",
        params: personParams,
        response: { 200: z.object({ data: erasurePreviewSchema }) },
      },
    },
    async (request) => {
      const { record: person } = await loadAuthorized(
        request,
        findPersonOf(request.params.kind),
        request.params.id,
      );
      return { data: await erasurePreview(app.db, person) };
    },
  );

  app.get(
    '/privacy/:kind/:id/export',
    {
      config: { action: 'privacy.rights' },
      schema: {
        tags: ['privacy'],
        summary:
          'Everything Sésame holds about this person (profile, requests, checks, mails, documents, who viewed them) ' +
          'as a ZIP: donnees.json and the documents. Audited.',
        params: personParams,
      },
    },
    async (request, reply) => {
      const { who, record: person } = await loadAuthorized(
        request,
        findPersonOf(request.params.kind),
        request.params.id,
      );
      const zip = await exportPerson(app.db, app.storage, person);
      await audit(app.db, {
        companyId: person.companyId,
        actorUserId: who.userId,
        action: 'person.exported',
        subjectType: person.kind,
        subjectId: person.id,
        detail: { records: person.ids.length },
      });
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', 'attachment; filename="donnees-personnelles.zip"')
        .header('cache-control', 'no-store')
        .send(Buffer.from(zip));
    },
  );

  app.post(
    '/privacy/:kind/:id/erase',
    {
      config: { action: 'privacy.rights' },
      schema: {
        tags: ['privacy'],
        summary:
          'Erases this person at once: their records, requests, mails and documents are deleted; their checks ' +
          'remain as anonymous daily counts. Audited (counts only).',
        params: personParams,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const erased = await app.db.transaction(async (tx) => {
        const { who, record: person } = await loadAuthorized(
          request,
          (_db, id: string) => findPerson(tx, request.params.kind, id),
          request.params.id,
        );
        const result = await erasePerson(tx, person);
        await audit(tx, {
          companyId: person.companyId,
          actorUserId: who.userId,
          action: 'person.erased',
          subjectType: person.kind,
          subjectId: person.id,
          detail: result.counts,
        });
        return result;
      });
      await Promise.all(erased.storedNames.map((name) => app.storage.remove(name)));
      request.log.info({ ...erased.counts }, 'person erased');
      return { message: say(request, (m) => m.privacy.erased) };
    },
  );
};
