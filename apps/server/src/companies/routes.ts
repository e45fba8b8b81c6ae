import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../params';
import {
  COMPANY_PUBLIC_FIELDS,
  LOGO_MAX_BYTES,
  companyCreateSchema,
  companyInlineUpdateSchema,
  companyListItemSchema,
  companySchema,
  listsEveryCompany,
  reachesCompany,
  companyUpdateSchema,
  listQuerySchema,
  paginatedSchema,
  siteFilter,
  type Catalogue,
} from '@sesame/shared';
import { readPhones } from '@sesame/shared/phone';
import { listMeta } from '../db/pagination';
import { signedIn } from '../auth/authorize';
import type { Principal } from '../auth/principal';
import { badRequest, conflict, notFound } from '../errors';
import { ALLOWED } from '../files/detect';
import { parseFields } from '../files/fields';
import { checkFile, readMultipart, type UploadedFile } from '../files/uploads';
import { qrPng, qrTargets } from '../qr/qr';
import { findSite } from '../sites/service';
import { loadCompany } from './load';
import { presentCompany, presentListedCompany, presentPublicCompany } from './presenter';
import {
  companyValues,
  mainSiteValues,
  createCompany,
  deleteCompany,
  findCompany,
  listCompanies,
  updateCompany,
  type CompanyChanges,
  type CompanyRow,
  type CompanyWork,
} from './service';
import { say } from '../language';

/** A company's public fields, with its time zone (its public pages show its times). */
const publicCompanySchema = companyListItemSchema
  .pick(COMPANY_PUBLIC_FIELDS)
  .extend({ timezone: z.string() });

/** Issue 27: a company's phone is read and stored as a visitor's is (E.164). */
const companyCreateFields = readPhones(companyCreateSchema, 'phone_number');
const companyUpdateFields = readPhones(companyUpdateSchema, 'phone_number');

export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = { publicUrl: app.config.publicUrl, fileUrls: app.fileUrls };

  app.get(
    '/company/:slugOrId',
    {
      config: { public: true },
      schema: {
        tags: ['companies'],
        summary:
          'One company by slug or id. Staff of the company (or any-company roles) get every field.',
        params: z.object({ slugOrId: z.string().min(1).max(100) }),
        response: { 200: z.object({ data: z.union([companySchema, publicCompanySchema]) }) },
      },
    },
    async (request) => {
      const company = await findCompany(app.db, request.params.slugOrId);
      if (!company) throw notFound();
      // Private fields (e-mail, phone, legal id, contact) only for who may update it.
      const who = request.principal;
      const full = who && reachesCompany(who.role, 'companies.update', who.companyId, company.id);
      return {
        data: full ? presentCompany(company, ctx) : presentPublicCompany(company, ctx),
      };
    },
  );

  app.get(
    '/singlecompanylist',
    {
      config: { public: true },
      schema: {
        tags: ['companies'],
        summary: 'The company of a page, from the last segment of its URL (?url=slug).',
        querystring: z.object({ url: z.string().min(1).max(300) }),
        response: { 200: z.object({ data: publicCompanySchema }) },
      },
    },
    async (request) => {
      const slug = request.query.url.split('/').filter(Boolean).pop() ?? '';
      const company = await findCompany(app.db, slug);
      if (!company) throw notFound();
      return { data: presentPublicCompany(company, ctx) };
    },
  );

  const listHandler = async (request: {
    principal: Principal | null;
    query: z.infer<typeof listQuerySchema>;
  }) => {
    const who = signedIn(request);
    const { rows, total } = await listCompanies(
      app.db,
      request.query,
      listsEveryCompany(who.role) ? undefined : who.companyId,
    );
    return {
      data: rows.map((row) =>
        reachesCompany(who.role, 'companies.update', who.companyId, row.id)
          ? presentCompany(row, ctx)
          : presentListedCompany(row, ctx),
      ),
      meta: listMeta(request.query, total),
    };
  };

  for (const url of ['/companylist', '/companies']) {
    app.get(
      url,
      {
        config: { action: 'companies.list' },
        schema: {
          tags: ['companies'],
          summary:
            'Companies the caller may see, paged (?page=&per_page=&q=): every company (public fields only where the caller may not update it), or their own.',
          querystring: listQuerySchema,
          response: { 200: paginatedSchema(companyListItemSchema) },
        },
      },
      listHandler,
    );
  }

  app.get(
    '/public/qrcode-link/:file',
    {
      config: { public: true },
      schema: {
        tags: ['companies'],
        summary:
          "QR image of a company's request-meeting link (public poster); ?site= a site's own poster (its link names the site).",
        params: z.object({
          file: z
            .string()
            .max(120)
            .regex(/^qrcode-[a-z0-9-]+\.png$/),
        }),
        querystring: z.object({ site: siteFilter }),
      },
    },
    async (request, reply) => {
      const slug = request.params.file.replace(/^qrcode-/, '').replace(/\.png$/, '');
      const company = await findCompany(app.db, slug);
      if (!company) throw notFound();
      const siteId = request.query.site;
      if (siteId) {
        // Another company's site, or an archived one, has no poster here.
        const site = await findSite(app.db, siteId);
        if (!site || site.companyId !== company.id || site.archivedAt) throw notFound();
      }
      const png = await qrPng(
        qrTargets.companyRequestMeeting(app.config.publicUrl, company.slug, siteId),
      );
      return reply
        .header('content-type', 'image/png')
        .header('cache-control', 'public, max-age=3600')
        .send(png);
    },
  );
  const companyEnvelope = z.object({ message: z.string(), data: companySchema });

  /** The edit forms' logo is optional: no file, or an empty pick, keeps the current one. */
  const optionalLogo = (file: UploadedFile | undefined) =>
    file && file.bytes.length > 0 ? checkFile(file, ALLOWED.logo, LOGO_MAX_BYTES) : undefined;

  /** A company just written, as the API presents it. */
  async function presentStored(companyId: string) {
    const row = await findCompany(app.db, companyId);
    if (!row) throw notFound();
    return presentCompany(row, ctx);
  }

  const work = (who: Principal): CompanyWork => ({
    db: app.db,
    storage: app.storage,
    actorUserId: who.userId,
  });

  /**
   * Both edit forms (the full one, and the list's inline one): the company authorized,
   * the multipart read, the form's changes saved with the logo if a new one came.
   */
  async function updateFromForm(
    request: FastifyRequest<{ Params: { id: string } }>,
    changesOf: (fields: Record<string, string>, company: CompanyRow) => CompanyChanges,
  ) {
    const { who, record: company } = await loadCompany(request, request.params.id);
    const body = await readMultipart(request, LOGO_MAX_BYTES);
    const changes = changesOf(body.fields, company);
    await updateCompany(work(who), company.id, changes, optionalLogo(body.files.logo));
    return {
      message: say(request, (m) => m.company.updated),
      data: await presentStored(company.id),
    };
  }

  app.post(
    '/company',
    {
      config: { action: 'companies.create' },
      schema: {
        tags: ['companies'],
        summary:
          "Create a company ('Créer une Entreprise'): multipart with every field of spec §5 and the logo (JPEG, PNG or WebP by content, at most 2 MiB). The slug comes from the name: unique, never a route name, never changed afterwards. Its link QR is served at once from /api/public/qrcode-link/qrcode-{slug}.png.",
        consumes: ['multipart/form-data'],
        response: { 201: companyEnvelope },
      },
    },
    async (request, reply) => {
      const who = signedIn(request);
      const body = await readMultipart(request, LOGO_MAX_BYTES);
      const input = parseFields(
        companyCreateFields,
        body.fields,
        body.files.logo ? {} : { logo: (m: Catalogue) => m.company.required('logo') },
      );
      const logo = checkFile(body.files.logo, ALLOWED.logo, LOGO_MAX_BYTES);
      const companyId = await createCompany(work(who), input, logo, app.config.timezone);
      request.log.info({ companyId, by: who.userId }, 'company created');
      return reply.code(201).send({
        message: say(request, (m) => m.company.created),
        data: await presentStored(companyId),
      });
    },
  );

  app.post(
    '/company/:id',
    {
      config: { action: 'companies.update' },
      schema: {
        tags: ['companies'],
        summary:
          "Update a company ('Éditer l'Entreprise'): multipart with the fields of spec §5; the name is read-only there and not read; the logo is optional. The slug never changes.",
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 200: companyEnvelope },
      },
    },
    async (request) =>
      updateFromForm(request, (fields) => {
        const input = parseFields(companyUpdateFields, fields);
        // 'Fin de journée' and early arrivals are the main site's (issue 28).
        return { ...companyValues(input), ...mainSiteValues(input) };
      }),
  );

  app.put(
    '/company/:id',
    {
      config: { action: 'companies.update' },
      schema: {
        tags: ['companies'],
        summary:
          "Update a company from the company list's inline form (?compid=): multipart name, description, optional logo. `slug` may be sent but only unchanged: links and printed QR codes depend on it.",
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 200: companyEnvelope },
      },
    },
    async (request) =>
      updateFromForm(request, (fields, company) => {
        const input = parseFields(companyInlineUpdateSchema, fields);
        if (input.slug && input.slug.toLowerCase() !== company.slug.toLowerCase()) {
          throw badRequest((m) => m.company.slugStable, { slug: (m) => m.company.slugStable });
        }
        return { name: input.name, description: input.description };
      }),
  );

  app.delete(
    '/company/delete/:id',
    {
      config: { action: 'companies.delete' },
      schema: {
        tags: ['companies'],
        summary:
          'Delete a company. Refused (409, with what it still holds) while it has users, visitors, events or QR codes; the default company is never deleted.',
        params: idParams,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const { who, record: company } = await loadCompany(request, request.params.id);
      if (company.slug.toLowerCase() === app.config.defaultCompanySlug.toLowerCase()) {
        throw conflict((m) => m.company.defaultCompany);
      }
      await deleteCompany(work(who), company);
      request.log.info({ companyId: company.id, by: who.userId }, 'company deleted');
      return { message: say(request, (m) => m.company.deleted) };
    },
  );
};
