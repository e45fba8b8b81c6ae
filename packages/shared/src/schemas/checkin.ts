/**
 * Check-in and check-out (spec §2 scan pages, manual validation, camera scanner,
 * logs; ARCHITECTURE §7): the code check's answer and the presence logs.
 */
import { z } from 'zod';
import { fr } from '../messages/fr';
import {
  EMAIL_PATTERN,
  TEXT_MAX,
  atMost,
  formLines,
  formText,
  keyed,
  said,
  listQuerySchema,
  uuidSchema,
} from './common';
import { siteFilter, siteRefSchema } from './site';

/**
 * How a check was recorded: a scanned QR, a code typed by hand, the kiosk's e-mail code,
 * or the company's 'fin de journée' closing a check still open (a check-out only).
 */
export const CHECK_METHODS = ['scan', 'manual', 'kiosk', 'automatic'] as const;
export type CheckMethod = (typeof CHECK_METHODS)[number];

/**
 * `status` is 'success' when the check changed the person's state (spec §4 manual
 * validation), 'repeat' when the same code came back inside the repeat window and
 * nothing changed: the message then says when the person was already checked.
 */
export const checkResultSchema = z.object({
  status: z.enum(['success', 'repeat']),
  message: z.string(),
  action: z.enum(['check_in', 'check_out']),
  /** When the person's state changed (this check, or the one a repeat reports). */
  at: z.string(),
  redirectUrl: z.string().optional(),
  person: z.object({ firstname: z.string(), lastname: z.string() }),
});
export type CheckResult = z.infer<typeof checkResultSchema>;

/**
 * The kiosk's answer (ARCHITECTURE §6): the person's code and their photo, a URL
 * signed for the scanning staff's session (null without an image), so the agent
 * can compare the face with whoever holds the e-mail.
 */
export const kioskCheckResultSchema = checkResultSchema.extend({
  uidn: z.string(),
  photo: z.string().nullable(),
});
export type KioskCheckResult = z.infer<typeof kioskCheckResultSchema>;

/**
 * 'Validation Manuelle UIDN': the code as typed, bounded (the screen says an empty
 * field itself, spec §4: an info toast, nothing sent).
 */
export const typedCodeSchema = z.object({ uidn: formText(TEXT_MAX.code) });

/**
 * `?type=1` marks a manual validation (spec §9). `?site=` names the desk's site (issue 28):
 * a QR user's or member's check is recorded there, a visitor of another site is refused.
 * Not given: the scanner's home site, else the company's main site.
 */
export const codeCheckQuerySchema = z.object({
  type: z.coerce.number().int().optional(),
  site: siteFilter,
});

/** `?site=` of the kiosk presence: the desk's site, as for the code checks. */
export const kioskCheckQuerySchema = z.object({ site: siteFilter });

/**
 * The kiosk presence session (ARCHITECTURE §6): an e-mail-shaped code, and the desk's site
 * (issue 28: `site` here or `?site=`, as for the code checks).
 */
export const kioskCheckSchema = z.object({
  site: siteFilter,
  email: z
    .string()
    .max(...atMost(TEXT_MAX.email))
    .trim()
    .regex(
      EMAIL_PATTERN,
      said((m) => m.validation.emailInvalid),
    ),
});

/** An instant PostgreSQL can store and a person could mean: years 1900 to 9999. */
const isoInstant = z.iso
  .datetime({ offset: true, ...said((m) => m.validation.dateInvalid) })
  .refine(
    (value) => {
      const year = new Date(value).getUTCFullYear();
      return year >= 1900 && year <= 9999;
    },
    said((m) => m.validation.dateInvalid),
  );

/**
 * A log list: paged, searchable, limited to check-ins inside [from, to], and to one
 * site's checks with `?site=` (issue 28; absent: every site the caller may see).
 */
export const checkLogQuerySchema = listQuerySchema.extend({
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  site: siteFilter,
});
export type CheckLogQuery = z.infer<typeof checkLogQuerySchema>;

export const UNDO_MESSAGES = fr.undo;

/** POST /api/checks/{checkId}/undo: the person's last arrival or departure, with a reason. */
export const checkUndoParamsSchema = z.object({ checkId: uuidSchema });
export const checkUndoSchema = z.object({
  /** Written in a text area: several lines. */
  reason: formLines(TEXT_MAX.freeText).pipe(
    z.string().min(
      1,
      keyed((m) => m.undo.reasonRequired, { key: 'undoReasonRequired' }),
    ),
  ),
});
export type CheckUndoInput = z.input<typeof checkUndoSchema>;
export const checkUndoResultSchema = z.object({
  undone: z.enum(['arrival', 'departure']),
  message: z.string(),
});
export type CheckUndoResult = z.infer<typeof checkUndoResultSchema>;

/**
 * Undos of a log row (issue 14): the arrival undone (the whole check struck through,
 * no longer counted), or the departure undone (kept here; the person was inside again).
 */
const undoFields = {
  undone: z
    .object({ at: z.string(), by: z.string().nullable(), reason: z.string().nullable() })
    .nullable(),
  departure_undone: z
    .object({
      departure_time: z.string(),
      departure_method: z.enum(CHECK_METHODS).nullable(),
      departure_by: z.string().nullable(),
      at: z.string(),
      by: z.string().nullable(),
      reason: z.string().nullable(),
    })
    .nullable(),
};
export type CheckUndoFields = z.infer<z.ZodObject<typeof undoFields>>;

/** When, how and by whom a check was recorded, and its undos: the same in every flat log. */
const checkFields = {
  check_in_time: z.string(),
  check_out_time: z.string().nullable(),
  check_in_method: z.enum(CHECK_METHODS),
  check_out_method: z.enum(CHECK_METHODS).nullable(),
  check_in_by: z.string().nullable(),
  check_out_by: z.string().nullable(),
  ...undoFields,
};

/**
 * Spec §3 "Visitor log", plus how and by whom each check was recorded, and the
 * visitor's organisation (their employer, as the form says it: what the front desk reads
 * under the name; `company` is the company visited).
 */
export const visitorLogRowSchema = z.object({
  id: z.string(),
  visitor_id: z.string(),
  uidn: z.string(),
  visitor_name: z.string(),
  visitor_lastname: z.string(),
  visitor_email: z.string(),
  organisation_name: z.string(),
  image: z.string().nullable(),
  image_type: z.string().nullable(),
  company: z.object({ name: z.string(), slug: z.string() }),
  /** Where the check was made (issue 28): the visitor's site; its zone is the check's. */
  site: siteRefSchema,
  created_at: z.string(),
  ...checkFields,
});
export type VisitorLogRow = z.infer<typeof visitorLogRowSchema>;

/** One check of a QR user or member (the flat user log). */
export const userLogRowSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  uidn: z.string(),
  kind: z.enum(['permanent', 'member']),
  user_name: z.string(),
  user_email: z.string().nullable(),
  company: z.object({ name: z.string(), slug: z.string() }),
  /** Where the check was made (issue 28): the desk's site where the code was scanned. */
  site: siteRefSchema,
  ...checkFields,
});
export type UserLogRow = z.infer<typeof userLogRowSchema>;

/** Spec §3 "User check log row": one QR user with their checks inside the range. */
export const userCheckRowSchema = z.object({
  user_id: z.string(),
  uidn: z.string(),
  kind: z.enum(['permanent', 'member']),
  user_name: z.string(),
  user_email: z.string().nullable(),
  user_phone: z.string().nullable(),
  image: z.string().nullable(),
  image_type: z.string().nullable(),
  company_id: z.string(),
  date_exp: z.string().nullable(),
  check_logs: z.array(z.object({ check_in: z.string(), check_out: z.string().nullable() })),
});
export type UserCheckRow = z.infer<typeof userCheckRowSchema>;

/** How many check-ins one attendance row carries at most (the range narrows them). */
export const USER_CHECK_LOGS_PER_ROW = 50;

/**
 * Lists count their rows up to this number; past it the total is shown as "10 000+"
 * and the date range narrows the list. Counting a million rows for every page
 * would cost more than the page itself.
 */
export const LOG_COUNT_CAP = 10_000;

export const checkLogMetaSchema = z.object({
  page: z.number(),
  per_page: z.number(),
  total: z.number(),
  /** True when there are more rows than `total` counted (LOG_COUNT_CAP). */
  total_capped: z.boolean(),
});

export const checkLogPageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), meta: checkLogMetaSchema });

/** The code check's answers (the scan pages alert them, manual validation toasts them). */
export const CHECK_MESSAGES = fr.check;
