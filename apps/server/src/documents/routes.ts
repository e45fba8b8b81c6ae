/**
 * `/api/company/{id}/documents` (issue 31): a site's documents to sign, written, versioned
 * and archived by the sites' managers ('visitorTypes.manage'), each version readable. Another
 * company's document is a 404; a site beyond the caller's limits a 403 (`site.notYours`) on a
 * change and a 404 on a read, as for every list with a place.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyParams } from '../params';
import { documentInputSchema, siteDocumentSchema, uuidSchema } from '@sesame/shared';
import { companyItself, loadAuthorized } from '../auth/authorize';
import { findCompany } from '../companies/service';
import { notFound } from '../errors';
import { say } from '../language';
import { assertWithinSites, siteScope, withinSites } from '../sites/service';
import { presentDocument, presentVersion } from './presenter';
import {
  archiveDocument,
  createDocument,
  documentSite,
  documentVersion,
  documentWithVersions,
  findDocument,
  listDocuments,
  updateDocument,
} from './service';

const documentParams = companyParams.extend({ docId: uuidSchema });
const versionParams = documentParams.extend({ version: z.coerce.number().int().min(1).max(1e6) });
const documentAnswer = z.object({ message: z.string(), data: siteDocumentSchema });
const versionSchema = z.object({
  version: z.number().int(),
  title_fr: z.string(),
  title_en: z.string(),
  body_fr: z.string(),
  body_en: z.string(),
  created_at: z.string(),
});

export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The company of the path, within the caller's reach for the route's right (else 404). */
  const companyOf = async (request: FastifyRequest, id: string) =>
    (await loadAuthorized(request, findCompany, id, { companyOf: companyItself })).record;

  /** The document of the path: the path's company's own (else 404). */
  const documentOf = async (request: FastifyRequest, params: { id: string; docId: string }) => {
    const company = await companyOf(request, params.id);
    const { who, record } = await loadAuthorized(request, findDocument, params.docId);
    if (record.companyId !== company.id) throw notFound();
    return { who, document: record };
  };

  /** The document of the path, to change: at a site the caller acts at (else 403). */
  const documentToChange = async (
    request: FastifyRequest,
    params: { id: string; docId: string },
  ) => {
    const found = await documentOf(request, params);
    assertWithinSites(found.who, {
      id: found.document.siteId,
      companyId: found.document.companyId,
    });
    return found;
  };

  app.get(
    '/company/:id/documents',
    {
      config: { action: 'visitorTypes.manage' },
      schema: {
        tags: ['visitor-types'],
        summary:
          "A company's documents to sign (its id or slug), archived ones too, each with its current text and " +
          'its list of versions; ?site= one site. Within the caller’s site limits.',
        params: companyParams,
        querystring: z.object({ site: uuidSchema.optional() }),
        response: { 200: z.object({ data: z.array(siteDocumentSchema) }) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const scope = await siteScope(
        app.db,
        request.principal!,
        'visitorTypes.manage',
        company.id,
        request.query.site,
      );
      const rows = await listDocuments(app.db, company.id, scope);
      return { data: rows.map(presentDocument) };
    },
  );

  app.post(
    '/company/:id/documents',
    {
      config: { action: 'visitorTypes.manage' },
      schema: {
        tags: ['visitor-types'],
        summary:
          'Creates a document at an active site of the company: its title and Markdown text in French and ' +
          'English, version 1.',
        params: companyParams,
        body: documentInputSchema,
        response: { 201: documentAnswer },
      },
    },
    async (request, reply) => {
      const company = await companyOf(request, request.params.id);
      const who = request.principal!;
      const site = await documentSite(app.db, company.id, request.body);
      assertWithinSites(who, site);
      const row = await createDocument(app.db, site, request.body, who.userId);
      reply.code(201);
      return {
        message: say(request, (m) => m.visitorType.documentCreated),
        data: presentDocument(await documentWithVersions(app.db, row)),
      };
    },
  );

  app.put(
    '/company/:id/documents/:docId',
    {
      config: { action: 'visitorTypes.manage' },
      schema: {
        tags: ['visitor-types'],
        summary:
          'Edits a document: a changed title or text writes its next version, which visitors sign from then ' +
          'on (signatures of the earlier one asked again); the same text again changes nothing.',
        params: documentParams,
        body: documentInputSchema,
        response: { 200: documentAnswer },
      },
    },
    async (request) => {
      const { who, document } = await documentToChange(request, request.params);
      const result = await updateDocument(app.db, document, request.body, who.userId);
      const version = result.document.currentVersion;
      return {
        message: say(request, (m) =>
          result.versioned
            ? m.visitorType.documentUpdated(version)
            : m.visitorType.documentUnchanged,
        ),
        data: presentDocument(await documentWithVersions(app.db, result.document)),
      };
    },
  );

  app.get(
    '/company/:id/documents/:docId/versions/:version',
    {
      config: { action: 'visitorTypes.manage' },
      schema: {
        tags: ['visitor-types'],
        summary:
          'One version of a document, exactly as it was written (404 for a version it never had).',
        params: versionParams,
        response: { 200: z.object({ data: versionSchema }) },
      },
    },
    async (request) => {
      const { who, document } = await documentOf(request, request.params);
      if (document.companyId === who.companyId && !withinSites(who, document.siteId)) {
        throw notFound();
      }
      const row = await documentVersion(app.db, document.id, request.params.version);
      return { data: presentVersion(row) };
    },
  );

  app.post(
    '/company/:id/documents/:docId/archive',
    {
      config: { action: 'visitorTypes.manage' },
      schema: {
        tags: ['visitor-types'],
        summary:
          'Archives a document: no visitor is asked to sign it any more; its versions and signatures stay.',
        params: documentParams,
        response: { 200: documentAnswer },
      },
    },
    async (request) => {
      const { who, document } = await documentToChange(request, request.params);
      const row = await archiveDocument(app.db, document, who.userId);
      return {
        message: say(request, (m) => m.visitorType.documentArchived),
        data: presentDocument(await documentWithVersions(app.db, row)),
      };
    },
  );
};
