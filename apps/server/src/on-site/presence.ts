/**
 * Who is on site (issue 14), derived from the check history by one rule, here:
 *
 *   a person is inside while they hold an open check (check_out_at is null) whose
 *   arrival was not undone (undone_at is null; checkins/undo.ts).
 *
 * That is the same as "their latest check is an arrival": a check-in is written only
 * when no check of that person is open (the one-open-check unique index, which the
 * code check's insert respects), so an open check is always the person's latest.
 * `openChecks` is the rule; the list, the counts and "expected today" are built on it,
 * and a roll call can freeze the list by inserting `openChecks(...)`'s rows (their
 * `check_id` identifies each person's stay) into a table of its own.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  PERSON_KINDS,
  type ExpectedRow,
  type KindCounts,
  type OnSiteQuery,
  type OnSiteRow,
} from '@sesame/shared';
import { z } from 'zod';
import type { Db } from '../db/client';
import { likeAny } from '../db/pagination';
import { column, rowsOf } from '../db/rows';
import type { FileSigner } from '../files/urls';
import { currentInvitationDay, isInvited } from '../invitations/days';
import { inSites } from '../sites/service';

/** 'visitor' for visitor_checks, 'user' for user_checks (QR users and members). */
export const checkTable = z.enum(['visitor', 'user']);
export type CheckTable = z.infer<typeof checkTable>;

/**
 * The open checks (one per person inside) of one company, or of every company, at the
 * sites `siteIds` (issue 28; undefined: every site): check_id, company_id, site_id,
 * person_id, tbl, check_in_at, check_in_method. Narrowed to sites, each table's partial
 * index on (site_id, check_in_at) of the open checks gives them by arrival.
 */
export function openChecks(companyId: string | undefined, siteIds?: string[]): SQL {
  const within = sql`${companyId ? sql`and company_id = ${companyId}` : sql``} ${inSites('site_id', siteIds)}`;
  return sql`
    select id as check_id, company_id, site_id, visitor_id as person_id, 'visitor'::text as tbl,
           check_in_at, check_in_method
      from visitor_checks where check_out_at is null and undone_at is null ${within}
    union all
    select id, company_id, site_id, qr_user_id, 'user'::text, check_in_at, check_in_method
      from user_checks where check_out_at is null and undone_at is null ${within}`;
}

const byArrival = (alias: string) =>
  sql.raw(`order by ${alias}.check_in_at desc, ${alias}.check_id desc`);

/** What kind of person an open check is of: visitor or event guest, QR user or member. */
const kindOf = sql`case when o.tbl = 'visitor'
      then case when v.event_id is null then 'visitor' else 'event_guest' end
      else case when q.kind = 'member' then 'member' else 'qr_user' end end`;

/** The people behind the open checks: visitor or QR user, their company. */
const peopleJoins = sql`
  join companies c on c.id = o.company_id
  left join visitors v on o.tbl = 'visitor' and v.id = o.person_id
  left join qr_users q on o.tbl = 'user' and q.id = o.person_id`;

/** A visitor's host: the one typed on their latest request, else the host user's name. */
const hostOf = (visitor: SQL) => sql`(
  select coalesce(nullif(r.host, ''), nullif(trim(hu.firstname || ' ' || hu.name), ''))
    from visit_requests r left join users hu on hu.id = r.host_user_id
   where r.visitor_id = ${visitor} order by r.created_at desc limit 1)`;

function searchOf(q: string | undefined): SQL {
  if (!q) return sql``;
  return sql`and ${likeAny(q, [
    sql`coalesce(v.firstname, q.firstname, '') || ' ' || coalesce(v.lastname, q.lastname, '')
        || ' ' || coalesce(v.firstname, q.firstname, '') || ' '
        || coalesce(v.organisation_name, q.title, '') || ' ' || coalesce(v.uidn, q.uidn, '')`,
  ])}`;
}

/** Who a row of either list is, and with whom or for what they came. */
const personDbRow = z.object({
  person_id: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  organisation: z.string().nullable(),
  company_id: z.string(),
  company_name: z.string(),
  company_slug: z.string(),
  host: z.string().nullable(),
  event: z.string().nullable(),
  site_id: z.string(),
  site_name: z.string(),
  site_timezone: z.string(),
});
type PersonDbRow = z.infer<typeof personDbRow>;

const onSiteDbRow = personDbRow.extend({
  check_id: z.string(),
  kind: z.enum(PERSON_KINDS),
  check_in_at: column.time,
  check_in_method: z.string(),
  photo_id: z.string().nullable(),
  request_id: z.string().nullable(),
});

const countRow = z.object({ n: column.count });

/** Who a row of either list is, as both lists send it (kind first, as the schemas say). */
const personFields = <K>(row: PersonDbRow & { kind: K }) => ({
  person_id: row.person_id,
  kind: row.kind,
  firstname: row.firstname,
  lastname: row.lastname,
  organisation: row.organisation,
  company: { id: row.company_id, name: row.company_name, slug: row.company_slug },
  site: { id: row.site_id, name: row.site_name, timezone: row.site_timezone },
  host: row.host,
  event: row.event,
});

export interface OnSitePageData {
  rows: OnSiteRow[];
  total: number;
  counts: KindCounts;
}

/**
 * A page of the people inside, newest arrival first, with everyone inside counted by
 * kind. `companyId` undefined: every company (roles that act on all of them);
 * `siteIds` undefined: every site (sites/service.ts `siteScope`).
 */
export async function listOnSite(
  db: Db,
  query: OnSiteQuery,
  companyId: string | undefined,
  files: FileSigner,
  siteIds?: string[],
): Promise<OnSitePageData> {
  const open = openChecks(companyId, siteIds);
  const window = sql`limit ${query.per_page} offset ${(query.page - 1) * query.per_page}`;
  // Unfiltered, the page is cut from the open checks alone (the partial indexes give them
  // by arrival) before anyone is looked up: a first page joins 24 people, not everyone inside.
  const pageFirst = !query.q && !query.kind;
  const filters = sql`where true ${query.kind ? sql`and ${kindOf} = ${query.kind}` : sql``} ${searchOf(query.q)}`;
  const page = rowsOf(
    db,
    onSiteDbRow,
    sql`select o.check_id, o.person_id, ${kindOf} as kind,
               coalesce(v.firstname, q.firstname, '') as firstname,
               coalesce(v.lastname, q.lastname, '') as lastname,
               coalesce(v.organisation_name, q.title) as organisation,
               c.id as company_id, c.name as company_name, c.slug as company_slug,
               s.id as site_id, s.name as site_name, s.timezone as site_timezone,
               case when o.tbl = 'visitor' and v.event_id is null then ${hostOf(sql`v.id`)} end as host,
               case when o.tbl = 'visitor' and v.event_id is null then
                 (select r.id from visit_requests r where r.visitor_id = v.id
                   order by r.created_at desc limit 1) end as request_id,
               e.name as event, o.check_in_at, o.check_in_method,
               (select f.id from files f where f.id = coalesce(v.request_image_id, q.document_id)
                   and f.media_type like 'image/%') as photo_id
          from (${pageFirst ? sql`select * from (${open}) oc ${byArrival('oc')} ${window}` : open}) o
          ${peopleJoins}
          join sites s on s.id = o.site_id
          left join events e on e.id = v.event_id
          ${filters}
         ${byArrival('o')}
         ${pageFirst ? sql`` : window}`,
  );
  const counted = rowsOf(
    db,
    countRow.extend({ kind: z.enum(PERSON_KINDS) }),
    sql`select ${kindOf} as kind, count(*) as n
          from (${open}) o ${peopleJoins}
         group by 1`,
  );
  const filtered =
    query.q || query.kind
      ? rowsOf(db, countRow, sql`select count(*) as n from (${open}) o ${peopleJoins} ${filters}`)
      : Promise.resolve(null);
  const [pageRows, countRows, filteredRows] = await Promise.all([page, counted, filtered]);
  const counts: KindCounts = { visitor: 0, event_guest: 0, qr_user: 0, member: 0 };
  for (const row of countRows) counts[row.kind] = row.n;
  const total = filteredRows
    ? (filteredRows[0]?.n ?? 0)
    : Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    total,
    counts,
    rows: pageRows.map((row) => ({
      check_id: row.check_id,
      ...personFields(row),
      check_in_time: row.check_in_at.toISOString(),
      check_in_method: row.check_in_method,
      photo: files.signed(row.photo_id),
      request_id: row.request_id,
    })),
  };
}

/** The open check `checkId` within reach: its person's code, company and site, or null. */
export async function findOpenCheck(
  db: Db,
  checkId: string,
): Promise<{ companyId: string; siteId: string; table: CheckTable; uidn: string } | null> {
  const [row] = await rowsOf(
    db,
    z.object({ company_id: z.string(), site_id: z.string(), tbl: checkTable, uidn: z.string() }),
    sql`select o.company_id, o.site_id, o.tbl, coalesce(v.uidn, q.uidn) as uidn
          from (${openChecks(undefined)}) o
          left join visitors v on o.tbl = 'visitor' and v.id = o.person_id
          left join qr_users q on o.tbl = 'user' and q.id = o.person_id
         where o.check_id = ${checkId}`,
  );
  return row
    ? { companyId: row.company_id, siteId: row.site_id, table: row.tbl, uidn: row.uidn }
    : null;
}

const expectedDbRow = personDbRow.extend({
  kind: z.enum(['visitor', 'event_guest']),
  time: z.string().nullable(),
  invitation_id: z.string().nullable(),
  invited_by: z.string().nullable(),
  group_size: column.count.nullable(),
  details_completed: z.boolean(),
  here_at: column.time.nullable(),
});

/**
 * Expected today: visitors with a confirmed request (a meeting, or an event
 * registration) whose day — the event's, else the meeting's — is today at their site
 * (the day's instants written with the row in the site's zone, never its text), and
 * who have not arrived: no check that counts — an arrival undone (checkins/undo.ts) was
 * a mistake, so its visitor is expected again (issue 27). By time.
 *
 * An invited visitor (issue 30) is expected on each day of their invitation that is not
 * cancelled (`iday`, the day the code check reads too), not on the other days of the
 * span their visitor row covers; a recurring one has arrived only by a check since that
 * day began (or while inside), so last Monday's visit leaves them expected on Thursday.
 * Their row says who invited them, how many came by the invitation, whether they
 * completed their details, and when they said "Je suis arrivé(e)" on this day. The
 * visitors of one invitation follow each other (a group is shown as one).
 */
export async function listExpected(
  db: Db,
  query: OnSiteQuery,
  companyId: string | undefined,
  siteIds?: string[],
  now = new Date(),
): Promise<{ rows: ExpectedRow[]; total: number }> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const invited = isInvited(sql`v`);
  const where = sql`
    where ${companyId ? sql`v.company_id = ${companyId}` : sql`true`} ${inSites('v.site_id', siteIds)}
      and coalesce(e.day_starts_at, v.day_starts_at) <= ${at}
      and ${at} < coalesce(e.day_ends_at, v.day_ends_at)
      and exists (select 1 from visit_requests r where r.visitor_id = v.id and r.confirmed)
      and case when ${invited} then
            iday.starts_at <= ${at}
            and not exists (select 1 from visitor_checks vc
                             where vc.visitor_id = v.id and vc.undone_at is null
                               and (vc.check_out_at is null
                                    or vc.check_in_at >= iday.starts_at
                                       - s.arrival_early_minutes * interval '1 minute'))
          else not exists (select 1 from visitor_checks vc
                            where vc.visitor_id = v.id and vc.undone_at is null) end
      ${query.q ? sql`and ${likeAny(query.q, [sql`v.firstname || ' ' || v.lastname || ' ' || v.firstname || ' ' || v.organisation_name || ' ' || v.uidn`])}` : sql``}
      ${query.kind === 'visitor' ? sql`and v.event_id is null` : query.kind === 'event_guest' ? sql`and v.event_id is not null` : query.kind ? sql`and false` : sql``}`;
  const from = sql`from visitors v join companies c on c.id = v.company_id
                   join sites s on s.id = v.site_id
                   left join events e on e.id = v.event_id
                   ${currentInvitationDay(sql`v`, at)}`;
  // The invitation of an invited visitor's request, read for the page's rows only.
  const invitation = sql`left join lateral (
      select ir.invitation_id, ir.here_at,
             coalesce(nullif(trim(coalesce(hu.firstname, '') || ' ' || coalesce(hu.name, '')), ''),
                      nullif(ir.host, '')) as invited_by,
             (select count(*) from visit_requests g
               where g.invitation_id = ir.invitation_id and g.cancelled_at is null) as group_size
        from visit_requests ir
        join invitations i on i.id = ir.invitation_id
        left join users hu on hu.id = i.host_user_id
       where ir.visitor_id = v.id
       order by ir.created_at desc
       limit 1) inv on true`;
  const [page, counted] = await Promise.all([
    rowsOf(
      db,
      expectedDbRow,
      sql`select v.id as person_id,
                 case when v.event_id is null then 'visitor' else 'event_guest' end as kind,
                 v.firstname, v.lastname, v.organisation_name as organisation,
                 c.id as company_id, c.name as company_name, c.slug as company_slug,
                 s.id as site_id, s.name as site_name, s.timezone as site_timezone,
                 case when v.event_id is null then ${hostOf(sql`v.id`)} end as host,
                 e.name as event, coalesce(e.time_event, v.request_time) as time,
                 inv.invitation_id, inv.invited_by, inv.group_size,
                 v.details_completed_at is not null as details_completed,
                 case when inv.here_at >= iday.starts_at then inv.here_at end as here_at
          ${from} ${invitation} ${where}
          order by coalesce(e.time_event, v.request_time) nulls last,
                   inv.invitation_id nulls first, v.lastname, v.id
          limit ${query.per_page} offset ${(query.page - 1) * query.per_page}`,
    ),
    rowsOf(db, countRow, sql`select count(*) as n ${from} ${where}`),
  ]);
  return {
    total: counted[0]?.n ?? 0,
    rows: page.map((row) => ({
      ...personFields(row),
      time: row.time,
      invitation: row.invitation_id
        ? {
            id: row.invitation_id,
            invited_by: row.invited_by,
            group_size: row.group_size ?? 1,
            details_completed: row.details_completed,
            here_at: row.here_at?.toISOString() ?? null,
          }
        : null,
    })),
  };
}
