import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMAGE_TYPES, extensionOf, isOneOf } from '@sesame/shared';
import { idParams } from '../params';
import { authorize } from '../auth/authorize';
import { loadPrincipal, type Principal } from '../auth/principal';
import type { Db } from '../db/client';
import { files, sessions, visitors } from '../db/schema';
import { audit } from '../audit/service';
import { VISITOR_DOCUMENT_OWNER } from '../visitors/service';
import { SIGNATURE_PDF_OWNER } from '../documents/signing';
import { notFound, unauthenticated } from '../errors';
import { clearFilesCookie, filesCookieOf } from './cookie';
import type { StoredStream } from './storage';

/**
 * A stored file streamed to the reply (issue 32): never held whole, from the folder or the
 * bucket alike. `before` runs once the file is known to exist and before a byte is sent (the
 * audit); if it throws, the opened stream is closed rather than left holding a descriptor
 * or a connection to the bucket.
 */
export async function sendStored(
  reply: FastifyReply,
  opened: StoredStream,
  headers: Record<string, string>,
  before: () => Promise<void> = async () => undefined,
): Promise<FastifyReply> {
  try {
    await before();
  } catch (error) {
    opened.stream.destroy();
    throw error;
  }
  // Set only now: a failure above is answered by the error handler as JSON, not as an image.
  reply.headers(headers);
  if (opened.size !== undefined) reply.header('content-length', opened.size);
  return reply.send(opened.stream);
}

/** A plain ASCII name from what the file is, never the storage name nor the uploader's. */
export function contentDisposition(ownerType: string, mediaType: string): string {
  const base =
    ownerType === 'member_photo'
      ? 'photo'
      : ownerType === SIGNATURE_PDF_OWNER
        ? 'document-signe'
        : 'piece-identite';
  // Shown inline: images only. Everything else (PDF, Word) is downloaded, never rendered here.
  const how = isOneOf(IMAGE_TYPES, mediaType) ? 'inline' : 'attachment';
  return `${how}; filename="${base}.${extensionOf(mediaType)}"`;
}

/** The live session's staff member, or null (revoked, expired, unknown, disabled account). */
async function liveViewer(db: Db, sessionId: string): Promise<Principal | null> {
  const [session] = await db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  return session ? loadPrincipal(db, sessionId, session.userId) : null;
}

/** The person a document belongs to: a visitor (by their document) or a card holder. */
async function documentSubject(
  db: Db,
  file: { id: string; ownerType: string; ownerId: string | null },
): Promise<{ subjectType: 'visitor' | 'qr_user' | 'file'; subjectId: string }> {
  if (file.ownerId && file.ownerType !== VISITOR_DOCUMENT_OWNER) {
    return { subjectType: 'qr_user', subjectId: file.ownerId };
  }
  const [visitor] = await db
    .select({ id: visitors.id })
    .from(visitors)
    .where(eq(visitors.requestImageId, file.id))
    .limit(1);
  return visitor
    ? { subjectType: 'visitor', subjectId: visitor.id }
    : { subjectType: 'file', subjectId: file.id };
}

export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Who fetches a file: the live session of the bearer token (an API client), else the
   * one the files cookie names (a browser's <img> or link, which send no header). Neither:
   * 401, before the query is read (the guard order of every /api route). A cookie that
   * names no live session is cleared on the way.
   */
  async function fileViewer(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.principal) return;
    const cookie = filesCookieOf(request);
    const sessionId = cookie ? app.fileUrls.sessionOfKey(cookie) : null;
    const viewer = sessionId ? await liveViewer(app.db, sessionId) : null;
    if (viewer) {
      request.principal = viewer;
      return;
    }
    if (cookie) clearFilesCookie(reply, app.config.publicUrl);
    throw unauthenticated();
  }

  app.get(
    '/files/:id',
    {
      // Public to the shared guard, which reads bearer tokens only: this route takes the
      // files cookie too, so it asks for a credential itself (fileViewer).
      config: { public: true },
      preValidation: fileViewer,
      schema: {
        tags: ['files'],
        summary:
          "A private document or photo, through a signed URL handed out to staff. The URL is bound to the staff member's " +
          "session and opens nothing alone: the request carries that session's bearer token or the files cookie set at " +
          'sign-in (401 without either). It answers 404 for a URL signed for another session, once that session is over ' +
          '(logout, expiry, disabled account) or for a file of a company the session may not see. Never cached; images ' +
          'inline, other documents as attachments.',
        params: idParams,
        querystring: z.object({
          session: z.uuid(),
          expires: z.coerce.number(),
          signature: z.string().max(100),
        }),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { session, expires, signature } = request.query;
      // fileViewer found the live session of the caller's own credential.
      const viewer = request.principal;
      // The URL must have been signed for that very session: another session's link
      // (another tenant's, a colleague's) opens nothing, whatever it may see.
      if (!viewer || viewer.sessionId !== session) throw notFound();
      if (!app.fileUrls.verify(id, session, expires, signature)) throw notFound();
      const [file] = await app.db.select().from(files).where(eq(files.id, id)).limit(1);
      // A signed document's PDF (issue 31) is the signatures' right and audit, as its own route's.
      const signed = file?.ownerType === SIGNATURE_PDF_OWNER && !!file.ownerId;
      // Staff of the file's company, or a role that sees every company's documents; 404 alike.
      try {
        authorize(viewer, signed ? 'signatures.read' : 'visitors.viewDocument', file ?? null);
      } catch {
        throw notFound();
      }
      const opened = file ? await app.storage.getStream(file.storedName) : null;
      if (!file || !opened) throw notFound();
      const headers = {
        'content-type': file.mediaType,
        'content-disposition': contentDisposition(file.ownerType, file.mediaType),
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      };
      // Who looked at whose identity document (issue 16), before a byte is sent.
      return sendStored(reply, opened, headers, async () => {
        await audit(
          app.db,
          signed
            ? {
                companyId: file.companyId,
                actorUserId: viewer.userId,
                action: 'signature.downloaded',
                subjectType: 'signature',
                subjectId: file.ownerId,
                detail: { fileId: file.id },
              }
            : {
                companyId: file.companyId,
                actorUserId: viewer.userId,
                action: 'document.viewed',
                ...(await documentSubject(app.db, file)),
                detail: { fileId: file.id, kind: file.ownerType },
              },
        );
      });
    },
  );

  app.get(
    '/public/logo/:name',
    {
      config: { public: true },
      schema: {
        tags: ['files'],
        summary: 'A company logo (public).',
        params: z.object({
          name: z
            .string()
            .max(120)
            .regex(/^[a-f0-9]{32}\.(png|jpg|webp)$/),
        }),
      },
    },
    async (request, reply) => {
      const [file] = await app.db
        .select()
        .from(files)
        .where(and(eq(files.storedName, request.params.name), eq(files.ownerType, 'company_logo')))
        .limit(1);
      const opened = file ? await app.storage.getStream(file.storedName) : null;
      if (!file || !opened) throw notFound();
      return sendStored(reply, opened, {
        'content-type': file.mediaType,
        'x-content-type-options': 'nosniff',
        'cache-control': 'public, max-age=86400',
      });
    },
  );
};
