/**
 * The audit log as people read it (issue 27): an entry names who acted and whom or what it
 * was about — their name, role and company as they are now, found by a join when the log is
 * read. The stored entry keeps ids, roles, days and counts only (`detail`, privacy.ts), so a
 * name corrected later reads corrected, and an erased person leaves no name behind.
 */
import { z } from 'zod';
import { ROLES } from '../roles';
import { auditEntrySchema } from './privacy';

/**
 * What became of an entry's subject: `present`; `anonymised`, a visitor whose identity the
 * retention purge blanked (no name is given); `gone`, deleted or erased since (no name either).
 */
export const AUDIT_SUBJECT_STATES = ['present', 'anonymised', 'gone'] as const;
export type AuditSubjectState = (typeof AUDIT_SUBJECT_STATES)[number];

/** One entry of `GET /api/audit`: the stored entry and the names it points at. */
export const auditListEntrySchema = auditEntrySchema.extend({
  /** The actor's active role now; null for the system or a deleted account. */
  actor_role: z.enum(ROLES).nullable(),
  /** The actor's own company now (for the platform's staff, not the entry's company). */
  actor_company_name: z.string().nullable(),
  /**
   * The subject's name now: a person's first and last name, a request's visitor's, a
   * company's or an event's name. Null when it has none, is anonymised or is gone.
   */
  subject_name: z.string().nullable(),
  /** A staff member subject's active role now. */
  subject_role: z.enum(ROLES).nullable(),
  /** A staff member subject's company, a visitor's (or a request's visitor's) organisation. */
  subject_company_name: z.string().nullable(),
  /** Null when the entry has no subject. */
  subject_state: z.enum(AUDIT_SUBJECT_STATES).nullable(),
  /** The other company of a staff member's move (`detail.movedTo` / `movedFrom`), by name. */
  other_company_name: z.string().nullable(),
});
export type AuditListEntry = z.infer<typeof auditListEntrySchema>;
