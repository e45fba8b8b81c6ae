/**
 * A host's invitations (issue 30): written at once for one visitor or a group (one visitor
 * row, one request confirmed by the host and one code each), their days, their mails; the
 * host's list ("Mes visiteurs"); a change of schedule and a cancellation, each sent to the
 * visitors with the `.ics` of a higher sequence.
 *
 * Every write is one transaction; an import of 500 lines is a handful of statements (each
 * table written in one insert), so 500 visits and their 500 mails land in a few seconds.
 */
import { and, count, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type {
  InvitationCancel,
  InvitationCreate,
  InvitationCreated,
  InvitationSchedule,
  InvitationsQuery,
  InvitedVisit,
  InvitedVisitor,
} from '@sesame/shared';
import { asLanguage, invitedVisitSchema } from '@sesame/shared';
import { toE164 } from '@sesame/shared/phone';
import { z } from 'zod';
import type { Db } from '../db/client';
import { newId, newUidn } from '../db/ids';
import { column, rowsOf } from '../db/rows';
import {
  auditEvents,
  invitationDays as invitationDaysTable,
  invitations,
  visitRequests,
  visitors,
  watchlistEntries,
  watchlistHolds,
} from '../db/schema';
import { visitorTypeOf } from '../visitor-types/steps';
import { screenVisit } from '../watchlist/match';
import { badRequest, notFound } from '../errors';
import {
  INVITATION_CANCEL_MAIL,
  INVITATION_MAIL,
  INVITATION_UPDATE_MAIL,
  enqueueInvitationMails,
} from '../mail/outbox';
import { likeAny } from '../db/pagination';
import { inSites, type SiteRow } from '../sites/service';
import { dayOf } from '../time-zones';
import { invitationDays, toDdMmYyyy, toIsoDay, type InvitationDay } from './days';
import { notifyInvitation } from './live';

export type InvitationRow = typeof invitations.$inferSelect;

/** The host who invites: the signed-in staff member. */
export interface Host {
  userId: string;
  companyId: string;
  /** 'Firstname Name', written on the request as the visitor form writes its host. */
  name: string;
}

/**
 * The days of a schedule, refusing a first day already past at the site (400 on `date`) —
 * unless it is the first day the invitation already has (`keptFirstDate`, a change of an
 * invitation under way) and some of its days are not over yet.
 */
function scheduleDays(
  schedule: InvitationSchedule,
  site: SiteRow,
  now: Date,
  keptFirstDate?: string,
): InvitationDay[] {
  const datePast = () =>
    badRequest((m) => m.invitation.datePast, { date: (m) => m.invitation.datePast });
  const past = toIsoDay(schedule.date) < dayOf(now, site.timezone);
  if (past && schedule.date !== keptFirstDate) throw datePast();
  const days = invitationDays(schedule.date, schedule.rrule, site.timezone);
  if (past && days[days.length - 1]!.endsAt <= now) throw datePast();
  return days;
}

/** Each visitor's phone in E.164, or a 400 naming the visitor's line (`visitors.3.phone`). */
function readPhones(list: InvitedVisitor[]): string[] {
  return list.map((visitor, index) => {
    if (!visitor.phone) return '';
    const phone = toE164(visitor.phone);
    if (!phone) {
      throw badRequest((m) => m.validation.phoneInvalid, {
        [`visitors.${index}.phone`]: (m) => m.validation.phoneInvalid,
      });
    }
    return phone;
  });
}

/**
 * Writes an invitation for its visitors: the invitation and its days, a visitor and a
 * confirmed request each (a code each, valid on the days only), the invitation mails, one
 * audit entry each, and the live news. The site is an active one of the host's company,
 * within their limits (the route checked it).
 */
export async function createInvitation(
  tx: Db,
  input: {
    host: Host;
    site: SiteRow;
    invitation: InvitationCreate;
    now?: Date;
    /**
     * Who writes it when not the host (issue 34: an API key's account names a host): it
     * confirms the requests and is the audit log's actor.
     */
    authorUserId?: string;
  },
): Promise<InvitationCreated> {
  const { host, site, invitation } = input;
  const author = input.authorUserId ?? host.userId;
  const now = input.now ?? new Date();
  const days = scheduleDays(invitation, site, now);
  const phones = readPhones(invitation.visitors);
  // The visitors' type (issue 31): the one chosen, else the site's first.
  const type = await visitorTypeOf(tx, site.id, invitation.visitor_type_id);
  const first = days[0]!;
  const last = days[days.length - 1]!;
  const [row] = await tx
    .insert(invitations)
    .values({
      companyId: host.companyId,
      siteId: site.id,
      hostUserId: host.userId,
      reason: invitation.reason || null,
      language: invitation.language,
      firstDate: toDdMmYyyy(first.day),
      time: invitation.time,
      endTime: invitation.end_time,
      rrule: invitation.rrule ?? null,
      visitorTypeId: type?.id ?? null,
    })
    .returning();
  await tx.insert(invitationDaysTable).values(
    days.map((day) => ({
      companyId: host.companyId,
      invitationId: row!.id,
      day: day.day,
      startsAt: day.startsAt,
      endsAt: day.endsAt,
    })),
  );
  const written = await tx
    .insert(visitors)
    .values(
      invitation.visitors.map((visitor, index) => ({
        id: newId(),
        companyId: host.companyId,
        siteId: site.id,
        uidn: newUidn(),
        firstname: visitor.firstname,
        lastname: visitor.lastname,
        email: visitor.email,
        contact: phones[index]!,
        idNumber: '',
        organisationName: visitor.organisation,
        visitorTypeId: type?.id ?? null,
        requestDate: toDdMmYyyy(first.day),
        requestTime: invitation.time,
        // The first day's start and the last day's end: the invitation's days decide within.
        dayStartsAt: first.startsAt,
        dayEndsAt: last.endsAt,
        language: invitation.language,
      })),
    )
    .returning();
  const requests = await tx
    .insert(visitRequests)
    .values(
      written.map((visitor) => ({
        id: newId(),
        companyId: host.companyId,
        visitorId: visitor.id,
        hostUserId: host.userId,
        host: host.name,
        reason: invitation.reason || null,
        status: 1,
        confirmed: true,
        decidedBy: author,
        decidedAt: now,
        invitationId: row!.id,
      })),
    )
    .returning({ id: visitRequests.id, visitorId: visitRequests.visitorId });
  const requestOf = new Map(requests.map((r) => [r.visitorId, r.id]));
  // The watchlist screens each invited visitor (issue 31): a held one gets no mail (and their
  // code opens nothing) until a reviewer allows the visit (`sendHeldInvitation`).
  const held = await screenInvited(
    tx,
    host.companyId,
    written.map((visitor) => ({ visitorId: visitor.id, requestId: requestOf.get(visitor.id)! })),
  );
  await enqueueInvitationMails(
    tx,
    INVITATION_MAIL,
    written
      .filter((visitor) => !held.has(visitor.id))
      .map((visitor) => {
        const requestId = requestOf.get(visitor.id)!;
        return {
          companyId: host.companyId,
          toAddress: visitor.email,
          dedupeKey: `invitation:${requestId}:0`,
          payload: { visitorId: visitor.id, requestId, invitationId: row!.id, sequence: 0 },
        };
      }),
  );
  await tx.insert(auditEvents).values(
    written.map((visitor) => ({
      id: newId(),
      companyId: host.companyId,
      actorUserId: author,
      action: 'invitation.created' as const,
      subjectType: 'visitor' as const,
      subjectId: visitor.id,
      detail: { invitationId: row!.id, siteId: site.id, days: days.length },
    })),
  );
  await notifyInvitation(tx, {
    company_id: host.companyId,
    site_id: site.id,
    invitation_id: row!.id,
    request_id: null,
    host_user_id: host.userId,
    op: 'created',
  });
  return {
    invitation_id: row!.id,
    days: days.map((day) => day.day),
    visitors: written.map((visitor) => ({
      request_id: requestOf.get(visitor.id)!,
      visitor_id: visitor.id,
      code: visitor.uidn,
      firstname: visitor.firstname,
      lastname: visitor.lastname,
    })),
  };
}

/**
 * Screens invited visitors with the watchlist (source 'invitation'), in the caller's
 * transaction; answers the ids of those held. A company without any watchlist entry costs
 * one probe, whatever the number of visitors.
 */
async function screenInvited(
  tx: Db,
  companyId: string,
  visits: { visitorId: string; requestId: string }[],
): Promise<Set<string>> {
  const held = new Set<string>();
  const [any] = await tx
    .select({ id: watchlistEntries.id })
    .from(watchlistEntries)
    .where(eq(watchlistEntries.companyId, companyId))
    .limit(1);
  if (!any) return held;
  for (const visit of visits) {
    const screening = await screenVisit(tx, { ...visit, source: 'invitation' });
    if (screening !== 'clear') held.add(visit.visitorId);
  }
  return held;
}

/** A visitor whose visit a watchlist review holds or denied: no invitation mail of any kind. */
const notHeld = sql`not exists (
  select 1 from ${watchlistHolds} h
   where h.visitor_id = ${visitors.id} and h.status in ('pending', 'denied'))`;

/**
 * The invitation mail of an invited visitor the watchlist held, once a reviewer allowed the
 * visit (issue 31: the watchlist's allow path calls it in its transaction): the code, the
 * QR, the .ics at the invitation's current sequence and the link, as at creation. Nothing
 * for a request that is no invitation's, cancelled, of a cancelled invitation, of a visitor
 * without an e-mail or still held; answers whether a mail was queued. Sent once per
 * sequence (the outbox's dedupe key).
 */
export async function sendHeldInvitation(tx: Db, requestId: string): Promise<boolean> {
  const [found] = await tx
    .select({
      requestId: visitRequests.id,
      companyId: visitRequests.companyId,
      visitorId: visitors.id,
      email: visitors.email,
      invitationId: invitations.id,
      sequence: invitations.sequence,
    })
    .from(visitRequests)
    .innerJoin(visitors, eq(visitors.id, visitRequests.visitorId))
    .innerJoin(invitations, eq(invitations.id, visitRequests.invitationId))
    .where(
      and(
        eq(visitRequests.id, requestId),
        isNull(visitRequests.cancelledAt),
        isNull(invitations.cancelledAt),
        notHeld,
      ),
    )
    .limit(1);
  if (!found || !found.email) return false;
  await enqueueInvitationMails(tx, INVITATION_MAIL, [
    {
      companyId: found.companyId,
      toAddress: found.email,
      dedupeKey: `invitation:${found.requestId}:allowed:${found.sequence}`,
      payload: {
        visitorId: found.visitorId,
        requestId: found.requestId,
        invitationId: found.invitationId,
        sequence: found.sequence,
      },
    },
  ]);
  return true;
}

export async function findInvitation(db: Db, id: string): Promise<InvitationRow | null> {
  const [row] = await db.select().from(invitations).where(eq(invitations.id, id)).limit(1);
  return row ?? null;
}

/**
 * The requests of an invitation still standing (not cancelled one by one), with their
 * visitors; `mailed`: false for a visitor the watchlist holds (never told of the invitation).
 */
async function standingRequests(tx: Db, invitationId: string) {
  return tx
    .select({
      requestId: visitRequests.id,
      visitorId: visitors.id,
      email: visitors.email,
      mailed: sql<boolean>`${notHeld}`,
    })
    .from(visitRequests)
    .innerJoin(visitors, eq(visitors.id, visitRequests.visitorId))
    .where(and(eq(visitRequests.invitationId, invitationId), isNull(visitRequests.cancelledAt)));
}

/** The invitation locked for a change, its sequence moved on; a cancelled one is a 400. */
async function lockForChange(tx: Db, invitationId: string): Promise<InvitationRow> {
  const [locked] = await tx
    .select()
    .from(invitations)
    .where(eq(invitations.id, invitationId))
    .for('update')
    .limit(1);
  if (!locked) throw notFound();
  if (locked.cancelledAt) throw badRequest((m) => m.invitation.alreadyCancelled);
  const [moved] = await tx
    .update(invitations)
    .set({ sequence: locked.sequence + 1 })
    .where(eq(invitations.id, invitationId))
    .returning();
  return moved!;
}

const auditEach = (
  tx: Db,
  invitation: InvitationRow,
  actorUserId: string,
  action: 'invitation.updated' | 'invitation.cancelled',
  visitorIds: string[],
  detail: Record<string, string | number>,
) =>
  visitorIds.length === 0
    ? Promise.resolve()
    : tx.insert(auditEvents).values(
        visitorIds.map((visitorId) => ({
          id: newId(),
          companyId: invitation.companyId,
          actorUserId,
          action,
          subjectType: 'visitor' as const,
          subjectId: visitorId,
          detail: { invitationId: invitation.id, ...detail },
        })),
      );

/**
 * A new schedule for an invitation (site, first day, times, rule, reason, language): its
 * days are written again — a day cancelled before stays cancelled if it is still one of
 * them — its visitors' day, time and site follow, and each standing visitor gets the
 * change with the `.ics` of the next sequence.
 */
export async function changeSchedule(
  tx: Db,
  input: {
    invitation: InvitationRow;
    schedule: InvitationSchedule;
    site: SiteRow;
    actorUserId: string;
    now?: Date;
  },
): Promise<InvitationRow> {
  const { schedule, site } = input;
  const now = input.now ?? new Date();
  const days = scheduleDays(schedule, site, now, input.invitation.firstDate);
  // The visitors' type (issue 31): the one named; kept when none is and the site stays;
  // the new site's first when the site changes without one.
  const keepType = !schedule.visitor_type_id && site.id === input.invitation.siteId;
  const typeId = keepType
    ? input.invitation.visitorTypeId
    : ((await visitorTypeOf(tx, site.id, schedule.visitor_type_id))?.id ?? null);
  const invitation = await lockForChange(tx, input.invitation.id);
  const cancelled = await tx
    .select({ day: invitationDaysTable.day })
    .from(invitationDaysTable)
    .where(
      and(
        eq(invitationDaysTable.invitationId, invitation.id),
        sql`${invitationDaysTable.cancelledAt} is not null`,
      ),
    );
  const cancelledDays = new Set(cancelled.map((c) => c.day));
  await tx.delete(invitationDaysTable).where(eq(invitationDaysTable.invitationId, invitation.id));
  await tx.insert(invitationDaysTable).values(
    days.map((day) => ({
      companyId: invitation.companyId,
      invitationId: invitation.id,
      day: day.day,
      startsAt: day.startsAt,
      endsAt: day.endsAt,
      cancelledAt: cancelledDays.has(day.day) ? now : null,
    })),
  );
  const first = days[0]!;
  const last = days[days.length - 1]!;
  const [changed] = await tx
    .update(invitations)
    .set({
      siteId: site.id,
      firstDate: toDdMmYyyy(first.day),
      time: schedule.time,
      endTime: schedule.end_time,
      rrule: schedule.rrule ?? null,
      reason: schedule.reason || null,
      language: schedule.language,
      visitorTypeId: typeId,
    })
    .where(eq(invitations.id, invitation.id))
    .returning();
  const standing = await standingRequests(tx, invitation.id);
  const visitorIds = standing.map((r) => r.visitorId);
  if (visitorIds.length > 0) {
    await tx
      .update(visitors)
      .set({
        siteId: site.id,
        requestDate: toDdMmYyyy(first.day),
        requestTime: schedule.time,
        dayStartsAt: first.startsAt,
        dayEndsAt: last.endsAt,
        language: schedule.language,
        visitorTypeId: typeId,
      })
      .where(inArray(visitors.id, visitorIds));
    await tx
      .update(visitRequests)
      .set({ reason: schedule.reason || null })
      .where(
        inArray(
          visitRequests.id,
          standing.map((r) => r.requestId),
        ),
      );
  }
  await enqueueInvitationMails(
    tx,
    INVITATION_UPDATE_MAIL,
    standing
      .filter((r) => r.mailed)
      .map((r) => ({
        companyId: invitation.companyId,
        toAddress: r.email,
        dedupeKey: `invitation:${r.requestId}:${changed!.sequence}`,
        payload: {
          visitorId: r.visitorId,
          requestId: r.requestId,
          invitationId: invitation.id,
          sequence: changed!.sequence,
        },
      })),
  );
  await auditEach(tx, changed!, input.actorUserId, 'invitation.updated', visitorIds, {
    days: days.length,
  });
  await notifyInvitation(tx, {
    company_id: changed!.companyId,
    site_id: site.id,
    invitation_id: changed!.id,
    request_id: null,
    host_user_id: changed!.hostUserId,
    op: 'updated',
  });
  return changed!;
}

/**
 * Cancels a whole invitation, one of its days, or one visitor of it; the visitors it
 * concerns get the cancellation with the `.ics` of the next sequence (METHOD:CANCEL).
 * A cancelled request is no longer confirmed: its code opens nothing.
 */
export async function cancelInvitation(
  tx: Db,
  input: { invitation: InvitationRow; cancel: InvitationCancel; actorUserId: string; now?: Date },
): Promise<'invitation' | 'day' | 'visitor'> {
  const now = input.now ?? new Date();
  const { cancel } = input;
  let cancelDay = cancel.day;
  // A day is cancelled for the whole group: one visitor's day alone is not a thing to cancel.
  if (cancel.day && cancel.request_id) throw badRequest();
  if (cancel.day) {
    // The schema checks the shape only: a day that is no date ('2030-31-12') is none of its days.
    const asDate = new Date(`${cancel.day}T00:00:00Z`);
    if (Number.isNaN(asDate.getTime()) || asDate.toISOString().slice(0, 10) !== cancel.day) {
      throw badRequest((m) => m.invitation.dayUnknown, { day: (m) => m.invitation.dayUnknown });
    }
    const [day] = await tx
      .select()
      .from(invitationDaysTable)
      .where(
        and(
          eq(invitationDaysTable.invitationId, input.invitation.id),
          eq(invitationDaysTable.day, cancel.day),
        ),
      )
      .limit(1);
    if (!day || day.cancelledAt || day.endsAt <= now) {
      throw badRequest((m) => m.invitation.dayUnknown, { day: (m) => m.invitation.dayUnknown });
    }
    // The last day still to come: cancelling it cancels the invitation (a series with no day
    // left is no invitation; its visitors read 'Annulée', and their calendars drop it whole).
    const [others] = await tx
      .select({ n: count() })
      .from(invitationDaysTable)
      .where(
        and(
          eq(invitationDaysTable.invitationId, input.invitation.id),
          isNull(invitationDaysTable.cancelledAt),
          gt(invitationDaysTable.endsAt, now),
          ne(invitationDaysTable.day, cancel.day),
        ),
      );
    if (Number(others?.n ?? 0) === 0) cancelDay = undefined;
  }
  let standing = await standingRequests(tx, input.invitation.id);
  if (cancel.request_id) {
    standing = standing.filter((r) => r.requestId === cancel.request_id);
    if (standing.length === 0) throw notFound();
  }
  const invitation = await lockForChange(tx, input.invitation.id);
  const what = cancelDay ? 'day' : cancel.request_id ? 'visitor' : 'invitation';
  if (what === 'day') {
    await tx
      .update(invitationDaysTable)
      .set({ cancelledAt: now })
      .where(
        and(
          eq(invitationDaysTable.invitationId, invitation.id),
          eq(invitationDaysTable.day, cancelDay!),
        ),
      );
  } else {
    if (what === 'invitation') {
      await tx
        .update(invitations)
        .set({ cancelledAt: now })
        .where(eq(invitations.id, invitation.id));
    }
    const ids = standing.map((r) => r.requestId);
    if (ids.length > 0) {
      await tx
        .update(visitRequests)
        .set({ cancelledAt: now, confirmed: false, status: 2 })
        .where(inArray(visitRequests.id, ids));
    }
  }
  await enqueueInvitationMails(
    tx,
    INVITATION_CANCEL_MAIL,
    standing
      .filter((r) => r.mailed)
      .map((r) => ({
        companyId: invitation.companyId,
        toAddress: r.email,
        dedupeKey: `invitation:${r.requestId}:${invitation.sequence}`,
        payload: {
          visitorId: r.visitorId,
          requestId: r.requestId,
          invitationId: invitation.id,
          sequence: invitation.sequence,
          ...(cancelDay ? { day: cancelDay } : {}),
        },
      })),
  );
  await auditEach(
    tx,
    invitation,
    input.actorUserId,
    'invitation.cancelled',
    standing.map((r) => r.visitorId),
    cancelDay ? { day: cancelDay } : {},
  );
  await notifyInvitation(tx, {
    company_id: invitation.companyId,
    site_id: invitation.siteId,
    invitation_id: invitation.id,
    request_id: cancel.request_id ?? null,
    host_user_id: invitation.hostUserId,
    op: 'cancelled',
  });
  return what;
}

/** A row of the list: the answer's own fields as they are, and those it shapes (site, host…). */
const invitedDbRow = invitedVisitSchema
  .pick({
    request_id: true,
    invitation_id: true,
    visitor_id: true,
    firstname: true,
    lastname: true,
    email: true,
    reason: true,
    time: true,
    end_time: true,
    rrule: true,
    next_day: true,
    days: true,
    state: true,
  })
  .extend({
    contact: z.string(),
    organisation_name: z.string(),
    uidn: z.string(),
    site_id: z.string(),
    site_name: z.string(),
    site_timezone: z.string(),
    host_id: z.string().nullable(),
    host_name: z.string().nullable(),
    language: z.string(),
    first_date: z.string(),
    group_size: column.count,
    here_at: column.time.nullable(),
    created_at: column.time,
  });

/**
 * Invited visitors, one row each: the host's own (`hostUserId`), or every host's of the
 * company (null, for whoever reads its requests), within the caller's site limits; the
 * upcoming ones (a day not over) by their next day, or the past ones newest first.
 */
export async function listInvitedVisits(
  db: Db,
  input: {
    companyId: string;
    hostUserId: string | null;
    siteIds: string[];
    query: InvitationsQuery;
    now?: Date;
  },
): Promise<{ rows: InvitedVisit[]; total: number }> {
  const { query } = input;
  const now = sql`${(input.now ?? new Date()).toISOString()}::timestamptz`;
  const lastEnd = sql`(select max(d.ends_at) from invitation_days d where d.invitation_id = i.id)`;
  const where = sql`
    where r.company_id = ${input.companyId}
      ${input.hostUserId ? sql`and i.host_user_id = ${input.hostUserId}` : sql``}
      ${inSites('i.site_id', input.siteIds.length > 0 ? input.siteIds : undefined)}
      and ${query.when === 'past' ? sql`${lastEnd} <= ${now}` : sql`${lastEnd} > ${now}`}
      ${query.q ? sql`and ${likeAny(query.q, [sql`v.firstname || ' ' || v.lastname || ' ' || v.firstname || ' ' || v.organisation_name || ' ' || v.email || ' ' || v.uidn`])}` : sql``}`;
  const from = sql`
    from visit_requests r
    join invitations i on i.id = r.invitation_id
    join visitors v on v.id = r.visitor_id
    join sites s on s.id = i.site_id
    left join users u on u.id = i.host_user_id
    left join lateral (
      select d.day, d.starts_at from invitation_days d
       where d.invitation_id = i.id and d.cancelled_at is null and d.ends_at > ${now}
       order by d.starts_at limit 1
    ) nd on true
    left join lateral (
      select c.check_in_at, c.check_out_at from visitor_checks c
       where c.visitor_id = v.id and c.undone_at is null
       order by c.check_in_at desc limit 1
    ) lc on true`;
  const state = sql`case
      when r.cancelled_at is not null or i.cancelled_at is not null then 'cancelled'
      when lc.check_in_at is not null and lc.check_out_at is null then 'arrived'
      when lc.check_out_at is not null and (nd.starts_at is null or lc.check_in_at >= nd.starts_at) then 'left'
      when r.here_at is not null and (nd.starts_at is null or r.here_at >= nd.starts_at) then 'here'
      when v.details_completed_at is not null then 'completed'
      else 'invited' end`;
  const order =
    query.when === 'past'
      ? sql`order by ${lastEnd} desc, v.lastname, r.id`
      : sql`order by nd.starts_at nulls last, i.time, v.lastname, r.id`;
  const [page, counted] = await Promise.all([
    rowsOf(
      db,
      invitedDbRow,
      sql`select r.id as request_id, i.id as invitation_id, v.id as visitor_id,
                 v.firstname, v.lastname, v.email, v.contact, v.organisation_name, v.uidn,
                 s.id as site_id, s.name as site_name, s.timezone as site_timezone,
                 u.id as host_id, nullif(trim(coalesce(u.firstname, '') || ' ' || coalesce(u.name, '')), '') as host_name,
                 i.reason, i.language, i.first_date, i.time, i.end_time, i.rrule,
                 to_char(nd.day, 'YYYY-MM-DD') as next_day,
                 (select coalesce(json_agg(json_build_object('day', to_char(d.day, 'YYYY-MM-DD'),
                                                             'cancelled', d.cancelled_at is not null)
                                           order by d.day), '[]'::json)
                    from invitation_days d where d.invitation_id = i.id) as days,
                 (select count(*) from visit_requests g where g.invitation_id = i.id) as group_size,
                 ${state} as state, r.here_at, r.created_at
          ${from} ${where} ${order}
          limit ${query.per_page} offset ${(query.page - 1) * query.per_page}`,
    ),
    rowsOf(db, z.object({ n: column.count }), sql`select count(*) as n ${from} ${where}`),
  ]);
  return {
    total: counted[0]?.n ?? 0,
    rows: page.map((row) => ({
      request_id: row.request_id,
      invitation_id: row.invitation_id,
      visitor_id: row.visitor_id,
      firstname: row.firstname,
      lastname: row.lastname,
      email: row.email,
      phone: row.contact,
      organisation: row.organisation_name,
      code: row.uidn,
      site: { id: row.site_id, name: row.site_name, timezone: row.site_timezone },
      host: row.host_id ? { id: row.host_id, name: row.host_name ?? '' } : null,
      reason: row.reason,
      language: asLanguage(row.language),
      date: row.first_date,
      time: row.time,
      end_time: row.end_time,
      rrule: row.rrule,
      next_day: row.next_day,
      days: row.days,
      group_size: row.group_size,
      state: row.state,
      here_at: row.here_at?.toISOString() ?? null,
      created_at: row.created_at.toISOString(),
    })),
  };
}
