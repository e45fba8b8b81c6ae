import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  RETENTION_SHORTENING_DELAY_DAYS,
  TEXT_MAX,
  defaultPrivacyNotice,
  erasurePreviewSchema,
  retentionSettingsResponseSchema,
  retentionSettingsSchemaFor,
  type RetentionSettingsResponse,
} from '@sesame/shared';
import { audit } from '../audit/service';
import { companyItself, loadAuthorized } from '../auth/authorize';
import { findCompany, type CompanyRow } from '../companies/service';
import { loadCompany } from '../companies/load';
import { companies } from '../db/schema';
import { notFound } from '../errors';
import { erasePerson, erasurePreview, exportPerson, findPerson, type PersonKind } from './rights';
import { exportDisposition } from './export-name';
import { pendingOnWire, periodsOf, planPeriods } from './periods';
import { say } from '../language';

/** The settings as the screen reads them: the periods in force, those to come, the floor. */
function settingsOf(company: CompanyRow, auditMinDays: number): RetentionSettingsResponse {
  const { inForce, pending } = periodsOf(company, auditMinDays);
  return {
    ...inForce,
    pending: pendingOnWire(pending),
    audit_min_days: auditMinDays,
    shortening_delay_days: RETENTION_SHORTENING_DELAY_DAYS,
    privacy_notice: company.privacyNotice,
    privacy_notice_en: company.privacyNoticeEn,
    notice_text: company.privacyNotice?.trim() || defaultPrivacyNotice(company.name, inForce),
    notice_text_en:
      company.privacyNoticeEn?.trim() || defaultPrivacyNotice(company.name, inForce, 'en'),
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
  const auditMinDays = app.config.auditMinDays;

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
      return { data: settingsOf(record, auditMinDays) };
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
          'history, audit log, signed documents after signing) and the privacy notice (empty: the default text, filled from the periods). A longer ' +
          'period applies at once; a shorter one waits 7 days (`pending`, with the instant it applies). The audit ' +
          "log's period is refused under the operator's floor (AUDIT_MIN_DAYS). Audited.",
        params: companyParams,
        body: retentionSettingsSchemaFor(auditMinDays),
        response: { 200: z.object({ message: z.string(), data: retentionSettingsResponseSchema }) },
      },
    },
    async (request) => {
      const body = request.body;
      const { updated, shortened } = await app.db.transaction(async (tx) => {
        const { who, record: found } = await loadAuthorized(
          request,
          (_db, key: string) => findCompany(tx, key),
          request.params.id,
          { companyOf: companyItself },
        );
        // Two saves at once plan one after the other, each against what the other wrote.
        await tx.execute(sql`select 1 from companies where id = ${found.id} for update`);
        const record = (await findCompany(tx, found.id)) ?? found;
        const planned = planPeriods(record, body);
        const notice = body.privacy_notice?.trim() ? body.privacy_notice.trim() : null;
        const noticeEn = body.privacy_notice_en?.trim() ? body.privacy_notice_en.trim() : null;
        await tx
          .update(companies)
          .set({ ...planned.values, privacyNotice: notice, privacyNoticeEn: noticeEn })
          .where(eq(companies.id, record.id));
        // In the same transaction as the change; the audit floor (at least 30 days, past the
        // 7-day delay) keeps this entry through every purge the change causes.
        await audit(tx, {
          companyId: record.id,
          actorUserId: who.userId,
          action: 'retention.changed',
          subjectType: 'company',
          subjectId: record.id,
          detail: {
            ...planned.detail,
            noticeChanged:
              (record.privacyNotice ?? '') !== (notice ?? '') ||
              (record.privacyNoticeEn ?? '') !== (noticeEn ?? ''),
          },
        });
        const fresh = await findCompany(tx, record.id);
        if (!fresh) throw notFound();
        return { updated: fresh, shortened: planned.shortened };
      });
      const message = shortened
        ? say(request, (m) => m.privacy.retentionSavedShortened(RETENTION_SHORTENING_DELAY_DAYS))
        : say(request, (m) => m.privacy.retentionSaved);
      return { message, data: settingsOf(updated, auditMinDays) };
    },
  );

  app.get(
    '/public/privacy-notice/:slug',
    {
      config: { public: true },
      schema: {
        tags: ['privacy'],
        summary:
          "The privacy notice a company's visitor and event forms show, in the form's language (`lang`, " +
          'French by default), filled from its retention settings (public).',
        params: z.object({ slug: z.string().max(TEXT_MAX.slug) }),
        querystring: z.object({ lang: z.enum(['fr', 'en']).optional() }),
        response: { 200: z.object({ notice: z.string() }) },
      },
    },
    async (request) => {
      const company = await findCompany(app.db, request.params.slug);
      if (!company || company.archivedAt) throw notFound();
      const settings = settingsOf(company, auditMinDays);
      // Issue 27: the visitor accepts a text they can read.
      return {
        notice: request.query.lang === 'en' ? settings.notice_text_en : settings.notice_text,
      };
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
          'as a ZIP: donnees.json and the documents, named after the person and the day (sesame-donnees-awa-kone-2026-11-27.zip). Audited.',
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
        .header('content-disposition', await exportDisposition(app.db, person, request.lang))
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
