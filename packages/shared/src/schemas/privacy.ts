/**
 * Privacy by default (issue 16): the audit log, retention per company, per-person rights.
 */
import { z } from 'zod';
import { fr } from '../messages/fr';
import { withLineFeeds } from '../text-lines';
import { TEXT_MAX, atMost, listQuerySchema, said, textLines } from './common';

/**
 * What a retention purge counts, in the order a reader expects them: the purge's audit entry
 * holds them (server) and the audit screen says them (web).
 */
export const PURGE_COUNT_KEYS = [
  'unfiledVisitors',
  'documents',
  'identities',
  'visitorChecks',
  'userChecks',
  'auditEntries',
  'rollCalls',
  /** Issue 31: signed documents (the signature and its PDF) past their period. */
  'signatures',
] as const;
export type PurgeCountKey = (typeof PURGE_COUNT_KEYS)[number];

/** Everything the audit log records. Labels live in the locale files (audit.actions.{action}). */
export const AUDIT_ACTIONS = [
  'document.viewed',
  'auth.signed_in',
  'auth.sign_in_failed',
  /** Sign-ins the throttle refused, one entry per account, client and minute (issue 27). */
  'auth.sign_in_throttled',
  'user.created',
  /** Issue 33: an account created at its first sign-in through the company's identity provider. */
  'user.created_by_sso',
  'user.updated',
  'user.role_changed',
  'user.disabled',
  'user.password_reset',
  'user.password_changed',
  'user.deleted',
  'company.created',
  'company.updated',
  'company.deleted',
  /** Issue 28: a company's sites. */
  'site.created',
  'site.updated',
  'site.archived',
  'site.restored',
  'site.deleted',
  /** Issue 29: the lobby's kiosks (a tablet's pairing has no staff actor). */
  'kiosk.created',
  'kiosk.updated',
  'kiosk.code_issued',
  'kiosk.paired',
  'kiosk.revoked',
  'invitation.created',
  'invitation.updated',
  'invitation.cancelled',
  'invitation.details_completed',
  /** Issue 31: visitor types, the documents they sign (each new version), each signature. */
  'visitor_type.created',
  'visitor_type.updated',
  'visitor_type.archived',
  'visitor_type.restored',
  'document.created',
  'document.versioned',
  'document.archived',
  /** A visitor signed a document: its SHA-256 in `detail.hash` (no staff actor). */
  'document.signed',
  /** A signed document's PDF downloaded by staff. */
  'signature.downloaded',
  /** The watchlist: every change, every visit it held, every review. */
  'watchlist.added',
  'watchlist.updated',
  'watchlist.removed',
  'watchlist.settings_changed',
  'watchlist.held',
  'watchlist.allowed',
  'watchlist.denied',
  /** Issue 33: a company's single sign-on settings and its SCIM tokens. */
  'sso.updated',
  'scim.token_created',
  'scim.token_revoked',
  /** Issue 33: what a company's directory did by SCIM (no staff actor; `detail.tokenId`). */
  'scim.user_created',
  'scim.user_updated',
  'scim.user_role_changed',
  'scim.user_deactivated',
  'scim.user_deleted',
  'scim.group_created',
  'scim.group_updated',
  'scim.group_deleted',
  /** Issue 34: the company's API keys, webhooks and chat connections. */
  'api_key.created',
  'api_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.resent',
  'chat.updated',
  'chat.channel_added',
  'chat.channel_removed',
  /** Issue 29: a visitor's badge printed (by a staff member, or by a kiosk: no actor). */
  'badge.printed',
  'event.created',
  'event.closed',
  'event.deleted',
  'request.confirmed',
  'request.declined',
  'visitor.deleted',
  'check.manual_in',
  'check.manual_out',
  'check.undone',
  'roll_call.started',
  'roll_call.ended',
  'qr_user.issued',
  'member.issued',
  'qr_user.reissued',
  /** A QR code's or a member card's fields or expiry changed (issue 26 §9). */
  'qr_user.updated',
  'retention.changed',
  'retention.purged',
  'person.exported',
  'person.erased',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Whose record an entry is about. */
export const AUDIT_SUBJECTS = [
  'visitor',
  'qr_user',
  'user',
  'company',
  'request',
  'file',
  'event',
  'site',
  'kiosk',
  'visitor_type',
  'document',
  'signature',
  'watchlist_entry',
  'watchlist_hold',
  'api_key',
  'webhook',
  'chat_channel',
] as const;
export type AuditSubject = (typeof AUDIT_SUBJECTS)[number];

/**
 * Where an entry's action came from (issue 26 §9): `platform`, a platform role (ROLE_ADMIN,
 * ROLE_SESAME) acting on a company that is not its own; `company`, everyone else (the
 * company's own staff, the system). The database decides it as the entry is written
 * (`audit_events.by_platform`, migration 0022), so no caller can forget or forge it.
 */
export const AUDIT_ORIGINS = ['platform', 'company'] as const;
export type AuditOrigin = (typeof AUDIT_ORIGINS)[number];

const auditInstant = z.iso.datetime({ offset: true, ...said((m) => m.validation.dateInvalid) });

/** `GET /api/audit`: paged, searched (actor, action), filtered by actor, action, origin, period. */
export const auditQuerySchema = listQuerySchema.extend({
  actor: z.uuid().optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  /** `platform`: only what the Sésame platform's staff did; `company`: only the rest. */
  by: z
    .enum(
      AUDIT_ORIGINS,
      said((m) => m.audit.originInvalid),
    )
    .optional(),
  from: auditInstant.optional(),
  to: auditInstant.optional(),
  /** The platform admin may look at one company; others see their own. */
  company: z.uuid().optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  company_id: z.string().nullable(),
  company_name: z.string().nullable(),
  actor_id: z.string().nullable(),
  /** The staff member's name as it is now; null for the system or a deleted account. */
  actor_name: z.string().nullable(),
  action: z.string(),
  subject_type: z.string().nullable(),
  subject_id: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  /** Done by the Sésame platform's staff on this company (a platform role of another company). */
  by_platform: z.boolean(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Defaults of the retention settings, in days. */
export const RETENTION_DEFAULTS = {
  documents_days: 30,
  identity_days: 365,
  checks_days: 730,
  audit_days: 1095,
  /** Issue 31: a signed document (its record and its PDF), days after it was signed: 3 years. */
  signatures_days: 1095,
} as const;

/** The retention periods a company sets, in the settings' order (issue 31: signed documents). */
export const RETENTION_CLASSES = [
  'documents_days',
  'identity_days',
  'checks_days',
  'audit_days',
  'signatures_days',
] as const;
export type RetentionClass = (typeof RETENTION_CLASSES)[number];

/** The longest period of each class, in days. */
export const RETENTION_MAX_DAYS: Record<RetentionClass, number> = {
  documents_days: 3650,
  identity_days: 3650,
  checks_days: 7300,
  audit_days: 7300,
  signatures_days: 7300,
};

/**
 * A shortened period applies only this many days after it was asked for (issue 26): a
 * lengthened one at once. The company sees the date, and has that long to notice and undo a
 * change that would erase its history.
 */
export const RETENTION_SHORTENING_DELAY_DAYS = 7;

/**
 * The audit log's floor when the operator sets none (`AUDIT_MIN_DAYS`): no company keeps its
 * audit log for less, whatever its settings say.
 */
export const AUDIT_MIN_DAYS_DEFAULT = 365;

/**
 * The floors an operator may choose. At least 30 days, well past the shortening delay and the
 * next day's purge, so that the entry recording a retention change outlives the purges that
 * change causes; at most the longest audit period.
 */
export const AUDIT_MIN_DAYS_RANGE = { min: 30, max: RETENTION_MAX_DAYS.audit_days } as const;

const days = (max: number) =>
  z.coerce
    .number(said((m) => m.privacy.daysInvalid))
    .int(said((m) => m.privacy.daysInvalid))
    .min(
      1,
      said((m) => m.privacy.daysTooFew),
    )
    .max(
      max,
      said((m) => m.privacy.daysTooMany(max)),
    );

/** The audit log's period: the operator's floor first, then the longest period. */
const auditDays = (floor: number) =>
  z.coerce
    .number(said((m) => m.privacy.daysInvalid))
    .int(said((m) => m.privacy.daysInvalid))
    .min(
      floor,
      said((m) => m.privacy.auditTooShort(floor)),
    )
    .max(
      RETENTION_MAX_DAYS.audit_days,
      said((m) => m.privacy.daysTooMany(RETENTION_MAX_DAYS.audit_days)),
    );

/**
 * The "Confidentialité" section of a company (admin and manager), under the operator's
 * audit floor: the server builds it from `AUDIT_MIN_DAYS`, the screen from the floor the
 * server sends with the settings, so both refuse the same values with the same words.
 */
export function retentionSettingsSchemaFor(auditMinDays: number) {
  return z.object({
    documents_days: days(RETENTION_MAX_DAYS.documents_days),
    identity_days: days(RETENTION_MAX_DAYS.identity_days),
    checks_days: days(RETENTION_MAX_DAYS.checks_days),
    audit_days: auditDays(auditMinDays),
    /** Issue 31: signed documents, days after signing; left out, it stays as it is. */
    signatures_days: days(RETENTION_MAX_DAYS.signatures_days).optional(),
    /** The notice shown on the French visitor and event forms; empty: the default text. */
    privacy_notice: noticeText(),
    /** The notice of the English forms (issue 27); empty: the default English text. */
    privacy_notice_en: noticeText(),
  });
}

function noticeText() {
  return z
    .string()
    .max(...atMost(TEXT_MAX.description))
    .trim()
    .overwrite(withLineFeeds)
    .refine(...textLines)
    .nullable()
    .optional();
}
export type RetentionSettings = z.infer<ReturnType<typeof retentionSettingsSchemaFor>>;

/** A shortened period waiting for its date: its days, and the instant it applies. */
export const pendingRetentionSchema = z.object({ days: z.number(), applies_at: z.string() });
export type PendingRetention = z.infer<typeof pendingRetentionSchema>;

export const retentionSettingsResponseSchema = z.object({
  /** The periods in force today (the audit log's never under the floor). */
  documents_days: z.number(),
  identity_days: z.number(),
  checks_days: z.number(),
  audit_days: z.number(),
  signatures_days: z.number(),
  /** Each class's shortening that waits for its date; null: none. */
  pending: z.object({
    documents_days: pendingRetentionSchema.nullable(),
    identity_days: pendingRetentionSchema.nullable(),
    checks_days: pendingRetentionSchema.nullable(),
    audit_days: pendingRetentionSchema.nullable(),
    signatures_days: pendingRetentionSchema.nullable(),
  }),
  /** The operator's floor of the audit log (`AUDIT_MIN_DAYS`). */
  audit_min_days: z.number(),
  /** How long a shortened period waits (RETENTION_SHORTENING_DELAY_DAYS). */
  shortening_delay_days: z.number(),
  privacy_notice: z.string().nullable(),
  privacy_notice_en: z.string().nullable(),
  /** The notice as visitors read it (the company's text, or the default filled in). */
  notice_text: z.string(),
  /** The same, as visitors filling the form in English read it. */
  notice_text_en: z.string(),
});
export type RetentionSettingsResponse = z.infer<typeof retentionSettingsResponseSchema>;

/** The default privacy notice in `language`, filled from the retention settings. */
export function defaultPrivacyNotice(
  companyName: string,
  s: Record<RetentionClass, number>,
  language: 'fr' | 'en' = 'fr',
) {
  if (language === 'en') {
    return (
      `${companyName} records your identity, your identity document and your arrival and departure times ` +
      `to manage your visit. The identity document and the photo are deleted ${s.documents_days} days ` +
      `after the visit, your identity is anonymised ${s.identity_days} days after your last visit, ` +
      `and the history of your visits is reduced to anonymous counts after ${s.checks_days} days. ` +
      `The documents you sign on arrival are kept ${s.signatures_days} days. ` +
      `You may ask ${companyName} to see or erase your data.`
    );
  }
  return (
    `${companyName} enregistre votre identité, votre pièce d'identité et vos heures d'arrivée et de départ ` +
    `pour gérer votre visite. La pièce d'identité et la photo sont supprimées ${s.documents_days} jours ` +
    `après la visite, votre identité est anonymisée ${s.identity_days} jours après votre dernière visite, ` +
    `et l'historique des passages est réduit à des comptes anonymes après ${s.checks_days} jours. ` +
    `Les documents que vous signez à l'arrivée sont conservés ${s.signatures_days} jours. ` +
    `Vous pouvez demander à consulter ou effacer vos données auprès de ${companyName}.`
  );
}

/** What an erasure will remove, shown in its confirmation. */
export const erasurePreviewSchema = z.object({
  name: z.string(),
  documents: z.number(),
  requests: z.number(),
  checks: z.number(),
  mails: z.number(),
  /** Issue 31: the documents the person signed (and their PDFs). */
  signatures: z.number(),
});
export type ErasurePreview = z.infer<typeof erasurePreviewSchema>;

export const PRIVACY_MESSAGES = fr.privacy;
