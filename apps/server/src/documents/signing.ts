/**
 * Documents signed at arrival (issue 31). A visitor type lists its documents and how long a
 * signature lasts; before a visit goes on, every document of its type must hold a signature
 * of its current version that is still valid for this person (known by their e-mail), or be
 * signed now. What is kept of a signature is exactly what was signed — title, text, version,
 * language — who signed, how, the drawn image, the time and a SHA-256 over all of them
 * (`signatureHash`), which the audit entry records too, so the record can be checked later.
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Language, SignatureInput, SignatureValidity } from '@sesame/shared';
import { VISITOR_TYPE_LIMITS, signatureInputSchema } from '@sesame/shared';
import type { z } from 'zod';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import {
  companies,
  documentVersions,
  mailOutbox,
  signatures,
  siteDocuments,
  sites,
  visitorTypeDocuments,
} from '../db/schema';
import { badRequest, conflict } from '../errors';
import { detectMediaType } from '../files/detect';
import type { FileStorage } from '../files/storage';
import { storeFile } from '../files/uploads';
import {
  SIGNED_DOCUMENT_MAIL,
  type SignedDocumentMailPayload,
} from '../mail/signed-document-templates';
import { signaturePdf, type SignaturePdfContext } from './pdf';

/** The owner type of a signature's PDF in `files`. */
export const SIGNATURE_PDF_OWNER = 'signature_pdf';

export type SignatureRow = typeof signatures.$inferSelect;
export type Signed = z.output<typeof signatureInputSchema>;

/** The parts a signature's hash covers, in this order (a change of order is a new format). */
export interface SignedParts {
  title: string;
  body: string;
  version: number;
  language: string;
  signerName: string;
  method: string;
  /** The drawn signature's PNG in base64, '' when typed. */
  imagePng: string;
  /** ISO 8601, milliseconds, UTC ('2026-11-28T09:15:00.000Z'). */
  signedAt: string;
}

/**
 * SHA-256 (hex) over the parts, each written as its JSON string in a JSON array: no part can
 * run into the next, and anyone can recompute it from the stored row.
 */
export function signatureHash(parts: SignedParts): string {
  const canonical = JSON.stringify([
    'sesame-signature-v1',
    parts.title,
    parts.body,
    parts.version,
    parts.language,
    parts.signerName,
    parts.method,
    parts.imagePng,
    parts.signedAt,
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** The parts of a stored signature, for recomputing its hash. */
export function partsOf(row: SignatureRow): SignedParts {
  return {
    title: row.title,
    body: row.body,
    version: row.version,
    language: row.language,
    signerName: row.signerName,
    method: row.method,
    imagePng: row.imagePng ?? '',
    signedAt: row.signedAt.toISOString(),
  };
}

/** A document of a type, at its current version, with how long a signature lasts. */
export interface TypeDocumentToSign {
  documentId: string;
  versionId: string;
  version: number;
  titleFr: string;
  titleEn: string;
  bodyFr: string;
  bodyEn: string;
  validity: SignatureValidity;
  validityDays: number | null;
}

/**
 * Every active document of each of the types, at its current version, in each type's order
 * (the staff's list of types and the signing steps read the same rows).
 */
export async function documentsOfTypes(
  db: Db,
  typeIds: readonly string[],
): Promise<(TypeDocumentToSign & { typeId: string })[]> {
  if (typeIds.length === 0) return [];
  const found = await db
    .select({
      typeId: visitorTypeDocuments.visitorTypeId,
      documentId: siteDocuments.id,
      versionId: documentVersions.id,
      version: documentVersions.version,
      titleFr: documentVersions.titleFr,
      titleEn: documentVersions.titleEn,
      bodyFr: documentVersions.bodyFr,
      bodyEn: documentVersions.bodyEn,
      validity: visitorTypeDocuments.validity,
      validityDays: visitorTypeDocuments.validityDays,
    })
    .from(visitorTypeDocuments)
    .innerJoin(siteDocuments, eq(siteDocuments.id, visitorTypeDocuments.documentId))
    .innerJoin(
      documentVersions,
      and(
        eq(documentVersions.documentId, siteDocuments.id),
        eq(documentVersions.version, siteDocuments.currentVersion),
      ),
    )
    .where(
      and(
        inArray(visitorTypeDocuments.visitorTypeId, [...typeIds]),
        isNull(siteDocuments.archivedAt),
      ),
    )
    .orderBy(asc(visitorTypeDocuments.position), asc(siteDocuments.createdAt));
  // text column: written only from the document schema's validities.
  return found.map((d) => ({ ...d, validity: d.validity as SignatureValidity }));
}

/** Every active document of a type, current version, in the type's order. */
export async function documentsOfType(db: Db, typeId: string): Promise<TypeDocumentToSign[]> {
  return documentsOfTypes(db, [typeId]);
}

/**
 * Whether a signature of `doc` by `email` still holds at `now`: a 'visit' signature never
 * carries over to another visit; a 'version' one holds while the version is current; a
 * 'days' one for its days, of the current version only (a new version always asks again).
 */
async function stillSigned(
  db: Db,
  companyId: string,
  email: string,
  doc: TypeDocumentToSign,
  now: Date,
): Promise<boolean> {
  if (doc.validity === 'visit' || !email) return false;
  const since =
    doc.validity === 'days' && doc.validityDays
      ? new Date(now.getTime() - doc.validityDays * 86_400_000)
      : new Date(0);
  const [row] = await db
    .select({ id: signatures.id })
    .from(signatures)
    .where(
      and(
        eq(signatures.companyId, companyId),
        eq(signatures.signerEmail, email.trim().toLowerCase()),
        eq(signatures.documentId, doc.documentId),
        eq(signatures.version, doc.version),
        gt(signatures.signedAt, since),
      ),
    )
    .orderBy(desc(signatures.signedAt))
    .limit(1);
  return !!row;
}

/**
 * The documents of a type this person must still sign: those of its documents that hold no
 * valid signature by `email` (every one for a visitor without an e-mail, or of a 'visit'
 * validity). A visit that already signed one (its `visitorId`) is not asked again.
 */
export async function documentsToSign(
  db: Db,
  {
    companyId,
    typeId,
    email,
    visitorId,
    now = new Date(),
  }: {
    companyId: string;
    typeId: string | null;
    email: string;
    visitorId?: string | null;
    now?: Date;
  },
): Promise<TypeDocumentToSign[]> {
  if (!typeId) return [];
  const documents = await documentsOfType(db, typeId);
  if (documents.length === 0) return [];
  const signedByVisit = visitorId
    ? await db
        .select({ documentId: signatures.documentId, version: signatures.version })
        .from(signatures)
        .where(
          and(
            eq(signatures.visitorId, visitorId),
            inArray(
              signatures.documentId,
              documents.map((d) => d.documentId),
            ),
          ),
        )
    : [];
  const left: TypeDocumentToSign[] = [];
  for (const doc of documents) {
    const thisVisit = signedByVisit.some(
      (s) => s.documentId === doc.documentId && s.version === doc.version,
    );
    if (thisVisit) continue;
    if (await stillSigned(db, companyId, email, doc, now)) continue;
    left.push(doc);
  }
  return left;
}

/** A drawn signature's PNG bytes, checked (a PNG of at most 200 KB); else 400. */
function pngOf(dataUrl: string | undefined): Buffer {
  const bytes = Buffer.from((dataUrl ?? '').slice((dataUrl ?? '').indexOf(',') + 1), 'base64');
  if (
    bytes.length === 0 ||
    bytes.length > VISITOR_TYPE_LIMITS.signatureMaxBytes ||
    detectMediaType(bytes) !== 'image/png'
  ) {
    throw badRequest((m) => m.visitorType.signatureInvalid, {
      signatures: (m) => m.visitorType.signatureInvalid,
    });
  }
  return bytes;
}

export interface SignForVisit {
  companyId: string;
  siteId: string;
  visitorId: string;
  typeId: string | null;
  /** The signer's e-mail ('' without one): how a later visit knows them. */
  email: string;
  language: Language;
  /** What the visitor sent with this step. */
  signed: readonly SignatureInput[] | readonly Signed[];
  now?: Date;
  /**
   * Where each signature's PDF is written (a private file, `signatures.pdf_file_id`): the
   * storage `withStoredFileCleanup` hands the caller, so a rolled-back visit leaves no bytes.
   * Without it no PDF is stored; a download makes it again from the row.
   */
  storage?: FileStorage;
}

/** The company's and the site's names and the site's zone: what a signature's PDF shows besides the row. */
export async function pdfContextOf(db: Db, siteId: string): Promise<SignaturePdfContext> {
  const [found] = await db
    .select({ companyName: companies.name, siteName: sites.name, timeZone: sites.timezone })
    .from(sites)
    .innerJoin(companies, eq(companies.id, sites.companyId))
    .where(eq(sites.id, siteId))
    .limit(1);
  if (!found) throw new Error(`pdfContextOf: no site ${siteId}`);
  return found;
}

/** Makes the signature's PDF, stores it as a private file and links it to the row. */
export async function storeSignaturePdf(
  tx: Db,
  storage: FileStorage,
  row: SignatureRow,
  context?: SignaturePdfContext,
): Promise<SignatureRow> {
  const bytes = await signaturePdf(row, context ?? (await pdfContextOf(tx, row.siteId)));
  const file = await storeFile(
    tx,
    storage,
    { field: 'pdf', filename: 'document-signe.pdf', bytes, mediaType: 'application/pdf' },
    { companyId: row.companyId, ownerType: SIGNATURE_PDF_OWNER, ownerId: row.id },
  );
  const [linked] = await tx
    .update(signatures)
    .set({ pdfFileId: file.id })
    .where(eq(signatures.id, row.id))
    .returning();
  return linked ?? { ...row, pdfFileId: file.id };
}

/**
 * Checks that every document the visit must still sign is signed in `signed` (400
 * `visitorType.toSign` naming the first one missing; 409 `visitorType.versionChanged` when
 * the visitor read an older version), then writes each signature with its hash and its
 * audit entry ('document.signed', no actor, `detail.hash`), in the caller's transaction.
 * A signature sent for a document not asked is ignored. Answers the rows written.
 */
export async function signForVisit(tx: Db, visit: SignForVisit): Promise<SignatureRow[]> {
  const now = visit.now ?? new Date();
  const toSign = await documentsToSign(tx, {
    companyId: visit.companyId,
    typeId: visit.typeId,
    email: visit.email,
    visitorId: visit.visitorId,
    now,
  });
  const written: SignatureRow[] = [];
  const context = visit.storage && toSign.length ? await pdfContextOf(tx, visit.siteId) : undefined;
  for (const doc of toSign) {
    const title = visit.language === 'en' ? doc.titleEn : doc.titleFr;
    const sent = visit.signed.find((s) => s.document_id === doc.documentId);
    if (!sent) {
      throw badRequest((m) => m.visitorType.toSign(title), {
        signatures: (m) => m.visitorType.toSign(title),
      });
    }
    if (Number(sent.version) !== doc.version) {
      throw conflict((m) => m.visitorType.versionChanged(title));
    }
    const input = signatureInputSchema.parse(sent);
    const imagePng = input.method === 'drawn' ? pngOf(input.image).toString('base64') : '';
    const parts: SignedParts = {
      title,
      body: visit.language === 'en' ? doc.bodyEn : doc.bodyFr,
      version: doc.version,
      language: visit.language,
      signerName: input.signer_name,
      method: input.method,
      imagePng,
      signedAt: now.toISOString(),
    };
    const hash = signatureHash(parts);
    const [row] = await tx
      .insert(signatures)
      .values({
        companyId: visit.companyId,
        siteId: visit.siteId,
        documentId: doc.documentId,
        documentVersionId: doc.versionId,
        visitorId: visit.visitorId,
        version: doc.version,
        language: visit.language,
        title: parts.title,
        body: parts.body,
        signerName: parts.signerName,
        signerEmail: visit.email.trim().toLowerCase(),
        method: parts.method,
        imagePng: imagePng || null,
        signedAt: now,
        hash,
      })
      .returning();
    if (!row) throw new Error('expected a row: the signature written');
    await audit(tx, {
      companyId: visit.companyId,
      actorUserId: null,
      action: 'document.signed',
      subjectType: 'signature',
      subjectId: row.id,
      detail: {
        document_id: doc.documentId,
        version: doc.version,
        hash,
        visitor_id: visit.visitorId,
      },
    });
    written.push(visit.storage ? await storeSignaturePdf(tx, visit.storage, row, context) : row);
    // The visitor asked for a copy as they signed: the PDF goes to the address of the visit.
    if (input.send_copy) await queueSignedDocumentMail(tx, row.id);
  }
  return written;
}

/** The signatures of a visit, newest first (the staff's list, the export). */
export async function signaturesOfVisitor(db: Db, visitorId: string): Promise<SignatureRow[]> {
  return db
    .select()
    .from(signatures)
    .where(eq(signatures.visitorId, visitorId))
    .orderBy(desc(signatures.signedAt), sql`${signatures.id} desc`);
}

/** A signature by its id, or null. */
export async function findSignature(db: Db, id: string): Promise<SignatureRow | null> {
  const [row] = await db.select().from(signatures).where(eq(signatures.id, id)).limit(1);
  return row ?? null;
}

/**
 * Queues the signed document's mail ('signed_document', the PDF attached, in the
 * signature's language) to the e-mail recorded on the signature, once per signature
 * (its dedupe key), in the caller's transaction. Null when the signature is unknown, has
 * no e-mail, or its mail was already queued; else the outbox row's id.
 */
export async function queueSignedDocumentMail(tx: Db, signatureId: string): Promise<string | null> {
  const row = await findSignature(tx, signatureId);
  if (!row || !row.signerEmail.trim()) return null;
  const payload: SignedDocumentMailPayload = { signatureId: row.id, visitorId: row.visitorId };
  const [queued] = await tx
    .insert(mailOutbox)
    .values({
      companyId: row.companyId,
      kind: SIGNED_DOCUMENT_MAIL,
      toAddress: row.signerEmail,
      payload,
      dedupeKey: `${SIGNED_DOCUMENT_MAIL}:${row.id}`,
    })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  return queued?.id ?? null;
}
