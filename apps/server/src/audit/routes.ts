import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditListEntrySchema, auditQuerySchema, catalogue, paginatedSchema } from '@sesame/shared';
import { companyScope, signedIn } from '../auth/authorize';
import { csvField, EXPORT_MAX_ROWS, sendCsv } from '../checkins/csv';
import { listMeta } from '../db/pagination';
import { presentAuditEntry } from './presenter';
import { auditActors, listAudit } from './service';

/** The audit log (issue 16): read-only routes; no route updates or deletes an entry. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit',
    {
      config: { action: 'audit.list' },
      schema: {
        tags: ['audit'],
        summary:
          "The audit log, newest first: identity documents viewed and staff changes. A company's admin-side staff see " +
          'their company; the platform admin every company (or one, `company`). Each entry names its actor (name, ' +
          'role, company) and its subject (a name where it has one; `subject_state` says when it was anonymised or ' +
          "is gone, without a name), as they are now. `q` finds the actor's and the subject's names (either order, " +
          'case and accents ignored), e-mail addresses and the action; ' +
          "filtered by actor, action, period and origin (`by=platform`: what the Sésame platform's own staff, " +
          'acting from another company, did to the company, each such entry `by_platform`; ' +
          '`by=company`: the rest), paged.',
        querystring: auditQuerySchema,
        response: { 200: paginatedSchema(auditListEntrySchema) },
      },
    },
    async (request) => {
      const who = signedIn(request);
      const { rows, total } = await listAudit(
        app.db,
        request.query,
        companyScope(who, 'audit.list'),
      );
      return { data: rows.map(presentAuditEntry), meta: listMeta(request.query, total) };
    },
  );

  app.get(
    '/audit/actors',
    {
      config: { action: 'audit.list' },
      schema: {
        tags: ['audit'],
        summary:
          "The staff members who appear in the caller's audit log (the actor filter's choices).",
        response: {
          200: z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })) }),
        },
      },
    },
    async (request) => {
      const who = signedIn(request);
      const actors = await auditActors(app.db, companyScope(who, 'audit.list'));
      return { data: actors.map((a) => ({ id: a.id, name: `${a.firstname} ${a.name}` })) };
    },
  );

  app.get(
    '/audit/export',
    {
      config: { action: 'audit.list' },
      schema: {
        tags: ['audit'],
        summary: `The filtered audit log as CSV (French Excel: UTF-8 with BOM, semicolons), at most ${EXPORT_MAX_ROWS} rows.`,
        querystring: auditQuerySchema.omit({ page: true, per_page: true }),
      },
    },
    async (request, reply) => {
      const who = signedIn(request);
      const query = { ...request.query, page: 1, per_page: EXPORT_MAX_ROWS };
      const { rows } = await listAudit(
        app.db,
        query,
        companyScope(who, 'audit.list'),
        EXPORT_MAX_ROWS,
        0,
      );
      const words = catalogue(request.lang).csv.audit;
      const lines = rows.map((row) =>
        [
          row.at.toISOString(),
          row.companyName,
          row.actorName ?? (row.actorUserId ? row.actorUserId : words.system),
          row.byPlatform ? words.platform : '',
          row.action,
          row.subjectType,
          row.subjectId,
          row.detail ? JSON.stringify(row.detail) : '',
        ]
          .map(csvField)
          .join(';'),
      );
      const stamp = new Date().toISOString().slice(0, 10);
      return sendCsv(
        reply,
        `${words.fileName}-${stamp}.csv`,
        `\uFEFF${[words.header.map(csvField).join(';'), ...lines].join('\r\n')}\r\n`,
      );
    },
  );
};
