/**
 * The visitor journey's writes: a visitor with their checked identity document,
 * a visit request, an event registration. Each takes the caller's transaction,
 * so a route composes them and everything lands, or nothing does.
 *
 * For the events feature, `createConfirmedEventRegistration` is the whole
 * registration in one call (visitor + confirmed request + the code mail).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { EVENT_DEFAULT_REASON, type VisitorCreateInput } from '@sesame/shared';
import { toE164 } from '@sesame/shared/phone';
import type { Db } from '../db/client';
import { newUidn } from '../db/ids';
import { badRequest } from '../errors';
import { events, files, visitRequests, visitors } from '../db/schema';
import { dayBounds, type DayBounds } from '../events/time';
import type { CheckedFile } from '../files/uploads';
import { storeFile } from '../files/uploads';
import type { FileStorage } from '../files/storage';
import { enqueueVisitorCodeMail } from '../mail/outbox';
import { firstRow } from '../db/rows';

export type VisitorRow = typeof visitors.$inferSelect;
export type VisitRequestRow = typeof visitRequests.$inferSelect;
export type EventRow = typeof events.$inferSelect;

/** The `files.owner_type` of identity documents. */
export const VISITOR_DOCUMENT_OWNER = 'visitor';

interface CreateVisitorFields {
  companyId: string;
  /** The form's fields, parsed by `visitorFormSchema`. */
  fields: VisitorCreateInput;
  /**
   * The identity document, already checked by `checkFile` (type by content, size); null when
   * the visit's type does not ask for one (issue 31).
   */
  document: CheckedFile | null;
  /** Set for an event registration. */
  eventId?: string | null;
  /** The visit's visitor type (issue 31); events' guests have none. */
  typeId?: string | null;
}

/**
 * Where the visit takes place (issue 28) and its day: a meeting's day is read from its
 * request_date in the site's zone; an event registration's is the event's own instants
 * (already read in the event's site's zone), so its site needs no zone.
 */
export type CreateVisitorInput = CreateVisitorFields &
  (
    | { site: { id: string; timezone: string }; day?: undefined }
    | { site: { id: string }; day: DayBounds }
  );

const orNull = (value: string | undefined | null) => (value ? value : null);

/**
 * Stores the identity document and the visitor (with a fresh uidn); returns the row.
 * The document's bytes are written before the rows: wrap the transaction in
 * `withStoredFileCleanup` (files/uploads.ts) so a rollback leaves no orphan on disk.
 */
export async function createVisitor(
  tx: Db,
  storage: FileStorage,
  input: CreateVisitorInput,
): Promise<VisitorRow> {
  const { fields, companyId } = input;
  // The form checked the shape; the number itself is read here, into E.164 ('+225…').
  // A phone the visit's type does not ask for may be left blank (issue 31).
  const contact = fields.contact ? toE164(fields.contact) : '';
  if (contact === null) {
    throw badRequest((m) => m.validation.phoneInvalid, {
      contact: (m) => m.validation.phoneInvalid,
    });
  }
  // The meeting's day as instants in the site's zone, written with the visitor.
  const day = input.day
    ? input.day
    : 'timezone' in input.site
      ? dayBounds(fields.request_date, input.site.timezone)
      : null;
  const document = input.document
    ? await storeFile(tx, storage, input.document, {
        companyId,
        ownerType: VISITOR_DOCUMENT_OWNER,
      })
    : null;
  const inserted = await tx
    .insert(visitors)
    .values({
      companyId,
      siteId: input.site.id,
      eventId: input.eventId ?? null,
      uidn: newUidn(),
      firstname: fields.firstname,
      lastname: fields.lastname,
      email: fields.email,
      contact,
      idNumber: fields.id_number,
      organisationName: fields.organisation_name,
      address: orNull(fields.address),
      city: orNull(fields.city),
      state: orNull(fields.state),
      country: orNull(fields.country),
      zipcode: orNull(fields.zipcode),
      visitorType: orNull(fields.visitor_type),
      requestDate: orNull(fields.request_date),
      requestTime: orNull(fields.request_time),
      dayStartsAt: day?.dayStartsAt ?? null,
      dayEndsAt: day?.dayEndsAt ?? null,
      language: fields.language,
      requestImageId: document?.id ?? null,
      visitorTypeId: input.typeId ?? null,
    })
    .returning();
  const visitor = firstRow(inserted, 'the inserted visitor');
  if (document) {
    await tx.update(files).set({ ownerId: visitor.id }).where(eq(files.id, document.id));
  }
  return visitor;
}

export interface CreateVisitRequestInput {
  companyId: string;
  visitorId: string;
  host?: string | null;
  /** The host's account (issue 15), when the visitor chose one in the staff search. */
  hostUserId?: string | null;
  reason?: string | null;
  /** A request confirmed at once (event registrations): status 1, confirmed. */
  confirmed?: boolean;
  decidedBy?: string | null;
}

export async function createVisitRequest(
  tx: Db,
  input: CreateVisitRequestInput,
): Promise<VisitRequestRow> {
  const rows = await tx
    .insert(visitRequests)
    .values({
      companyId: input.companyId,
      visitorId: input.visitorId,
      host: orNull(input.host),
      hostUserId: input.hostUserId ?? null,
      reason: orNull(input.reason),
      ...(input.confirmed
        ? { status: 1, confirmed: true, decidedAt: new Date(), decidedBy: input.decidedBy ?? null }
        : {}),
    })
    .returning();
  return firstRow(rows, 'the inserted request');
}

export interface EventRegistrationInput {
  /** The event, already found in its company and checked open by the caller. */
  event: Pick<
    EventRow,
    | 'id'
    | 'companyId'
    | 'siteId'
    | 'addressName'
    | 'city'
    | 'state'
    | 'zipcode'
    | 'country'
    | 'dateEvent'
    | 'timeEvent'
    | 'dayStartsAt'
    | 'dayEndsAt'
  >;
  fields: VisitorCreateInput;
  document: CheckedFile;
}

/**
 * An event registration (ARCHITECTURE §10: no host, confirmed at once): the
 * visitor with the event's place, date and time (whatever the form sent), a
 * confirmed request with reason 'not applicable', and the code mail queued —
 * all in the caller's transaction.
 */
export async function createConfirmedEventRegistration(
  tx: Db,
  storage: FileStorage,
  input: EventRegistrationInput,
): Promise<{ visitor: VisitorRow; request: VisitRequestRow }> {
  const { event } = input;
  const visitor = await createVisitor(tx, storage, {
    companyId: event.companyId,
    // An event guest comes to the event's site, on the event's day there (its instants
    // were read in the site's zone when the event was written).
    site: { id: event.siteId },
    eventId: event.id,
    day: { dayStartsAt: event.dayStartsAt, dayEndsAt: event.dayEndsAt },
    document: input.document,
    fields: {
      ...input.fields,
      address: event.addressName,
      city: event.city ?? '',
      state: event.state ?? '',
      zipcode: event.zipcode ?? '',
      country: event.country ?? '',
      request_date: event.dateEvent,
      request_time: event.timeEvent,
    },
  });
  const request = await createVisitRequest(tx, {
    companyId: event.companyId,
    visitorId: visitor.id,
    host: null,
    reason: EVENT_DEFAULT_REASON,
    confirmed: true,
  });
  await enqueueVisitorCodeMail(tx, { companyId: event.companyId, visitorId: visitor.id });
  return { visitor, request };
}

/** A visitor of a company (or of any company when `companyId` is undefined). */
export async function findVisitor(
  db: Db,
  id: string,
  companyId: string | undefined,
): Promise<VisitorRow | null> {
  const [row] = await db
    .select()
    .from(visitors)
    .where(
      companyId ? and(eq(visitors.id, id), eq(visitors.companyId, companyId)) : eq(visitors.id, id),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Deletes a visitor with their requests and checks (cascade) and their identity
 * document's row; returns the stored names to remove from storage after commit.
 */
export async function deleteVisitor(tx: Db, visitor: VisitorRow): Promise<string[]> {
  await tx.delete(visitors).where(eq(visitors.id, visitor.id));
  const removed = await tx
    .delete(files)
    .where(
      and(
        eq(files.companyId, visitor.companyId),
        // The identity document, and a kiosk walk-in's photo (issue 29: kiosks/visits.ts).
        inArray(files.ownerType, [VISITOR_DOCUMENT_OWNER, 'visitor_photo']),
        eq(files.ownerId, visitor.id),
      ),
    )
    .returning({ storedName: files.storedName });
  return removed.map((f) => f.storedName);
}
