/**
 * An event's participants as a CSV for French Excel (issue 17: 'Liste Participants'
 * exported), one line per registration in the order they came: who, how to reach
 * them, when they registered, their first arrival and last departure at the door
 * (undone checks left out), in the zone of the event's site; headers in the
 * reader's language.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { catalogue, slugify, type Language } from '@sesame/shared';
import { EXPORT_MAX_ROWS, frenchExcelCsv, localDateTime } from '../checkins/csv';
import type { Db } from '../db/client';
import { visitorChecks, visitors } from '../db/schema';
import type { EventRow } from './service';

const kept = and(eq(visitorChecks.visitorId, visitors.id), isNull(visitorChecks.undoneAt));
const firstArrival = sql<
  Date | string | null
>`(select min(${visitorChecks.checkInAt}) from ${visitorChecks} where ${kept})`;
const lastDeparture = sql<
  Date | string | null
>`(select max(${visitorChecks.checkOutAt}) from ${visitorChecks} where ${kept})`;

const instant = (value: Date | string | null) =>
  value === null ? null : value instanceof Date ? value : new Date(value);

/** The CSV of an event's participants (at most EXPORT_MAX_ROWS of them). */
export async function participantsCsv(db: Db, event: EventRow, lang: Language): Promise<string> {
  const rows = await db
    .select({
      firstname: visitors.firstname,
      lastname: visitors.lastname,
      email: visitors.email,
      contact: visitors.contact,
      organisationName: visitors.organisationName,
      registeredAt: visitors.createdAt,
      firstArrival,
      lastDeparture,
    })
    .from(visitors)
    .where(eq(visitors.eventId, event.id))
    .orderBy(asc(visitors.createdAt), asc(visitors.id))
    .limit(EXPORT_MAX_ROWS);
  // The event's day and times are its site's (issue 28).
  const zone = event.site.timezone;
  return frenchExcelCsv(
    catalogue(lang).csv.participants.header,
    rows.map((row) => [
      row.firstname,
      row.lastname,
      row.email,
      row.contact,
      row.organisationName,
      localDateTime(row.registeredAt, zone),
      localDateTime(instant(row.firstArrival), zone),
      localDateTime(instant(row.lastDeparture), zone),
    ]),
  );
}

/** 'participants-forum-numerique-2030.csv': the event's slug names the file. */
export function participantsFileName(
  event: Pick<EventRow, 'slug' | 'name'>,
  lang: Language,
): string {
  const unnamed = catalogue(lang).csv.participants.unnamedEvent;
  return `participants-${slugify(event.slug) || slugify(event.name) || unnamed}.csv`;
}
