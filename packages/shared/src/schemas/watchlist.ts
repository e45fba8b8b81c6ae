/**
 * The watchlist (issue 31): people a company wants to know about before they come in. A
 * visit that matches — an exact e-mail, phone or ID number, or a full name close enough
 * (pg_trgm similarity at or above the company's threshold) — is held for a reviewer, never
 * refused by itself and never told to the visitor. The screens and the server read these.
 */
import { z } from 'zod';
import {
  EMAIL_PATTERN,
  TEXT_MAX,
  formLines,
  formText,
  keyed,
  phoneText,
  sayIssue,
  uuidSchema,
} from './common';
import { isVisitDate } from './visitor-fields';

export const WATCHLIST_LIMITS = {
  /** The name threshold's range: under 0.3 pg_trgm's index no longer finds candidates. */
  thresholdMin: 0.3,
  thresholdMax: 1,
  defaultThreshold: 0.6,
  reasonMax: 1000,
} as const;

/** Where a match was caught. */
export const HOLD_SOURCES = ['request', 'invitation', 'kiosk', 'scan'] as const;
export type HoldSource = (typeof HOLD_SOURCES)[number];

/** What matched: an exact identifier, or the name (a close match: a review, never a refusal). */
export const HOLD_MATCHES = ['email', 'phone', 'id_number', 'name'] as const;
export type HoldMatch = (typeof HOLD_MATCHES)[number];

export const HOLD_STATUSES = ['pending', 'allowed', 'denied'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

const issue = (key: 'identifierRequired' | 'untilInvalid' | 'reasonRequired', field: string) =>
  keyed((m) => m.watchlist[key], { key, field });

const optionalText = (max: number) => formText(max).transform((v) => (v === '' ? null : v));

/** POST `/api/company/{id}/watchlist` and PUT `…/watchlist/{entryId}`. */
export const watchlistEntryInputSchema = z
  .object({
    firstname: formText(TEXT_MAX.name),
    lastname: formText(TEXT_MAX.name),
    email: optionalText(TEXT_MAX.email).refine((e) => e === null || EMAIL_PATTERN.test(e), {
      ...keyed((m) => m.validation.emailInvalid, { key: 'emailInvalid', field: 'email' }),
    }),
    /** Read into E.164 by the server (`readPhones`). */
    phone: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
      phoneText().nullish(),
    ),
    id_number: optionalText(TEXT_MAX.identifier),
    reason: formLines(WATCHLIST_LIMITS.reasonMax).refine((r) => r.length > 0, {
      ...issue('reasonRequired', 'reason'),
    }),
    /** The last day it holds, DD/MM/YYYY; blank: until removed. */
    until: formText(10).refine((d) => d === '' || isVisitDate(d), {
      ...issue('untilInvalid', 'until'),
    }),
  })
  .superRefine((entry, ctx) => {
    const named = entry.lastname !== '' && entry.firstname !== '';
    if (!named && !entry.email && !entry.phone && !entry.id_number) {
      ctx.addIssue({
        code: 'custom',
        path: ['lastname'],
        // A custom issue carries its message itself (`keyed` is a check's option).
        ...sayIssue((m) => m.watchlist.identifierRequired, {
          key: 'identifierRequired',
          field: 'lastname',
        }),
      });
    }
  });
export type WatchlistEntryInput = z.input<typeof watchlistEntryInputSchema>;

export const watchlistEntrySchema = z.object({
  id: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  id_number: z.string().nullable(),
  reason: z.string(),
  /** DD/MM/YYYY, or null: no end. */
  until: z.string().nullable(),
  /** False once its last day is over. */
  active: z.boolean(),
  created_at: z.string(),
  created_by: z.string().nullable(),
});
export type WatchlistEntry = z.infer<typeof watchlistEntrySchema>;

/** The company's watchlist settings: the close name match's threshold. */
export const watchlistSettingsSchema = z.object({
  name_threshold: z.coerce
    .number()
    .min(
      WATCHLIST_LIMITS.thresholdMin,
      keyed((m) => m.watchlist.thresholdInvalid, { key: 'thresholdInvalid' }),
    )
    .max(
      WATCHLIST_LIMITS.thresholdMax,
      keyed((m) => m.watchlist.thresholdInvalid, { key: 'thresholdInvalid' }),
    ),
});
export type WatchlistSettings = z.infer<typeof watchlistSettingsSchema>;

/** A visit held for review, as the reviewers' screen reads it. */
export const watchlistHoldSchema = z.object({
  id: z.string(),
  site_id: z.string(),
  site_name: z.string(),
  source: z.enum(HOLD_SOURCES),
  matched_on: z.enum(HOLD_MATCHES),
  /** For a name match, the similarity (0–1). */
  similarity: z.number().nullable(),
  status: z.enum(HOLD_STATUSES),
  visitor: z.object({
    id: z.string().nullable(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
    organisation: z.string(),
  }),
  /** The watchlist entry it matched (null once that entry was removed). */
  entry: z
    .object({ id: z.string(), firstname: z.string(), lastname: z.string(), reason: z.string() })
    .nullable(),
  request_id: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  decided_by: z.string().nullable(),
  decision_reason: z.string().nullable(),
});
export type WatchlistHold = z.infer<typeof watchlistHoldSchema>;

export const holdListQuerySchema = z.object({
  status: z.enum(HOLD_STATUSES).optional(),
  site: uuidSchema.optional(),
});

/** POST `/api/company/{id}/watchlist/holds/{holdId}/decision`: allow this visit once, or deny it. */
export const holdDecisionSchema = z.object({
  decision: z.enum(['allow', 'deny']),
  reason: formLines(WATCHLIST_LIMITS.reasonMax).refine((r) => r.length > 0, {
    ...issue('reasonRequired', 'reason'),
  }),
});
export type HoldDecision = z.input<typeof holdDecisionSchema>;
