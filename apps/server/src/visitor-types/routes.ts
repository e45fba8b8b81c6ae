/**
 * `/api/company/{id}/visitor-types` (issue 31): a company's visitor types, read by every
 * staff member within their site limits ('visitorTypes.list': an invitation names one),
 * created, edited, archived and restored by the sites' managers ('visitorTypes.manage').
 * Another company's type is a 404; a site beyond the caller's limits a 403 (`site.notYours`).
 * The public form reads a site's active types at `/api/public/visitor-types`.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyParams } from '../params';
import {
  TEXT_MAX,
  publicVisitorTypeSchema,
  uuidSchema,
  visitorTypeInputSchema,
  visitorTypeListQuerySchema,
  visitorTypeSchema,
} from '@sesame/shared';
import { companyItself, loadAuthorized } from '../auth/authorize';
import { findCompany } from '../companies/service';
import { notFound } from '../errors';
import { publicVisitorTypes } from '../kiosks/service';
import { say } from '../language';
import { assertWithinSites, siteForNewRecord, siteScope } from '../sites/service';
import { presentVisitorType } from './presenter';
import {
  archiveVisitorType,
  createVisitorType,
  documentsOfTypes,
  findVisitorType,
  listVisitorTypes,
  restoreVisitorType,
  typeSite,
  updateVisitorType,
} from './service';
import type { VisitorTypeRow } from './steps';

const typeParams = companyParams.extend({ typeId: uuidSchema });
const typeAnswer = z.object({ message: z.string(), data: visitorTypeSchema });
const publicQuery = z.object({
  /** The company's slug or id. */
  company: z.string().min(1).max(TEXT_MAX.slug),
  /** One of its active sites; left out: its only one. */
  site: uuidSchema.optional(),
});

export const visitorTypeRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;

  /** The company of the path, within the caller's reach for the route's right (else 404). */
  const companyOf = async (request: FastifyRequest, id: string) =>
    (await loadAuthorized(request, findCompany, id, { companyOf: companyItself })).record;

  /** The type of the path: the path's company's own (else 404), at a site the caller acts at (else 403). */
  const typeOf = async (request: FastifyRequest, params: { id: string; typeId: string }) => {
    const company = await companyOf(request, params.id);
    const { who, record } = await loadAuthorized(request, findVisitorType, params.typeId);
    if (record.companyId !== company.id) throw notFound();
    assertWithinSites(who, { id: record.siteId, companyId: record.companyId });
    return { who, type: record };
  };

  const present = async (row: VisitorTypeRow) =>
    presentVisitorType(row, (await documentsOfTypes(app.db, [row.id])).get(row.id) ?? []);

  app.get(
    '/company/:id/visitor-types',
    {
      config: { action: 'visitorTypes.list' },
      schema: {
        tags: ['visitor-types'],
        summary:
          "A company's visitor types (its id or slug), site by site in each site's order, with the documents " +
          'each asks to sign; ?site= one site, ?archived=1 the archived types too. Within the caller’s site limits.',
        params: companyParams,
        querystring: visitorTypeListQuerySchema,
        response: { 200: z.object({ data: z.array(visitorTypeSchema) }) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const scope = await siteScope(
        app.db,
        request.principal!,
        'visitorTypes.list',
        company.id,
        request.query.site,
      );
      const rows = await listVisitorTypes(app.db, company.id, scope, {
        archived: request.query.archived === '1',
      });
      const documents = await documentsOfTypes(
        app.db,
        rows.map((row) => row.id),
      );
      return { data: rows.map((row) => presentVisitorType(row, documents.get(row.id) ?? [])) };
    },
  );

  app.post(
    '/company/:id/visitor-types',
    {
      config: { action: 'visitorTypes.manage' },
      schema: {
        tags: ['visitor-types'],
        summary:
          'Creates a visitor type at an active site of the company, last in its order: names, band colour, ' +
          'required fields, host approval, automatic check-out, documents to sign (active ones of that site). ' +
          '409 for a name the site already has or a site at its most types.',
        params: companyParams,
        body: visitorTypeInputSchema,
        response: { 201: typeAnswer },
      },
    },
    async (request, reply) => {
      const company = await companyOf(request, request.params.id);
      const who = request.principal!;
      const site = await typeSite(app.db, company.id, request.body);
      assertWithinSites(who, site);
      const row = await createVisitorType(app.db, site, request.body, who.userId);
      reply.code(201);
      return { message: say(request, (m) => m.visitorType.created), data: await present(row) };
    },
  );

  app.put(
    '/company/:id/visitor-types/:typeId',
    {
      config: { action: 'visitorTypes.manage' },
      schema: {
        tags: ['visitor-types'],
        summary:
          'Edits a visitor type (every field; it stays at its site). Its documents are those listed, in order.',
        params: typeParams,
        body: visitorTypeInputSchema,
        response: { 200: typeAnswer },
      },
    },
    async (request) => {
      const { who, type } = await typeOf(request, request.params);
      const row = await updateVisitorType(app.db, type, request.body, who.userId);
      return { message: say(request, (m) => m.visitorType.updated), data: await present(row) };
    },
  );

  app.post(
    '/company/:id/visitor-types/:typeId/archive',
    {
      config: { action: 'visitorTypes.manage' },
      schema: {
        tags: ['visitor-types'],
        summary: 'Archives a visitor type: it leaves the forms; the visits that named it keep it.',
        params: typeParams,
        response: { 200: typeAnswer },
      },
    },
    async (request) => {
      const { who, type } = await typeOf(request, request.params);
      const row = await archiveVisitorType(app.db, type, who.userId);
      return { message: say(request, (m) => m.visitorType.archived), data: await present(row) };
    },
  );

  app.post(
    '/company/:id/visitor-types/:typeId/restore',
    {
      config: { action: 'visitorTypes.manage' },
      schema: {
        tags: ['visitor-types'],
        summary:
          'Makes an archived visitor type active again (409 when its site has its most types).',
        params: typeParams,
        response: { 200: typeAnswer },
      },
    },
    async (request) => {
      const { who, type } = await typeOf(request, request.params);
      const row = await restoreVisitorType(app.db, type, who.userId);
      return { message: say(request, (m) => m.visitorType.restored), data: await present(row) };
    },
  );

  app.get(
    '/public/visitor-types',
    {
      config: {
        public: true,
        rateLimit: { max: limits.codeLookupPerWindow, timeWindow: limits.windowMs },
      },
      schema: {
        tags: ['visitor-types'],
        summary:
          "A site's active visitor types as the visitor form shows them (public): ?company= its slug or id, " +
          "?site= one of its active sites (left out: the company's only one, else 400). In order, each with " +
          'its documents to sign at their current version, in French and English.',
        querystring: publicQuery,
        response: { 200: z.object({ data: z.array(publicVisitorTypeSchema) }) },
      },
    },
    async (request) => {
      const company = await findCompany(app.db, request.query.company);
      if (!company) throw notFound();
      const site = await siteForNewRecord(app.db, company.id, request.query.site);
      return { data: await publicVisitorTypes(app.db, site.id) };
    },
  );
};
