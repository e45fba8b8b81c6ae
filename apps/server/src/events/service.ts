/**
 * Events: creation under a stable slug, lists scoped per company, registration
 * through the share link, and the attendance and check-in lists of participants.
 * Every query takes the tenant (a company id, or undefined for every company).
 */
import {
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  gt,
  isNotNull,
  isNull,
  like,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import {
  slugify,
  type EventAttendanceQuery,
  type EventCreate,
  type EventVisitorLogQuery,
  type ListQuery,
  type VisitorCreateInput,
} from '@sesame/shared';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import { companies, events, sites, visitorChecks, visitors } from '../db/schema';
import { likeAny } from '../db/pagination';
import { badRequest, isUniqueViolation } from '../errors';
import type { CheckedFile } from '../files/uploads';
import type { FileStorage } from '../files/storage';
import { createConfirmedEventRegistration, type VisitorRow } from '../visitors/service';
import { dayBounds, eventStartsAt, isEventDayOver } from './time';
import { firstRow, found } from '../db/rows';

export type EventRecord = typeof events.$inferSelect;

export interface EventCompany {
  id: string;
  name: string;
  slug: string;
  timezone: string;
}

export interface EventRow extends EventRecord {
  /** The company, with the zone of the event's site (issue 28): its dates and times are read in it. */
  company: EventCompany;
  site: { id: string; name: string; timezone: string };
  participantCount: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const participantCount = sql<number>`(select count(*)::int from ${visitors} where ${visitors.eventId} = ${events.id})`;

function selectEvents(db: Db) {
  return db
    .select({
      event: events,
      company: {
        id: companies.id,
        name: companies.name,
        slug: companies.slug,
        timezone: sites.timezone,
      },
      site: { id: sites.id, name: sites.name, timezone: sites.timezone },
      participantCount,
    })
    .from(events)
    .innerJoin(companies, eq(companies.id, events.companyId))
    .innerJoin(sites, eq(sites.id, events.siteId));
}

type Selected = {
  event: EventRecord;
  company: EventCompany;
  site: EventRow['site'];
  participantCount: number;
};
const toRow = (r: Selected): EventRow => ({
  ...r.event,
  company: r.company,
  site: r.site,
  participantCount: Number(r.participantCount),
});

/** One event by id (any company: the caller authorizes with its company). */
export async function findEvent(db: Db, id: string): Promise<EventRow | null> {
  const [row] = await selectEvents(db).where(eq(events.id, id)).limit(1);
  return row ? toRow(row) : null;
}

/** An event of one company by its slug (case-insensitive). */
export async function findEventBySlug(
  db: Db,
  companyId: string,
  slug: string,
): Promise<EventRow | null> {
  const [row] = await selectEvents(db)
    .where(and(eq(events.companyId, companyId), eq(sql`lower(${events.slug})`, slug.toLowerCase())))
    .limit(1);
  return row ? toRow(row) : null;
}

/** One page of events, newest first; `companyId` undefined = every company. */
export async function listEvents(
  db: Db,
  query: ListQuery,
  companyId: string | undefined,
  siteIds?: string[],
): Promise<{ rows: EventRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [
    companyId ? eq(events.companyId, companyId) : undefined,
    siteIds ? inArray(events.siteId, siteIds) : undefined,
  ];
  if (query.q) {
    conditions.push(
      likeAny(query.q, [
        events.name,
        events.location,
        events.addressName,
        events.city,
        companies.name,
      ]),
    );
  }
  const where = and(...conditions);
  const [rows, totals] = await Promise.all([
    selectEvents(db)
      .where(where)
      .orderBy(desc(events.createdAt), desc(events.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db
      .select({ total: count() })
      .from(events)
      .innerJoin(companies, eq(companies.id, events.companyId))
      .where(where),
  ]);
  return { rows: rows.map(toRow), total: Number(totals[0]?.total ?? 0) };
}

/** `all` is the request list's "every event" filter (?event=all): no event may take it. */
const RESERVED_EVENT_SLUGS = new Set(['all']);

/**
 * A free slug for a new event of a company: the name slugified, suffixed -2, -3…
 * while taken in that company. It never changes afterwards (printed posters use it).
 */
export async function freeEventSlug(db: Db, companyId: string, name: string): Promise<string> {
  const base = slugify(name) || 'evenement';
  const taken = new Set(
    (
      await db
        .select({ slug: events.slug })
        .from(events)
        .where(
          and(
            eq(events.companyId, companyId),
            or(eq(sql`lower(${events.slug})`, base), like(sql`lower(${events.slug})`, `${base}-%`)),
          ),
        )
    ).map((r) => r.slug.toLowerCase()),
  );
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(candidate) && !RESERVED_EVENT_SLUGS.has(candidate)) return candidate;
  }
}

/** Inserts the event under a free slug; `createEvent` retries it on a slug race. */
export async function insertEvent(
  db: Db,
  input: EventCreate,
  values: {
    companyId: string;
    site: { id: string; timezone: string };
    startsAt: Date;
    createdBy: string;
  },
): Promise<EventRecord> {
  const slug = await freeEventSlug(db, values.companyId, input.name);
  const orNull = (v: string) => (v ? v : null);
  // The day's instants, in the site's zone, written with the event (the code check reads them).
  const day = dayBounds(input.date_event, values.site.timezone);
  if (!day) throw new Error(`not a DD/MM/YYYY date: ${input.date_event}`);
  const rows = await db
    .insert(events)
    .values({
      companyId: values.companyId,
      siteId: values.site.id,
      name: input.name,
      slug,
      location: input.location,
      addressName: input.address_name,
      city: orNull(input.city),
      state: orNull(input.state),
      zipcode: orNull(input.zipcode),
      country: orNull(input.country),
      dateEvent: input.date_event,
      timeEvent: input.time_event,
      startsAt: values.startsAt,
      ...day,
      departementId: input.departement_id,
      createdBy: values.createdBy,
    })
    .returning();
  return firstRow(rows, 'the inserted event');
}

/** Tries of a creation that lost a slug race (two events of one name at the same moment). */
const SLUG_RACE_TRIES = 5;

/**
 * Creates an event of `company` ('Création Événement'): refused (400) when its day is
 * already over in the company's time zone; its start is the date and time read in that
 * zone. The insert and its audit entry commit together; a creation that loses a slug
 * race (`events_company_slug_key`) runs again and takes the next suffix.
 */
export async function createEvent(
  db: Db,
  input: EventCreate,
  context: {
    company: { id: string };
    site: { id: string; timezone: string };
    createdBy: string;
  },
): Promise<EventRow> {
  const { company, site, createdBy } = context;
  if (isEventDayOver(input.date_event, site.timezone)) {
    throw badRequest((m) => m.event.datePast, { date_event: (m) => m.event.datePast });
  }
  const startsAt = eventStartsAt(input.date_event, input.time_event, site.timezone);
  for (let attempt = 1; ; attempt++) {
    try {
      const created = await db.transaction(async (tx) => {
        const row = await insertEvent(tx, input, {
          companyId: company.id,
          site,
          startsAt,
          createdBy,
        });
        await audit(tx, {
          companyId: company.id,
          actorUserId: createdBy,
          action: 'event.created',
          subjectType: 'event',
          subjectId: row.id,
        });
        return row;
      });
      return found(await findEvent(db, created.id), 'the event just created');
    } catch (error) {
      if (attempt < SLUG_RACE_TRIES && isUniqueViolation(error, 'events_company_slug_key')) {
        continue;
      }
      throw error;
    }
  }
}

export type EventState = 'open' | 'closed' | 'over';

/** Whether an event still takes registrations: not closed by staff, and its day not over. */
export function eventState(
  event: Pick<EventRecord, 'closedAt' | 'dateEvent'>,
  timeZone: string,
  now = new Date(),
): EventState {
  if (event.closedAt) return 'closed';
  if (isEventDayOver(event.dateEvent, timeZone, now)) return 'over';
  return 'open';
}

/**
 * Stops registrations, audited; closing a closed event changes nothing (and writes
 * nothing). Answers whether this call closed it.
 */
export async function closeEvent(
  db: Db,
  event: Pick<EventRecord, 'id' | 'companyId'>,
  actorUserId: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const closed = await tx
      .update(events)
      .set({ closedAt: sql`now()` })
      .where(and(eq(events.id, event.id), isNull(events.closedAt)))
      .returning({ id: events.id });
    if (closed.length === 0) return false;
    await audit(tx, {
      companyId: event.companyId,
      actorUserId,
      action: 'event.closed',
      subjectType: 'event',
      subjectId: event.id,
    });
    return true;
  });
}

/**
 * Deletes an event without participants, audited; answers false (and deletes
 * nothing) when some registered meanwhile: the row is locked while they are counted.
 */
export async function deleteEventIfEmpty(
  db: Db,
  event: Pick<EventRecord, 'id' | 'companyId'>,
  actorUserId: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: events.id })
      .from(events)
      .where(eq(events.id, event.id))
      .for('update');
    if (!locked) return true;
    const [row] = await tx
      .select({ n: count() })
      .from(visitors)
      .where(eq(visitors.eventId, event.id));
    if (Number(row?.n ?? 0) > 0) return false;
    await tx.delete(events).where(eq(events.id, event.id));
    await audit(tx, {
      companyId: event.companyId,
      actorUserId,
      action: 'event.deleted',
      subjectType: 'event',
      subjectId: event.id,
    });
    return true;
  });
}

export type RegistrationOutcome =
  | { kind: 'registered'; visitor: VisitorRow; requestId: string }
  | { kind: 'closed' | 'over' | 'duplicate' | 'gone' | 'recipientLimit' };

/**
 * A registration through the share link, in the caller's transaction: the event row
 * is locked (registrations of one event go one at a time, so a second form sent with
 * the same e-mail is seen), its state checked again, then the visitor, the confirmed
 * request and the code mail are written together.
 */
export async function registerForEvent(
  tx: Db,
  storage: FileStorage,
  input: {
    eventId: string;
    timeZone: string;
    fields: VisitorCreateInput;
    document: CheckedFile;
    /** Registration mails one address may receive in a day, all events together. */
    mailsPerRecipientPerDay: number;
  },
): Promise<RegistrationOutcome> {
  const [event] = await tx.select().from(events).where(eq(events.id, input.eventId)).for('update');
  if (!event) return { kind: 'gone' };
  const state = eventState(event, input.timeZone);
  if (state !== 'open') return { kind: state };
  const [already] = await tx
    .select({ id: visitors.id })
    .from(visitors)
    .where(
      and(
        eq(visitors.eventId, event.id),
        eq(sql`lower(${visitors.email})`, input.fields.email.toLowerCase()),
      ),
    )
    .limit(1);
  if (already) return { kind: 'duplicate' };
  // The share link is public: without this, anyone could make Sésame mail any address
  // again and again, one event after another. Registrations to one address go one at a
  // time (a transaction lock on the address), so the count cannot be raced.
  const address = input.fields.email.toLowerCase();
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`registration:${address}`}))`);
  const [recent] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(visitors)
    .where(
      and(
        isNotNull(visitors.eventId),
        eq(sql`lower(${visitors.email})`, address),
        gt(visitors.createdAt, sql`now() - interval '1 day'`),
      ),
    );
  if ((recent?.count ?? 0) >= input.mailsPerRecipientPerDay) return { kind: 'recipientLimit' };
  const { visitor, request } = await createConfirmedEventRegistration(tx, storage, {
    event,
    fields: input.fields,
    document: input.document,
  });
  return { kind: 'registered', visitor, requestId: request.id };
}

/** The first check-in of a visitor at the door (null until they come). */
const firstCheckIn = sql<
  string | null
>`(select min(${visitorChecks.checkInAt}) from ${visitorChecks} where ${visitorChecks.visitorId} = ${visitors.id})`;

export interface AttendanceRow {
  event: Pick<
    EventRecord,
    'id' | 'name' | 'slug' | 'location' | 'dateEvent' | 'timeEvent' | 'createdAt'
  >;
  company: EventCompany;
  visitor: Pick<
    typeof visitors.$inferSelect,
    'id' | 'firstname' | 'lastname' | 'email' | 'address' | 'requestImageId' | 'createdAt'
  >;
  checkInTime: string | Date | null;
}

/**
 * One page of event participants (newest events first, participants in the order
 * they registered); `companyId` undefined = every company.
 */
export async function listAttendance(
  db: Db,
  query: EventAttendanceQuery,
  companyId: string | undefined,
  siteIds?: string[],
): Promise<{ rows: AttendanceRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [
    isNotNull(visitors.eventId),
    companyId ? eq(events.companyId, companyId) : undefined,
    siteIds ? inArray(events.siteId, siteIds) : undefined,
  ];
  if (query.q) {
    conditions.push(
      likeAny(query.q, [
        visitors.firstname,
        visitors.lastname,
        visitors.email,
        visitors.uidn,
        events.name,
        events.location,
      ]),
    );
  }
  const where = and(...conditions);
  const [rows, totals] = await Promise.all([
    db
      .select({
        event: {
          id: events.id,
          name: events.name,
          slug: events.slug,
          location: events.location,
          dateEvent: events.dateEvent,
          timeEvent: events.timeEvent,
          createdAt: events.createdAt,
        },
        company: {
          id: companies.id,
          name: companies.name,
          slug: companies.slug,
          timezone: sites.timezone,
        },
        visitor: {
          id: visitors.id,
          firstname: visitors.firstname,
          lastname: visitors.lastname,
          email: visitors.email,
          address: visitors.address,
          requestImageId: visitors.requestImageId,
          createdAt: visitors.createdAt,
        },
        checkInTime: firstCheckIn,
      })
      .from(visitors)
      .innerJoin(events, eq(events.id, visitors.eventId))
      .innerJoin(companies, eq(companies.id, events.companyId))
      .innerJoin(sites, eq(sites.id, events.siteId))
      .where(where)
      .orderBy(desc(events.createdAt), desc(events.id), asc(visitors.createdAt), asc(visitors.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db
      .select({ total: count() })
      .from(visitors)
      .innerJoin(events, eq(events.id, visitors.eventId))
      .where(where),
  ]);
  return { rows, total: Number(totals[0]?.total ?? 0) };
}

export interface EventVisitorLogRow {
  check: typeof visitorChecks.$inferSelect;
  visitor: Pick<
    typeof visitors.$inferSelect,
    'id' | 'firstname' | 'lastname' | 'email' | 'requestImageId'
  >;
  event: { id: string; name: string; slug: string };
}

/**
 * One page of check-ins of a company's event participants, newest first.
 * `eventFilter` is an event's slug or id within that company.
 */
export async function listEventVisitorLogs(
  db: Db,
  query: EventVisitorLogQuery,
  companyId: string,
): Promise<{ rows: EventVisitorLogRow[]; total: number } | null> {
  const conditions: (SQL | undefined)[] = [eq(visitorChecks.companyId, companyId)];
  if (query.event) {
    const match = UUID.test(query.event)
      ? or(eq(events.id, query.event), eq(events.slug, query.event))
      : eq(sql`lower(${events.slug})`, query.event.toLowerCase());
    const [found] = await db
      .select({ id: events.id })
      .from(events)
      .where(and(match, eq(events.companyId, companyId)))
      .limit(1);
    if (!found) return null;
    conditions.push(eq(events.id, found.id));
  }
  if (query.q) {
    conditions.push(
      likeAny(query.q, [visitors.firstname, visitors.lastname, visitors.email, events.name]),
    );
  }
  const where = and(...conditions);
  const base = (select: Db) =>
    select
      .select({
        check: visitorChecks,
        visitor: {
          id: visitors.id,
          firstname: visitors.firstname,
          lastname: visitors.lastname,
          email: visitors.email,
          requestImageId: visitors.requestImageId,
        },
        event: { id: events.id, name: events.name, slug: events.slug },
      })
      .from(visitorChecks)
      .innerJoin(visitors, eq(visitors.id, visitorChecks.visitorId))
      .innerJoin(events, eq(events.id, visitors.eventId));
  const [rows, totals] = await Promise.all([
    base(db)
      .where(where)
      .orderBy(desc(visitorChecks.checkInAt), desc(visitorChecks.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db
      .select({ total: count() })
      .from(visitorChecks)
      .innerJoin(visitors, eq(visitors.id, visitorChecks.visitorId))
      .innerJoin(events, eq(events.id, visitors.eventId))
      .where(where),
  ]);
  return { rows, total: Number(totals[0]?.total ?? 0) };
}
