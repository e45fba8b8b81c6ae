/**
 * Visit requests (spec §3 "Visit request", §4 "Request", §7 requests calls).
 */
import { z } from 'zod';
import { siteFilter, siteRefSchema } from './site';
import { notificationChannelsSchema } from './integrations';
import { fr } from '../messages/fr';
import { withLineFeeds } from '../text-lines';
import { TEXT_MAX, atMost, formLines, listQuerySchema, oneLine, said, textLines } from './common';

/** A malformed field of these calls: the screens never show it, the server says it. */
const malformed = said((m) => m.api.badRequest);
import { visitorCardSchema } from './visitor';

export const REQUEST_MESSAGES = fr.request;

/** What the host's decision link answers (issue 15). */
export const DECISION_MESSAGES = fr.decision;

/** POST /api/requests/create (spec §7: user_id, visitor_id, host, reason). */
export const requestCreateSchema = z.object({
  visitor_id: z.uuid(malformed),
  host: z
    .string()
    .max(...atMost(TEXT_MAX.line))
    .trim()
    .refine(...oneLine)
    .optional()
    .default(''),
  /** The visitor form's 'Motif': one line, like the host. */
  reason: z
    .string()
    .max(...atMost(TEXT_MAX.freeText))
    .trim()
    .refine(...oneLine)
    .optional()
    .default(''),
  /** The host chosen in the company's staff search (issue 15); `host` stays the free-text fallback. */
  host_user_id: z.uuid(malformed).nullish(),
  /** Accepted for the spec's payload shape; the host is `host_user_id` or the free-text `host`. */
  user_id: z.unknown().optional(),
});
export type RequestCreateInput = z.input<typeof requestCreateSchema>;

export const requestCreatedSchema = z.object({
  message: z.string(),
  data: z.object({ id: z.string() }),
});

/** PUT /api/requests/update/{id}: Valider sends status and confirmed as 1 (spec §4). */
export const requestUpdateSchema = z.object({
  status: z.coerce.number(malformed).pipe(z.literal(1, malformed)),
  confirmed: z.union([z.literal(1), z.literal(true), z.literal('1')], malformed),
});
export type RequestUpdateInput = z.input<typeof requestUpdateSchema>;

/**
 * PUT /api/requests/decline/{id}: Annuler on the waiting screen, with an optional reason for
 * the visitor, written in a text area (several lines).
 */
export const requestDeclineSchema = z.object({
  reason: z
    .string()
    .max(...atMost(TEXT_MAX.freeText))
    .trim()
    .overwrite(withLineFeeds)
    .refine(...textLines)
    .optional(),
});
export type RequestDeclineInput = z.input<typeof requestDeclineSchema>;

/** GET /api/requests/hosts/{company}?q= (public): the company's staff found by name, never an e-mail. */
export const hostSearchQuerySchema = z.object({
  q: z
    .string()
    .max(...atMost(TEXT_MAX.name))
    .trim()
    .min(2, malformed),
});
export const hostSearchResultSchema = z.object({
  data: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type HostCandidate = z.infer<typeof hostSearchResultSchema>['data'][number];

/** A request's state as the visitor, the host and staff read it. */
export const REQUEST_STATES = ['pending', 'confirmed', 'declined'] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

/** The host's decision link (?token=, kept out of logs like every query string). */
export const decisionQuerySchema = z.object({
  token: z
    .string()
    .max(...atMost(2000))
    .min(1, malformed),
});
/** POST /api/requests/decision: the host's choice, with an optional reason for Annuler. */
export const decisionBodySchema = z.object({
  token: z
    .string()
    .max(...atMost(2000))
    .min(1, malformed),
  decision: z.enum(['confirm', 'decline'], malformed),
  /** Written in a text area: several lines. */
  reason: formLines(TEXT_MAX.freeText).optional(),
});
export type DecisionInput = z.input<typeof decisionBodySchema>;

/** What the host's confirmation page shows: the request, and its decision if one was taken. */
export const decisionViewSchema = z.object({
  message: z.string().optional(),
  data: z.object({
    state: z.enum(REQUEST_STATES),
    /** True when the decision shown was made through this link. */
    decided_by_you: z.boolean(),
    /** True when the link's holder is the named host (else a front-desk member answering for them). */
    is_host: z.boolean(),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
    decline_reason: z.string().nullable(),
    host: z.string().nullable(),
    visitor: z.object({
      firstname: z.string(),
      lastname: z.string(),
      organisation_name: z.string(),
    }),
    request_date: z.string().nullable(),
    request_time: z.string().nullable(),
    reason: z.string().nullable(),
    company: z.object({ name: z.string(), slug: z.string(), logo_url: z.string().nullable() }),
    expires_at: z.string(),
  }),
});
export type DecisionView = z.infer<typeof decisionViewSchema>['data'];

/** GET / PUT /api/me/mail-preferences: the signed-in person's mail language and arrival mails. */
export const mailPreferencesSchema = z.object({
  language: z.enum(['fr', 'en'], malformed),
  arrival_mail: z.boolean(malformed),
  /**
   * Issue 34 ("Mes notifications"): each host message by mail, by chat or both. Absent on a
   * save: unchanged. `arrival_mail` false still silences the arrival message everywhere.
   */
  channels: notificationChannelsSchema.optional(),
  /**
   * Issue 35: the weekly summary mail (the fields of weeklyReportSettingsSchema), for the people
   * with 'dashboard.view' only (turning it on without: 403); its site one they may read, or
   * null for every site they may read. Each absent on a save: unchanged.
   */
  weekly_report: z.boolean(malformed).optional(),
  weekly_report_site_id: z.uuid(malformed).nullable().optional(),
});
export type MailPreferences = z.infer<typeof mailPreferencesSchema>;
export const mailPreferencesResponseSchema = z.object({
  message: z.string().optional(),
  data: mailPreferencesSchema.extend({
    channels: notificationChannelsSchema,
    /** Whether the company has connected a chat (a chat choice reaches somebody). */
    chat_available: z.boolean(),
    weekly_report: z.boolean(),
    weekly_report_site_id: z.string().nullable(),
    /** Whether the person may subscribe to the weekly summary ('dashboard.view'). */
    weekly_report_available: z.boolean(),
    /** The sites the summary may report on: the company's active sites the person may read. */
    weekly_report_sites: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
});
export const MAIL_PREFERENCES_MESSAGES = fr.mailPreferences;

/**
 * `?event=`: absent → meeting requests (not event registrations); an event's slug
 * or id → that event's participants; `all` → both.
 */
export const requestListQuerySchema = listQuerySchema.extend({
  event: z.string().max(TEXT_MAX.slug).trim().min(1).optional(),
  /** One site's requests (issue 28); absent: every site the caller may see. */
  site: siteFilter,
});
export type RequestListQuery = z.infer<typeof requestListQuerySchema>;

export const checkInSchema = z.object({
  check_in_time: z.string(),
  check_out_time: z.string().nullable(),
});

/**
 * A request's state as the staff lists show it (issue 27: a declined request read 'EN
 * ATTENTE'): 'declined' when its host said no (through their mail's link), 'cancelled' when
 * a staff member did (Annuler on the validation page, or a link answered for the host).
 */
export const REQUEST_ROW_STATES = ['pending', 'confirmed', 'declined', 'cancelled'] as const;
export type RequestRowState = (typeof REQUEST_ROW_STATES)[number];

/** One row of 'Liste des demandes' / 'Liste Participants' (staff only). */
export const requestRowSchema = z.object({
  id: z.string(),
  state: z.enum(REQUEST_ROW_STATES),
  status: z.number().nullable(),
  confirmed: z.boolean().nullable(),
  host: z.string().nullable(),
  /** The host's account, when the visitor chose one (staff lists link to it). */
  host_user: z.object({ id: z.string(), name: z.string() }).nullable(),
  decline_reason: z.string().nullable(),
  reason: z.string().nullable(),
  request_date: z.string().nullable(),
  request_time: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  company: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
  /** Where the visit takes place (issue 28). */
  site: siteRefSchema,
  visitor: z.object({
    id: z.string(),
    /** Given once the request is confirmed (it opens the meeting QR card). */
    uidn: z.string().nullable(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
    contact: z.string(),
    organisation_name: z.string(),
    id_number: z.string(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string().nullable(),
    zipcode: z.string().nullable(),
    /** A short-lived signed URL of the identity document. */
    request_image: z.string().nullable(),
    /** image/jpeg, image/png, image/webp or application/pdf. */
    request_image_type: z.string().nullable(),
    evenements: z.object({ id: z.string(), name: z.string(), slug: z.string() }).nullable(),
    checkIns: z.array(checkInSchema),
  }),
});
export type RequestRow = z.infer<typeof requestRowSchema>;

/**
 * GET /api/requests/status/{id} (public; the id is an unguessable UUID v7): what the
 * waiting screen needs. `card` once confirmed; `request` only for signed-in staff
 * of the request's company.
 */
export const requestStatusSchema = z.object({
  data: z.object({
    id: z.string(),
    state: z.enum(REQUEST_STATES),
    status: z.number().nullable(),
    confirmed: z.boolean(),
    /** The host's reason, once declined. */
    decline_reason: z.string().nullable(),
    /** What the visitor sent, for their recap page (their own data only, ARCHITECTURE §10). */
    recap: z.object({
      firstname: z.string(),
      lastname: z.string(),
      organisation_name: z.string(),
      request_date: z.string().nullable(),
      request_time: z.string().nullable(),
      host: z.string().nullable(),
      reason: z.string().nullable(),
      company: z.string(),
      /** The company's slug: a page under another company's URL is not found. */
      company_slug: z.string(),
      /** Where the visit takes place (issue 28); its zone is the date's and time's. */
      site: siteRefSchema,
    }),
    card: visitorCardSchema.nullable(),
    request: requestRowSchema.nullable(),
  }),
});
export type RequestStatus = z.infer<typeof requestStatusSchema>['data'];

/** PUT /api/requests/update/{id} answer (spec §7: data.data.uidn). */
export const requestConfirmedSchema = z.object({
  message: z.string(),
  data: visitorCardSchema,
});
