/**
 * Permanent QR codes and member cards (spec §7: create-qr, qruser, qruser-list,
 * create-member, qrusermembre, qrmembre-list, company members), plus the
 * re-issue of a lost card.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../params';
import { audit } from '../audit/service';
import {
  createMemberFieldsSchema,
  createQrUserFieldsSchema,
  listQuerySchema,
  memberListItemSchema,
  paginatedSchema,
  qrUserCardSchema,
  updateMemberSchema,
  updateQrUserSchema,
  UPLOAD_MAX_BYTES,
  type QrUserKind,
  type Say,
} from '@sesame/shared';
import { readPhones } from '@sesame/shared/phone';
import { listMeta } from '../db/pagination';
import { companyForNewRecord, companyScope, loadAuthorized, signedIn } from '../auth/authorize';
import { loadCompany } from '../companies/load';
import { badRequest } from '../errors';
import { ALLOWED } from '../files/detect';
import { parseFields } from '../files/fields';
import {
  checkFile,
  readMultipart,
  withStoredFileCleanup,
  type MultipartBody,
} from '../files/uploads';
import { actionsOf, REISSUE, UPDATE, VIEW, type Rights } from './policy';
import { presentMember, presentQrUser } from './presenter';
import {
  createQrUser,
  findQrUser,
  listQrUsers,
  reissueQrUser,
  updateQrUser,
  type QrUserRow,
} from './service';
import { say } from '../language';

/** Issue 27: a card holder's phone is read and stored as a visitor's is (E.164). */
const createQrUserFields = readPhones(createQrUserFieldsSchema, 'contact');
const createMemberFields = readPhones(createMemberFieldsSchema, 'contact');
const updateQrUserBody = readPhones(updateQrUserSchema, 'contact');
const updateMemberBody = readPhones(updateMemberSchema, 'contact');

const BOTH: readonly QrUserKind[] = ['permanent', 'member'];
const MEMBER: readonly QrUserKind[] = ['member'];

const cardAnswer = z.object({ message: z.string().optional(), data: qrUserCardSchema });
const companyOfList = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  logo_url: z.string().nullable(),
});

function requireDocument(body: MultipartBody) {
  const file = body.files.user_document;
  if (!file || file.bytes.length === 0) {
    const message: Say = (m) => m.qrUser.required('user_document');
    throw badRequest(message, { user_document: message });
  }
  return file;
}

/**
 * A card of `kinds` by id, for the route's right (its config: `actionsOf(rights, kinds)`),
 * narrowed to the card's own kind: 404 when missing or beyond the caller's reach
 * (another tenant), 403 when the caller's rights cover the route but not this kind.
 */
function loadCard(
  request: FastifyRequest<{ Params: { id: string } }>,
  rights: Rights,
  kinds: readonly QrUserKind[],
) {
  return loadAuthorized(request, (db, id: string) => findQrUser(db, id, kinds), request.params.id, {
    recordRight: (row: QrUserRow) => rights[row.kind],
  });
}

export const qrUserRoutes: FastifyPluginAsyncZod = async (app) => {
  // Private files' URLs are bound to the caller's session (files/urls.ts).
  const ctx = (request: FastifyRequest) => ({
    publicUrl: app.config.publicUrl,
    fileUrls: app.fileUrls,
    viewer: request.principal,
  });

  /** A new card of either kind: the same steps, each kind with its right, fields and file types. */
  const CARD_KINDS = {
    permanent: {
      action: 'qrUsers.create',
      fields: createQrUserFields,
      allowed: ALLOWED.qrUserDocument,
      logged: 'permanent QR created',
    },
    member: {
      action: 'members.create',
      fields: createMemberFields,
      allowed: ALLOWED.photo,
      logged: 'member card created',
    },
  } as const;
  const createCard = async (request: FastifyRequest, kind: keyof typeof CARD_KINDS) => {
    const { action, fields: schema, allowed, logged } = CARD_KINDS[kind];
    const who = signedIn(request);
    const body = await readMultipart(request);
    const fields = parseFields(schema, body.fields);
    const document = checkFile(requireDocument(body), allowed, UPLOAD_MAX_BYTES);
    const companyId = companyForNewRecord(who, action, fields.company_id);
    // A failed transaction takes its stored file with it (issue 12 §7).
    const row = await withStoredFileCleanup(app.storage, (storage) =>
      app.db.transaction(async (tx) => {
        const created = await createQrUser(
          tx,
          storage,
          { ...fields, kind, companyId, createdBy: who.userId },
          document,
        );
        await audit(tx, {
          companyId,
          actorUserId: who.userId,
          action: kind === 'member' ? 'member.issued' : 'qr_user.issued',
          subjectType: 'qr_user',
          subjectId: created.id,
        });
        return created;
      }),
    );
    request.log.info({ qrUserId: row.id, companyId }, logged);
    return row;
  };

  app.post(
    '/create-qr',
    {
      config: { action: 'qrUsers.create' },
      schema: {
        tags: ['qr-users'],
        summary:
          'Create a permanent QR code (multipart: email, type, firstname, lastname, contact, title, dateExp YYYY-MM-DD, company_id, user_document pdf/doc/docx/image). Answers data.uidn and the card.',
        consumes: ['multipart/form-data'],
        response: { 200: cardAnswer },
      },
    },
    async (request) => {
      const row = await createCard(request, 'permanent');
      return {
        message: say(request, (m) => m.qrUser.qrCreated),
        data: await presentQrUser(row, ctx(request)),
      };
    },
  );

  app.post(
    '/create-member',
    {
      config: { action: 'members.create' },
      schema: {
        tags: ['qr-users'],
        summary:
          'Create a member card (multipart, every field required; user_document is the photo: JPEG, PNG or WebP). Answers data.uidn and data.photo.',
        consumes: ['multipart/form-data'],
        response: { 201: cardAnswer },
      },
    },
    async (request, reply) => {
      const row = await createCard(request, 'member');
      return reply.code(201).send({
        message: say(request, (m) => m.qrUser.memberCreated),
        data: await presentQrUser(row, ctx(request)),
      });
    },
  );

  app.get(
    '/qruser/:id',
    {
      config: { action: actionsOf(VIEW, BOTH) },
      schema: {
        tags: ['qr-users'],
        summary: 'One QR user or member card (details view, expiry screen).',
        params: idParams,
        response: { 200: cardAnswer },
      },
    },
    async (request) => {
      const { record: row } = await loadCard(request, VIEW, BOTH);
      return { data: await presentQrUser(row, ctx(request)) };
    },
  );

  app.put(
    '/qruser/:id',
    {
      config: { action: actionsOf(UPDATE, BOTH) },
      schema: {
        tags: ['qr-users'],
        summary:
          "Change a QR user's fields; the expiry screen sends { dateExp: 'YYYY-MM-DD' } (null removes the expiry).",
        params: idParams,
        body: updateQrUserBody,
        response: { 200: cardAnswer },
      },
    },
    async (request) => {
      const { record: row } = await loadCard(request, UPDATE, BOTH);
      const updated = await updateQrUser(app.db, row, request.body, signedIn(request).userId);
      return {
        message: say(request, (m) => m.qrUser.updated),
        data: await presentQrUser(updated, ctx(request)),
      };
    },
  );

  app.post(
    '/qruser/:id/reissue',
    {
      config: { action: actionsOf(REISSUE, BOTH) },
      schema: {
        tags: ['qr-users'],
        summary:
          'Re-issue a lost card: a new uidn for the same person; the old code is refused from then on.',
        params: idParams,
        response: { 201: cardAnswer },
      },
    },
    async (request, reply) => {
      const { who, record: row } = await loadCard(request, REISSUE, BOTH);
      const fresh = await app.db.transaction(async (tx) => {
        const issued = await reissueQrUser(tx, row, who.userId);
        // The old card is revoked and a new one issued: one entry names both.
        await audit(tx, {
          companyId: row.companyId,
          actorUserId: who.userId,
          action: 'qr_user.reissued',
          subjectType: 'qr_user',
          subjectId: issued.id,
          detail: { revoked: row.id },
        });
        return issued;
      });
      request.log.info({ qrUserId: row.id, replacedBy: fresh.id }, 'card re-issued');
      return reply.code(201).send({
        message: say(request, (m) => m.qrUser.reissued),
        data: await presentQrUser(fresh, ctx(request)),
      });
    },
  );

  /** The two card lists differ in the kind of card and the action that scopes them. */
  const cardListRoute = (
    url: string,
    summary: string,
    kind: 'permanent' | 'member',
    action: 'qrUsers.list' | 'members.list',
  ) =>
    app.get(
      url,
      {
        config: { action },
        schema: {
          tags: ['qr-users'],
          summary,
          querystring: listQuerySchema,
          response: { 200: paginatedSchema(qrUserCardSchema) },
        },
      },
      async (request) => {
        const who = signedIn(request);
        const { rows, total } = await listQrUsers(app.db, request.query, {
          kind,
          companyId: companyScope(who, action),
          order: 'newest',
        });
        return {
          data: await Promise.all(rows.map((row) => presentQrUser(row, ctx(request)))),
          meta: listMeta(request.query, total),
        };
      },
    );

  cardListRoute(
    '/qruser-list',
    'Permanent QR users, newest first, paged (?page=&per_page=&q=).',
    'permanent',
    'qrUsers.list',
  );

  app.get(
    '/qrusermembre/:id',
    {
      config: { action: actionsOf(VIEW, MEMBER) },
      schema: {
        tags: ['qr-users'],
        summary: 'One member card.',
        params: idParams,
        response: { 200: cardAnswer },
      },
    },
    async (request) => {
      const { record: row } = await loadCard(request, VIEW, MEMBER);
      return { data: await presentQrUser(row, ctx(request)) };
    },
  );

  app.put(
    '/qrusermembre/:id',
    {
      config: { action: actionsOf(UPDATE, MEMBER) },
      schema: {
        tags: ['qr-users'],
        summary: "Change a member card's fields (firstname, lastname, contact, email, title).",
        params: idParams,
        body: updateMemberBody,
        response: { 200: cardAnswer },
      },
    },
    async (request) => {
      const { record: row } = await loadCard(request, UPDATE, MEMBER);
      const updated = await updateQrUser(app.db, row, request.body, signedIn(request).userId);
      return {
        message: say(request, (m) => m.qrUser.updated),
        data: await presentQrUser(updated, ctx(request)),
      };
    },
  );

  cardListRoute(
    '/qrmembre-list',
    'Member cards, newest first, paged (?page=&per_page=&q=).',
    'member',
    'members.list',
  );

  app.get(
    '/company/:slug/members',
    {
      config: { action: 'members.list' },
      schema: {
        tags: ['qr-users'],
        summary:
          "A company's members by last name, paged (?page=&per_page=&q=): photo (signed URL), QR (data URL), uidn.",
        params: z.object({ slug: z.string().min(1).max(100) }),
        querystring: listQuerySchema,
        response: {
          200: paginatedSchema(memberListItemSchema).extend({ company: companyOfList }),
        },
      },
    },
    async (request) => {
      const { record: company } = await loadCompany(request, request.params.slug);
      const { rows, total } = await listQrUsers(app.db, request.query, {
        kind: 'member',
        companyId: company.id,
        order: 'name',
      });
      return {
        data: await Promise.all(rows.map((row) => presentMember(row, ctx(request)))),
        meta: listMeta(request.query, total),
        company: {
          id: company.id,
          name: company.name,
          slug: company.slug,
          logo_url: app.fileUrls.logo(company.logoStoredName),
        },
      };
    },
  );
};
