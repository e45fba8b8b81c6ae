/**
 * The signing step's plain logic (issue 31): a document to sign in the visitor's language
 * (from a type's both-language documents or a `to_sign` list), a signature as the server
 * reads it (signatureInputSchema), and the `signatures` field of a multipart form. No React:
 * `apps/web/test/signing.test.ts`.
 */
import type { DocumentToSign, PublicVisitorType, SignatureInput } from '@sesame/shared';

/** What the signing step shows of a document. */
export type DocumentShown = Pick<DocumentToSign, 'document_id' | 'version' | 'title' | 'body'> & {
  language: 'fr' | 'en';
};

/** A type's documents in the page's language (the public form and the kiosk's walk-in). */
export function documentsOfType(
  type: Pick<PublicVisitorType, 'documents'> | null | undefined,
  language: string,
): DocumentShown[] {
  const lang = language === 'en' ? 'en' : 'fr';
  return (type?.documents ?? []).map((doc) => ({
    document_id: doc.document_id,
    version: doc.version,
    language: lang,
    title: (lang === 'en' ? doc.title_en : doc.title_fr) || doc.title_fr,
    body: (lang === 'en' ? doc.body_en : doc.body_fr) || doc.body_fr,
  }));
}

/** The signer's choice on one document. */
export type SignatureDraft =
  | { method: 'drawn'; name: string; image: string | null }
  | { method: 'typed'; name: string; accepted: boolean };

/** Why a draft cannot be sent yet (the locale key of signing.json), or null. */
export function draftProblem(
  draft: SignatureDraft,
): 'nameRequired' | 'drawingMissing' | 'notAccepted' | null {
  if (!draft.name.trim()) return 'nameRequired';
  if (draft.method === 'drawn' && !draft.image) return 'drawingMissing';
  if (draft.method === 'typed' && !draft.accepted) return 'notAccepted';
  return null;
}

/** One signature as the server reads it: the drawing for 'drawn', the ticked box for 'typed'. */
export function signatureOf(
  doc: Pick<DocumentShown, 'document_id' | 'version'>,
  draft: SignatureDraft,
  sendCopy = false,
): SignatureInput {
  const base = {
    document_id: doc.document_id,
    version: doc.version,
    signer_name: draft.name.trim().replace(/\s+/g, ' '),
    ...(sendCopy ? { send_copy: true } : {}),
  };
  return draft.method === 'drawn'
    ? { ...base, method: 'drawn', image: draft.image ?? undefined }
    : { ...base, method: 'typed', accepted: true };
}

/** The `signatures` field of a multipart form (a JSON string); '' leaves it out. */
export function signaturesField(signatures: readonly SignatureInput[]): string {
  return signatures.length ? JSON.stringify(signatures) : '';
}

/** A PNG data URL's decoded size in bytes (the server refuses over VISITOR_TYPE_LIMITS.signatureMaxBytes). */
export function dataUrlBytes(dataUrl: string): number {
  const data = dataUrl.slice(dataUrl.indexOf(',') + 1);
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
