/**
 * The visitor form's zod-free half (schemas/visitor.ts re-exports it): its labels, its
 * required fields, its placeholders, its date checks. The form's page needs these to
 * show itself; the schema, and zod with it, loads when the form is sent. Nothing here
 * imports the French catalogue (11 KB): the page's words are the web's own.
 */
/** Spec §5, in the spec's order. */
export const VISITOR_REQUIRED_FIELDS = [
  'firstname',
  'lastname',
  'id_number',
  'organisation_name',
  'email',
  'contact',
] as const;
export type VisitorRequiredField = (typeof VISITOR_REQUIRED_FIELDS)[number];

/**
 * The fields a visitor type may require that the public form asks (issue 31; the photo is
 * the kiosk's alone): the default type's, every one of them.
 */
export const VISITOR_FORM_TYPE_FIELDS = [
  'organisation',
  'phone',
  'id_number',
  'id_document',
] as const;
export type VisitorFormTypeField = (typeof VISITOR_FORM_TYPE_FIELDS)[number];

/** The form's field a type's field is (the identity document is `request_image`). */
export const FORM_FIELD_OF_TYPE_FIELD: Record<VisitorFormTypeField, string> = {
  organisation: 'organisation_name',
  phone: 'contact',
  id_number: 'id_number',
  id_document: 'request_image',
};

/** The type's field a form field is, when a type may leave it optional; else undefined. */
export function typeFieldOfFormField(field: string): VisitorFormTypeField | undefined {
  return VISITOR_FORM_TYPE_FIELDS.find((f) => FORM_FIELD_OF_TYPE_FIELD[f] === field);
}

/** Keys of `params.key` on the issues of this schema (the web's locale keys). */
export type VisitorIssueKey =
  | 'required'
  | 'emailInvalid'
  | 'phoneInvalid'
  | 'fileTooLarge'
  | 'fileInvalid'
  | 'fileTypeRefused'
  | 'dateMissing'
  | 'dateInvalid'
  | 'datePast'
  | 'hourMissing'
  | 'minuteMissing'
  | 'privacyRequired'
  | 'tooLong'
  | 'controlChars';

/** The select placeholders (spec §5: they are flagged as errors). */
export const HOUR_PLACEHOLDER = 'HH';
export const MINUTE_PLACEHOLDER = 'MM';

export const VISITOR_LANGUAGES = ['fr', 'en'] as const;
export type VisitorLanguage = (typeof VISITOR_LANGUAGES)[number];

/** What the schema needs to know of the picked file: a browser File, or the server's upload. */
export interface FileLike {
  size: number;
  /** The browser's media type of a picked file ('' when it cannot tell); the server sniffs the bytes. */
  type?: string;
}

/** DD/MM/YYYY with slashes at positions 3 and 6 (spec §5), and a real calendar day. */
export function isVisitDate(value: string): boolean {
  if (value.length !== 10 || value[2] !== '/' || value[5] !== '/') return false;
  const [dd, mm, yyyy] = value.split('/').map(Number) as [number, number, number];
  if (![dd, mm, yyyy].every(Number.isInteger)) return false;
  if (mm < 1 || mm > 12 || dd < 1 || yyyy < 1900) return false;
  return dd <= new Date(Date.UTC(yyyy, mm, 0)).getUTCDate();
}

/**
 * Whether a visit date (DD/MM/YYYY, shape checked) falls before `today`, the
 * company's current day as YYYY-MM-DD (its time zone decides; today itself is allowed).
 * The schema cannot know the company's zone: the form and the server ask this beside it.
 */
export function isPastVisitDate(value: string, today: string): boolean {
  const [dd, mm, yyyy] = value.split('/');
  return `${yyyy}-${mm}-${dd}` < today;
}
