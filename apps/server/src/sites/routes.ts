/**
 * `/api/company/{id}/sites` (issue 28): a company's sites, read by every staff member
 * (the site switcher, the filters), created, edited, archived and deleted by the
 * company's admin-side staff ('sites.manage'). Another company's site is a 404, as for
 * every record. The public form reads the active sites' names at `/api/public/sites/{company}`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyParams } from '../params';
import {
  TEXT_MAX,
  publicSiteSchema,
  siteInputSchema,
  siteListQuerySchema,
  siteParamsSchema,
  siteSchema,
  siteUpdateSchema,
} from '@sesame/shared';
import type { FastifyRequest } from 'fastify';
import { companyItself, loadAuthorized } from '../auth/authorize';
import { findCompany } from '../companies/service';
import { notFound } from '../errors';
import { say } from '../language';
import {
  archiveSite,
  assertWithinSites,
  createSite,
  deleteSite,
  findSite,
  listSites,
  presentSite,
  restoreSite,
  updateSite,
  withinSites,
} from './service';

const siteAnswer = z.object({ message: z.string().optional(), data: siteSchema });

export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The company of the path, within the caller's reach for the route's right (else 404). */
  const companyOf = async (request: FastifyRequest, id: string) =>
    (await loadAuthorized(request, findCompany, id, { companyOf: companyItself })).record;

  /** The site of the path: the path's company's own (another's, or none: 404). */
  const siteOf = async (request: FastifyRequest, params: { id: string; siteId: string }) => {
    const company = await companyOf(request, params.id);
    const { who, record } = await loadAuthorized(request, findSite, params.siteId);
    if (record.companyId !== company.id) throw notFound();
    return { who, site: record };
  };

  /**
   * The site of the path, to change: someone limited to some sites of its company changes
   * those only (another of their company's: 403 `site.notYours`).
   */
  const siteToChange = async (request: FastifyRequest, params: { id: string; siteId: string }) => {
    const found = await siteOf(request, params);
    assertWithinSites(found.who, found.site);
    return found;
  };

  app.get(
    '/company/:id/sites',
    {
      config: { action: 'sites.list' },
      schema: {
        tags: ['sites'],
        summary:
          "A company's sites (its id or slug), main site first; ?archived=true adds the archived ones. " +
          'A staff member limited to some sites sees those only.',
        params: companyParams,
        querystring: siteListQuerySchema,
        response: { 200: z.object({ data: z.array(siteSchema) }) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const who = request.principal!;
      const rows = await listSites(app.db, company.id, {
        archived: request.query.archived === 'true',
      });
      const visible =
        company.id === who.companyId ? rows.filter((row) => withinSites(who, row.id)) : rows;
      return { data: visible.map(presentSite) };
    },
  );

  app.post(
    '/company/:id/sites',
    {
      config: { action: 'sites.manage' },
      schema: {
        tags: ['sites'],
        summary: 'Creates a site: name and time zone (IANA) required, the rest optional.',
        params: companyParams,
        body: siteInputSchema,
        response: { 201: siteAnswer },
      },
    },
    async (request, reply) => {
      const company = await companyOf(request, request.params.id);
      const row = await createSite(app.db, company.id, request.body, request.principal!.userId);
      reply.code(201);
      return { message: say(request, (m) => m.site.created), data: presentSite(row) };
    },
  );

  app.get(
    '/company/:id/sites/:siteId',
    {
      config: { action: 'sites.list' },
      schema: {
        tags: ['sites'],
        summary: 'One site of the company.',
        params: siteParamsSchema,
        response: { 200: siteAnswer },
      },
    },
    async (request) => {
      const { who, site } = await siteOf(request, request.params);
      if (site.companyId === who.companyId && !withinSites(who, site.id)) throw notFound();
      return { data: presentSite(site) };
    },
  );

  app.put(
    '/company/:id/sites/:siteId',
    {
      config: { action: 'sites.manage' },
      schema: {
        tags: ['sites'],
        summary:
          'Edits a site; a field left out is kept. A new time zone applies to what is filed from then on.',
        params: siteParamsSchema,
        body: siteUpdateSchema,
        response: { 200: siteAnswer },
      },
    },
    async (request) => {
      const { who, site } = await siteToChange(request, request.params);
      const row = await updateSite(app.db, site, request.body, who.userId);
      return { message: say(request, (m) => m.site.updated), data: presentSite(row) };
    },
  );

  app.post(
    '/company/:id/sites/:siteId/archive',
    {
      config: { action: 'sites.manage' },
      schema: {
        tags: ['sites'],
        summary:
          'Archives a site: it leaves the forms and the switcher, its history stays. 409 for the last active site.',
        params: siteParamsSchema,
        response: { 200: siteAnswer },
      },
    },
    async (request) => {
      const { who, site } = await siteToChange(request, request.params);
      const row = await archiveSite(app.db, site, who.userId);
      return { message: say(request, (m) => m.site.archived), data: presentSite(row) };
    },
  );

  app.post(
    '/company/:id/sites/:siteId/restore',
    {
      config: { action: 'sites.manage' },
      schema: {
        tags: ['sites'],
        summary: 'Makes an archived site active again.',
        params: siteParamsSchema,
        response: { 200: siteAnswer },
      },
    },
    async (request) => {
      const { who, site } = await siteToChange(request, request.params);
      const row = await restoreSite(app.db, site, who.userId);
      return { message: say(request, (m) => m.site.restored), data: presentSite(row) };
    },
  );

  app.delete(
    '/company/:id/sites/:siteId',
    {
      config: { action: 'sites.manage' },
      schema: {
        tags: ['sites'],
        summary:
          'Deletes a site nothing happened at; 409 when it has history (archive it) or is the last active one.',
        params: siteParamsSchema,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const { who, site } = await siteToChange(request, request.params);
      await deleteSite(app.db, site, who.userId);
      return { message: say(request, (m) => m.site.deleted) };
    },
  );

  app.get(
    '/public/sites/:company',
    {
      config: { public: true },
      schema: {
        tags: ['sites'],
        summary:
          "A company's active sites as its visitor form lists them (public): name, address, city, zone.",
        params: z.object({ company: z.string().min(1).max(TEXT_MAX.slug) }),
        response: { 200: z.object({ data: z.array(publicSiteSchema) }) },
      },
    },
    async (request) => {
      const company = await findCompany(app.db, request.params.company);
      if (!company || company.archivedAt) throw notFound();
      const rows = await listSites(app.db, company.id);
      return {
        data: rows.map((row) => ({
          id: row.id,
          name: row.name,
          timezone: row.timezone,
          address: row.address,
          city: row.city,
        })),
      };
    },
  );
};
