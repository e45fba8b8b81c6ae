/**
 * The host loop (issue 15): the host is a person Sésame knows, decides from their
 * inbox, and the visitor always hears back. Every mail here is queued in the
 * transaction of its cause, once per cause (mail_outbox.dedupe_key).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { HostCandidate } from '@sesame/shared';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import { fullNames, likeAny } from '../db/pagination';
import { idRow, rowsOf } from '../db/rows';
import { mailOutbox, users, visitRequests, visitors } from '../db/schema';
import {
  enqueueOnce,
  enqueueVisitorCodeMailIfAddressed,
  HOST_REQUEST_MAIL,
  VISITOR_ACK_MAIL,
  VISITOR_DECLINED_MAIL,
  VISITOR_REMINDER_MAIL,
} from '../mail/outbox';
import { visitHeld } from '../watchlist/held';
import { enqueueChat, hostWays } from '../chat/outbox';
import { isPerson } from '../users/person';

/** How many names the public host search answers at most. */
export const HOST_SEARCH_LIMIT = 8;

const displayName = sql<string>`trim(${users.firstname} || ' ' || ${users.name})`;

/** The company's staff who may host or decide: active people (never an API key's account). */
const activeStaffOf = (companyId: string) =>
  and(eq(users.companyId, companyId), eq(users.status, true), isPerson);

/**
 * The company's active staff whose name matches `q` (either order): names only, never an
 * e-mail. With `siteId` (issue 28), the site's own first: those whose home site it is, then
 * those who may work there (limited to it, or to no site), then the others.
 */
export async function searchHosts(
  db: Db,
  companyId: string,
  q: string,
  siteId?: string,
): Promise<HostCandidate[]> {
  const ofSite = siteId
    ? [
        asc(sql`case when ${users.homeSiteId} = ${siteId}::uuid then 0
          when cardinality(${users.siteIds}) = 0 or ${siteId}::uuid = any(${users.siteIds}) then 1
          else 2 end`),
      ]
    : [];
  return db
    .select({ id: users.id, name: displayName })
    .from(users)
    .where(and(activeStaffOf(companyId), likeAny(q, fullNames(users.firstname, users.name))))
    .orderBy(...ofSite, asc(users.name), asc(users.firstname))
    .limit(HOST_SEARCH_LIMIT);
}

/** An active staff member of the company, as a named host. */
export async function findHost(db: Db, companyId: string, userId: string) {
  const [row] = await db
    .select({ id: users.id, name: displayName, email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), activeStaffOf(companyId)))
    .limit(1);
  return row ?? null;
}

/** An active staff member of the company by e-mail (an API key's invitation names its host so). */
export async function findHostByEmail(db: Db, companyId: string, email: string) {
  const [row] = await db
    .select({ id: users.id, name: displayName })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), activeStaffOf(companyId)))
    .limit(1);
  return row ?? null;
}

/**
 * Who answers a request: its host, or without one the company's front desk (active
 * ROLE_EMPLOYEE) at the visitor's site (issue 28): those not limited to other sites. When
 * every front-desk member is limited to other sites, all of them (a request is never
 * left without anyone to answer it).
 */
export async function deciders(
  db: Db,
  companyId: string,
  hostUserId: string | null,
  siteId?: string | null,
): Promise<{ id: string; email: string }[]> {
  if (hostUserId) {
    const host = await findHost(db, companyId, hostUserId);
    if (host) return [{ id: host.id, email: host.email }];
  }
  const frontDesk = (atSite: boolean) =>
    db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(
        and(
          activeStaffOf(companyId),
          sql`${users.roles}[1] = 'ROLE_EMPLOYEE'`,
          atSite && siteId
            ? sql`(cardinality(${users.siteIds}) = 0 or ${siteId}::uuid = any(${users.siteIds}))`
            : undefined,
        ),
      )
      .orderBy(asc(users.createdAt))
      .limit(20);
  const atSite = await frontDesk(true);
  return atSite.length > 0 || !siteId ? atSite : frontDesk(false);
}

/**
 * A request filed: the visitor's acknowledgement (when they gave an e-mail: a kiosk walk-in
 * may not have) and the host's (or front desk's) request mail.
 */
export async function queueRequestFiledMails(
  tx: Db,
  request: { id: string; companyId: string; visitorId: string; hostUserId: string | null },
  options: { held?: boolean } = {},
): Promise<void> {
  const [visitor] = await tx
    .select({ email: visitors.email, siteId: visitors.siteId })
    .from(visitors)
    .where(eq(visitors.id, request.visitorId))
    .limit(1);
  if (!visitor) return;
  await enqueueOnce(tx, {
    companyId: request.companyId,
    kind: VISITOR_ACK_MAIL,
    toAddress: visitor.email,
    payload: { visitorId: request.visitorId, requestId: request.id },
    dedupeKey: `${VISITOR_ACK_MAIL}:${request.id}`,
  });
  // A request the watchlist holds (issue 31): its host hears of it once a reviewer allows it.
  if (options.held) return;
  await queueDecisionMails(
    tx,
    request,
    await deciders(tx, request.companyId, request.hostUserId, visitor.siteId),
  );
}

/**
 * The request (Valider / Annuler) to each of `people`, once per request and person: by
 * mail, by chat or both, as each chose (issue 34, chat/outbox.ts).
 */
async function queueDecisionMails(
  tx: Db,
  request: { id: string; companyId: string; visitorId: string },
  people: { id: string; email: string }[],
): Promise<void> {
  const way = await hostWays(
    tx,
    request.companyId,
    'request',
    people.map((person) => person.id),
  );
  for (const decider of people) {
    if (!way(decider.id).mail) continue;
    await enqueueOnce(tx, {
      companyId: request.companyId,
      kind: HOST_REQUEST_MAIL,
      toAddress: decider.email,
      payload: { visitorId: request.visitorId, requestId: request.id, userId: decider.id },
      dedupeKey: `${HOST_REQUEST_MAIL}:${request.id}:${decider.id}`,
    });
  }
  await enqueueChat(
    tx,
    people
      .filter((decider) => way(decider.id).chat)
      .map((decider) => ({
        companyId: request.companyId,
        userId: decider.id,
        kind: 'request' as const,
        payload: {
          visitorId: request.visitorId,
          requestId: request.id,
          cause: `request:${request.id}`,
        },
        dedupeKey: `chat_request:${request.id}:${decider.id}`,
      })),
  );
}

/**
 * A request its host left unanswered (a kiosk's walk-in past the kiosk's wait, issue 29):
 * the visitor's site's front desk gets the same request mail, once, so someone comes to the
 * visitor and can decide. Answers how many people were told (none for a request no longer
 * pending: a decision was made meanwhile).
 */
export async function queueFrontDeskMails(
  tx: Db,
  request: {
    id: string;
    companyId: string;
    visitorId: string;
    hostUserId: string | null;
    confirmed: boolean | null;
  },
): Promise<number> {
  if (request.confirmed !== null) return 0;
  const [visitor] = await tx
    .select({ siteId: visitors.siteId })
    .from(visitors)
    .where(eq(visitors.id, request.visitorId))
    .limit(1);
  if (!visitor) return 0;
  // The host, at the front desk too, has had the mail already.
  const frontDesk = (await deciders(tx, request.companyId, null, visitor.siteId)).filter(
    (person) => person.id !== request.hostUserId,
  );
  await queueDecisionMails(tx, request, frontDesk);
  return frontDesk.length;
}

export type RequestRow = typeof visitRequests.$inferSelect;
export type Decision = 'confirm' | 'decline';

/**
 * The host's decision: the request row is locked, so two hosts deciding at once make
 * one decision; a request already decided is returned as it is, never overwritten; a
 * confirmation of a visit the watchlist holds is 'held' (issue 31), and changes nothing.
 */
export async function decideRequest(
  tx: Db,
  input: { requestId: string; userId: string; decision: Decision; reason?: string | null },
): Promise<{ outcome: 'decided' | 'already' | 'held'; request: RequestRow } | null> {
  const [locked] = await tx
    .select()
    .from(visitRequests)
    .where(eq(visitRequests.id, input.requestId))
    .for('update');
  if (!locked) return null;
  if (locked.confirmed !== null) return { outcome: 'already', request: locked };
  const confirm = input.decision === 'confirm';
  // A visit the watchlist holds (or denied) is not confirmed before its review (issue 31).
  if (confirm && (await visitHeld(tx, locked.visitorId)))
    return { outcome: 'held', request: locked };
  const [request] = await tx
    .update(visitRequests)
    .set({
      status: confirm ? 1 : 2,
      confirmed: confirm,
      decidedBy: input.userId,
      decidedAt: new Date(),
      declineReason: confirm ? null : input.reason?.trim() || null,
    })
    .where(eq(visitRequests.id, locked.id))
    .returning();
  if (confirm) {
    await enqueueVisitorCodeMailIfAddressed(tx, {
      companyId: locked.companyId,
      visitorId: locked.visitorId,
    });
  } else {
    const [visitor] = await tx
      .select({ email: visitors.email })
      .from(visitors)
      .where(eq(visitors.id, locked.visitorId))
      .limit(1);
    if (visitor)
      await enqueueOnce(tx, {
        companyId: locked.companyId,
        kind: VISITOR_DECLINED_MAIL,
        toAddress: visitor.email,
        payload: { visitorId: locked.visitorId, requestId: locked.id },
        dedupeKey: `${VISITOR_DECLINED_MAIL}:${locked.id}`,
      });
  }
  await audit(tx, {
    companyId: locked.companyId,
    actorUserId: input.userId,
    action: confirm ? 'request.confirmed' : 'request.declined',
    subjectType: 'request',
    subjectId: locked.id,
  });
  return { outcome: 'decided', request: request! };
}

/**
 * The day-before reminders due at `now`: meetings (not events) on the next day in
 * their site's zone, confirmed before today. One INSERT … SELECT; the dedupe key
 * makes it one reminder per request whichever instance runs it, however often.
 * Returns how many were queued.
 */
export async function queueReminders(db: Db, now: Date = new Date()): Promise<number> {
  const queued = await rowsOf(
    db,
    idRow,
    sql`
    insert into ${mailOutbox} (id, company_id, kind, to_address, payload, dedupe_key)
    select gen_random_uuid(), r.company_id, ${VISITOR_REMINDER_MAIL}, v.email,
           jsonb_build_object('visitorId', v.id, 'requestId', r.id),
           ${VISITOR_REMINDER_MAIL} || ':' || r.id
    from visit_requests r
    join visitors v on v.id = r.visitor_id
    join sites s on s.id = v.site_id
    where r.confirmed is true
      and v.event_id is null
      and v.email <> ''
      -- Tomorrow in the zone of the visitor's site (issue 28): the meeting's day starts
      -- between the next two midnights there.
      and v.day_starts_at >= ((${now.toISOString()}::timestamptz at time zone s.timezone)::date + 1)::timestamp at time zone s.timezone
      and v.day_starts_at < ((${now.toISOString()}::timestamptz at time zone s.timezone)::date + 2)::timestamp at time zone s.timezone
      and (r.decided_at at time zone s.timezone)::date < (${now.toISOString()}::timestamptz at time zone s.timezone)::date
      -- A host's invitation (issue 30): reminded before its first day, unless that day was
      -- cancelled (its visitor row's day starts at the first day's start).
      and (r.invitation_id is null
           or exists (select 1 from invitation_days d
                       where d.invitation_id = r.invitation_id and d.starts_at = v.day_starts_at
                         and d.cancelled_at is null))
    on conflict (dedupe_key) do nothing
    returning id`,
  );
  return queued.length;
}
