/**
 * Permanent QR codes and member cards (spec §2 "QR code creation", "Member card
 * creation", "Expiry update"; §5 "QR creation", "Member card", "Expiry form").
 * The web forms and the server routes read these same schemas and messages.
 *
 * Multipart bodies arrive as text fields: an empty field counts as absent.
 */
import { z } from 'zod';
import { QR_TYPES } from '../constants';
import { fr } from '../messages/fr';
import {
  EMAIL_PATTERN,
  TEXT_MAX,
  atMost,
  blankToUndefined,
  keyed,
  oneLine,
  optionalLine,
  phoneText,
  requiredLine,
  said,
} from './common';

export const QR_USER_KINDS = ['permanent', 'member'] as const;
export type QrUserKind = (typeof QR_USER_KINDS)[number];

/** Labels of the fields, as the required-field message names them. */
export const QR_USER_FIELD_LABELS = fr.qrUser.fields;
export type QrUserField = keyof typeof QR_USER_FIELD_LABELS;

export const QR_USER_MESSAGES = fr.qrUser;

/** 'YYYY-MM-DD', a real calendar day. */
export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE_PATTERN.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A QR-user form message with its locale key (`qrUsers:form.errors.<key>`). */
const qrIssue = (key: 'emailInvalid' | 'typeInvalid' | 'dateInvalid' | 'companyInvalid') =>
  keyed((m) => m.qrUser[key], { key });
const requiredIssue = (field: QrUserField) =>
  keyed((m) => m.qrUser.required(field), { key: 'required', field });

const text = (max: number = TEXT_MAX.name) =>
  z
    .string()
    .max(...atMost(max))
    .trim()
    .refine(...oneLine);
const optionalText = (max: number = TEXT_MAX.name) => optionalLine(max);
const requiredText = (field: QrUserField, max: number = TEXT_MAX.name) =>
  requiredLine(() => requiredIssue(field), max);

const emailShape = text(TEXT_MAX.email).regex(EMAIL_PATTERN, qrIssue('emailInvalid'));
/**
 * The phone rule of every form (issue 27), where spec §5 kept digits only: '+225 07 07 07 07 07'
 * lost its '+' and became a number of nowhere. Stored in E.164 by the server, as a visitor's.
 */
const contactShape = phoneText();
const dateShape = z
  .string()
  .max(...atMost(TEXT_MAX.date))
  .trim()
  .refine(isIsoDate, qrIssue('dateInvalid'));
const companyShape = z.uuid(qrIssue('companyInvalid'));

/**
 * POST /api/create-qr text fields. Spec §5: only the document is required;
 * what is given must be well formed. No dateExp means the code never expires.
 */
export const createQrUserFieldsSchema = z.object({
  firstname: optionalText(),
  lastname: optionalText(),
  contact: z.preprocess(blankToUndefined, contactShape.optional()),
  email: z.preprocess(blankToUndefined, emailShape.optional()),
  title: optionalText(TEXT_MAX.line),
  type: z.preprocess(
    blankToUndefined,
    z.enum(QR_TYPES, qrIssue('typeInvalid')).default('permanent'),
  ),
  dateExp: z.preprocess(blankToUndefined, dateShape.optional()),
  company_id: z.preprocess(blankToUndefined, companyShape.optional()),
});
export type CreateQrUserFields = z.infer<typeof createQrUserFieldsSchema>;

/** POST /api/create-member text fields (spec §5 Member card: all required, no expiry). */
export const createMemberFieldsSchema = z.object({
  firstname: requiredText('firstname'),
  lastname: requiredText('lastname'),
  contact: z.preprocess(blankToUndefined, z.string(requiredIssue('contact')).pipe(contactShape)),
  email: z.preprocess(blankToUndefined, z.string(requiredIssue('email')).pipe(emailShape)),
  title: requiredText('title', TEXT_MAX.line),
  type: z.preprocess(
    blankToUndefined,
    z.enum(QR_TYPES, qrIssue('typeInvalid')).default('permanent'),
  ),
  company_id: z.preprocess(
    blankToUndefined,
    z.string(requiredIssue('company_id')).pipe(companyShape),
  ),
});
export type CreateMemberFields = z.infer<typeof createMemberFieldsSchema>;

/** The fields a QR user and a member card both change, each optional. */
const cardUpdateFields = {
  firstname: text().min(1).optional(),
  lastname: text().min(1).optional(),
  contact: contactShape.optional(),
  email: emailShape.optional(),
  title: text(TEXT_MAX.line).min(1).optional(),
};

/** An update that names no field is refused rather than answered as a success. */
const hasAField = (body: object) => Object.keys(body).length > 0;

/**
 * PUT /api/qruser/{id}: the QR user's fields, each optional; at least one.
 * dateExp null removes the expiry. The expiry screen sends dateExp alone.
 */
export const updateQrUserSchema = z
  .object({ ...cardUpdateFields, dateExp: dateShape.nullable().optional() })
  .strict()
  .refine(
    hasAField,
    said((m) => m.qrUser.nothingToUpdate),
  );
export type UpdateQrUserInput = z.infer<typeof updateQrUserSchema>;

/** PUT /api/qrusermembre/{id}: a member card's fields (no expiry), each optional; at least one. */
export const updateMemberSchema = z
  .object(cardUpdateFields)
  .strict()
  .refine(
    hasAField,
    said((m) => m.qrUser.nothingToUpdate),
  );
export type UpdateMemberInput = z.infer<typeof updateMemberSchema>;

/** Spec §5 Expiry form: the date is required. */
export const expiryFormSchema = z.object({
  dateExp: z
    .string(requiredIssue('dateExp'))
    .max(...atMost(TEXT_MAX.date))
    .trim()
    .min(1, requiredIssue('dateExp'))
    .refine(isIsoDate, qrIssue('dateInvalid')),
});
export type ExpiryFormInput = z.infer<typeof expiryFormSchema>;

const cardCompanySchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  logo_url: z.string().nullable(),
});

/**
 * A QR user or member card as the API presents it (spec §3 "QR user / member"):
 * everything the card, the captures and the details view need. `qrcode` is a
 * data URL and `photo` a same-origin signed URL, so captures never taint a canvas.
 */
export const qrUserCardSchema = z.object({
  id: z.string(),
  uidn: z.string(),
  kind: z.enum(QR_USER_KINDS),
  type: z.string(),
  firstname: z.string().nullable(),
  lastname: z.string().nullable(),
  email: z.string().nullable(),
  contact: z.string().nullable(),
  title: z.string().nullable(),
  /** The last valid day, YYYY-MM-DD in the company's time zone; null: never expires. */
  dateExp: z.string().nullable(),
  /** The instant the code stops working (end of dateExp), ISO 8601. */
  date_exp: z.string().nullable(),
  expired: z.boolean(),
  revoked: z.boolean(),
  revoked_at: z.string().nullable(),
  replaced_by: z.string().nullable(),
  company_id: z.string(),
  company: cardCompanySchema,
  /** The QR image as a data URL; it encodes `qr_target`. */
  qrcode: z.string(),
  qr_target: z.string(),
  /** The uploaded document when it is an image (a member's photo), else null. */
  photo: z.string().nullable(),
  user_document: z.string().nullable(),
  user_document_type: z.string().nullable(),
  created_at: z.string(),
});
export type QrUserCard = z.infer<typeof qrUserCardSchema>;

/** Spec §3 "Member (list)": one row of /api/company/{slug}/members. */
export const memberListItemSchema = z.object({
  id: z.string(),
  firstname: z.string().nullable(),
  lastname: z.string().nullable(),
  contact: z.string().nullable(),
  email: z.string().nullable(),
  title: z.string().nullable(),
  user_image: z.string().nullable(),
  /** The QR image as a data URL. */
  code: z.string(),
  uidn: z.string(),
  company: cardCompanySchema,
});
export type MemberListItem = z.infer<typeof memberListItemSchema>;
