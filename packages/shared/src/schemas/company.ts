import { z } from 'zod';
import { ARRIVAL_EARLY_MAX_MINUTES, EMPLOYEE_COUNT_RANGES } from '../constants';
import { fr } from '../messages/fr';
import { withLineFeeds } from '../text-lines';
import {
  TEXT_MAX,
  atMost,
  blankToUndefined,
  countryField,
  keyed,
  phoneText,
  requiredEmail,
  requiredLine,
  textLines,
} from './common';

/**
 * The pages under `/{domain}/`: each also answers without a company (`/request-meeting`
 * goes to the default company's, spec §1), so no company may be called by one of them.
 * The web's route table is checked against this list (apps/web/test/navigation-rules.test.ts).
 */
export const COMPANY_PAGE_NAMES = [
  'request-meeting',
  'meeting',
  'waiting-validation',
  'qr-code',
  'menu',
  'create-user',
  'list-users',
  'edit-user',
  'my-mail-settings',
  'mon-compte',
  'list-qrcode',
  'list-qrcode-events',
  'manual-check',
  'camera',
  'create-event',
  'list-events',
  'show-event-qrcode',
  'event-attendences',
  'create-company',
  'edit-company',
  'company-list',
  'show-company-qrcode',
  'create-qr',
  'create-membre-qr',
  'qr-code-list',
  'disable-user-qrcode',
  'display-logs',
  'user-check-ins',
  'on-site',
  'audit',
  'sites',
  'kiosks',
  'invite',
  'my-visitors',
  // Issue 31.
  'visitor-types',
  'watchlist',
  'watchlist-reviews',
  'invitation',
  // Issue 33.
  'sso',
  // Issue 34.
  'api-keys',
  'webhooks',
  'chat',
  // Issue 35.
  'dashboard',
] as const;

/** Top-level route names a company slug may not take (ARCHITECTURE §6). */
export const RESERVED_SLUGS = [
  ...COMPANY_PAGE_NAMES,
  'sign-in',
  'company',
  'scan',
  'scan-user-qrcode',
  'success-checkin',
  'success-checkout',
  'success-user-checkin',
  'success-user-checkout',
  'qr-details',
  'user-check-in-out',
  // The kiosk app (issue 29), and its installed app's files.
  'kiosk',
  'kiosk-sw.js',
  'kiosk.webmanifest',
  'api',
  'assets',
  'files',
  'public',
  'static',
  'docs',
  'health',
  'favicon.ico',
  'robots.txt',
  'admin',
  'login',
  'logout',
] as const;

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function isReservedSlug(slug: string): boolean {
  const lower = slug.toLowerCase();
  return (RESERVED_SLUGS as readonly string[]).includes(lower) || lower.startsWith('success-');
}

/** The longest slug (it is a public link's segment). */
export const SLUG_MAX = 60;

/**
 * 'Société Générale CI' → 'societe-generale-ci'. A name longer than SLUG_MAX is cut
 * at the last word boundary that fits (never mid-word: the slug is a public link);
 * only a first word longer than SLUG_MAX is cut inside itself.
 */
export function slugify(name: string): string {
  const full = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    // Runs of dashes are one dash by now: trim one at each end (a linear pattern).
    .replace(/^-|-$/g, '');
  if (full.length <= SLUG_MAX) return full;
  // The character just past the limit tells whether the cut falls between two words.
  if (full[SLUG_MAX] === '-') return full.slice(0, SLUG_MAX);
  const lastBoundary = full.lastIndexOf('-', SLUG_MAX);
  return lastBoundary > 0 ? full.slice(0, lastBoundary) : full.slice(0, SLUG_MAX);
}

/** A company as the API presents it (spec §3 Company). */
export const companySchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  logo: z.string().nullable(),
  logo_url: z.string().nullable(),
  description: z.string().nullable(),
  member_count: z.number(),
  number_of_employee: z.string().nullable(),
  email: z.string().nullable(),
  phone_number: z.string().nullable(),
  id_number: z.string().nullable(),
  point_contact: z.string().nullable(),
  company_field: z.string().nullable(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  title: z.string().nullable(),
  address: z.string().nullable(),
  zipcode: z.string().nullable(),
  timezone: z.string(),
  /** A visitor's code checks in from this many minutes before their day starts. */
  arrival_early_minutes: z.number(),
  /** 'Fin de journée', HH:MM in the company's zone: whoever is still inside is checked out then. */
  day_end: z.string(),
  /**
   * The camera scanner's e-mail presence (ARCHITECTURE §6): a QR holding only an
   * e-mail checks that member in or out. Off by default: an e-mail is no secret.
   */
  kiosk_email_enabled: z.boolean(),
  link: z.string(),
  qrcode_url: z.string(),
  created_at: z.string(),
});
export type Company = z.infer<typeof companySchema>;

/** The fields anyone who may list companies sees of every company (ARCHITECTURE §6). */
export const COMPANY_PUBLIC_FIELDS = {
  id: true,
  name: true,
  slug: true,
  logo: true,
  logo_url: true,
  link: true,
  qrcode_url: true,
} as const;

/**
 * A row of the company list: every field for a company the viewer may update, the
 * public ones only for the others (the private ones are then absent).
 */
export const companyListItemSchema = companySchema
  .pick(COMPANY_PUBLIC_FIELDS)
  .extend(companySchema.omit(COMPANY_PUBLIC_FIELDS).partial().shape);
export type CompanyListItem = z.infer<typeof companyListItemSchema>;

/** Labels of the company form's fields, as the required-field message names them. */
export const COMPANY_FIELD_LABELS = fr.company.fields;
export type CompanyField = keyof typeof COMPANY_FIELD_LABELS;

/** Logos share the identity files' limit, so the spec's 2 Mo message stays true. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** A company's default 'fin de journée' (issue 14), in its time zone. */
export const DEFAULT_DAY_END = '23:59';
/** 'Fin de journée': HH:MM, 00:00 to 23:59. */
export const DAY_END_PATTERN = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

export const COMPANY_MESSAGES = fr.company;

/** A company-form message with its locale key (`companies:form.errors.<key>`). */
const companyIssue = (
  key:
    | 'emailInvalid'
    | 'employeeRangeInvalid'
    | 'arrivalEarlyInvalid'
    | 'kioskEmailInvalid'
    | 'dayEndInvalid',
) =>
  keyed(
    (m) => m.company[key],
    key === 'arrivalEarlyInvalid' ? { key, max: ARRIVAL_EARLY_MAX_MINUTES } : { key },
  );
const requiredIssue = (field: CompanyField) =>
  keyed((m) => m.company.required(field), { key: 'required', field });

const requiredCompanyText = (field: CompanyField, max: number = TEXT_MAX.line) =>
  requiredLine(() => requiredIssue(field), max);

/** The description: a text area, several lines kept. */
const descriptionText = (text: z.ZodString) =>
  text
    .max(...atMost(TEXT_MAX.description))
    .trim()
    .overwrite(withLineFeeds)
    .refine(...textLines);

const companyTextFields = {
  id_number: requiredCompanyText('id_number', TEXT_MAX.identifier),
  address: requiredCompanyText('address', TEXT_MAX.address),
  city: requiredCompanyText('city', TEXT_MAX.name),
  state: requiredCompanyText('state', TEXT_MAX.name),
  country: countryField(requiredCompanyText('country', TEXT_MAX.name)),
  zipcode: requiredCompanyText('zipcode', 20),
  company_field: requiredCompanyText('company_field'),
  point_contact: requiredCompanyText('point_contact', TEXT_MAX.name),
  title: requiredCompanyText('title'),
  email: requiredEmail(() => requiredIssue('email'), companyIssue('emailInvalid')),
  /** The phone rule of every form (issue 27): stored in E.164 by the server, as a visitor's. */
  phone_number: z.preprocess(
    blankToUndefined,
    z.string(requiredIssue('phone_number')).pipe(phoneText()),
  ),
  description: z.preprocess(blankToUndefined, descriptionText(z.string()).optional()),
  number_of_employee: z.preprocess(
    blankToUndefined,
    z.enum(EMPLOYEE_COUNT_RANGES, companyIssue('employeeRangeInvalid')).optional(),
  ),
  /** 'Arrivées autorisées N minutes avant' (issue 11 §4): whole minutes; absent keeps the value. */
  arrival_early_minutes: z.preprocess(
    (value) => (typeof value === 'number' ? String(value) : blankToUndefined(value)),
    z
      .string(companyIssue('arrivalEarlyInvalid'))
      .trim()
      .max(4, companyIssue('arrivalEarlyInvalid'))
      .regex(/^\d+$/, companyIssue('arrivalEarlyInvalid'))
      .transform(Number)
      .pipe(z.number().int().max(ARRIVAL_EARLY_MAX_MINUTES, companyIssue('arrivalEarlyInvalid')))
      .optional(),
  ),
  /**
   * 'Fin de journée' (issue 14): HH:MM, 24-hour, in the company's time zone; whoever is
   * still inside then is checked out automatically. Absent keeps the value (23:59 for a new company).
   */
  day_end: z.preprocess(
    blankToUndefined,
    z
      .string(companyIssue('dayEndInvalid'))
      .trim()
      .max(5, companyIssue('dayEndInvalid'))
      .regex(DAY_END_PATTERN, companyIssue('dayEndInvalid'))
      .optional(),
  ),
  /**
   * 'Présence par e-mail (scanner)' (issue 11 §6): 'true' or 'false' as a form sends
   * it (a JSON boolean too); absent keeps the value (off for a new company).
   */
  kiosk_email_enabled: z.preprocess(
    (value) => (typeof value === 'boolean' ? String(value) : blankToUndefined(value)),
    z
      .enum(['true', 'false'], companyIssue('kioskEmailInvalid'))
      .transform((value) => value === 'true')
      .optional(),
  ),
};

/**
 * POST /api/company text fields ('Créer une Entreprise', spec §5: all required but the
 * description and the employee range). The logo is the multipart file `logo`.
 */
export const companyCreateSchema = z.object({
  name: requiredCompanyText('name', TEXT_MAX.companyName),
  ...companyTextFields,
});
export type CompanyCreateInput = z.input<typeof companyCreateSchema>;
export type CompanyCreate = z.output<typeof companyCreateSchema>;

/**
 * POST /api/company/{id} text fields ('Éditer l'Entreprise'): the name is read-only
 * there and is not read; the logo is optional.
 */
export const companyUpdateSchema = z.object(companyTextFields);
export type CompanyUpdateInput = z.input<typeof companyUpdateSchema>;
export type CompanyUpdate = z.output<typeof companyUpdateSchema>;

/**
 * PUT /api/company/{id} text fields (the company list's inline form, `?compid=`):
 * name and description required, optional logo. `slug` is accepted only unchanged.
 */
export const companyInlineUpdateSchema = z.object({
  name: requiredCompanyText('name', TEXT_MAX.companyName),
  description: z.preprocess(
    blankToUndefined,
    descriptionText(z.string(requiredIssue('description'))).min(1, requiredIssue('description')),
  ),
  slug: z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(...atMost(TEXT_MAX.slug))
      .trim()
      .optional(),
  ),
});
export type CompanyInlineUpdateInput = z.input<typeof companyInlineUpdateSchema>;
export type CompanyInlineUpdate = z.output<typeof companyInlineUpdateSchema>;
