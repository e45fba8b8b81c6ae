/**
 * Visitor types and the documents they sign (issue 31). A site's types say how each kind of
 * visitor comes in — the fields they must give, the documents they sign, whether the host
 * approves a walk-in, their badge's band and their own automatic check-out — and the public
 * form, the kiosk and an invitation's link all take their steps from the type. The screens
 * and the server read these schemas; the limits are here once.
 */
import { z } from 'zod';
import { DAY_END_PATTERN } from './company';
import {
  TEXT_MAX,
  atMost,
  formLines,
  formText,
  keyed,
  oneLine,
  sayIssue,
  uuidSchema,
} from './common';

/** The fields a type may require, in the order the forms ask them. */
export const VISITOR_TYPE_FIELDS = [
  'organisation',
  'phone',
  'id_number',
  'id_document',
  'photo',
] as const;
export type VisitorTypeField = (typeof VISITOR_TYPE_FIELDS)[number];

/**
 * How long a signature lasts: each visit asks again ('visit'), `validity_days` days
 * ('days'), or until the document gets a new version ('version').
 */
export const SIGNATURE_VALIDITIES = ['visit', 'days', 'version'] as const;
export type SignatureValidity = (typeof SIGNATURE_VALIDITIES)[number];

/** 'drawn' with a finger (signature_pad), or 'typed': the full name typed and a box ticked (WCAG 2.2 SC 2.5.7). */
export const SIGNATURE_METHODS = ['drawn', 'typed'] as const;
export type SignatureMethod = (typeof SIGNATURE_METHODS)[number];

export const VISITOR_TYPE_LIMITS = {
  /** Types of one site. */
  maxTypesPerSite: 30,
  /** Documents one type asks to sign. */
  maxDocumentsPerType: 10,
  /** A document's title, each language. */
  titleMax: 200,
  /** A document's Markdown text, each language. */
  bodyMax: 50_000,
  /** 'days' validity, at most ten years. */
  validityDaysMax: 3650,
  /** A drawn signature's PNG, as sent (a data URL's decoded bytes). */
  signatureMaxBytes: 200 * 1024,
} as const;

/** The badge band's colour: '#RRGGBB'. */
export const BADGE_COLOR_PATTERN = /^#[0-9A-Fa-f]{6}$/;

const typeIssue = (key: 'colorInvalid' | 'timeInvalid' | 'validityDaysInvalid', field: string) =>
  keyed((m) => m.visitorType[key], { key, field });

const requiredName = (field: 'name_fr' | 'name_en' | 'title_fr' | 'title_en') =>
  keyed((m) => m.visitorType.required(field), { key: 'required', field });

const name = (field: 'name_fr' | 'name_en') =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v : ''),
    z
      .string()
      .max(...atMost(TEXT_MAX.name))
      .trim()
      .refine(...oneLine)
      .min(1, requiredName(field)),
  );

const documentRefSchema = z
  .object({
    document_id: uuidSchema,
    validity: z.enum(SIGNATURE_VALIDITIES).default('visit'),
    /** With 'days': how many. */
    validity_days: z.coerce
      .number()
      .int()
      .min(1)
      .max(VISITOR_TYPE_LIMITS.validityDaysMax)
      .nullish(),
  })
  .refine((d) => d.validity !== 'days' || !!d.validity_days, {
    ...typeIssue('validityDaysInvalid', 'validity_days'),
    path: ['validity_days'],
  });

/** POST `/api/company/{id}/visitor-types` (a new type) and PUT `…/visitor-types/{typeId}`. */
export const visitorTypeInputSchema = z.object({
  site_id: uuidSchema,
  name_fr: name('name_fr'),
  name_en: name('name_en'),
  color: z
    .string(typeIssue('colorInvalid', 'color'))
    .trim()
    .max(7, typeIssue('colorInvalid', 'color'))
    .regex(BADGE_COLOR_PATTERN, typeIssue('colorInvalid', 'color'))
    .transform((c) => c.toUpperCase()),
  required_fields: z
    .array(z.enum(VISITOR_TYPE_FIELDS))
    .max(VISITOR_TYPE_FIELDS.length)
    .default([])
    .transform((fields) => VISITOR_TYPE_FIELDS.filter((f) => fields.includes(f))),
  host_approval: z.boolean().default(true),
  /** HH:MM in the site's zone; null or blank: the site's own day end. */
  auto_check_out_at: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string()
      .trim()
      .max(5, typeIssue('timeInvalid', 'auto_check_out_at'))
      .regex(DAY_END_PATTERN, typeIssue('timeInvalid', 'auto_check_out_at'))
      .nullish(),
  ),
  documents: z.array(documentRefSchema).max(VISITOR_TYPE_LIMITS.maxDocumentsPerType).default([]),
});
export type VisitorTypeInput = z.input<typeof visitorTypeInputSchema>;

/** A document a type asks to sign, as a type lists it. */
export const typeDocumentSchema = z.object({
  document_id: z.string(),
  version: z.number().int(),
  title_fr: z.string(),
  title_en: z.string(),
  validity: z.enum(SIGNATURE_VALIDITIES),
  validity_days: z.number().int().nullable(),
});
export type TypeDocument = z.infer<typeof typeDocumentSchema>;

/** A visitor type, as the staff screens read it. */
export const visitorTypeSchema = z.object({
  id: z.string(),
  site_id: z.string(),
  name_fr: z.string(),
  name_en: z.string(),
  color: z.string(),
  required_fields: z.array(z.enum(VISITOR_TYPE_FIELDS)),
  host_approval: z.boolean(),
  auto_check_out_at: z.string().nullable(),
  position: z.number().int(),
  archived: z.boolean(),
  documents: z.array(typeDocumentSchema),
});
export type VisitorType = z.infer<typeof visitorTypeSchema>;

export const visitorTypeListQuerySchema = z.object({
  /** One site's types; without it, every site's of the company. */
  site: uuidSchema.optional(),
  /** Archived types too ('1'). */
  archived: z.enum(['0', '1']).optional(),
});

const docText = (field: 'title_fr' | 'title_en') =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v : ''),
    z
      .string()
      .max(...atMost(VISITOR_TYPE_LIMITS.titleMax))
      .trim()
      .refine(...oneLine)
      .min(1, requiredName(field)),
  );

const docBody = (field: 'body_fr' | 'body_en') =>
  formLines(VISITOR_TYPE_LIMITS.bodyMax).refine((text) => text.trim().length > 0, {
    ...keyed((m) => m.visitorType.bodyRequired, { key: 'bodyRequired', field }),
  });

/**
 * POST `/api/company/{id}/documents` (a new document, version 1) and PUT `…/documents/{docId}`:
 * a text or title that changes writes the next version; the same text again changes nothing.
 */
export const documentInputSchema = z.object({
  site_id: uuidSchema,
  title_fr: docText('title_fr'),
  title_en: docText('title_en'),
  body_fr: docBody('body_fr'),
  body_en: docBody('body_en'),
});
export type DocumentInput = z.input<typeof documentInputSchema>;

/** A document with its current text and the list of its versions. */
export const siteDocumentSchema = z.object({
  id: z.string(),
  site_id: z.string(),
  version: z.number().int(),
  title_fr: z.string(),
  title_en: z.string(),
  body_fr: z.string(),
  body_en: z.string(),
  archived: z.boolean(),
  versions: z.array(z.object({ version: z.number().int(), created_at: z.string() })),
});
export type SiteDocument = z.infer<typeof siteDocumentSchema>;

/**
 * One signature as a visitor sends it, with the step it completes (the public form, the
 * kiosk's walk-in or check-in, the invitation's link). `version` is the version read:
 * a document changed meanwhile answers 409 and the screen shows the new text.
 */
export const signatureInputSchema = z
  .object({
    document_id: uuidSchema,
    version: z.coerce.number().int().min(1),
    /** The signer's full name, as they give or type it. */
    signer_name: formText(TEXT_MAX.name).refine((n) => n.length > 0, {
      ...keyed((m) => m.visitorType.signerNameRequired, { key: 'signerNameRequired' }),
    }),
    method: z.enum(SIGNATURE_METHODS),
    /** 'drawn': the signature as a PNG data URL. */
    image: z
      .string()
      .max(Math.ceil((VISITOR_TYPE_LIMITS.signatureMaxBytes * 4) / 3) + 64)
      .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/)
      .optional(),
    /** 'typed': the box "I sign by typing my name" ticked. */
    accepted: z.boolean().optional(),
    /** "Send me the signed document by e-mail": the PDF goes to the visit's address. */
    send_copy: z.boolean().optional(),
  })
  .superRefine((s, ctx) => {
    if (s.method === 'drawn' && !s.image) {
      ctx.addIssue({
        code: 'custom',
        path: ['image'],
        ...sayIssue((m) => m.visitorType.signatureMissing, { key: 'signatureMissing' }),
      });
    }
    if (s.method === 'typed' && s.accepted !== true) {
      ctx.addIssue({
        code: 'custom',
        path: ['accepted'],
        ...sayIssue((m) => m.visitorType.typedNotAccepted, { key: 'typedNotAccepted' }),
      });
    }
  });
export type SignatureInput = z.input<typeof signatureInputSchema>;

/** The signatures of one step (multipart sends them as one JSON field). */
export const signaturesFieldSchema = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}, z.array(signatureInputSchema).max(VISITOR_TYPE_LIMITS.maxDocumentsPerType).default([]));

/** A document still to sign, in the visitor's language (what the signing step shows). */
export const documentToSignSchema = z.object({
  document_id: z.string(),
  version: z.number().int(),
  language: z.enum(['fr', 'en']),
  title: z.string(),
  /** Markdown. */
  body: z.string(),
});
export type DocumentToSign = z.infer<typeof documentToSignSchema>;

/**
 * A site's type as a visitor's screen reads it (the public form, the kiosk): the names,
 * band, fields and documents; nothing of the staff's settings beyond what the steps need.
 */
export const publicVisitorTypeSchema = z.object({
  id: z.string(),
  name_fr: z.string(),
  name_en: z.string(),
  color: z.string(),
  required_fields: z.array(z.enum(VISITOR_TYPE_FIELDS)),
  host_approval: z.boolean(),
  /** Every document of the type, current version, both languages. */
  documents: z.array(
    z.object({
      document_id: z.string(),
      version: z.number().int(),
      title_fr: z.string(),
      title_en: z.string(),
      body_fr: z.string(),
      body_en: z.string(),
    }),
  ),
});
export type PublicVisitorType = z.infer<typeof publicVisitorTypeSchema>;

/** A signed document, as staff read it on a visit. */
export const signedDocumentSchema = z.object({
  id: z.string(),
  document_id: z.string().nullable(),
  title: z.string(),
  version: z.number().int(),
  language: z.string(),
  signer_name: z.string(),
  method: z.enum(SIGNATURE_METHODS),
  signed_at: z.string(),
  hash: z.string(),
  /** The signed PDF (a signed URL bound to the session), null once purged. */
  pdf_url: z.string().nullable(),
});
export type SignedDocument = z.infer<typeof signedDocumentSchema>;
