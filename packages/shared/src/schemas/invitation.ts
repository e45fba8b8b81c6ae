/**
 * Hosts invite their visitors (issue 30): one visitor or a group, once or on the days of a
 * rule ("every Monday and Thursday until 30 June"), typed in or imported from a CSV. The
 * invite screen, "Mes visiteurs", the import and the server read these schemas; the limits
 * are here once.
 */
import { z } from 'zod';
import { HOURS, ID_FILE_MAX_BYTES, MINUTES } from '../constants';
import { ID_DOCUMENT_TYPES } from '../file-types';
import { isOneOf } from '../one-of';
import type { Catalogue } from '../messages/catalogue';
import { LANGUAGES } from '../messages/catalogue';
import { megabytes } from '../messages/units';
import {
  EMAIL_PATTERN,
  TEXT_MAX,
  atMost,
  formLines,
  formText,
  isPhoneShaped,
  keyed,
  sayIssue,
} from './common';
import { isVisitDate, type FileLike } from './visitor-fields';
import {
  VISITOR_TYPE_FIELDS,
  documentToSignSchema,
  signaturesFieldSchema,
  type VisitorTypeField,
} from './visitor-type';

export const INVITATION_LIMITS = {
  /** Visitors of one invitation (a group, or a CSV's lines). */
  maxVisitors: 1000,
  /** Days one rule may open (a working year is about 250). */
  maxDays: 260,
  /** The last day of a rule is at most this many days after the first. */
  maxSpanDays: 366,
  /** The CSV file, as sent. */
  csvMaxBytes: 1024 * 1024,
} as const;

/**
 * The CSV's columns, in the template's order: the header names a column in French or in
 * English (case, accents and spaces aside), so a file saved from either screen reads back.
 */
export const INVITATION_CSV_COLUMNS = [
  { field: 'firstname', fr: 'Prénom', en: 'First name' },
  { field: 'lastname', fr: 'Nom', en: 'Last name' },
  { field: 'email', fr: 'E-mail', en: 'Email' },
  { field: 'phone', fr: 'Téléphone', en: 'Phone' },
  { field: 'organisation', fr: 'Organisation', en: 'Organisation' },
] as const;
export type InvitedVisitorField = (typeof INVITATION_CSV_COLUMNS)[number]['field'];

/** A header cell folded for comparison: 'E-mail ', 'email', 'Téléphone' → 'email', 'telephone'. */
export const foldHeader = (cell: string) =>
  cell
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z]/gi, '')
    .toLowerCase();

/** The template a host downloads: the header in their language, one example line, `;` as French Excel writes. */
export function invitationCsvTemplate(language: 'fr' | 'en'): string {
  const header = INVITATION_CSV_COLUMNS.map((c) => c[language]).join(';');
  const example =
    language === 'fr'
      ? 'Awa;Koné;awa.kone@example.com;+225 07 07 07 07 07;Orange CI'
      : 'Jane;Doe;jane.doe@example.com;+44 20 7946 0000;Acme Ltd';
  return `${header}\r\n${example}\r\n`;
}

type Say = (m: Catalogue) => string;
const issue = (say: Say, key: string, field?: string) =>
  keyed(say, { key, ...(field ? { field } : {}) });

/** One invited visitor: a name, an e-mail or a phone, an organisation (optional). */
export const invitedVisitorSchema = z
  .object({
    firstname: formText(TEXT_MAX.name),
    lastname: formText(TEXT_MAX.name),
    email: formText(TEXT_MAX.email),
    phone: formText(TEXT_MAX.phone),
    organisation: formText(TEXT_MAX.line),
  })
  .superRefine((v, ctx) => {
    const fail = (path: InvitedVisitorField, say: Say, key: string) =>
      ctx.addIssue({ code: 'custom', path: [path], ...sayIssue(say, { key, field: path }) });
    if (!v.firstname) fail('firstname', (m) => m.invitation.required('firstname'), 'required');
    if (!v.lastname) fail('lastname', (m) => m.invitation.required('lastname'), 'required');
    if (!v.email && !v.phone) fail('email', (m) => m.invitation.contactRequired, 'contactRequired');
    if (v.email && !EMAIL_PATTERN.test(v.email))
      fail('email', (m) => m.visitor.emailInvalid, 'emailInvalid');
    if (v.phone && !isPhoneShaped(v.phone))
      fail('phone', (m) => m.validation.phoneInvalid, 'phoneInvalid');
  })
  .transform((v) => ({ ...v, email: v.email.toLowerCase() }));
export type InvitedVisitorInput = z.input<typeof invitedVisitorSchema>;
export type InvitedVisitor = z.output<typeof invitedVisitorSchema>;

const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** What Sésame reads of an RRULE: a daily or weekly rule that ends (UNTIL or COUNT). */
export interface InvitationRule {
  freq: 'DAILY' | 'WEEKLY';
  interval: number;
  byDay: Weekday[];
  /** YYYY-MM-DD, the last day it may open. */
  until: string | null;
  count: number | null;
}

/**
 * An RRULE (RFC 5545 §3.3.10) as the invite screen writes it and the API takes it, or null
 * when it is none Sésame runs: FREQ DAILY or WEEKLY, INTERVAL, BYDAY of plain weekdays,
 * WKST, and an end (UNTIL as a date or a UTC date-time, or COUNT). A rule with no end
 * would open the door for ever. The server expands it (ical.js); this only reads it.
 */
export function readRule(text: string): InvitationRule | null {
  const parts = new Map<string, string>();
  for (const part of text
    .trim()
    .replace(/^RRULE:/i, '')
    .split(';')) {
    const [key, value, extra] = part.split('=');
    if (!key || value === undefined || extra !== undefined || parts.has(key.toUpperCase()))
      return null;
    parts.set(key.toUpperCase(), value.toUpperCase());
  }
  const freq = parts.get('FREQ');
  if (freq !== 'DAILY' && freq !== 'WEEKLY') return null;
  const known = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'UNTIL', 'COUNT', 'WKST']);
  if ([...parts.keys()].some((key) => !known.has(key))) return null;
  const interval = Number(parts.get('INTERVAL') ?? '1');
  if (!Number.isInteger(interval) || interval < 1 || interval > 52) return null;
  const byDay = (parts.get('BYDAY')?.split(',') ?? []) as Weekday[];
  if (byDay.some((day) => !WEEKDAYS.includes(day))) return null;
  const until = parts.get('UNTIL');
  const count = parts.get('COUNT');
  if ((until === undefined) === (count === undefined)) return null;
  let untilDay: string | null = null;
  if (until !== undefined) {
    const match = /^(\d{4})(\d{2})(\d{2})(T\d{6}Z)?$/.exec(until);
    if (!match) return null;
    untilDay = `${match[1]}-${match[2]}-${match[3]}`;
    if (!isVisitDate(`${match[3]}/${match[2]}/${match[1]}`)) return null;
  }
  const times = count === undefined ? null : Number(count);
  if (times !== null && (!Number.isInteger(times) || times < 1)) return null;
  return { freq, interval, byDay, until: untilDay, count: times };
}

/** "Every Monday and Thursday until 30 June": the RRULE the invite screen writes. */
export function weeklyRule(days: readonly Weekday[], until: string): string {
  const [dd, mm, yyyy] = until.split('/');
  const ordered = WEEKDAYS.filter((day) => days.includes(day));
  return `FREQ=WEEKLY;BYDAY=${ordered.join(',')};UNTIL=${yyyy}${mm}${dd}`;
}
export { WEEKDAYS };

const languageField = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? 'fr' : v),
  z.enum(
    LANGUAGES,
    issue((m) => m.invitation.languageInvalid, 'languageInvalid', 'language'),
  ),
);

const rruleField = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z
    .string()
    .max(TEXT_MAX.line)
    .trim()
    .refine(
      (text) => readRule(text) !== null,
      issue((m) => m.invitation.ruleInvalid, 'ruleInvalid', 'rrule'),
    )
    .nullish(),
);

const timeField = (field: 'time' | 'end_time') =>
  formText(TEXT_MAX.date).refine(
    (value) => {
      const [hour = '', minute = ''] = value.split(':');
      return (
        value.length === 5 &&
        (HOURS as readonly string[]).includes(hour) &&
        (MINUTES as readonly string[]).includes(minute)
      );
    },
    issue((m) => m.invitation.timeInvalid, 'timeInvalid', field),
  );

/** The meeting of an invitation: where, when, why, in which language its mails are written. */
const scheduleShape = {
  site_id: z.uuid(issue((m) => m.site.choose, 'siteChoose', 'site_id')),
  /** The first day, DD/MM/YYYY in the site's zone (the server refuses a day already past there). */
  date: formText(TEXT_MAX.date).refine(
    isVisitDate,
    issue((m) => m.visitor.dateInvalid, 'dateInvalid', 'date'),
  ),
  time: timeField('time'),
  end_time: timeField('end_time'),
  reason: formLines(TEXT_MAX.freeText),
  language: languageField,
  rrule: rruleField,
  /**
   * The visitors' type (issue 31): one of the site's active types; blank: the site's first
   * (a change of site without one: the new site's first).
   */
  visitor_type_id: z.preprocess(
    (v) => (v === '' ? null : v),
    z.uuid(issue((m) => m.visitorType.typeUnknown, 'typeUnknown', 'visitor_type_id')).nullish(),
  ),
};

const endAfterStart = (v: { time: string; end_time: string }) => v.end_time > v.time;
const endAfterStartIssue = {
  path: ['end_time'],
  ...issue((m) => m.invitation.endBeforeStart, 'endBeforeStart', 'end_time'),
};

/** What an invitation's schedule may be changed to (PUT): its visitors stay as they are. */
export const invitationScheduleSchema = z
  .object(scheduleShape)
  .refine(endAfterStart, endAfterStartIssue);
export type InvitationScheduleInput = z.input<typeof invitationScheduleSchema>;
export type InvitationSchedule = z.output<typeof invitationScheduleSchema>;

/** POST `/api/invitations`. */
export const invitationInputSchema = z
  .object({
    ...scheduleShape,
    /**
     * Issue 34: the host, by e-mail, when an API key invites (a key is not a person): an
     * active staff member of the company. Heard only from a key; a person invites as host.
     */
    host_email: z
      .string()
      .trim()
      .max(...atMost(TEXT_MAX.email))
      .refine(
        (email) => EMAIL_PATTERN.test(email),
        issue((m) => m.visitor.emailInvalid, 'emailInvalid', 'host_email'),
      )
      .optional(),
    visitors: z
      .array(invitedVisitorSchema)
      .min(
        1,
        issue((m) => m.invitation.visitorsRequired, 'visitorsRequired', 'visitors'),
      )
      .max(
        INVITATION_LIMITS.maxVisitors,
        issue(
          (m) => m.invitation.tooManyVisitors(INVITATION_LIMITS.maxVisitors),
          'tooManyVisitors',
          'visitors',
        ),
      ),
  })
  .refine(endAfterStart, endAfterStartIssue);
export type InvitationInput = z.input<typeof invitationInputSchema>;
export type InvitationCreate = z.output<typeof invitationInputSchema>;

/** The multipart fields of POST `/api/invitations/import` (the CSV travels beside them). */
export const invitationImportFieldsSchema = invitationScheduleSchema;

/** One line of a CSV refused: its number in the file (the header is line 1), the field, what is wrong. */
export const invitationCsvErrorSchema = z.object({
  line: z.number(),
  field: z.string().nullable(),
  message: z.string(),
});
export type InvitationCsvError = z.infer<typeof invitationCsvErrorSchema>;

/** POST `/api/invitations/{id}/cancel`: the whole invitation, one of its days, or one visitor of it. */
export const invitationCancelSchema = z.object({
  /** YYYY-MM-DD: one day of a recurring invitation. */
  day: z
    .string()
    .max(...atMost(TEXT_MAX.date))
    .regex(
      /^\d{4}-\d{2}-\d{2}$/,
      issue((m) => m.invitation.dayUnknown, 'dayUnknown', 'day'),
    )
    .optional(),
  /** One visitor of a group. */
  request_id: z.uuid().optional(),
});
export type InvitationCancel = z.infer<typeof invitationCancelSchema>;

/** The answer of an invitation written: each visitor's request and code. */
export const invitationCreatedSchema = z.object({
  invitation_id: z.string(),
  /** YYYY-MM-DD, the days its codes open the door on. */
  days: z.array(z.string()),
  visitors: z.array(
    z.object({
      request_id: z.string(),
      visitor_id: z.string(),
      code: z.string(),
      firstname: z.string(),
      lastname: z.string(),
    }),
  ),
});
export type InvitationCreated = z.infer<typeof invitationCreatedSchema>;

/**
 * Where an invited visitor stands: 'invited'; 'completed' (their details, by the link);
 * 'here' (they pressed "Je suis arrivé(e)" today, not checked in yet); 'arrived' (checked in);
 * 'left' (checked out); 'cancelled'.
 */
export const INVITED_STATES = [
  'invited',
  'completed',
  'here',
  'arrived',
  'left',
  'cancelled',
] as const;
export type InvitedState = (typeof INVITED_STATES)[number];

/**
 * GET `/api/invitations/mine` (the host's invited visitors) and GET `/api/invitations/company`
 * (every host's, for whoever reads the company's requests).
 */
export const invitationsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
  q: z.string().trim().max(TEXT_MAX.search).optional(),
  /** 'upcoming': a day today or later; 'past': their days are over. */
  when: z.enum(['upcoming', 'past']).default('upcoming'),
});
export type InvitationsQuery = z.infer<typeof invitationsQuerySchema>;
/** Whose invited visitors a list shows: the caller's own, or the company's. */
export type InvitationsScope = 'mine' | 'company';

/** One invited visitor as "Mes visiteurs" lists them. */
export const invitedVisitSchema = z.object({
  request_id: z.string(),
  invitation_id: z.string(),
  visitor_id: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  phone: z.string(),
  organisation: z.string(),
  code: z.string(),
  site: z.object({ id: z.string(), name: z.string(), timezone: z.string() }),
  host: z.object({ id: z.string(), name: z.string() }).nullable(),
  reason: z.string().nullable(),
  language: z.enum(LANGUAGES),
  /** DD/MM/YYYY, the first day; HH:MM. */
  date: z.string(),
  time: z.string(),
  end_time: z.string(),
  rrule: z.string().nullable(),
  /** YYYY-MM-DD: the next day not cancelled and not over, or null. */
  next_day: z.string().nullable(),
  /** Every day of the invitation, cancelled or not. */
  days: z.array(z.object({ day: z.string(), cancelled: z.boolean() })),
  /** Visitors of the same invitation (1: alone). */
  group_size: z.number(),
  state: z.enum(INVITED_STATES),
  here_at: z.string().nullable(),
  created_at: z.string(),
});
export type InvitedVisit = z.infer<typeof invitedVisitSchema>;

// H2
/** What the details step asks when the visit has no type: the issue 30 form (number and document). */
export const INVITATION_DETAILS_DEFAULT_FIELDS: readonly VisitorTypeField[] = [
  'id_number',
  'id_document',
];

/**
 * POST `/api/public/invitation/details` (the invited visitor's link): what the site asks
 * before arrival, checked as the visitor form checks it — the identity number, the identity
 * document (present, of an accepted type as the browser names it, at most ID_FILE_MAX_BYTES;
 * the server reads its bytes again) and the privacy notice accepted. Multipart on the wire:
 * each value a string, the file beside them (`request_image`). Issue 31: built for the
 * visit's type's required fields (`required`: those the visitor must give now; the server
 * leaves out what it already holds), with the organisation and the phone when the type asks
 * them, and the type's documents signed (`signatures`, a JSON string field).
 */
export function invitationDetailsSchemaFor(
  required: readonly VisitorTypeField[] = INVITATION_DETAILS_DEFAULT_FIELDS,
) {
  return z
    .object({
      id_number: formText(TEXT_MAX.identifier, (m) => m.visitor.tooLong),
      organisation: formText(TEXT_MAX.line, (m) => m.visitor.tooLong),
      contact: formText(TEXT_MAX.phone, (m) => m.visitor.tooLong),
      request_image: z.unknown().optional(),
      signatures: signaturesFieldSchema,
      /** The privacy notice accepted (a checkbox: 'true', '1' or 'on' on the wire). */
      privacy_accepted: z.preprocess(
        (v) => v === true || v === 'true' || v === '1' || v === 'on',
        z.boolean(),
      ),
    })
    .superRefine((v, ctx) => {
      const fail = (path: string, say: Say, key: string, values: Record<string, unknown> = {}) =>
        ctx.addIssue({ code: 'custom', path: [path], ...sayIssue(say, { key, ...values }) });
      if (!v.id_number && required.includes('id_number'))
        fail('id_number', (m) => m.visitor.required('id_number'), 'required', {
          field: 'id_number',
        });
      if (!v.organisation && required.includes('organisation'))
        fail('organisation', (m) => m.visitorType.fieldRequired('organisation'), 'required', {
          field: 'organisation',
        });
      if (!v.contact && required.includes('phone'))
        fail('contact', (m) => m.visitorType.fieldRequired('phone'), 'required', {
          field: 'contact',
        });
      if (v.contact && !isPhoneShaped(v.contact))
        fail('contact', (m) => m.validation.phoneInvalid, 'phoneInvalid');
      const file = v.request_image as FileLike | undefined | null;
      if (!file && !required.includes('id_document')) {
        // The type does not ask for the identity document now: none is fine.
      } else if (!file || typeof file.size !== 'number' || file.size <= 0) {
        fail('request_image', (m) => m.visitor.fileInvalid, 'fileInvalid');
      } else if (
        typeof file.type === 'string' &&
        file.type !== '' &&
        !isOneOf(ID_DOCUMENT_TYPES, file.type)
      ) {
        fail('request_image', (m) => m.visitor.fileTypeRefused, 'fileTypeRefused');
      } else if (file.size > ID_FILE_MAX_BYTES) {
        fail('request_image', (m) => m.visitor.fileTooLarge, 'fileTooLarge', {
          mo: megabytes(ID_FILE_MAX_BYTES),
        });
      }
      if (!v.privacy_accepted)
        fail('privacy_accepted', (m) => m.visitor.privacyRequired, 'privacyRequired');
    })
    .transform(({ id_number, organisation, contact, signatures }) => ({
      id_number,
      organisation,
      contact,
      signatures,
    }));
}

/** The details step of a visit of the default type (the identity number and document). */
export const invitationDetailsSchema = invitationDetailsSchemaFor();
export type InvitationDetailsInput = z.input<typeof invitationDetailsSchema>;
export type InvitationDetails = z.output<typeof invitationDetailsSchema>;

/** `?token=` of the visitor's link: its three routes. */
export const invitationLinkQuerySchema = z.object({ token: z.string().min(1).max(2000) });

/**
 * GET `/api/public/invitation`: the visit as its invited visitor sees it — theirs alone
 * (no identity document, no other visitor of the group), the site's address and a map
 * link, the days, and whether today is one of them in the site's zone.
 */
export const invitationLinkViewSchema = z.object({
  company: z.object({
    name: z.string(),
    slug: z.string(),
    /** The logo's public name (spec §3), and its URL. */
    logo: z.string().nullable(),
    logo_url: z.string().nullable(),
  }),
  site: z.object({
    name: z.string(),
    /** One line, the country named in the caller's language; '' when the site has none. */
    address: z.string(),
    /** An OpenStreetMap search of the address; null without one. */
    map_url: z.string().nullable(),
    timezone: z.string(),
  }),
  host: z.string().nullable(),
  firstname: z.string(),
  lastname: z.string(),
  /** The visitor's code (the QR of their mail). */
  code: z.string(),
  /** DD/MM/YYYY, the first day; HH:MM in the site's zone. */
  date: z.string(),
  time: z.string(),
  end_time: z.string(),
  days: z.array(z.object({ day: z.string(), cancelled: z.boolean() })),
  /** YYYY-MM-DD: the day holding now or the next, not cancelled; null when none is left. */
  next_day: z.string().nullable(),
  rrule: z.string().nullable(),
  reason: z.string().nullable(),
  language: z.enum(LANGUAGES),
  /** The invitation, or this visitor of it, cancelled. */
  cancelled: z.boolean(),
  details_completed: z.boolean(),
  /** Now is within a day of the invitation not cancelled, in the site's zone. */
  today_is_visit_day: z.boolean(),
  here_at: z.string().nullable(),
  /** Where the company's privacy notice is read (the visitor form's own). */
  privacy_notice_url: z.string(),
  /**
   * The visit's type (issue 31): its names, badge band and the fields the details step
   * asks; null for a visit without a type (the identity number and document then).
   */
  visitor_type: z
    .object({
      id: z.string(),
      name_fr: z.string(),
      name_en: z.string(),
      color: z.string(),
      required_fields: z.array(z.enum(VISITOR_TYPE_FIELDS)),
    })
    .nullable(),
  /** The type's documents this visitor must still sign, in the invitation's language. */
  to_sign: z.array(documentToSignSchema),
});
export type InvitationLinkView = z.infer<typeof invitationLinkViewSchema>;
