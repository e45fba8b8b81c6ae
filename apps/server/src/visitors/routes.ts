import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../params';
import {
  ID_FILE_MAX_BYTES,
  isPastVisitDate,
  isUidnShaped,
  visitorCardSchema,
  visitorCreatedOrRegisteredSchema,
  visitorFormEventSchema,
  visitorFormSchemaFor,
  type VisitorTypeField,
} from '@sesame/shared';
import { audit } from '../audit/service';
import { loadAuthorized } from '../auth/authorize';
import { findCompany } from '../companies/service';
import { findEventOfForm, registrationDesk } from '../events/registration';
import { badRequest, notFound } from '../errors';
import { visitorFormError } from './form-error';
import { ALLOWED } from '../files/detect';
import { checkFile, readMultipart, withStoredFileCleanup } from '../files/uploads';
import { dayOf } from '../time-zones';
import { findCardSource, isConfirmed, presentVisitorCard } from './card';
import { createVisitor, deleteVisitor, findVisitor } from './service';
import { presentCreatedVisitor } from './presenter';
import { issueMessage, say } from '../language';
import { siteForNewRecord } from '../sites/service';
import { visitorTypeOf, type VisitorTypeRow } from '../visitor-types/steps';
import { signForVisit } from '../documents/signing';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const textOf = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

export const visitorRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;

  /**
   * The type a form names (or its site's first), read before the form is checked; null when
   * the company, the site or the type cannot be told yet (the checks then say why).
   */
  async function typeOfForm(fields: Record<string, unknown>): Promise<VisitorTypeRow | null> {
    const companyRef = textOf(fields.company_id);
    const siteId = textOf(fields.site_id);
    const typeId = textOf(fields.visitor_type_id);
    if (!companyRef || companyRef.length > 200) return null;
    if ((siteId && !UUID.test(siteId)) || (typeId && !UUID.test(typeId))) return null;
    const company = await findCompany(app.db, companyRef);
    if (!company) return null;
    const site = await siteForNewRecord(app.db, company.id, siteId || undefined).catch(() => null);
    if (!site) return null;
    return visitorTypeOf(app.db, site.id, typeId || null);
  }
  const ctx = { publicUrl: app.config.publicUrl, fileUrls: app.fileUrls };

  app.post(
    '/visitor/create',
    {
      config: {
        public: true,
        rateLimit: { max: limits.publicFormPerWindow, timeWindow: limits.windowMs },
      },
      schema: {
        tags: ['visitors'],
        summary:
          'Creates a visitor (public visitor form). multipart/form-data: the visitor fields of spec §3 ' +
          '(company_id = company id or slug, firstname, lastname, id_number, organisation_name, email, ' +
          'contact, address, city, country, state, zipcode, request_date DD/MM/YYYY, request_time HH:MM, ' +
          'language fr|en) and the identity document as `request_image` (JPEG, PNG, WebP or PDF, ≤ 2 MiB). ' +
          'Then POST /api/requests/create with the visitor_id. ' +
          "Issue 31: `visitor_type_id` (one of the site's active types; blank: its first) decides which of " +
          'organisation_name, contact, id_number and request_image are required (400 in the spec order), and ' +
          "`signatures` (a JSON string: the type's documents signed; one missing 400, an old version 409) are " +
          'written with the visitor. The answer carries `visitor_type_id`. ' +
          "With `evenements_id` (an event's id, or its slug within company_id's company; JoinEvent) the call " +
          'registers the visitor for that event exactly as POST /evenement/{company}/{event}/register does: the ' +
          "event's place, date and time, a confirmed request (its id in the answer, no /requests/create to follow), " +
          'the code mail, the same limits (429) and refusals (409 closed, past or already registered); ' +
          'an event of another company, or none, answers 404.',
        consumes: ['multipart/form-data'],
        response: { 200: visitorCreatedOrRegisteredSchema },
      },
    },
    async (request) => {
      const body = await readMultipart(request, ID_FILE_MAX_BYTES);
      const named = visitorFormEventSchema.safeParse(body.fields);
      if (!named.success) throw badRequest(issueMessage(named.error.issues[0] ?? {}));
      if (named.data.evenements_id) {
        const { evenements_id, company_id } = named.data;
        const event = await findEventOfForm(app.db, evenements_id, company_id);
        if (!event) throw notFound();
        const { visitor, requestId } = await registrationDesk(app).register(request, event, body);
        return {
          message: say(request, (m) => m.event.registered),
          data: {
            ...presentCreatedVisitor(visitor, event.company),
            event: { id: event.id, name: event.name, slug: event.slug },
            request_id: requestId,
          },
        };
      }
      const upload = body.files.request_image;
      // The visit's type first (issue 31): its required fields decide what the form must hold.
      // Without a company or a site to read it from, the spec's form is checked, and the
      // 404 or the site's 400 follows below as before.
      const type = await typeOfForm(body.fields);
      // jsonb column: written only from the visitor type schema's fields.
      const requiredFields = type ? (type.requiredFields as VisitorTypeField[]) : undefined;
      const parsed = visitorFormSchemaFor(requiredFields).safeParse({
        // The visitor's mails follow the form's language, else the one they called in.
        language: request.lang,
        ...body.fields,
        request_image: upload ? { size: upload.bytes.length } : undefined,
      });
      if (!parsed.success) throw visitorFormError(parsed.error);
      const fields = parsed.data;
      if (!fields.company_id) throw badRequest();
      const company = await findCompany(app.db, fields.company_id);
      if (!company) throw notFound();
      // The site of the visit (issue 28): the one chosen or given by its link, else the only one.
      const site = await siteForNewRecord(app.db, company.id, fields.site_id);
      // A meeting in the past: judged in the site's time zone, today allowed.
      if (isPastVisitDate(fields.request_date, dayOf(new Date(), site.timezone))) {
        throw badRequest((m) => m.visitor.datePast, { request_date: (m) => m.visitor.datePast });
      }
      // The type read above (the same company, site and type named), else read now.
      const visitType = type ?? (await visitorTypeOf(app.db, site.id, fields.visitor_type_id));
      const askedDocument =
        !visitType || visitType.requiredFields.includes('id_document') || !!upload;
      const document = askedDocument
        ? checkFile(upload, ALLOWED.identityDocument, ID_FILE_MAX_BYTES)
        : null;

      const visitor = await withStoredFileCleanup(app.storage, (storage) =>
        app.db.transaction(async (tx) => {
          const created = await createVisitor(tx, storage, {
            companyId: company.id,
            site,
            fields,
            document,
            typeId: visitType?.id ?? null,
          });
          await signForVisit(tx, {
            companyId: company.id,
            siteId: site.id,
            visitorId: created.id,
            typeId: visitType?.id ?? null,
            email: created.email,
            language: fields.language,
            signed: fields.signatures ?? [],
            storage,
          });
          return created;
        }),
      );
      request.log.info({ visitorId: visitor.id, companyId: company.id }, 'visitor created');
      return {
        message: say(request, (m) => m.visitor.visitorCreated),
        data: {
          ...presentCreatedVisitor(visitor, company),
          visitor_type_id: visitor.visitorTypeId,
        },
      };
    },
  );

  app.delete(
    '/visitor/delete/:id',
    {
      config: { action: 'requests.delete' },
      schema: {
        tags: ['visitors'],
        summary: 'Deletes a visitor with their requests, checks and identity document.',
        params: idParams,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const { who, record: visitor } = await loadAuthorized(
        request,
        (db, id: string) => findVisitor(db, id, undefined),
        request.params.id,
      );
      const storedNames = await app.db.transaction(async (tx) => {
        const names = await deleteVisitor(tx, visitor);
        await audit(tx, {
          companyId: visitor.companyId,
          actorUserId: who.userId,
          action: 'visitor.deleted',
          subjectType: 'visitor',
          subjectId: visitor.id,
        });
        return names;
      });
      await Promise.all(storedNames.map((name) => app.storage.remove(name)));
      request.log.info({ visitorId: visitor.id }, 'visitor deleted');
      return { message: say(request, (m) => m.request.visitorDeleted) };
    },
  );

  app.get(
    '/visitor/card/:uidn',
    {
      config: {
        public: true,
        rateLimit: { max: limits.codeLookupPerWindow, timeWindow: limits.windowMs },
      },
      schema: {
        tags: ['visitors'],
        summary:
          'The meeting QR card of a confirmed visitor, by their code (the code is the secret: ' +
          'public). Unknown or unconfirmed codes answer 404.',
        params: z.object({ uidn: z.string().max(40) }),
        response: { 200: z.object({ data: visitorCardSchema }) },
      },
    },
    async (request) => {
      if (!isUidnShaped(request.params.uidn)) throw notFound();
      const source = await findCardSource(app.db, { uidn: request.params.uidn });
      if (!source || !isConfirmed(source)) throw notFound();
      return { data: await presentVisitorCard(source, ctx) };
    },
  );
};
