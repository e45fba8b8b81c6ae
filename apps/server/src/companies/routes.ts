import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  COMPANY_MESSAGES,
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
} from '@sesame/shared';
import { audit } from '../audit/service';
import { companyItself, loadAuthorized, signedIn } from '../auth/authorize';
import type { Principal } from '../auth/principal';
import { companies } from '../db/schema';
import { badRequest, conflict, isUniqueViolation, notFound } from '../errors';
import { ALLOWED } from '../files/detect';
import {
  checkFile,
  readMultipart,
  removingStoredFilesOnFailure,
  storeFile,
  type UploadedFile,
} from '../files/uploads';
import { qrPng, qrTargets } from '../qr/qr';
import { parseFields } from './fields';
import { presentCompany, presentListedCompany, presentPublicCompany } from './presenter';
import {
  companyHoldings,
  companyValues,
  deleteEmptyCompany,
  findCompany,
  insertCompany,
  listCompanies,
  replaceLogo,
} from './service';

const publicCompanySchema = companyListItemSchema
  .pick({
    id: true,
    name: true,
    slug: true,
    logo: true,
    logo_url: true,
    link: true,
    qrcode_url: true,
  })
  .extend({ timezone: z.string() });

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
      meta: { page: request.query.page, per_page: request.query.per_page, total },
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
        summary: "QR image of a company's request-meeting link (public poster).",
        params: z.object({
          file: z
            .string()
            .max(120)
            .regex(/^qrcode-[a-z0-9-]+\.png$/),
        }),
      },
    },
    async (request, reply) => {
      const slug = request.params.file.replace(/^qrcode-/, '').replace(/\.png$/, '');
      const company = await findCompany(app.db, slug);
      if (!company) throw notFound();
      const png = await qrPng(qrTargets.companyRequestMeeting(app.config.publicUrl, company.slug));
      return reply
        .header('content-type', 'image/png')
        .header('cache-control', 'public, max-age=3600')
        .send(png);
    },
  );
  const companyEnvelope = z.object({ message: z.string(), data: companySchema });
  const idParams = z.object({ id: z.uuid() });

  /** The edit forms' logo is optional: no file, or an empty pick, keeps the current one. */
  const optionalLogo = (file: UploadedFile | undefined) =>
    file && file.bytes.length > 0 ? checkFile(file, ALLOWED.logo, LOGO_MAX_BYTES) : undefined;

  /** One company's update, and its new logo (the old one's bytes go once committed). */
  async function updateCompany(
    companyId: string,
    set: Partial<typeof companies.$inferInsert>,
    logo: ReturnType<typeof optionalLogo>,
    actorUserId: string,
  ) {
    const oldLogo = await removingStoredFilesOnFailure(app.storage, (storage) =>
      app.db.transaction(async (tx) => {
        const [current] = await tx
          .select({ id: companies.id, logoFileId: companies.logoFileId })
          .from(companies)
          .where(eq(companies.id, companyId))
          .for('update');
        await tx.update(companies).set(set).where(eq(companies.id, companyId));
        // Which fields were sent, never their values.
        await audit(tx, {
          companyId,
          actorUserId,
          action: 'company.updated',
          subjectType: 'company',
          subjectId: companyId,
          detail: { fields: [...Object.keys(set), ...(logo ? ['logo'] : [])] },
        });
        if (!logo) return null;
        if (!current) throw notFound();
        const file = await storeFile(tx, storage, logo, {
          companyId,
          ownerType: 'company_logo',
          ownerId: companyId,
        });
        return replaceLogo(tx, current, file.id);
      }),
    );
    if (oldLogo) await app.storage.remove(oldLogo);
    return { message: COMPANY_MESSAGES.updated, data: await presentStored(companyId) };
  }

  /** A company just written, as the API presents it. */
  async function presentStored(companyId: string) {
    const row = await findCompany(app.db, companyId);
    if (!row) throw notFound();
    return presentCompany(row, ctx);
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
        companyCreateSchema,
        body.fields,
        body.files.logo ? {} : { logo: COMPANY_MESSAGES.required('logo') },
      );
      const logo = checkFile(body.files.logo, ALLOWED.logo, LOGO_MAX_BYTES);
      for (let attempt = 1; ; attempt++) {
        try {
          const created = await removingStoredFilesOnFailure(app.storage, (storage) =>
            app.db.transaction(async (tx) => {
              const company = await insertCompany(tx, input, app.config.timezone);
              const file = await storeFile(tx, storage, logo, {
                companyId: company.id,
                ownerType: 'company_logo',
                ownerId: company.id,
              });
              await tx
                .update(companies)
                .set({ logoFileId: file.id })
                .where(eq(companies.id, company.id));
              await audit(tx, {
                companyId: company.id,
                actorUserId: who.userId,
                action: 'company.created',
                subjectType: 'company',
                subjectId: company.id,
              });
              return company;
            }),
          );
          request.log.info({ companyId: created.id, by: who.userId }, 'company created');
          return reply
            .code(201)
            .send({ message: COMPANY_MESSAGES.created, data: await presentStored(created.id) });
        } catch (error) {
          // Two companies of the same name at the same moment: the loser takes the next suffix.
          if (attempt < 5 && isUniqueViolation(error, 'companies_slug_key')) continue;
          throw error;
        }
      }
    },
  );

  app.post(
    '/company/:id',
    {
      config: { action: 'companies.update' },
      schema: {
        tags: ['companies'],
        summary:
          "Update a company ('Editer l'Entreprise'): multipart with the fields of spec §5; the name is read-only there and not read; the logo is optional. The slug never changes.",
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 200: companyEnvelope },
      },
    },
    async (request) => {
      const { who, record: company } = await loadAuthorized(
        request,
        findCompany,
        'companies.update',
        request.params.id,
        companyItself,
      );
      const body = await readMultipart(request, LOGO_MAX_BYTES);
      const input = parseFields(companyUpdateSchema, body.fields);
      return updateCompany(
        company.id,
        companyValues(input),
        optionalLogo(body.files.logo),
        who.userId,
      );
    },
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
    async (request) => {
      const { who, record: company } = await loadAuthorized(
        request,
        findCompany,
        'companies.update',
        request.params.id,
        companyItself,
      );
      const body = await readMultipart(request, LOGO_MAX_BYTES);
      const input = parseFields(companyInlineUpdateSchema, body.fields);
      if (input.slug && input.slug.toLowerCase() !== company.slug.toLowerCase()) {
        throw badRequest(COMPANY_MESSAGES.slugStable, { slug: COMPANY_MESSAGES.slugStable });
      }
      return updateCompany(
        company.id,
        { name: input.name, description: input.description },
        optionalLogo(body.files.logo),
        who.userId,
      );
    },
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
      const { who, record: company } = await loadAuthorized(
        request,
        findCompany,
        'companies.delete',
        request.params.id,
        companyItself,
      );
      if (company.slug.toLowerCase() === app.config.defaultCompanySlug.toLowerCase()) {
        throw conflict(COMPANY_MESSAGES.defaultCompany);
      }
      const removed = await app.db
        .transaction(async (tx) => {
          const holdings = await companyHoldings(tx, company.id);
          if (holdings.length) throw conflict(COMPANY_MESSAGES.notEmpty(company.name, holdings));
          const stored = await deleteEmptyCompany(tx, company.id);
          // The entry outlives the company (no foreign key); the deleting admin's company keeps it too.
          await audit(tx, {
            companyId: company.id,
            actorUserId: who.userId,
            action: 'company.deleted',
            subjectType: 'company',
            subjectId: company.id,
          });
          return stored;
        })
        .catch((error: unknown) => {
          // Something was added to it meanwhile: the database refuses, and so do we.
          if (isForeignKeyViolation(error)) {
            throw conflict(COMPANY_MESSAGES.notEmpty(company.name, ['des données']));
          }
          throw error;
        });
      await Promise.all(removed.map((name) => app.storage.remove(name)));
      request.log.info({ companyId: company.id, by: who.userId }, 'company deleted');
      return { message: COMPANY_MESSAGES.deleted };
    },
  );
};

/** PostgreSQL foreign_key_violation, whichever driver raised it. */
function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: unknown } | null;
  if (!e) return false;
  return e.code === '23503' || (e.cause ? isForeignKeyViolation(e.cause) : false);
}
