/**
 * The signed document sent to the visitor who asked for it (issue 31): a short mail in the
 * signature's language, the PDF attached. The PDF is made again from the signature's row
 * (the same bytes as the stored one: `signaturePdf` is deterministic), so the worker needs
 * no file storage and a mail retried after a purge of the file still carries it.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies, files, signatures, sites } from '../db/schema';
import { signaturePdf, signaturePdfName, signedAtText } from '../documents/pdf';
import { asLanguage, detailsHtml, detailsText, frame, paragraphs, type Language } from './layout';
import { companyAddress, logoUrl } from './sources';
import type { RenderedMail } from './templates';

/** The kind of the signed document's mail (`mail_outbox.kind`). */
export const SIGNED_DOCUMENT_MAIL = 'signed_document';

export interface SignedDocumentMailPayload {
  signatureId: string;
  /** The visit the signature was made for (an erasure of the person removes the mail). */
  visitorId: string | null;
}

const TEXT = {
  fr: {
    subject: (title: string) => `Votre document signé – ${title}`,
    hello: (name: string) => `Bonjour ${name},`,
    intro: (company: string) =>
      `Vous trouverez ci-joint le document que vous avez signé pour votre visite chez ${company} (PDF).`,
    document: 'Document',
    version: 'Version',
    signedAt: 'Signé le',
    hash: 'Empreinte SHA-256',
    keep: 'Conservez ce message si vous souhaitez garder une copie du document signé.',
    locale: 'fr-FR',
  },
  en: {
    subject: (title: string) => `Your signed document – ${title}`,
    hello: (name: string) => `Hello ${name},`,
    intro: (company: string) =>
      `Attached is the document you signed for your visit to ${company} (PDF).`,
    document: 'Document',
    version: 'Version',
    signedAt: 'Signed on',
    hash: 'SHA-256 fingerprint',
    keep: 'Keep this message if you wish to keep a copy of the signed document.',
    locale: 'en-GB',
  },
} as const;

/** The mail of one signature, or null when the signature is gone (purged, erased). */
export async function renderSignedDocumentMail(
  db: Db,
  payload: SignedDocumentMailPayload,
  companyId: string,
  publicUrl: string,
): Promise<RenderedMail | null> {
  if (!payload.signatureId) return null;
  const [found] = await db
    .select({ signature: signatures, site: sites, company: companies, logo: files.storedName })
    .from(signatures)
    .innerJoin(sites, eq(sites.id, signatures.siteId))
    .innerJoin(companies, eq(companies.id, signatures.companyId))
    .leftJoin(files, eq(files.id, companies.logoFileId))
    .where(eq(signatures.id, payload.signatureId))
    .limit(1);
  if (!found || found.signature.companyId !== companyId) return null;
  const { signature, site, company, logo } = found;
  const lang: Language = asLanguage(signature.language);
  const t = TEXT[lang];
  const pdf = await signaturePdf(signature, {
    companyName: company.name,
    siteName: site.name,
    timeZone: site.timezone,
  });
  const rows: [string, string][] = [
    [t.document, signature.title],
    [t.version, String(signature.version)],
    [t.signedAt, signedAtText(signature.signedAt, site.timezone, t.locale)],
    [t.hash, signature.hash],
  ];
  const framed = frame({
    lang,
    subject: t.subject(signature.title),
    company: {
      name: company.name,
      logoUrl: logoUrl(publicUrl, logo),
      address: companyAddress(company),
      country: company.country,
    },
    html:
      paragraphs([t.hello(signature.signerName), t.intro(company.name)]) +
      detailsHtml(rows) +
      paragraphs([t.keep]),
    text: [
      t.hello(signature.signerName),
      '',
      t.intro(company.name),
      '',
      ...detailsText(rows, lang),
      '',
      t.keep,
    ],
  });
  return {
    ...framed,
    attachments: [
      {
        filename: signaturePdfName(signature),
        content: pdf,
        contentType: 'application/pdf',
      },
    ],
  };
}
