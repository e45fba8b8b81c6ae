/**
 * The wire shape of the presence logs (spec §3 "Visitor log", "User check log
 * row"): names as the screens read them, instants in ISO 8601 UTC, identity
 * images as short-lived signed URLs.
 */
import type { CheckUndoFields, UserCheckRow, UserLogRow, VisitorLogRow } from '@sesame/shared';
import type { FileSigner } from '../files/urls';
import type {
  AttendanceEntry,
  CheckEntry,
  SiteOfEntry,
  UndoEntry,
  UserLogEntry,
  VisitorLogEntry,
} from './logs';

const iso = (at: Date | null) => at?.toISOString() ?? null;
const fullName = (first: string | null, last: string | null) =>
  `${first ?? ''} ${last ?? ''}`.trim();

/** The undos of a check (issue 14): its arrival undone, or its last departure undone. */
export function presentUndo(row: UndoEntry): CheckUndoFields {
  return {
    undone: row.undoneAt
      ? { at: row.undoneAt.toISOString(), by: row.undoneBy, reason: row.undoReason }
      : null,
    departure_undone:
      row.outUndoneAt && row.undoneOutAt
        ? {
            departure_time: row.undoneOutAt.toISOString(),
            departure_method: row.undoneOutMethod,
            departure_by: row.undoneOutBy,
            at: row.outUndoneAt.toISOString(),
            by: row.outUndoneBy,
            reason: row.outUndoReason,
          }
        : null,
  };
}

/** Where a log entry's check was made (issue 28). */
const siteOf = (row: SiteOfEntry) => ({
  id: row.siteId,
  name: row.siteName,
  timezone: row.timezone,
});

/** When, how and by whom a log entry's check was recorded, and its undos. */
function presentCheck(row: CheckEntry) {
  return {
    check_in_time: row.checkInAt.toISOString(),
    check_out_time: iso(row.checkOutAt),
    check_in_method: row.checkInMethod,
    check_out_method: row.checkOutMethod,
    check_in_by: row.checkInBy,
    check_out_by: row.checkOutBy,
    ...presentUndo(row),
  };
}

export function presentVisitorLog(row: VisitorLogEntry, fileUrls: FileSigner): VisitorLogRow {
  return {
    id: row.id,
    visitor_id: row.visitorId,
    uidn: row.uidn,
    visitor_name: row.firstname,
    visitor_lastname: row.lastname,
    visitor_email: row.email,
    organisation_name: row.organisationName,
    image: fileUrls.signed(row.imageId),
    image_type: row.imageType,
    company: { name: row.companyName, slug: row.companySlug },
    site: siteOf(row),
    created_at: row.createdAt.toISOString(),
    ...presentCheck(row),
  };
}

export function presentUserLog(row: UserLogEntry): UserLogRow {
  return {
    id: row.id,
    user_id: row.userId,
    uidn: row.uidn,
    kind: row.kind === 'member' ? 'member' : 'permanent',
    user_name: fullName(row.firstname, row.lastname),
    user_email: row.email,
    company: { name: row.companyName, slug: row.companySlug },
    site: siteOf(row),
    ...presentCheck(row),
  };
}

export function presentAttendance(row: AttendanceEntry, fileUrls: FileSigner): UserCheckRow {
  // A QR user's document may be a PDF or a Word file: only an image is shown as one.
  const isImage = row.documentType?.startsWith('image/') ?? false;
  return {
    user_id: row.userId,
    uidn: row.uidn,
    kind: row.kind === 'member' ? 'member' : 'permanent',
    user_name: fullName(row.firstname, row.lastname),
    user_email: row.email,
    user_phone: row.contact,
    image: isImage ? fileUrls.signed(row.documentId) : null,
    image_type: row.documentType,
    company_id: row.companyId,
    date_exp: iso(row.dateExp),
    check_logs: row.checks.map((c) => ({
      check_in: c.checkInAt.toISOString(),
      check_out: iso(c.checkOutAt),
    })),
  };
}
