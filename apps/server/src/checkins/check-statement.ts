/**
 * The code check in one round trip (ARCHITECTURE §7, §9): the front desk's throughput is
 * in round trips, so a scan makes exactly one, a call of a PL/pgSQL function that
 *   1. finds the caller's live session and active role, and whether that role may
 *      record checks and on which companies (the shared permission matrix, passed in);
 *   2. finds the holder of the code within that reach, with their latest check and
 *      what would refuse them entry;
 *   3. decides: a repeat inside the window, a check-out, a refusal or a check-in, and
 *      screens a visitor it would let in against the watchlist (issue 31);
 *   4. writes the check-out or the check-in, guarded: the check-out closes only a
 *      check still open, the check-in inserts only if the partial unique index (one
 *      open check per person) lets it. Two scans racing on one code make one change;
 *      the loser's write finds nothing to do and it reports the winner's check.
 * It answers one row saying all of that; toggle.ts turns it into the answer or the error.
 * Under a rush, the checks that wait for a connection go as one statement and one commit
 * (db/call-batches.ts): each is still this function's call, in the order they came.
 *
 * Why a function (issue 32): PostgreSQL sets up every node of a plan on each execution,
 * run or not. As one statement, every scan set up the check-out's UPDATE and the check-in's
 * INSERT, and the watchlist's ten probes, whichever ran. The function runs steps 1–3 as one
 * read, then only the statements the decision calls for. Its text is written here, from
 * the same rules (sessions, sites, invitations, the watchlist) the rest of the server
 * uses, and created after the migrations (installCheckFunctions) under a name that carries
 * a hash of it: no migration repeats these rules, and a changed rule is a new function.
 *
 * Each shape of call has its own function: who calls (a session, an API key, a kiosk) and
 * whether the request named a desk's site. A branch a call can never take (the API keys'
 * lookup for a session, the desk's checks for a request naming no site) is left out of its
 * text rather than skipped at run time.
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { ACTIONS } from '@sesame/shared';
import { z } from 'zod';
import { activeRoleOf, liveApiKey, liveSession } from '../auth/session-rule';
import type { Database } from '../db/client';
import { callBatches } from '../db/call-batches';
import { rawPrepared, textWithVariables } from '../db/raw-prepared';
import { apiKeys, sessions, users } from '../db/schema';
import { column, firstRow } from '../db/rows';
import { mainSiteZone } from '../sites/service';
import { currentInvitationDay, isInvited } from '../invitations/days';

/** What the statement decided for the holder. */
const checkDecision = z.enum(['repeatIn', 'close', 'repeatOut', 'refuse', 'open']);
export type CheckDecision = z.infer<typeof checkDecision>;

/** Why a holder may not come in (or, for 'replaced', neither in nor out). Keys of CHECK_MESSAGES. */
const refusal = z.enum([
  'notConfirmed',
  'eventOver',
  'eventNotYet',
  'meetingDayOver',
  'meetingNotYet',
  'expired',
  'replaced',
  /** A visitor's code at another site's desk, or beyond the scanner's site limits (issue 28). */
  'otherSite',
  /**
   * Issue 31: the visit matches the watchlist (or waits for its review, or was denied) and
   * no reviewer allowed it: nothing is written; toggle.ts holds the visit for review.
   */
  'watchlist',
]);
export type Refusal = z.infer<typeof refusal>;

/**
 * The desk's site the request named (issue 28): 'none' when it named none, 'unknown' when
 * no site the caller reaches has that id (404), 'notYours' beyond the caller's site limits
 * (403), 'archived' (400), else 'ok'. Anything but 'none' and 'ok' finds no holder.
 */
const deskState = z.enum(['none', 'unknown', 'notYours', 'archived', 'ok']);
export type DeskState = z.infer<typeof deskState>;

/** The statement's one row (`answer` below), checked as it is read. */
const checkOutcome = z.object({
  /** The token's session is live and its user active. */
  authenticated: z.boolean(),
  mayRecord: z.boolean(),
  /** Null when no holder was found within the caller's reach. */
  holderId: z.string().nullable(),
  uidn: z.string().nullable(),
  firstname: z.string().nullable(),
  lastname: z.string().nullable(),
  /** The zone of the check's site (the visitor's site; a QR user's: the desk's). */
  timezone: z.string().nullable(),
  /** The name of the holder's site (a visitor's: the site their code is valid at). */
  siteName: z.string().nullable(),
  /** QR users: the zone a card's expiry day is read in (the company's main site's). */
  expiryZone: z.string().nullable(),
  dateExp: column.time.nullable(),
  /** A visitor's day, DD/MM/YYYY: the event's or the meeting's (null for QR users). */
  day: z.string().nullable(),
  refusal: refusal.nullable(),
  latestIn: column.time.nullable(),
  latestOut: column.time.nullable(),
  decision: checkDecision.nullable(),
  /** The guarded write found something to do. */
  wrote: z.boolean(),
  desk: deskState,
  /** The kiosk only: the caller's company has turned e-mail presence on. */
  kioskEmailEnabled: z.boolean().nullable().optional(),
  /** The kiosk only: the holder's photo (their document when it is an image), or null. */
  photoId: z.string().nullable().optional(),
});
export type CheckOutcome = z.infer<typeof checkOutcome>;

/** The values every code check passes; the holder's key (code or e-mail) comes on top. */
export interface CheckValues {
  /** The token's session, or for an API key (issue 34) the key's id. */
  sessionId: string;
  userId: string;
  /** Whether `sessionId` names a session or an API key: each its own statement. */
  callerKind?: CallerKind;
  now: Date;
  /** Checks made after this instant are repeats (now minus the repeat window). */
  since: Date;
  method: string;
  newCheckId: string;
  /**
   * The desk's site the request named (issue 28), or null: a QR user's or member's check is
   * recorded there (else the scanner's home site, else the company's main site); a visitor's
   * code is refused at another site's desk.
   */
  site: string | null;
  /**
   * Check-out only (the on-site list, issue 14): close the open check whatever the
   * repeat window, never open one; someone already out is reported as such.
   */
  closeOnly?: boolean;
  /**
   * Check-in only (a kiosk's "Je suis attendu(e)", issue 29): open a check, never close
   * one, whatever the repeat window; someone already inside is reported as such.
   */
  openOnly?: boolean;
  /** The matrix action whose roles may record: the scanners', or the on-site list's check-out. */
  action?: RecordAction;
}

/**
 * What a kiosk's check passes (issue 29): the kiosk instead of a session, and its own
 * site as the desk's. The kiosk records at its site only, for its company only.
 */
export type KioskCheckValues = Omit<
  CheckValues,
  'sessionId' | 'userId' | 'callerKind' | 'action' | 'site'
> & {
  kioskId: string;
  site: string;
};

export type RecordAction = 'checks.record' | 'onSite.checkOut';

/** A staff member's session, or a company's API key (issue 34). */
export type CallerKind = 'session' | 'apiKey';

/** What a statement is written for: its caller, and whether the request named a desk's site. */
interface Shape {
  caller: CallerKind | 'kiosk';
  desk: boolean;
}

const p = (name: string) => sql.placeholder(name);

/** The desk's site the request named: only in the statements for requests naming one. */
const DESK = sql`${p('site')}::uuid`;

/**
 * Site `s` (a row alias with id and company_id) is within the caller's site limits: limits
 * apply within the caller's own company, and an empty list is every site.
 */
const withinLimits = (s: SQL) => sql`not exists (
  select 1 from caller lc
   where lc.company_id = ${s}.company_id and cardinality(lc.site_ids) > 0
     and ${s}.id <> all(lc.site_ids))`;

/** The holder may be looked for: the request named no desk, or one the caller may act at. */
const deskAllows = (shape: Shape) =>
  shape.desk ? sql`and (select state from desk) = 'ok'` : sql``;

/** A PostgreSQL array literal of text, written once instead of by the driver on every call. */
function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** The matrix rows the statement needs, as parameters (one source of truth: packages/shared). */
const permissionsOf = (action: RecordAction) => ({
  recordRoles: textArrayLiteral(ACTIONS[action].roles),
  allCompanyRoles: textArrayLiteral(ACTIONS[action].allCompanies),
});
const permissionValues: Record<RecordAction, ReturnType<typeof permissionsOf>> = {
  'checks.record': permissionsOf('checks.record'),
  'onSite.checkOut': permissionsOf('onSite.checkOut'),
};

/**
 * Step 1: the caller, by loadPrincipal's own rules (auth/session-rule.ts): a live session, or
 * (issue 34) a live API key, whose id stands for the session's and whose service account for
 * the user (the route's guard checked the key's scopes; revocation is read here again).
 */
const callerColumns = sql`${users.id} as user_id, ${users.companyId} as company_id,
           ${activeRoleOf(users.roles)} as role,
           ${users.homeSiteId} as home_site_id, ${users.siteIds} as site_ids`;
const staffCaller = (kind: CallerKind) => sql`
  caller as (
    select ${callerColumns}
      ${
        kind === 'session'
          ? sql`from ${sessions}
      join ${users} on ${users.id} = ${sessions.userId}
     where ${liveSession(sql`${p('sessionId')}::uuid`, sql`${p('userId')}::uuid`)}`
          : sql`from ${apiKeys}
      join ${users} on ${users.id} = ${apiKeys.userId}
     where ${liveApiKey(sql`${p('sessionId')}::uuid`, sql`${p('userId')}::uuid`)}`
      }
  ),
  recorder as (
    select user_id, company_id,
           role = any(${p('recordRoles')}::text[]) as may_record,
           role = any(${p('allCompanyRoles')}::text[]) as all_companies
      from caller
  )`;

/**
 * Step 1 for a kiosk (issue 29): the paired, unrevoked kiosk, as a caller of its own
 * company limited to its own site (no staff member: the checks it writes name nobody),
 * that may record there and nowhere else.
 */
const kioskCaller = sql`
  caller as (
    select null::uuid as user_id, k.company_id, null::text as role,
           k.site_id as home_site_id, array[k.site_id]::uuid[] as site_ids
      from kiosks k
     where k.id = ${p('kioskId')}::uuid and k.revoked_at is null and k.token_hash is not null
  ),
  recorder as (
    select user_id, company_id, true as may_record, false as all_companies from caller
  )`;

/** The desk's site the request named, checked against the caller's reach. */
const deskCte = (shape: Shape) => {
  if (!shape.desk) return sql``;
  return sql`
  desk as (
    select case
             when not exists (
               select 1 from sites s join recorder r on r.may_record
                         and (r.company_id = s.company_id or r.all_companies)
                where s.id = ${DESK}) then 'unknown'
             when exists (select 1 from sites s where s.id = ${DESK} and not ${withinLimits(sql`s`)})
               then 'notYours'
             when exists (select 1 from sites s where s.id = ${DESK} and s.archived_at is not null)
               then 'archived'
             else 'ok'
           end as state
  ),`;
};

/** The holder is within the caller's reach: their company, or every company for some roles. */
const reaches = (companyId: SQL) =>
  sql`exists (select 1 from recorder
               where may_record and (recorder.company_id = ${companyId} or all_companies))`;

const NOW = sql`${p('now')}::timestamptz`;

/** Whether `now` is before the day that starts at `dayStartsAt`, less the site's early-arrival minutes. */
const beforeDay = (dayStartsAt: SQL) =>
  sql`${NOW} < ${dayStartsAt} - s.arrival_early_minutes * interval '1 minute'`;

/**
 * Issue 31, the watchlist, for a visitor `v` (only visitors: members and staff are not
 * screened): a visit a reviewer allowed goes on; one waiting for a review or denied does
 * not; otherwise an entry of the company still in force at `now` that the visitor matches
 * — the same rule as watchlist/match.ts's `matchWatchlist`, each kind its own index probe
 * (e-mail, phone, ID number: btree; the name: the trigram index, then the company's
 * threshold) — stops them. A company with no entry (its count, migration 0037) costs no probe.
 */
const watched = sql`(
  not exists (select 1 from watchlist_holds wa where wa.visitor_id = v.id and wa.status = 'allowed')
  and (
    exists (select 1 from watchlist_holds wh
             where wh.visitor_id = v.id and wh.status in ('pending', 'denied'))
    or ((select wn.watchlist_entry_count > 0 from companies wn where wn.id = v.company_id)
      and (
        (v.email <> '' and exists (select 1 from watchlist_entries we
           where we.company_id = v.company_id and we.email = lower(btrim(v.email))
             and (we.until is null or we.until > ${NOW})))
        or (btrim(v.contact) <> '' and exists (select 1 from watchlist_entries we
           where we.company_id = v.company_id and we.phone = btrim(v.contact)
             and (we.until is null or we.until > ${NOW})))
        or (coalesce(btrim(v.id_number), '') <> '' and exists (select 1 from watchlist_entries we
           where we.company_id = v.company_id and upper(we.id_number) = upper(btrim(v.id_number))
             and (we.until is null or we.until > ${NOW})))
        or (btrim(v.firstname) <> '' and btrim(v.lastname) <> '' and exists (
           select 1 from watchlist_entries we, companies wc
            where wc.id = v.company_id and we.company_id = v.company_id and we.lastname <> ''
              and (we.until is null or we.until > ${NOW})
              and sesame_fold(we.firstname || ' ' || we.lastname)
                  % sesame_fold(btrim(v.firstname) || ' ' || btrim(v.lastname))
              and similarity(sesame_fold(we.firstname || ' ' || we.lastname),
                             sesame_fold(btrim(v.firstname) || ' ' || btrim(v.lastname)))
                  >= wc.watchlist_name_threshold))))
  ))`;

/**
 * Step 2 for a visitor's code: confirmed request, and within their day (the event's or
 * the meeting's, stored as instants in their site's zone when the row was written;
 * from the site's early-arrival minutes before). The decision lets a holder
 * already inside out whatever the day (step 3). Their check is at their own site: a
 * desk of another site (named by the request, or beyond the scanner's site limits)
 * refuses them in and out (issue 28).
 */
/**
 * Whether the watchlist may concern the visitor `v` at all: a hold of theirs, or an entry of
 * their company. Most companies have neither, and the full match (`watched`) is not run.
 */
const mayBeWatched = sql`(exists (select 1 from watchlist_holds wh where wh.visitor_id = v.id)
     or (select wn.watchlist_entry_count > 0 from companies wn where wn.id = v.company_id))`;

const visitorHolder = (shape: Shape) => sql`
  holder as (
    select v.id, v.uidn, ${mayBeWatched} as may_be_watched, v.company_id, v.site_id, s.timezone, s.name as site_name,
           null::text as expiry_zone, v.firstname, v.lastname,
           null::timestamptz as date_exp,
           coalesce(e.date_event, iday.day, v.request_date) as day,
           case when ${shape.desk ? sql`${DESK} <> v.site_id or ` : sql``}not ${withinLimits(sql`s`)}
                then 'otherSite' end as blocked,
           case
             when not exists (select 1 from visit_requests r where r.visitor_id = v.id and r.confirmed)
               then 'notConfirmed'
             when e.id is not null then
               case when ${NOW} >= e.day_ends_at then 'eventOver'
                    when ${beforeDay(sql`e.day_starts_at`)} then 'eventNotYet' end
             -- An invitation's code (issue 30): its next day not cancelled decides; with
             -- none left, its days are over (a cancelled last day opens nothing).
             when v.day_ends_at is not null then
               case when ${NOW} >= coalesce(iday.ends_at, v.day_ends_at)
                      or (iday.starts_at is null and ${isInvited(sql`v`)}) then 'meetingDayOver'
                    when ${beforeDay(sql`coalesce(iday.starts_at, v.day_starts_at)`)} then 'meetingNotYet' end
           end as refusal
      from visitors v
      join sites s on s.id = v.site_id
      left join events e on e.id = v.event_id
      ${currentInvitationDay(sql`v`, NOW)}
     where v.uidn = ${p('code')} and ${reaches(sql`v.company_id`)} ${deskAllows(shape)}
     limit 1
  )`;

/**
 * QR users and members: a re-issued card's old code is refused in and out; an expired one
 * may not come in. Their check is at the desk's site (`ds`, deskSite).
 */
const qrUserColumns = sql`
    q.id, q.uidn, false as may_be_watched, q.company_id, ds.id as site_id, ds.timezone, ds.name as site_name,
    ${mainSiteZone(sql`q.company_id`)} as expiry_zone,
    coalesce(q.firstname, '') as firstname,
    coalesce(q.lastname, '') as lastname, q.date_exp, null::text as day,
    case when q.revoked_at is not null then 'replaced' end as blocked,
    case when q.date_exp is not null and q.date_exp < ${NOW} then 'expired' end as refusal`;

/**
 * The site a QR user's or member's check is recorded at (issue 28), among the active sites
 * of their company: the desk's the request named, else the scanner's home site (within
 * their limits), else the oldest within their limits (the main site for whoever has none),
 * else the main site.
 */
const deskSite = (shape: Shape) => sql`
      join lateral (
        select s.id, s.timezone, s.name from sites s
         where s.company_id = q.company_id and s.archived_at is null
         order by ${shape.desk ? sql`s.id = ${DESK} desc,` : sql``}
                  (s.id is not distinct from (select home_site_id from caller)
                   and ${withinLimits(sql`s`)}) desc,
                  ${withinLimits(sql`s`)} desc,
                  s.created_at, s.id
         limit 1
      ) ds on true`;

/** A desk named by the request is of the holder's company (another company's card: unknown there). */
const deskOfCompany = (shape: Shape, company: SQL) =>
  shape.desk
    ? sql`and exists (select 1 from sites sd where sd.id = ${DESK} and sd.company_id = ${company})`
    : sql``;

const qrUserHolder = (shape: Shape) => sql`
  holder as (
    select ${qrUserColumns}
      from qr_users q
      ${deskSite(shape)}
     where q.uidn = ${p('code')} and ${reaches(sql`q.company_id`)} ${deskAllows(shape)}
       ${deskOfCompany(shape, sql`q.company_id`)}
     limit 1
  )`;

/**
 * The kiosk presence (ARCHITECTURE §6): an e-mail of a QR user or member of the
 * caller's own company; a member card before a permanent QR, then the newest.
 * Only where that company turned e-mail presence on (an e-mail is no secret):
 * otherwise there is no holder, so nothing can be written, and the answer says why.
 * The holder's photo rides along for the agent to compare the face.
 */
const kioskHolder = (shape: Shape) => sql`
  holder as (
    select ${qrUserColumns},
           case when f.media_type like 'image/%' then f.id end as photo_id
      from qr_users q
      join companies c on c.id = q.company_id
      ${deskSite(shape)}
      left join files f on f.id = q.document_id
     where q.company_id = (select company_id from recorder where may_record)
       and c.kiosk_email_enabled ${deskAllows(shape)} ${deskOfCompany(shape, sql`q.company_id`)}
       and lower(q.email) = ${p('email')} and q.revoked_at is null
     order by q.kind = 'member' desc, q.created_at desc
     limit 1
  )`;

/** The holder's check table and its column naming the holder. */
const CHECKS = {
  visitor_checks: { table: sql.raw('visitor_checks'), holder: sql.raw('visitor_id') },
  user_checks: { table: sql.raw('user_checks'), holder: sql.raw('qr_user_id') },
} as const;
type ChecksTable = keyof typeof CHECKS;

/** Step 3, on the holder's check table: their latest check, and the decision. */
function decide(table: ChecksTable): SQL {
  const { table: checks, holder: holderColumn } = CHECKS[table];
  return sql`
  latest as (
    select h.*, l.id as latest_id, l.check_in_at as latest_in, l.check_out_at as latest_out
      from holder h
      left join lateral (
        select id, check_in_at, check_out_at from ${checks}
         where ${holderColumn} = h.id and undone_at is null order by check_in_at desc limit 1
      ) l on true
  ),
  decision as (
    select latest.*,
           case
             when blocked = 'otherSite' then 'refuse'
             when ${p('closeOnly')}::boolean then
               case when latest_id is not null and latest_out is null then 'close' else 'repeatOut' end
             when blocked is not null then 'refuse'
             when ${p('openOnly')}::boolean then
               case when latest_id is not null and latest_out is null then 'repeatIn'
                    when refusal is not null then 'refuse' else 'open' end
             when latest_id is not null and latest_out is null then
               case when latest_in > ${p('since')}::timestamptz then 'repeatIn' else 'close' end
             when latest_out > ${p('since')}::timestamptz then 'repeatOut'
             when refusal is not null then 'refuse'
             else 'open'
           end as decision
      from latest
  )`;
}

/**
 * Step 4, the check-out: closes only a check still open. The guard reads "neither out nor
 * undone" as one coalesce on purpose (issue 32): written as 'check_out_at is null and
 * undone_at is null' it is the predicate of the open-checks partial indexes, and on
 * statistics older than the morning's checks (taken with the table near empty, before
 * autovacuum comes round) the planner believes those indexes hold a row or two and walks
 * one whole to find this id (10–15 ms at 60,000 open). PostgreSQL proves a partial index
 * usable only from a predicate written its way, so here the primary key's probe is the
 * only index path, whatever the statistics (test/check-plan.test.ts holds the plan).
 */
const closeCheck = (table: ChecksTable) => sql`
  update ${CHECKS[table].table}
     set check_out_at = ${NOW}, check_out_method = ${p('method')},
         check_out_by = ${p('callerUserId')}::uuid
   where id = ${p('latestId')}::uuid and coalesce(check_out_at, undone_at) is null
  returning id`;

/** Step 4, the check-in: inserts only if the partial unique index (one open check per person) lets it. */
const openCheck = (table: ChecksTable) => sql`
  insert into ${CHECKS[table].table}
         (id, company_id, site_id, ${CHECKS[table].holder}, check_in_at, check_in_method, check_in_by)
  values (${p('newCheckId')}::uuid, ${p('companyId')}::uuid, ${p('siteId')}::uuid, ${p('holderId')}::uuid,
          ${NOW}, ${p('method')}, ${p('callerUserId')}::uuid)
  on conflict do nothing
  returning id`;

/**
 * Steps 1 to 3 as one read: the caller, the desk, the holder, their latest check and the
 * decision; the function (below) then screens a visitor against the watchlist and writes.
 * Always exactly one row: `from (select 1)` with left joins.
 */
const readAnswer = (shape: Shape, kiosk: boolean) => sql`
  select c.company_id is not null as authenticated,
         coalesce(r.may_record, false) as may_record,
         c.user_id as caller_user_id,
         d.id as holder_id, d.company_id, d.site_id, d.uidn, d.firstname, d.lastname, d.timezone,
         d.site_name, d.expiry_zone, d.date_exp, d.day, d.blocked, d.refusal,
         d.latest_id, d.latest_in, d.latest_out, d.decision, d.may_be_watched,
         ${shape.desk ? sql`(select state from desk)` : sql`'none'`} as desk,
         ${
           kiosk
             ? sql`(select k.kiosk_email_enabled from recorder rk join companies k on k.id = rk.company_id)`
             : sql`null::boolean`
         } as kiosk_email_enabled,
         ${kiosk ? sql`d.photo_id` : sql`null::uuid`} as photo_id
    from (select 1) as one
    left join caller c on true
    left join recorder r on true
    left join decision d on true`;

/** Whose code a statement looks for: a visitor's, a QR user's or member's, or an e-mail at a kiosk. */
type Holder = 'visitor' | 'qrUser' | 'kioskEmail';

const HOLDERS = {
  visitor: { name: 'check_visitor_code', holder: visitorHolder, checks: 'visitor_checks' },
  qrUser: { name: 'check_qr_user_code', holder: qrUserHolder, checks: 'user_checks' },
  kioskEmail: { name: 'check_kiosk_email', holder: kioskHolder, checks: 'user_checks' },
} as const;

type StatementName =
  `${(typeof HOLDERS)[Holder]['name']}${'' | '_key'}${'' | '_desk'}` | 'check_visitor_code_kiosk';

const nameOf = (holder: Holder, shape: Shape): StatementName =>
  shape.caller === 'kiosk'
    ? 'check_visitor_code_kiosk'
    : `${HOLDERS[holder].name}${shape.caller === 'apiKey' ? '_key' : ''}${shape.desk ? '_desk' : ''}`;

/** Steps 1 to 3 of `holder` for `shape`: the read the function starts with. */
function readStatement(holder: Holder, shape: Shape): SQL {
  const { holder: holderCte, checks } = HOLDERS[holder];
  const caller = shape.caller === 'kiosk' ? kioskCaller : staffCaller(shape.caller);
  return sql`with ${caller}, ${deskCte(shape)} ${holderCte(shape)}, ${decide(checks)} ${readAnswer(shape, holder === 'kioskEmail')}`;
}

/** The staff's shapes: a session or an API key, naming a desk's site or not. */
const STAFF_SHAPES: Shape[] = (['session', 'apiKey'] as const).flatMap((caller) =>
  [false, true].map((desk) => ({ caller, desk })),
);
/** A kiosk's check of a visitor's code: always at its own site. */
const KIOSK_SHAPE: Shape = { caller: 'kiosk', desk: true };

const SHAPES: [Holder, Shape][] = [
  ...(Object.keys(HOLDERS) as Holder[]).flatMap((holder) =>
    STAFF_SHAPES.map((shape): [Holder, Shape] => [holder, shape]),
  ),
  ['visitor', KIOSK_SHAPE],
];

/**
 * The statements the functions run, by name, written with placeholders so that a test can
 * prepare and explain these very texts (test/check-plan.test.ts): each shape's read, and
 * the writes of each check table.
 */
export const CHECK_STATEMENTS = {
  ...(Object.fromEntries(
    SHAPES.map(([holder, shape]) => [nameOf(holder, shape), readStatement(holder, shape)]),
  ) as Record<StatementName, SQL>),
  close_visitor_check: closeCheck('visitor_checks'),
  close_user_check: closeCheck('user_checks'),
  open_visitor_check: openCheck('visitor_checks'),
  open_user_check: openCheck('user_checks'),
};

/** Each check table's writes, as CHECK_STATEMENTS names them. */
const WRITES = {
  visitor_checks: { close: 'close_visitor_check', open: 'open_visitor_check' },
  user_checks: { close: 'close_user_check', open: 'open_user_check' },
} as const;

/**
 * The functions' parameters, in order: each placeholder and its type; the function names it
 * `p_` and the placeholder in snake case (`sessionId`: `p_session_id`). Every function takes
 * them all; a shape leaves out what it does not use.
 */
const PARAMETER_TYPES = {
  sessionId: 'uuid',
  userId: 'uuid',
  kioskId: 'uuid',
  code: 'text',
  site: 'uuid',
  now: 'timestamptz',
  since: 'timestamptz',
  method: 'text',
  newCheckId: 'uuid',
  recordRoles: 'text[]',
  allCompanyRoles: 'text[]',
  closeOnly: 'boolean',
  openOnly: 'boolean',
} as const;
const PARAMETERS = Object.entries(PARAMETER_TYPES).map(
  ([placeholder, type]) =>
    [
      placeholder,
      `p_${placeholder.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`,
      type,
    ] as const,
);

/** Inside a function, each placeholder is a parameter or a field of the read's row. */
const VARIABLES: Record<string, string> = {
  ...Object.fromEntries(PARAMETERS.map(([placeholder, name]) => [placeholder, name])),
  // The kiosk's e-mail comes as the code.
  email: 'p_code',
  holderId: 'v_read.holder_id',
  companyId: 'v_read.company_id',
  siteId: 'v_read.site_id',
  latestId: 'v_read.latest_id',
  callerUserId: 'v_read.caller_user_id',
};

/** The function's one row: the statement's answer as toggle.ts reads it (`checkOutcome`). */
const RESULT_COLUMNS = `authenticated boolean, "mayRecord" boolean, "holderId" uuid, uidn text,
    firstname text, lastname text, timezone text, "siteName" text, "expiryZone" text,
    "dateExp" timestamptz, day text, refusal text, "latestIn" timestamptz,
    "latestOut" timestamptz, decision text, wrote boolean, desk text,
    "kioskEmailEnabled" boolean, "photoId" uuid`;

/**
 * The body of one shape's function (PL/pgSQL). The read first; then, for a visitor the
 * decision would let in (or refuse for a day's reason, which a watchlist match goes
 * before), the watchlist — its full match only when the visitor has a hold or their
 * company an entry; then the one write the decision calls for. Nothing else is set up.
 */
function functionBody(holder: Holder, shape: Shape): string {
  const text = (statement: SQL) => textWithVariables(statement, VARIABLES);
  const writes = WRITES[HOLDERS[holder].checks];
  const screening =
    holder === 'visitor'
      ? `
  if v_read.may_be_watched
     and (v_read.decision = 'open' or (v_read.decision = 'refuse' and v_read.blocked is null)) then
    select ${text(watched)} into v_watched from visitors v where v.id = v_read.holder_id;
    if v_watched then
      v_read.refusal := 'watchlist';
      v_read.decision := 'refuse';
    end if;
  end if;`
      : '';
  return `
#variable_conflict use_column
declare
  v_read record;
  v_watched boolean;
  v_written uuid;
begin
  select * into v_read from (${text(CHECK_STATEMENTS[nameOf(holder, shape)])}) as r;
${screening}
  if v_read.decision = 'close' then
    ${text(CHECK_STATEMENTS[writes.close])} into v_written;
  elsif v_read.decision = 'open' then
    ${text(CHECK_STATEMENTS[writes.open])} into v_written;
  end if;
  authenticated := v_read.authenticated;
  "mayRecord" := v_read.may_record;
  "holderId" := v_read.holder_id;
  uidn := v_read.uidn;
  firstname := v_read.firstname;
  lastname := v_read.lastname;
  timezone := v_read.timezone;
  "siteName" := v_read.site_name;
  "expiryZone" := v_read.expiry_zone;
  "dateExp" := v_read.date_exp;
  day := v_read.day;
  refusal := coalesce(v_read.blocked, v_read.refusal);
  "latestIn" := v_read.latest_in;
  "latestOut" := v_read.latest_out;
  decision := v_read.decision;
  wrote := v_written is not null;
  desk := v_read.desk;
  "kioskEmailEnabled" := v_read.kiosk_email_enabled;
  "photoId" := v_read.photo_id;
  return next;
end`;
}

/**
 * One function per shape, named by its statement and a hash of its text: a server runs the
 * functions of its own version, created after the migrations (installCheckFunctions); two
 * versions side by side during a rolling upgrade each call their own.
 */
const FUNCTIONS = SHAPES.map(([holder, shape]) => {
  const body = functionBody(holder, shape);
  const parameters = PARAMETERS.map(([, name, type]) => `${name} ${type}`).join(', ');
  const definition = `(${parameters})\n  returns table (${RESULT_COLUMNS})\n  language plpgsql\nas $check$${body}\n$check$`;
  const hash = createHash('sha256').update(definition).digest('hex').slice(0, 12);
  const name = `sesame_${nameOf(holder, shape)}_${hash}`;
  return {
    statement: nameOf(holder, shape),
    name,
    source: `create or replace function ${name}${definition}`,
  };
});

/**
 * Creates the code check's functions this version lacks, after the migrations and under
 * their lock (db/client.ts). `query` runs one statement on the migrating connection.
 */
export async function installCheckFunctions(
  query: (text: string) => Promise<{ rows: unknown[] }>,
): Promise<void> {
  const names = FUNCTIONS.map((f) => `'${f.name}'`).join(', ');
  const { rows } = await query(`select proname from pg_proc where proname in (${names})`);
  const present = new Set(rows.map((row) => (row as { proname: string }).proname));
  for (const f of FUNCTIONS) if (!present.has(f.name)) await query(f.source);
}

/** The call of a function: one round trip, one small plan (a function scan). */
const callArguments = sql.join(
  PARAMETERS.map(([placeholder, , type]) => sql`${p(placeholder)}::${sql.raw(type)}`),
  sql`, `,
);

/**
 * The call of several checks as one statement (db/call-batches.ts): each parameter as an
 * array of the calls' values, unnested together, and the function called for each row in
 * their order. A function's statements each see what the calls before it wrote (a volatile
 * function reads with a new snapshot per statement): a code scanned twice in one batch is
 * checked once and then reported as a repeat, as two scans one after the other are.
 * Parameters that are arrays themselves travel as their text and are cast back.
 */
const arraysOfArguments = sql.join(
  PARAMETERS.map(
    ([placeholder, , type]) =>
      sql`${p(placeholder)}::${sql.raw(type === 'text[]' ? 'text[]' : `${type}[]`)}`,
  ),
  sql`, `,
);
const argumentsOfRow = sql.raw(
  PARAMETERS.map(([, name, type]) => (type === 'text[]' ? `a.${name}::text[]` : `a.${name}`)).join(
    ', ',
  ),
);
const rowColumns = sql.raw(PARAMETERS.map(([, name]) => name).join(', '));
const batchOutcome = checkOutcome.extend({ ord: z.number().int() });

/**
 * Concurrent checks of one pool: two statements on their way at once, each shape its own
 * (`maxInFlight`), and up to 32 checks in one. Two keep both cores of a small server busy
 * while the next batch gathers; 32 keep a batch's locks and its answers' wait short
 * (npm run bench -- checkin, docs/benchmarks.md). A check waits at most 50 ms behind them:
 * one held up by a lock does not hold up every desk of the server.
 */
const BATCHES = { maxInFlight: 2, maxSize: 32, maxWaitMs: 50 };

type CallValues = Record<string, unknown>;

/** Each shape's runner, prepared by its function's name on each connection that first runs it. */
const runners = new Map(
  FUNCTIONS.map((f) => {
    const one = rawPrepared(
      f.name,
      checkOutcome,
      sql`select * from ${sql.raw(f.name)}(${callArguments})`,
    );
    const several = rawPrepared(
      `${f.name}_batch`,
      batchOutcome,
      sql`select a.ord::int as ord, c.*
            from unnest(${arraysOfArguments}) with ordinality as a(${rowColumns}, ord)
           cross join lateral ${sql.raw(f.name)}(${argumentsOfRow}) c`,
    );
    return [
      f.statement,
      callBatches(
        // The function always returns exactly one row.
        async (db, values: CallValues) =>
          firstRow(await one(db, values), 'the code check function'),
        async (db, calls: CallValues[]) => {
          const columns = Object.fromEntries(
            PARAMETERS.map(([placeholder]) => [placeholder, calls.map((c) => c[placeholder])]),
          );
          const outcomes: CheckOutcome[] = [];
          for (const { ord, ...outcome } of await several(db, columns)) outcomes[ord - 1] = outcome;
          return outcomes;
        },
        BATCHES,
      ),
    ] as const;
  }),
);

/** What a shape leaves out is passed as null. */
const NO_VALUES = Object.fromEntries(PARAMETERS.map(([placeholder]) => [placeholder, null]));

/** Runs the function of `holder` for `shape` with `values`; its one row. */
function runCheck(
  holder: Holder,
  shape: Shape,
  db: Database,
  values: Record<string, unknown> & { now: Date; since: Date },
): Promise<CheckOutcome> {
  const run = runners.get(nameOf(holder, shape))!;
  const { email, ...rest } = values;
  return run(db, {
    ...NO_VALUES,
    ...rest,
    ...(email === undefined ? {} : { code: email }),
    // ISO strings, which the call casts: the driver's own Date formatting costs more.
    now: values.now.toISOString(),
    since: values.since.toISOString(),
  });
}

function checkStatement<Key extends 'code' | 'email'>(holder: Holder) {
  return (db: Database, values: CheckValues & Record<Key, string>): Promise<CheckOutcome> => {
    const {
      action = 'checks.record',
      callerKind = 'session',
      closeOnly = false,
      openOnly = false,
      ...rest
    } = values;
    const shape = { caller: callerKind, desk: values.site !== null };
    return runCheck(holder, shape, db, {
      ...permissionValues[action],
      ...rest,
      closeOnly,
      openOnly,
    });
  };
}

export const checkVisitorCodeStatement = checkStatement<'code'>('visitor');
export const checkQrUserCodeStatement = checkStatement<'code'>('qrUser');
export const checkKioskEmailStatement = checkStatement<'email'>('kioskEmail');

/**
 * A kiosk's check of a visitor's code (issue 29): the desk's very statement (the holder,
 * the decision, the guarded write) with the kiosk as its caller, at the kiosk's own site:
 * a visitor of another site is refused ('otherSite'), one of another company is not
 * found. `openOnly` for its check-in, `closeOnly` for its check-out.
 */
export function checkVisitorCodeAtKiosk(
  db: Database,
  values: KioskCheckValues & { code: string },
): Promise<CheckOutcome> {
  const { closeOnly = false, openOnly = false, ...rest } = values;
  return runCheck('visitor', KIOSK_SHAPE, db, { ...rest, closeOnly, openOnly });
}
