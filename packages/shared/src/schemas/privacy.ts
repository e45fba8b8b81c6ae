/**
 * Privacy by default (issue 16): the audit log, retention per company, per-person rights.
 */
import { z } from 'zod';
import { fr } from '../messages/fr';
import { TEXT_MAX, listQuerySchema, said } from './common';

/** Everything the audit log records. Labels live in the locale files (audit.actions.{action}). */
export const AUDIT_ACTIONS = [
  'document.viewed',
  'auth.signed_in',
  'auth.sign_in_failed',
  'user.created',
  'user.updated',
  'user.role_changed',
  'user.disabled',
  'user.password_reset',
  'user.password_changed',
  'user.deleted',
  'company.created',
  'company.updated',
  'company.deleted',
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
} as const;

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

/** The "Confidentialité" section of a company (admin and manager). */
export const retentionSettingsSchema = z.object({
  documents_days: days(3650),
  identity_days: days(3650),
  checks_days: days(7300),
  audit_days: days(7300),
  /** The notice shown on the visitor and event forms; empty: the default text. */
  privacy_notice: z.string().trim().max(TEXT_MAX.description).nullable().optional(),
});
export type RetentionSettings = z.infer<typeof retentionSettingsSchema>;

export const retentionSettingsResponseSchema = retentionSettingsSchema.extend({
  privacy_notice: z.string().nullable(),
  /** The notice as visitors read it (the company's text, or the default filled in). */
  notice_text: z.string(),
});

/** The default privacy notice, filled from the retention settings. */
export function defaultPrivacyNotice(
  companyName: string,
  s: Omit<RetentionSettings, 'privacy_notice'>,
) {
  return (
    `${companyName} enregistre votre identité, votre pièce d'identité et vos heures d'arrivée et de départ ` +
    `pour gérer votre visite. La pièce d'identité et la photo sont supprimées ${s.documents_days} jours ` +
    `après la visite, votre identité est anonymisée ${s.identity_days} jours après votre dernière visite, ` +
    `et l'historique des passages est réduit à des comptes anonymes après ${s.checks_days} jours. ` +
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
});
export type ErasurePreview = z.infer<typeof erasurePreviewSchema>;

export const PRIVACY_MESSAGES = fr.privacy;
