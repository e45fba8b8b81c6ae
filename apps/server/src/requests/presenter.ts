import { formatUidn, type RequestRow, type RequestRowState } from '@sesame/shared';
import type { FileSigner } from '../files/urls';
import type { RequestListRow } from './service';

const iso = (value: string | Date) => new Date(value).toISOString();

/** Refused by its host (who decided through their own link), or cancelled by a staff member. */
function stateOf(request: RequestListRow['request']): RequestRowState {
  if (request.confirmed === true) return 'confirmed';
  if (request.confirmed !== false) return 'pending';
  return request.decidedBy !== null && request.decidedBy === request.hostUserId
    ? 'declined'
    : 'cancelled';
}

/** A request as staff see it; the identity document only as a short-lived signed URL. */
export function presentRequestRow(row: RequestListRow, fileUrls: FileSigner): RequestRow {
  const { request, visitor, company, event } = row;
  return {
    id: request.id,
    state: stateOf(request),
    status: request.status,
    confirmed: request.confirmed,
    host: request.host,
    host_user: row.hostUser
      ? { id: row.hostUser.id, name: `${row.hostUser.firstname} ${row.hostUser.name}`.trim() }
      : null,
    decline_reason: request.declineReason,
    reason: request.reason,
    request_date: visitor.requestDate,
    request_time: visitor.requestTime,
    created_at: request.createdAt.toISOString(),
    decided_at: request.decidedAt ? request.decidedAt.toISOString() : null,
    company,
    site: row.site,
    visitor: {
      id: visitor.id,
      uidn: request.confirmed ? formatUidn(visitor.uidn) : null,
      firstname: visitor.firstname,
      lastname: visitor.lastname,
      email: visitor.email,
      contact: visitor.contact,
      organisation_name: visitor.organisationName,
      id_number: visitor.idNumber,
      address: visitor.address,
      city: visitor.city,
      state: visitor.state,
      country: visitor.country,
      zipcode: visitor.zipcode,
      request_image: fileUrls.signed(visitor.requestImageId),
      request_image_type: visitor.requestImageId ? row.documentType : null,
      evenements: event?.id ? event : null,
      checkIns: (row.checkIns ?? []).map((c) => ({
        check_in_time: iso(c.check_in_time),
        check_out_time: c.check_out_time ? iso(c.check_out_time) : null,
      })),
    },
  };
}
