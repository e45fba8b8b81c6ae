/**
 * The code check as one SQL statement (ARCHITECTURE §7, §9): the front desk's
 * throughput is in round trips, so a scan makes exactly one. The statement
 *   1. finds the caller's live session and active role, and whether that role may
 *      record checks and on which companies (the shared permission matrix, passed in);
 *   2. finds the holder of the code within that reach, with their latest check and
 *      what would refuse them entry;
 *   3. decides: a repeat inside the window, a check-out, a refusal or a check-in;
 *   4. writes the check-out or the check-in, guarded: the check-out closes only a
 *      check still open, the check-in inserts only if the partial unique index (one
 *      open check per person) lets it. Two scans racing on one code make one change;
 *      the loser's write finds nothing to do and it reports the winner's check.
 * It answers one row saying all of that; toggle.ts turns it into the answer or the error.
 */
import { sql, type SQL } from 'drizzle-orm';
import { ACTIONS } from '@sesame/shared';
import { activeRoleOf, liveSession } from '../auth/session-rule';
import type { Database } from '../db/client';
import { rawPrepared } from '../db/raw-prepared';
import { sessions, users } from '../db/schema';
import { firstRow } from '../db/rows';

/** What the statement decided for the holder. */
export type CheckDecision = 'repeatIn' | 'close' | 'repeatOut' | 'refuse' | 'open';

/** Why a holder may not come in (or, for 'replaced', neither in nor out). Keys of CHECK_MESSAGES. */
export type Refusal =
  | 'notConfirmed'
  | 'eventOver'
  | 'eventNotYet'
  | 'meetingDayOver'
  | 'meetingNotYet'
  | 'expired'
  | 'replaced';

export interface CheckOutcome {
  /** The token's session is live and its user active. */
  authenticated: boolean;
  mayRecord: boolean;
  /** Null when no holder was found within the caller's reach. */
  holderId: string | null;
  uidn: string | null;
  firstname: string | null;
  lastname: string | null;
  timezone: string | null;
  dateExp: Date | null;
  /** A visitor's day, DD/MM/YYYY: the event's or the meeting's (null for QR users). */
  day: string | null;
  refusal: Refusal | null;
  latestIn: Date | null;
  latestOut: Date | null;
  decision: CheckDecision | null;
  /** The guarded write found something to do. */
  wrote: boolean;
  /** The kiosk only: the caller's company has turned e-mail presence on. */
  kioskEmailEnabled?: boolean | null;
  /** The kiosk only: the holder's photo (their document when it is an image), or null. */
  photoId?: string | null;
}

/** The values every code check passes; the holder's key (code or e-mail) comes on top. */
export interface CheckValues {
  sessionId: string;
  userId: string;
  now: Date;
  /** Checks made after this instant are repeats (now minus the repeat window). */
  since: Date;
  method: string;
  newCheckId: string;
  /**
   * Check-out only (the on-site list, issue 14): close the open check whatever the
   * repeat window, never open one; someone already out is reported as such.
   */
  closeOnly?: boolean;
  /** The matrix action whose roles may record: the scanners', or the on-site list's check-out. */
  action?: RecordAction;
}

export type RecordAction = 'checks.record' | 'onSite.checkOut';

const p = (name: string) => sql.placeholder(name);

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

/** Step 1: the caller, by loadPrincipal's own rules (auth/session-rule.ts). */
const callerCtes = sql`
  caller as (
    select ${users.id} as user_id, ${users.companyId} as company_id,
           ${activeRoleOf(users.roles)} as role
      from ${sessions}
      join ${users} on ${users.id} = ${sessions.userId}
     where ${liveSession(sql`${p('sessionId')}::uuid`, sql`${p('userId')}::uuid`)}
  ),
  recorder as (
    select user_id, company_id,
           role = any(${p('recordRoles')}::text[]) as may_record,
           role = any(${p('allCompanyRoles')}::text[]) as all_companies
      from caller
  )`;

/** The holder is within the caller's reach: their company, or every company for some roles. */
const reaches = (companyId: SQL) =>
  sql`exists (select 1 from recorder
               where may_record and (recorder.company_id = ${companyId} or all_companies))`;

const NOW = sql`${p('now')}::timestamptz`;

/** Whether `now` is before the day that starts at `dayStartsAt`, less the company's early-arrival minutes. */
const beforeDay = (dayStartsAt: SQL) =>
  sql`${NOW} < ${dayStartsAt} - c.arrival_early_minutes * interval '1 minute'`;

/**
 * Step 2 for a visitor's code: confirmed request, and within their day (the event's or
 * the meeting's, stored as instants in the company's zone when the row was written;
 * from the company's early-arrival minutes before). The decision lets a holder
 * already inside out whatever the day (step 3).
 */
const visitorHolder = sql`
  holder as (
    select v.id, v.uidn, v.company_id, v.firstname, v.lastname, c.timezone,
           null::timestamptz as date_exp,
           coalesce(e.date_event, v.request_date) as day,
           null::text as blocked,
           case
             when not exists (select 1 from visit_requests r where r.visitor_id = v.id and r.confirmed)
               then 'notConfirmed'
             when e.id is not null then
               case when ${NOW} >= e.day_ends_at then 'eventOver'
                    when ${beforeDay(sql`e.day_starts_at`)} then 'eventNotYet' end
             when v.day_ends_at is not null then
               case when ${NOW} >= v.day_ends_at then 'meetingDayOver'
                    when ${beforeDay(sql`v.day_starts_at`)} then 'meetingNotYet' end
           end as refusal
      from visitors v
      join companies c on c.id = v.company_id
      left join events e on e.id = v.event_id
     where v.uidn = ${p('code')} and ${reaches(sql`v.company_id`)}
     limit 1
  )`;

/** QR users and members: a re-issued card's old code is refused in and out; an expired one may not come in. */
const qrUserColumns = sql`
    q.id, q.uidn, q.company_id, coalesce(q.firstname, '') as firstname,
    coalesce(q.lastname, '') as lastname, c.timezone, q.date_exp, null::text as day,
    case when q.revoked_at is not null then 'replaced' end as blocked,
    case when q.date_exp is not null and q.date_exp < ${NOW} then 'expired' end as refusal`;

const qrUserHolder = sql`
  holder as (
    select ${qrUserColumns}
      from qr_users q
      join companies c on c.id = q.company_id
     where q.uidn = ${p('code')} and ${reaches(sql`q.company_id`)}
     limit 1
  )`;

/**
 * The kiosk presence (ARCHITECTURE §6): an e-mail of a QR user or member of the
 * caller's own company; a member card before a permanent QR, then the newest.
 * Only where that company turned e-mail presence on (an e-mail is no secret):
 * otherwise there is no holder, so nothing can be written, and the answer says why.
 * The holder's photo rides along for the agent to compare the face.
 */
const kioskHolder = sql`
  holder as (
    select ${qrUserColumns},
           case when f.media_type like 'image/%' then f.id end as photo_id
      from qr_users q
      join companies c on c.id = q.company_id
      left join files f on f.id = q.document_id
     where q.company_id = (select company_id from recorder where may_record)
       and c.kiosk_email_enabled
       and lower(q.email) = ${p('email')} and q.revoked_at is null
     order by q.kind = 'member' desc, q.created_at desc
     limit 1
  )`;

/** The kiosk's extra answer: whether the caller's company allows it, and the photo. */
const kioskAnswer = sql`,
         (select k.kiosk_email_enabled from recorder rk join companies k on k.id = rk.company_id)
           as "kioskEmailEnabled",
         d.photo_id as "photoId"`;

/** Steps 3 and 4, on the holder's check table. */
function decideAndWrite(table: 'visitor_checks' | 'user_checks'): SQL {
  const checks = sql.raw(table);
  const holderColumn = sql.raw(table === 'visitor_checks' ? 'visitor_id' : 'qr_user_id');
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
             when ${p('closeOnly')}::boolean then
               case when latest_id is not null and latest_out is null then 'close' else 'repeatOut' end
             when blocked is not null then 'refuse'
             when latest_id is not null and latest_out is null then
               case when latest_in > ${p('since')}::timestamptz then 'repeatIn' else 'close' end
             when latest_out > ${p('since')}::timestamptz then 'repeatOut'
             when refusal is not null then 'refuse'
             else 'open'
           end as decision
      from latest
  ),
  closed as (
    update ${checks}
       set check_out_at = ${NOW}, check_out_method = ${p('method')},
           check_out_by = (select user_id from caller)
     where id = (select latest_id from decision where decision = 'close')
       and check_out_at is null and undone_at is null
    returning id
  ),
  opened as (
    insert into ${checks} (id, company_id, ${holderColumn}, check_in_at, check_in_method, check_in_by)
    select ${p('newCheckId')}::uuid, company_id, id, ${NOW}, ${p('method')}, (select user_id from caller)
      from decision where decision = 'open'
    on conflict do nothing
    returning id
  )`;
}

const answer = (extra: SQL = sql``) => sql`
  select c.user_id is not null as authenticated,
         coalesce(r.may_record, false) as "mayRecord",
         d.id as "holderId", d.uidn, d.firstname, d.lastname, d.timezone, d.date_exp as "dateExp", d.day,
         coalesce(d.blocked, d.refusal) as refusal,
         d.latest_in as "latestIn", d.latest_out as "latestOut", d.decision,
         (exists (select 1 from closed) or exists (select 1 from opened)) as wrote${extra}
    from (select 1) as one
    left join caller c on true
    left join recorder r on true
    left join decision d on true`;

function checkStatement<Key extends 'code' | 'email'>(
  name: string,
  holder: SQL,
  table: 'visitor_checks' | 'user_checks',
  extraAnswer?: SQL,
) {
  const run = rawPrepared<CheckOutcome>(
    name,
    sql`with ${callerCtes}, ${holder}, ${decideAndWrite(table)} ${answer(extraAnswer)}`,
  );
  // The answer always has exactly one row: `from (select 1)` with left joins.
  return async (db: Database, values: CheckValues & Record<Key, string>): Promise<CheckOutcome> => {
    const { action = 'checks.record', closeOnly = false, ...rest } = values;
    const params = {
      ...permissionValues[action],
      ...rest,
      closeOnly,
      // ISO strings, which the statement casts: the driver's own Date formatting costs more.
      now: values.now.toISOString(),
      since: values.since.toISOString(),
    };
    return firstRow(await run(db, params), 'the code check statement');
  };
}

export const checkVisitorCodeStatement = checkStatement<'code'>(
  'check_visitor_code',
  visitorHolder,
  'visitor_checks',
);
export const checkQrUserCodeStatement = checkStatement<'code'>(
  'check_qr_user_code',
  qrUserHolder,
  'user_checks',
);
export const checkKioskEmailStatement = checkStatement<'email'>(
  'check_kiosk_email',
  kioskHolder,
  'user_checks',
  kioskAnswer,
);
