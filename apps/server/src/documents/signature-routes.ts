/**
 * Signed documents (issue 31): staff read a visit's signatures and download each one's PDF
 * (`signatures.read`, audited 'signature.downloaded'); the visitor who just signed asks for
 * the PDF by mail from the signing screen.
 */
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../params';
import { signedDocumentSchema, type SignedDocument } from '@sesame/shared';
import { audit } from '../audit/service';
import { loadAuthorized } from '../auth/authorize';
import { files } from '../db/schema';
import { conflict, notFound } from '../errors';
import type { FileSigner } from '../files/urls';
import { sendStored } from '../files/routes';
import { say } from '../language';
import { withinSites } from '../sites/service';
import { findVisitor } from '../visitors/service';
import { signaturePdf, signaturePdfName } from './pdf';
import {
  findSignature,
  pdfContextOf,
  queueSignedDocumentMail,
  signaturesOfVisitor,
  type SignatureRow,
} from './signing';

/** How long after signing the signing screen may still ask for the PDF by mail. */
export const SIGNED_PDF_SEND_WINDOW_MS = 30 * 60_000;

export function presentSignature(row: SignatureRow, urls: FileSigner): SignedDocument {
  return {
    id: row.id,
    document_id: row.documentId,
    title: row.title,
    version: row.version,
    language: row.language,
    signer_name: row.signerName,
    method: row.method === 'drawn' ? 'drawn' : 'typed',
    signed_at: row.signedAt.toISOString(),
    hash: row.hash,
    pdf_url: urls.signed(row.pdfFileId),
  };
}

export const signatureRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;

  app.get(
    '/visitors/:id/signatures',
    {
      config: { action: 'signatures.read' },
      schema: {
        tags: ['documents'],
        summary:
          "A visit's signed documents, newest first: title, version, language, signer, method, time, SHA-256, and " +
          "the PDF's signed URL (bound to the session). Another company's visitor is a 404.",
        params: idParams,
        response: { 200: z.object({ data: z.array(signedDocumentSchema) }) },
      },
    },
    async (request) => {
      const { who, record: visitor } = await loadAuthorized(
        request,
        (db, id: string) => findVisitor(db, id, undefined),
        request.params.id,
      );
      // A member limited to some sites reaches their visits only (issue 28).
      if (visitor.companyId === who.companyId && !withinSites(who, visitor.siteId)) {
        throw notFound();
      }
      const urls = app.fileUrls.for(request.principal);
      const rows = await signaturesOfVisitor(app.db, visitor.id);
      return { data: rows.map((row) => presentSignature(row, urls)) };
    },
  );

  app.get(
    '/signatures/:id/pdf',
    {
      config: { action: 'signatures.read' },
      schema: {
        tags: ['documents'],
        summary:
          'A signed document as PDF (an attachment named after its title, version and day). When the stored file is ' +
          'gone the PDF is made again from the signature, which keeps every part of it: the same bytes. Audited ' +
          "('signature.downloaded'). Another company's signature is a 404.",
        params: idParams,
      },
    },
    async (request, reply) => {
      const { who, record: row } = await loadAuthorized(request, findSignature, request.params.id);
      if (row.companyId === who.companyId && !withinSites(who, row.siteId)) throw notFound();
      const [file] = row.pdfFileId
        ? await app.db.select().from(files).where(eq(files.id, row.pdfFileId)).limit(1)
        : [];
      // The stored PDF streams from the folder or the bucket (issue 32), never held whole.
      const stored = file ? await app.storage.getStream(file.storedName) : null;
      const downloaded = () =>
        audit(app.db, {
          companyId: row.companyId,
          actorUserId: who.userId,
          action: 'signature.downloaded',
          subjectType: 'signature',
          subjectId: row.id,
          detail: { document_id: row.documentId, version: row.version, remade: !stored },
        });
      const headers = {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="${signaturePdfName(row)}"`,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      };
      if (stored) return sendStored(reply, stored, headers, downloaded);
      const bytes = await signaturePdf(row, await pdfContextOf(app.db, row.siteId));
      await downloaded();
      return reply.headers(headers).send(bytes);
    },
  );

  app.post(
    '/public/signatures/:id/send',
    {
      config: {
        public: true,
        rateLimit: { max: limits.publicFormPerWindow, timeWindow: limits.windowMs },
      },
      schema: {
        tags: ['documents'],
        summary:
          'The signing screen asks for the signed PDF by mail, right after signing (public): only within 30 minutes ' +
          'of the signature, only to the e-mail recorded with it (no address is taken), once per signature.',
        params: idParams,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const row = await findSignature(app.db, request.params.id);
      if (!row) throw notFound();
      if (Date.now() - row.signedAt.getTime() > SIGNED_PDF_SEND_WINDOW_MS) {
        throw notFound((m) => m.visitorType.pdfSendClosed);
      }
      if (!row.signerEmail.trim()) throw conflict((m) => m.visitorType.pdfNoEmail);
      await app.db.transaction((tx) => queueSignedDocumentMail(tx, row.id));
      return { message: say(request, (m) => m.visitorType.pdfSent) };
    },
  );
};
