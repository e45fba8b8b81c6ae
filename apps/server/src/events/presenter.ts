import type { Event, EventAttendanceEntry, EventVisitorLog, PublicEvent } from '@sesame/shared';
import type { FileSigner } from '../files/urls';
import { qrTargets } from '../qr/qr';
import type { AttendanceRow, EventRow, EventState, EventVisitorLogRow } from './service';

/** The public PNG of an event's share-link QR (the poster). */
export function eventQrImageUrl(companySlug: string, eventSlug: string): string {
  return `/api/public/qrcode-event/${companySlug}/${eventSlug}.png`;
}

const iso = (value: string | Date | null | undefined) =>
  value ? new Date(value).toISOString() : null;

/** What an event says of itself to staff and to anyone with its link alike. */
function eventFacts(row: EventRow, publicUrl: string) {
  return {
    name: row.name,
    slug: row.slug,
    location: row.location,
    address_name: row.addressName,
    city: row.city,
    state: row.state,
    zipcode: row.zipcode,
    country: row.country,
    date_event: row.dateEvent,
    time_event: row.timeEvent,
    starts_at: iso(row.startsAt),
    link: qrTargets.eventShareLink(publicUrl, row.company.slug, row.slug),
    qrcode_url: eventQrImageUrl(row.company.slug, row.slug),
  };
}

export function presentEvent(row: EventRow, publicUrl: string): Event {
  return {
    ...eventFacts(row, publicUrl),
    id: row.id,
    addressName: row.addressName,
    closed: row.closedAt !== null,
    closed_at: iso(row.closedAt),
    departement_id: row.departementId,
    company_id: row.companyId,
    companyId: row.companyId,
    company: row.company,
    site: row.site,
    participant_count: row.participantCount,
    created_at: row.createdAt.toISOString(),
  };
}

/** What anyone holding the link reads: the event and its company, no participant. */
export function presentPublicEvent(
  row: EventRow,
  state: EventState,
  publicUrl: string,
): PublicEvent {
  return {
    ...eventFacts(row, publicUrl),
    closed: state !== 'open',
    // The zone the poster reads the date and time in: the event's site's (issue 28).
    company: { name: row.company.name, slug: row.company.slug, timezone: row.site.timezone },
  };
}

/** Groups a page of participants under their events, keeping the page's order. */
export function presentAttendance(
  rows: AttendanceRow[],
  fileUrls: FileSigner,
): EventAttendanceEntry[] {
  const entries: EventAttendanceEntry[] = [];
  const byEvent = new Map<string, EventAttendanceEntry>();
  for (const row of rows) {
    let entry = byEvent.get(row.event.id);
    if (!entry) {
      entry = {
        id: row.event.id,
        name: row.event.name,
        slug: row.event.slug,
        location: row.event.location,
        date_event: row.event.dateEvent,
        time_event: row.event.timeEvent,
        created_at: row.event.createdAt.toISOString(),
        company: row.company,
        visitors: [],
      };
      byEvent.set(row.event.id, entry);
      entries.push(entry);
    }
    entry.visitors.push({
      id: row.visitor.id,
      firstname: row.visitor.firstname,
      lastname: row.visitor.lastname,
      email: row.visitor.email,
      request_image: fileUrls.signed(row.visitor.requestImageId),
      address: row.visitor.address,
      check_in_time: iso(row.checkInTime),
      registered_at: row.visitor.createdAt.toISOString(),
    });
  }
  return entries;
}

export function presentEventVisitorLog(
  row: EventVisitorLogRow,
  fileUrls: FileSigner,
): EventVisitorLog {
  return {
    id: row.check.id,
    visitor_id: row.visitor.id,
    visitor_name: row.visitor.firstname,
    visitor_lastname: row.visitor.lastname,
    visitor_email: row.visitor.email,
    image: fileUrls.signed(row.visitor.requestImageId),
    created_at: row.check.createdAt.toISOString(),
    check_in_time: row.check.checkInAt.toISOString(),
    check_out_time: iso(row.check.checkOutAt),
    event: row.event,
  };
}
