/**
 * The dashboard's day ledger (issue 35): what each figure counts on one day of one site,
 * as rows (site_id, day, figure, key, value). The same statements serve twice:
 *   - the sweep (summary.ts) writes a settled day's rows into `dashboard_days`;
 *   - the dashboard (figures.ts) reads the days not summarized (the last week, a day a late
 *     change made stale) straight from the checks through them, beside the summarized ones.
 * So a figure is the same whichever way its days are read, by construction.
 *
 * The figures and their keys (what each figure counts is said in
 * packages/shared/src/schemas/dashboard.ts):
 *   arrivals, visits, automatic   ''                 the day's counts
 *   length                        whole minutes      visits left by a check-out of the desk
 *   hour                          isodow * 100 + h   arrivals by hour of the week
 *   type                          type id, ~free text, or ''   visits by visitor type
 *   host                          host user id|host text       visits by host
 *   expected, no_show             ''                 visits due that day, never arrived
 *   decision                      whole minutes      requests of the day, time to the answer
 *   peak                          ''                 the most visitors inside the site at once
 *
 * Every statement reads the pairs of `w` (site, day, the day's instants in the site's zone,
 * built by `pairs`) and, for the planner, the constant instants no pair reaches beyond
 * (`bounds`): with the per-pair bounds alone it scanned every check of a site.
 */
import { sql, type SQL } from 'drizzle-orm';
import { addDays } from '@sesame/shared';
import { inSites } from '../sites/service';

/** Which (site, day) pairs a statement reads. */
export interface PairSet {
  /** One company's sites; undefined: every company's (the platform's admin). */
  companyId?: string;
  /** The sites; undefined: every site of the company. */
  siteIds?: string[];
  /** The days, YYYY-MM-DD: a range (both ends included) or a list. */
  from: string;
  to: string;
  days?: string[];
  /**
   * 'unsummarized': only the pairs without a summary (the dashboard's live part);
   * 'no-company-peak': every site of the days whose company peak is not summarized;
   * 'all': every pair (the sweep).
   */
  only: 'unsummarized' | 'no-company-peak' | 'all';
}

/** The `w` rows: each site of the set and day, with the instants the day starts and ends. */
export function pairs(set: PairSet): SQL {
  const company = set.companyId ? sql`s.company_id = ${set.companyId}::uuid` : sql`true`;
  const days = set.days
    ? sql`(select x::timestamp as d from unnest(${`{${set.days.join(',')}}`}::date[]) x) as d`
    : sql`generate_series(${set.from}::timestamp, ${set.to}::timestamp, interval '1 day') as d(d)`;
  const only =
    set.only === 'unsummarized'
      ? sql`and not exists (select 1 from dashboard_summaries m where m.site_id = s.id and m.day = d.d::date)`
      : set.only === 'no-company-peak'
        ? sql`and not exists (select 1 from dashboard_company_days m where m.company_id = s.company_id and m.day = d.d::date)`
        : sql``;
  return sql`w as (
    select s.id as site_id, s.company_id, s.timezone, s.arrival_early_minutes as early,
           d.d::date as day, d.d at time zone s.timezone as t0,
           (d.d + interval '1 day') at time zone s.timezone as t1
      from sites s cross join ${days}
     where ${company} ${inSites('s.id', set.siteIds)} ${only}
  )`;
}

/**
 * The instants no pair's day reaches beyond (zones run from UTC−12 to UTC+14), as
 * constants the planner can use.
 */
export function bounds(set: Pick<PairSet, 'from' | 'to'>): { lo: SQL; hi: SQL } {
  const at = (day: string, hours: number) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + hours * 3_600_000).toISOString();
  return {
    lo: sql`${at(set.from, -14)}::timestamptz`,
    hi: sql`${at(addDays(set.to, 1), 12)}::timestamptz`,
  };
}

const wholeMinutes = (from: string, to: string) =>
  sql.raw(`floor(extract(epoch from (${to} - ${from})) / 60)::int`);

/** The checks of the pairs, undone arrivals left out, each with its pair. */
function checks(set: PairSet): SQL {
  const { lo, hi } = bounds(set);
  return sql`c as (
    select w.site_id, w.day, w.timezone, c.visitor_id, c.check_in_at, c.check_out_at, c.check_out_method
      from w join visitor_checks c on c.site_id = w.site_id
     where c.check_in_at >= ${lo} and c.check_in_at < ${hi}
       and c.check_in_at >= w.t0 and c.check_in_at < w.t1 and c.undone_at is null
  )`;
}

/** The figures each ledger statement gives. */
export const LEDGER_FIGURES = {
  arrivals: ['arrivals', 'visits', 'automatic', 'length', 'hour'],
  types: ['type'],
  hosts: ['host'],
  noShows: ['expected', 'no_show'],
  decisions: ['decision'],
  peaks: ['peak'],
} as const;

export type LedgerPart = keyof typeof LEDGER_FIGURES;

/**
 * A ledger statement's CTEs (after `w`) and its select of (site_id, day, figure, key,
 * value) rows. `now`: which days have ended (a visit is due, so maybe missed, once its day
 * is over).
 */
export function ledger(part: LedgerPart, set: PairSet, now: Date): { ctes: SQL; rows: SQL } {
  const { lo, hi } = bounds(set);
  switch (part) {
    case 'arrivals':
      return {
        ctes: sql`${checks(set)}`,
        rows: sql`select x.site_id, x.day, f.figure, f.key, f.value
            from (select site_id, day, count(*)::int as a, count(distinct visitor_id)::int as v,
                         (count(*) filter (where check_out_method = 'automatic'))::int as au
                    from c group by site_id, day) x
            cross join lateral (values ('arrivals', '', x.a), ('visits', '', x.v), ('automatic', '', x.au)) f(figure, key, value)
          union all
          select site_id, day, 'length', (${wholeMinutes('check_in_at', 'check_out_at')})::text, count(*)::int
            from c where check_out_at is not null and check_out_method is distinct from 'automatic'
           group by 1, 2, 4
          union all
          select site_id, day, 'hour',
                 (extract(isodow from check_in_at at time zone timezone)::int * 100
                  + extract(hour from check_in_at at time zone timezone)::int)::text,
                 count(*)::int
            from c group by 1, 2, 4`,
      };
    case 'types':
      return {
        ctes: sql`${checks(set)}`,
        rows: sql`select c.site_id, c.day, 'type',
                 coalesce(v.visitor_type_id::text, '~' || nullif(btrim(v.visitor_type), ''), ''),
                 count(distinct c.visitor_id)::int
            from c join visitors v on v.id = c.visitor_id
           group by 1, 2, 4`,
      };
    case 'hosts':
      // A visit is a visitor's arrival day; its host, their latest request's.
      return {
        ctes: sql`${checks(set)}, visit as (select distinct site_id, day, visitor_id from c)`,
        rows: sql`select visit.site_id, visit.day, 'host',
                 coalesce(r.host_user_id::text, '') || '|' || coalesce(nullif(btrim(r.host), ''), ''),
                 count(*)::int
            from visit
            join lateral (
              select r.host_user_id, r.host from visit_requests r
               where r.visitor_id = visit.visitor_id
               order by r.created_at desc limit 1
            ) r on true
           group by 1, 2, 4`,
      };
    case 'noShows': {
      // The invitation days read by their company's index with the constant bounds.
      const ofCompany = set.companyId
        ? sql`d.company_id = ${set.companyId}::uuid`
        : sql`d.company_id in (select company_id from w)`;
      const at = sql`${now.toISOString()}::timestamptz`;
      return {
        // The company's invitation days between the bounds, read once (materialized): joined
        // to each pair instead, each pair read every site's days of its day again.
        ctes: sql`invited as materialized (
            select d.invitation_id, d.starts_at, d.ends_at, i.site_id
              from invitation_days d join invitations i on i.id = d.invitation_id
             where ${ofCompany} and d.starts_at >= ${lo} and d.starts_at < ${hi} and d.ends_at <= ${at}
               and d.cancelled_at is null and i.cancelled_at is null
          ),
          due as (
            select w.site_id, w.day, v.id as visitor_id, v.day_starts_at as starts, v.day_ends_at as ends, w.early
              from w join visitors v on v.site_id = w.site_id
              join visit_requests r on r.visitor_id = v.id
             where v.day_starts_at >= ${lo} and v.day_starts_at < ${hi}
               and v.day_starts_at >= w.t0 and v.day_starts_at < w.t1
               and v.day_ends_at <= ${at} and v.event_id is null
               and r.invitation_id is null and r.confirmed and r.cancelled_at is null
            union all
            select w.site_id, w.day, r.visitor_id, d.starts_at, d.ends_at, w.early
              from invited d
              join w on w.site_id = d.site_id and d.starts_at >= w.t0 and d.starts_at < w.t1
              join visit_requests r on r.invitation_id = d.invitation_id
             where r.cancelled_at is null
          )`,
        rows: sql`select x.site_id, x.day, f.figure, '', f.value
            from (select site_id, day, count(*)::int as expected,
                         (count(*) filter (where not exists (
                           select 1 from visitor_checks c
                            where c.visitor_id = due.visitor_id and c.undone_at is null
                              and c.check_in_at >= due.starts - make_interval(mins => due.early)
                              and c.check_in_at < due.ends
                         )))::int as missed
                    from due group by site_id, day) x
            cross join lateral (values ('expected', x.expected), ('no_show', x.missed)) f(figure, value)`,
      };
    }
    case 'decisions':
      return {
        ctes: sql``,
        rows: sql`select w.site_id, w.day, 'decision', (${wholeMinutes('r.created_at', 'r.decided_at')})::text, count(*)::int
            from visit_requests r
            join visitors v on v.id = r.visitor_id
            join w on w.site_id = v.site_id
           where r.company_id in (select company_id from w)
             and r.created_at >= ${lo} and r.created_at < ${hi}
             and r.created_at >= w.t0 and r.created_at < w.t1
             and r.invitation_id is null and r.decided_at is not null
             -- A request confirmed as it was filed (an event registration, a walk-in its type
             -- lets in at once) was answered by no one; a decider since deleted keeps theirs.
             and (r.decided_by is not null or r.decided_at > r.created_at + interval '1 second')
           group by 1, 2, 4`,
      };
    case 'peaks':
      return {
        ctes: levels(set, 'site'),
        rows: sql`select site_id, day, 'peak', '', peak from peak`,
      };
  }
}

/**
 * The most visitors inside at once on each day of the pairs: every arrival +1, every
 * departure −1, and the day's midnight (0) so that a day nobody came or left still has the
 * level it started with. Each day is worked out on its own, from the visits that began
 * that day or the day before and those still open, whatever the period around it: a day
 * is the same read in a week, in a year or summarized alone.
 *   'site': each site's own level (the `peak` CTE: site_id, day, peak);
 *   'together': the levels of the pairs' sites on the same day added up, instant by
 *   instant (the `peak` CTE: day, peak).
 */
export function levels(set: PairSet, of: 'site' | 'together'): SQL {
  const { lo, hi } = bounds(set);
  const partition = of === 'site' ? sql`partition by site_id, day` : sql`partition by day`;
  const grouped = of === 'site' ? sql`site_id, day` : sql`day`;
  return sql`chk as (
      select w.site_id, w.day, w.t0, w.t1, c.check_in_at as a, c.check_out_at as b
        from w join visitor_checks c on c.site_id = w.site_id
       where c.undone_at is null
         and c.check_in_at >= ${lo} - interval '1 day' and c.check_in_at < ${hi}
         and c.check_in_at >= w.t0 - interval '1 day' and c.check_in_at < w.t1
      union all
      select w.site_id, w.day, w.t0, w.t1, c.check_in_at, c.check_out_at
        from w join visitor_checks c on c.site_id = w.site_id
       where c.check_out_at is null and c.undone_at is null
         and c.check_in_at < w.t0 - interval '1 day'
    ),
    ev as (
      select site_id, day, t0, t1, a as t, 1 as delta from chk
      union all
      select site_id, day, t0, t1, b, -1 from chk where b is not null
      union all
      select site_id, day, t0, t1, t0, 0 from w
    ),
    level as (
      select site_id, day, t >= t0 and t < t1 as within,
             sum(delta) over (${partition} order by t, delta rows unbounded preceding) as inside
        from ev
    ),
    peak as (
      select ${grouped}, max(inside)::int as peak from level where within group by ${grouped}
    )`;
}
