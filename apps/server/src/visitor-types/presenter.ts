/** A visitor type on the wire (issue 31), as the staff screens read it. */
import type { TypeDocument, VisitorType, VisitorTypeField } from '@sesame/shared';
import type { VisitorTypeRow } from './steps';

export function presentVisitorType(
  row: VisitorTypeRow,
  documents: readonly TypeDocument[],
): VisitorType {
  return {
    id: row.id,
    site_id: row.siteId,
    name_fr: row.nameFr,
    name_en: row.nameEn,
    color: row.color,
    // jsonb column: written only from the visitor type schema's fields.
    required_fields: row.requiredFields as VisitorTypeField[],
    host_approval: row.hostApproval,
    auto_check_out_at: row.autoCheckOutAt,
    position: row.position,
    archived: row.archivedAt !== null,
    documents: [...documents],
  };
}
