/**
 * The visitor form (spec §2 "Visitor form", §3 "Visitor (sent)", §5 "Visitor form").
 *
 * One schema, two users: the web form validates its values with it before
 * sending, and `POST /api/visitor/create` validates the multipart fields with it
 * again. Checks run in the spec's order and the first failing one is the message
 * a person reads:
 *   1. required, in this order: first name, last name, id number, employer, email, contact
 *   2. the identity document (present, not empty, at most 2 MiB)
 *   3. e-mail shape, 4. contact: a phone number as written (`isPhoneShaped`; the server reads it into
 *   E.164, as every phone field: `@sesame/shared/phone`), 5. date DD/MM/YYYY, 6. hour and minute chosen.
 *
 * Every issue carries `params.key` (and `params.field` for "required") so a screen
 * can show it in the visitor's language; `message` is the spec's French.
 */
import { z } from 'zod';
import { siteRefSchema } from './site';
import { signaturesFieldSchema, type VisitorTypeField } from './visitor-type';
import { HOURS, ID_FILE_MAX_BYTES, MINUTES } from '../constants';
import { ID_DOCUMENT_TYPES } from '../file-types';
import { isOneOf } from '../one-of';
import type { Say } from '../messages/catalogue';
import { megabytes } from '../messages/units';
import {
  EMAIL_PATTERN,
  TEXT_MAX,
  countryField,
  formText,
  isPhoneShaped,
  keyed,
  sayIssue,
} from './common';

import { fr } from '../messages/fr';
import {
  VISITOR_FORM_TYPE_FIELDS,
  VISITOR_LANGUAGES,
  VISITOR_REQUIRED_FIELDS,
  isVisitDate,
  typeFieldOfFormField,
  type FileLike,
  type VisitorIssueKey,
} from './visitor-fields';

export * from './visitor-fields';

/** The visitor form's French messages (the server's answers; tests compare with them). */
export const VISITOR_MESSAGES = fr.visitor;

/**
 * A field as trimmed text (the form and multipart both send strings), bounded
 * first: an overlong value is refused there, before any pattern reads it, with
 * the 'tooLong' key the screens translate.
 */
const text = (max: number) => formText(max, (m) => m.visitor.tooLong);

/**
 * The visitor form for a visitor type's required fields (issue 31): the spec's checks in the
 * spec's order, but the organisation, the phone, the ID number and the identity document are
 * required only when the type requires them (one left blank then passes; one given is still
 * checked). The server picks the visit's type first, then validates with its fields; the
 * form does the same with the type chosen. The default, every field, is the spec's form.
 */
export function visitorFormSchemaFor(
  requiredFields: readonly VisitorTypeField[] = VISITOR_FORM_TYPE_FIELDS,
) {
  const requires = (field: string): boolean => {
    const typeField = typeFieldOfFormField(field);
    return !typeField || requiredFields.includes(typeField);
  };
  return z
    .object({
      /** The company: its id or its slug (the visitor form knows the slug of its URL). */
      company_id: text(TEXT_MAX.slug),
      /**
       * The site of the visit (issue 28): asked when the company has several, set by a site's
       * own link; blank: the company's only site. The server says when one must be chosen.
       */
      site_id: z.preprocess(
        (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
        z.uuid(keyed((m) => m.site.choose, { key: 'siteChoose', field: 'site_id' })).optional(),
      ),
      firstname: text(TEXT_MAX.name),
      lastname: text(TEXT_MAX.name),
      id_number: text(TEXT_MAX.identifier),
      organisation_name: text(TEXT_MAX.line),
      email: text(TEXT_MAX.email),
      contact: text(TEXT_MAX.phone),
      address: text(TEXT_MAX.address),
      city: text(TEXT_MAX.name),
      country: countryField(text(TEXT_MAX.name)),
      state: text(TEXT_MAX.name),
      zipcode: text(TEXT_MAX.identifier),
      /** Request fields the same form collects (sent to POST /api/requests/create). */
      host: text(TEXT_MAX.line),
      reason: text(TEXT_MAX.freeText),
      /** DD/MM/YYYY */
      request_date: text(TEXT_MAX.date),
      /** HH:MM, built from the hour and minute selects ('HH:MM' while untouched). */
      request_time: text(TEXT_MAX.date),
      visitor_type: text(TEXT_MAX.identifier),
      /** The visitor's language: the e-mail is written in it. */
      language: z.preprocess(
        (v) => ((VISITOR_LANGUAGES as readonly unknown[]).includes(v) ? v : 'fr'),
        z.enum(VISITOR_LANGUAGES),
      ),
      request_image: z.unknown().optional(),
      /**
       * The visit's visitor type (issue 31): one of the site's active types; blank: the site's
       * first. The server says when it is unknown.
       */
      visitor_type_id: z.preprocess(
        (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
        z
          .uuid(
            keyed((m) => m.visitorType.typeUnknown, {
              key: 'typeUnknown',
              field: 'visitor_type_id',
            }),
          )
          .optional(),
      ),
      /** The documents the type asks, signed (a JSON string on the multipart wire). */
      signatures: signaturesFieldSchema,
      /** The privacy notice accepted (a checkbox: 'true', '1' or 'on' on the wire). */
      privacy_accepted: z.preprocess(
        (v) => v === true || v === 'true' || v === '1' || v === 'on',
        z.boolean(),
      ),
    })
    .superRefine((v, ctx) => {
      const fail = (
        path: string,
        key: VisitorIssueKey,
        say: Say,
        field?: string,
        values: Record<string, number> = {},
      ) => {
        ctx.addIssue({ code: 'custom', path: [path], ...sayIssue(say, { key, field, ...values }) });
      };
      // 1. Required fields, in the spec's order.
      for (const field of VISITOR_REQUIRED_FIELDS) {
        if (!v[field] && requires(field))
          fail(field, 'required', (m) => m.visitor.required(field), field);
      }
      // 2. The identity document.
      const file = v.request_image as FileLike | undefined | null;
      if (!file && !requires('request_image')) {
        // The type does not ask for the identity document: none is fine.
      } else if (!file || typeof file.size !== 'number' || file.size <= 0) {
        fail('request_image', 'fileInvalid', (m) => m.visitor.fileInvalid);
      } else if (
        typeof file.type === 'string' &&
        file.type !== '' &&
        !isOneOf(ID_DOCUMENT_TYPES, file.type)
      ) {
        // Issue 27: a wrong type is said under the field, before anything is sent.
        fail('request_image', 'fileTypeRefused', (m) => m.visitor.fileTypeRefused);
      } else if (file.size > ID_FILE_MAX_BYTES) {
        fail('request_image', 'fileTooLarge', (m) => m.visitor.fileTooLarge, undefined, {
          mo: megabytes(ID_FILE_MAX_BYTES),
        });
      }
      // 3–4. Shapes of the e-mail and the phone number.
      if (v.email && !EMAIL_PATTERN.test(v.email)) {
        fail('email', 'emailInvalid', (m) => m.visitor.emailInvalid);
      }
      if (v.contact && !isPhoneShaped(v.contact)) {
        fail('contact', 'phoneInvalid', (m) => m.validation.phoneInvalid);
      }
      // 5. The date.
      if (!v.request_date) fail('request_date', 'dateMissing', (m) => m.visitor.dateMissing);
      else if (!isVisitDate(v.request_date)) {
        fail('request_date', 'dateInvalid', (m) => m.visitor.dateInvalid);
      }
      // 6. Hour and minute: the placeholders HH and MM are errors.
      const [hour = '', minute = ''] = v.request_time.split(':');
      if (!(HOURS as readonly string[]).includes(hour)) {
        fail('request_time', 'hourMissing', (m) => m.visitor.hourMissing);
      } else if (!(MINUTES as readonly string[]).includes(minute) || v.request_time.length !== 5) {
        fail('request_time', 'minuteMissing', (m) => m.visitor.minuteMissing);
      }
      // 7. The privacy notice (issue 16).
      if (!v.privacy_accepted) {
        fail('privacy_accepted', 'privacyRequired', (m) => m.visitor.privacyRequired);
      }
    })
    .transform(({ request_image: _file, privacy_accepted: _accepted, ...rest }) => ({
      ...rest,
      email: rest.email.toLowerCase(),
    }));
}

/** The spec's visitor form: every field required (a visit of the default type, an event's form). */
export const visitorFormSchema = visitorFormSchemaFor();

export type VisitorFormInput = z.input<typeof visitorFormSchema>;
/** What the server stores (the file travels beside it). */
export type VisitorCreateInput = Omit<
  z.output<typeof visitorFormSchema>,
  'signatures' | 'visitor_type_id'
> &
  Partial<Pick<z.output<typeof visitorFormSchema>, 'signatures' | 'visitor_type_id'>>;

/** The first issue of a failed parse, as the screens and the server report it. */
export function firstVisitorIssue(error: z.ZodError): {
  path: string;
  message: string;
  key: VisitorIssueKey | undefined;
  field: string | undefined;
} {
  const issue = error.issues[0];
  const params = (issue as { params?: { key?: VisitorIssueKey; field?: string } } | undefined)
    ?.params;
  return {
    path: String(issue?.path[0] ?? 'body'),
    message: issue?.message ?? VISITOR_MESSAGES.tooLong,
    key: issue?.code === 'too_big' ? 'tooLong' : params?.key,
    field: params?.field,
  };
}

/** `{ field: first message }` of a failed parse (the `errors` map of a 400). */
export function visitorIssueMap(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'body');
    errors[field] ??= issue.message;
  }
  return errors;
}

/** POST /api/visitor/create answer (spec §7: data holds visitor_id and the visitor's fields). */
export const visitorCreatedSchema = z.object({
  message: z.string(),
  data: z.object({
    visitor_id: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
    organisation_name: z.string(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string().nullable(),
    zipcode: z.string().nullable(),
    request_date: z.string().nullable(),
    request_time: z.string().nullable(),
    /** The visit's visitor type (issue 31), when it has one. */
    visitor_type_id: z.string().nullable().optional(),
    company: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
  }),
});
export type VisitorCreated = z.infer<typeof visitorCreatedSchema>;

/**
 * The visitor card (WaitingValidation after Valider, the meeting QR card, the
 * e-mail): what the visitor needs, and nothing of anyone else.
 */
export const visitorCardSchema = z.object({
  uidn: z.string(),
  /** The QR image (PNG) as a data URL; it encodes PUBLIC_URL/scan/{uidn}. */
  qr_code: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  organisation_name: z.string(),
  /** The place's address: the event's, else the company's (never the visitor's own). */
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  country: z.string().nullable(),
  zipcode: z.string().nullable(),
  /** DD/MM/YYYY and HH:MM of the meeting or the event. */
  date: z.string().nullable(),
  time: z.string().nullable(),
  /** The event's name; null for a meeting (the screens then name the host). */
  title: z.string().nullable(),
  /** Where: the event's place, or the company for a meeting. */
  location: z.string(),
  host: z.string().nullable(),
  reason: z.string().nullable(),
  event: z.object({ id: z.string(), name: z.string(), slug: z.string() }).nullable(),
  /** The site of the visit (issue 28); its zone is the date's and time's. */
  site: siteRefSchema,
  company: z.object({ name: z.string(), slug: z.string(), logo_url: z.string().nullable() }),
});
export type VisitorCard = z.infer<typeof visitorCardSchema>;
