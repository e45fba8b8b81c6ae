/**
 * An audit entry on the wire (issue 27): the stored entry and the names it points at, read
 * by joins when the log is read (service.ts). `detail` goes out as stored: ids, roles, days,
 * counts and before → after values, never a personal field.
 */
import type { AuditListEntry } from '@sesame/shared';
import type { AuditRow } from './service';

export function presentAuditEntry(row: AuditRow): AuditListEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    company_id: row.companyId,
    company_name: row.companyName,
    actor_id: row.actorUserId,
    actor_name: row.actorName,
    actor_role: row.actorRole,
    actor_company_name: row.actorCompanyName,
    action: row.action,
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    subject_name: row.subjectName,
    subject_role: row.subjectRole,
    subject_company_name: row.subjectCompanyName,
    subject_state: row.subjectState,
    other_company_name: row.otherCompanyName,
    // jsonb column: audit() writes its `detail` as an object of named values, or null.
    detail: (row.detail as Record<string, unknown> | null) ?? null,
    by_platform: row.byPlatform,
  };
}
