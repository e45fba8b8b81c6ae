/**
 * The dashboard's figures (issue 35), read straight from the checks, visits, invitations
 * and events — no aggregate table: a per-site, per-day counter row updated by every check
 * would make a busy desk's concurrent check-ins wait on one row lock, and the code check's
 * throughput is budgeted (`npm run bench -- checkin`). Indexes keep these reads fast
 * instead (`npm run bench -- dashboard` times each query below at a million checks).
 *
 * Every query reads the period asked for and the one just before it in one pass, each
 * site's days in its own zone (the `w` rows: a site and the instants its periods start and
 * end). What each figure counts is said once, in packages/shared/src/schemas/dashboard.ts.
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  DASHBOARD_LIMITS,
  DECISION_TIME_BUCKETS,
  VISIT_LENGTH_BUCKETS,
  addDays,
  daysInPeriod,
  previousPeriod,
  type Dashboard,
  type DashboardFigures,
  type Language,
} from '@sesame/shared';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { inSites } from '../sites/service';

export interface DashboardScope {
  /** One company's figures; undefined: every company (the platform's admin without ?company=). */
  companyId?: string;
  /** The sites counted; undefined: every site of the scope. */
  siteIds?: string[];
  /** The period, YYYY-MM-DD, both days included, in each site's zone. */
  from: string;
  to: string;
  /** The clock: which days have ended (no-shows), who is inside now. */
  now?: Date;
  /** The language of visitor type names. */
  lang?: Language;
}

/**
 * A read of this module, in its own short transaction: without JIT compilation (the planner's
 * row estimates over a period set it off, and compiling cost more than the query: a no-show
 * count of 185 ms took 1.7 s with it) and with room to sort a month's checks in memory.
 */
async function read<S extends z.ZodType<unknown, Record<string, unknown>>>(
  db: Db,
  schema: S,
  query: SQL,
): Promise<z.infer<S>[]> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('jit', 'off', true), set_config('work_mem', '32MB', true)`,
    );
    return rowsOf(tx, schema, query);
  });
}

/** Each site of the scope with the instants its previous period, period and day after start. */
function windows(scope: DashboardScope): SQL {
  const previous = previousPeriod(scope.from, scope.to);
  const company = scope.companyId ? sql`s.company_id = ${scope.companyId}::uuid` : sql`true`;
  return sql`w as (
    select s.id, s.company_id, s.timezone, s.arrival_early_minutes,
           (${previous.from}::date)::timestamp at time zone s.timezone as prev_start,
           (${scope.from}::date)::timestamp at time zone s.timezone as cur_start,
           (${scope.to}::date + 1)::timestamp at time zone s.timezone as cur_end
      from sites s
     where ${company} ${inSites('s.id', scope.siteIds)}
  )`;
}

/**
 * The instants no site's periods reach beyond (zones run from UTC−12 to UTC+14), as
 * constants: the per-site bounds of \`w\` hide the range from the planner, which then
 * scanned every check of a site (or of all) instead of the period's.
 */
function outer(scope: DashboardScope): { lo: SQL; hi: SQL } {
  const previous = previousPeriod(scope.from, scope.to);
  const at = (day: string, hours: number) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + hours * 3_600_000).toISOString();
  return {
    lo: sql`${at(previous.from, -14)}::timestamptz`,
    hi: sql`${at(addDays(scope.to, 1), 12)}::timestamptz`,
  };
}

/** The scope's checks of both periods, undone arrivals left out, each with its local day. */
function checksOfBothPeriods(scope: DashboardScope): SQL {
  const { lo, hi } = outer(scope);
  return sql`c as (
    select c.visitor_id, c.check_in_at, c.check_out_at, c.check_out_method, w.timezone,
           c.check_in_at >= w.cur_start as cur,
           (c.check_in_at at time zone w.timezone)::date as day
      from w join visitor_checks c on c.site_id = w.id
     where c.check_in_at >= ${lo} and c.check_in_at < ${hi}
       and c.check_in_at >= w.prev_start and c.check_in_at < w.cur_end and c.undone_at is null
  )`;
}

const minutes = (from: string, to: string) => sql.raw(`extract(epoch from (${to} - ${from})) / 60`);
const thresholds = (buckets: readonly number[]) =>
  sql.raw(`array[${buckets.slice(1).join(',')}]::float8[]`);

interface PeriodRow {
  cur: boolean;
}
/** The row of each period (current, previous) out of a `group by cur` answer. */
function byPeriod<T extends PeriodRow>(list: T[]): { current?: T; previous?: T } {
  return { current: list.find((r) => r.cur), previous: list.find((r) => !r.cur) };
}

/** Arrivals, visits, automatic check-outs and visit lengths of both periods. */
async function arrivals(db: Db, scope: DashboardScope) {
  const length = minutes('check_in_at', 'check_out_at');
  const left = sql`check_out_at is not null and check_out_method is distinct from 'automatic'`;
  const found = await read(
    db,
    z.object({
      cur: z.boolean(),
      arrivals: z.number(),
      visits: z.number(),
      automatic_check_outs: z.number(),
      length_median: z.number().nullable(),
      length_p90: z.number().nullable(),
    }),
    sql`with ${windows(scope)}, ${checksOfBothPeriods(scope)}
        select cur,
               count(*)::int as arrivals,
               (select count(*) from (select distinct visitor_id, day from c v where v.cur = c.cur) d)::int as visits,
               (count(*) filter (where check_out_method = 'automatic'))::int as automatic_check_outs,
               round((percentile_cont(0.5) within group (order by ${length}) filter (where ${left}))::numeric)::int as length_median,
               round((percentile_cont(0.9) within group (order by ${length}) filter (where ${left}))::numeric)::int as length_p90
          from c group by cur`,
  );
  return byPeriod(found);
}

/** The period's visits by day and visitor type, arrivals by weekday and hour, lengths by bucket. */
async function arrivalSeries(db: Db, scope: DashboardScope) {
  const typeName = scope.lang === 'en' ? sql.raw('vt.name_en') : sql.raw('vt.name_fr');
  const [perDay, byHour, lengths] = await Promise.all([
    read(
      db,
      z.object({ day: z.string(), visitor_type: z.string().nullable(), visits: z.number() }),
      sql`with ${windows(scope)}, ${checksOfBothPeriods(scope)}
          select c.day::text as day,
                 coalesce(${typeName}, nullif(btrim(v.visitor_type), '')) as visitor_type,
                 count(distinct c.visitor_id)::int as visits
            from c join visitors v on v.id = c.visitor_id
            left join visitor_types vt on vt.id = v.visitor_type_id
           where c.cur
           group by 1, 2 order by 1, 2`,
    ),
    read(
      db,
      z.object({ weekday: z.number(), hour: z.number(), arrivals: z.number() }),
      sql`with ${windows(scope)}, ${checksOfBothPeriods(scope)}
          select extract(isodow from check_in_at at time zone timezone)::int as weekday,
                 extract(hour from check_in_at at time zone timezone)::int as hour,
                 count(*)::int as arrivals
            from c where cur
           group by 1, 2 order by 1, 2`,
    ),
    read(
      db,
      z.object({ bucket: z.number(), visits: z.number() }),
      sql`with ${windows(scope)}, ${checksOfBothPeriods(scope)}
          select width_bucket((${minutes('check_in_at', 'check_out_at')})::float8, ${thresholds(VISIT_LENGTH_BUCKETS)}) as bucket,
                 count(*)::int as visits
            from c
           where cur and check_out_at is not null and check_out_method is distinct from 'automatic'
           group by 1`,
    ),
  ]);
  return {
    visits_per_day: perDay,
    arrivals_by_hour: byHour,
    visit_lengths: VISIT_LENGTH_BUCKETS.map((from, i) => ({
      from_minutes: from,
      visits: lengths.find((b) => Number(b.bucket) === i)?.visits ?? 0,
    })),
  };
}

/** The hosts who received most visits in the period (a visit: a visitor's arrival day). */
async function topHosts(db: Db, scope: DashboardScope) {
  return read(
    db,
    z.object({ host: z.string(), visits: z.number() }),
    sql`with ${windows(scope)}, ${checksOfBothPeriods(scope)},
        visit as (select distinct visitor_id, day from c where cur),
        hosted as (
          select r.host_user_id,
                 coalesce(nullif(btrim(u.firstname || ' ' || u.name), ''), nullif(btrim(r.host), '')) as host
            from visit
            join lateral (
              select r.host_user_id, r.host from visit_requests r
               where r.visitor_id = visit.visitor_id
               order by r.created_at desc limit 1
            ) r on true
            left join users u on u.id = r.host_user_id
        )
        select host, count(*)::int as visits
          from hosted where host is not null
         group by host_user_id, host
         order by visits desc, host
         limit ${DASHBOARD_LIMITS.topHosts}`,
  );
}

/**
 * The most visitors inside at once, each day of both periods: every arrival +1, every
 * departure −1, and each site's midnight (0) so that a day nobody came or left still has
 * the level it started with. A check open since before the periods counts from its
 * arrival; one closed within a day before them is read too (to know who was inside).
 */
async function peaksPerDay(db: Db, scope: DashboardScope): Promise<Map<string, number>> {
  const previous = previousPeriod(scope.from, scope.to);
  const { lo, hi } = outer(scope);
  const found = await read(
    db,
    z.object({ day: z.string(), peak: z.number() }),
    sql`with ${windows(scope)},
        chk as (
          select w.timezone, c.check_in_at as a, c.check_out_at as b
            from w join visitor_checks c on c.site_id = w.id
           where c.undone_at is null
             and c.check_in_at >= ${lo} - interval '1 day' and c.check_in_at < ${hi}
             and c.check_in_at >= w.prev_start - interval '1 day' and c.check_in_at < w.cur_end
          union all
          select w.timezone, c.check_in_at, c.check_out_at
            from w join visitor_checks c on c.site_id = w.id
           where c.check_out_at is null and c.undone_at is null
             and c.check_in_at < w.prev_start - interval '1 day'
        ),
        ev as (
          select a as t, 1 as delta, timezone from chk
          union all
          select b, -1, timezone from chk where b is not null
          union all
          select d at time zone w.timezone, 0, w.timezone
            from w, generate_series(${previous.from}::date, ${scope.to}::date, interval '1 day') d
        ),
        level as (
          select t, timezone, sum(delta) over (order by t, delta rows unbounded preceding) as inside
            from ev
        )
        select (t at time zone timezone)::date::text as day, max(inside)::int as peak
          from level
         where t >= ${lo} and t < ${hi}
           and t >= (select min(prev_start) from w) and t < (select max(cur_end) from w)
         group by 1`,
  );
  return new Map(found.map((r) => [r.day, Math.max(0, r.peak)]));
}

/**
 * The most visitors inside at once today, each site's today in its own zone: each visit is
 * cut to its site's today (so that at Paris's noon, Tokyo's visitors of a day already
 * over there are not counted), then the levels of every site are added up instant by instant.
 */
async function peakToday(db: Db, scope: DashboardScope, now: Date): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const [row] = await read(
    db,
    z.object({ peak: z.number().nullable() }),
    sql`with ${windows(scope)},
        today as (
          select w.id,
                 ((${at} at time zone w.timezone)::date)::timestamp at time zone w.timezone as t0,
                 ((${at} at time zone w.timezone)::date + 1)::timestamp at time zone w.timezone as t1
            from w
        ),
        chk as (
          select greatest(c.check_in_at, t.t0) as a, least(coalesce(c.check_out_at, t.t1), t.t1) as b
            from today t join visitor_checks c on c.site_id = t.id
           where c.undone_at is null and c.check_in_at < t.t1
             and c.check_in_at >= t.t0 - interval '1 day'
          union all
          select t.t0, t.t1
            from today t join visitor_checks c on c.site_id = t.id
           where c.check_out_at is null and c.undone_at is null
             and c.check_in_at < t.t0 - interval '1 day'
        ),
        ev as (
          select a as t, 1 as delta from chk where a < b
          union all
          select b, -1 from chk where a < b
        )
        select max(inside)::int as peak
          from (select sum(delta) over (order by t, delta rows unbounded preceding) as inside from ev) l`,
  );
  return Math.max(0, row?.peak ?? 0);
}

/** Visitors inside now (visitors only, as every figure here). */
async function onSiteNow(db: Db, scope: DashboardScope, now: Date): Promise<number> {
  const [row] = await read(
    db,
    z.object({ inside: z.number() }),
    sql`with ${windows(scope)}
        select count(*)::int as inside
          from w join visitor_checks c on c.site_id = w.id
         where c.check_out_at is null and c.undone_at is null
           and c.check_in_at <= ${now.toISOString()}::timestamptz`,
  );
  return row?.inside ?? 0;
}

/**
 * The visits due in both periods whose day has ended — a confirmed meeting's day, each day
 * of an invitation (neither cancelled) — and of those, whose visitor never arrived that day
 * (from the site's early-arrival margin before it).
 */
async function noShows(db: Db, scope: DashboardScope, now: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const { lo, hi } = outer(scope);
  // The invitation days read by their company's index with the period's constant bounds
  // (through \`w\` alone, every site read the company's days again).
  const ofCompany = scope.companyId
    ? sql`d.company_id = ${scope.companyId}::uuid`
    : sql`d.company_id in (select company_id from w)`;
  return read(
    db,
    z.object({ day: z.string(), cur: z.boolean(), expected: z.number(), no_shows: z.number() }),
    sql`with ${windows(scope)},
        due as (
          select v.id as visitor_id, v.day_starts_at as starts, v.day_ends_at as ends,
                 w.timezone, w.arrival_early_minutes as early, v.day_starts_at >= w.cur_start as cur
            from w join visitors v on v.site_id = w.id
            join visit_requests r on r.visitor_id = v.id
           where v.day_starts_at >= ${lo} and v.day_starts_at < ${hi}
             and v.day_starts_at >= w.prev_start and v.day_starts_at < w.cur_end
             and v.day_ends_at <= ${at} and v.event_id is null
             and r.invitation_id is null and r.confirmed and r.cancelled_at is null
          union all
          select r.visitor_id, d.starts_at, d.ends_at, w.timezone, w.arrival_early_minutes,
                 d.starts_at >= w.cur_start
            from invitation_days d
            join invitations i on i.id = d.invitation_id
            join w on w.id = i.site_id
            join visit_requests r on r.invitation_id = i.id
           where ${ofCompany} and d.starts_at >= ${lo} and d.starts_at < ${hi}
             and d.starts_at >= w.prev_start and d.starts_at < w.cur_end and d.ends_at <= ${at}
             and d.cancelled_at is null and i.cancelled_at is null and r.cancelled_at is null
        )
        select (starts at time zone timezone)::date::text as day, cur,
               count(*)::int as expected,
               (count(*) filter (where not exists (
                 select 1 from visitor_checks c
                  where c.visitor_id = due.visitor_id and c.undone_at is null
                    and c.check_in_at >= due.starts - make_interval(mins => due.early)
                    and c.check_in_at < due.ends
               )))::int as no_shows
          from due group by 1, 2 order by 1`,
  );
}

/** Requests made in both periods and answered: how long the answer took. */
async function decisions(db: Db, scope: DashboardScope) {
  const took = minutes('r.created_at', 'r.decided_at');
  const { lo, hi } = outer(scope);
  const answered = sql`with ${windows(scope)},
        answered as (
          select r.created_at >= w.cur_start as cur, ${took} as took
            from visit_requests r
            join visitors v on v.id = r.visitor_id
            join w on w.id = v.site_id
           where r.company_id in (select company_id from w)
             and r.created_at >= ${lo} and r.created_at < ${hi}
             and r.created_at >= w.prev_start and r.created_at < w.cur_end
             and r.invitation_id is null and r.decided_at is not null
             -- A request confirmed as it was filed (an event registration, a walk-in its type
             -- lets in at once) was answered by no one; a decider since deleted keeps theirs.
             and (r.decided_by is not null or r.decided_at > r.created_at + interval '1 second')
        )`;
  const [summary, buckets] = await Promise.all([
    read(
      db,
      z.object({
        cur: z.boolean(),
        decisions: z.number(),
        median: z.number().nullable(),
        p90: z.number().nullable(),
      }),
      sql`${answered}
          select cur, count(*)::int as decisions,
                 round((percentile_cont(0.5) within group (order by took))::numeric)::int as median,
                 round((percentile_cont(0.9) within group (order by took))::numeric)::int as p90
            from answered group by cur`,
    ),
    read(
      db,
      z.object({ bucket: z.number(), requests: z.number() }),
      sql`${answered}
          select width_bucket(took::float8, ${thresholds(DECISION_TIME_BUCKETS)}) as bucket,
                 count(*)::int as requests
            from answered where cur group by 1`,
    ),
  ]);
  return {
    ...byPeriod(summary),
    series: DECISION_TIME_BUCKETS.map((from, i) => ({
      from_minutes: from,
      requests: buckets.find((b) => Number(b.bucket) === i)?.requests ?? 0,
    })),
  };
}

/** The events of both periods, their registrations and how many of those arrived. */
async function events(db: Db, scope: DashboardScope) {
  const { lo, hi } = outer(scope);
  return read(
    db,
    z.object({
      event_id: z.string(),
      name: z.string(),
      day: z.string(),
      cur: z.boolean(),
      registrations: z.number(),
      attendees: z.number(),
    }),
    sql`with ${windows(scope)}
        select e.id::text as event_id, e.name, (e.day_starts_at at time zone w.timezone)::date::text as day,
               e.day_starts_at >= w.cur_start as cur,
               (select count(*) from visitors v
                 where v.company_id = e.company_id and v.event_id = e.id)::int as registrations,
               (select count(*) from visitors v
                 where v.company_id = e.company_id and v.event_id = e.id
                   and exists (select 1 from visitor_checks c
                                where c.visitor_id = v.id and c.undone_at is null))::int as attendees
          from w join events e on e.site_id = w.id
         where e.day_starts_at >= ${lo} and e.day_starts_at < ${hi}
           and e.day_starts_at >= w.prev_start and e.day_starts_at < w.cur_end
         order by registrations desc, e.day_starts_at, e.name`,
  );
}

/** The sites counted, for the answer (the screen names them). */
async function sitesOf(db: Db, scope: DashboardScope) {
  return read(
    db,
    z.object({ id: z.string(), name: z.string(), timezone: z.string() }),
    sql`with ${windows(scope)}
        select s.id::text as id, s.name, s.timezone from w join sites s on s.id = w.id
         order by s.name`,
  );
}

/**
 * Each query of the dashboard on its own, so that the benchmark times each one
 * (`npm run bench -- dashboard`); `readDashboard` runs them all.
 */
export const DASHBOARD_QUERIES = {
  arrivals: (db: Db, scope: DashboardScope) => arrivals(db, scope),
  arrivalSeries: (db: Db, scope: DashboardScope) => arrivalSeries(db, scope),
  topHosts: (db: Db, scope: DashboardScope) => topHosts(db, scope),
  peaksPerDay: (db: Db, scope: DashboardScope) => peaksPerDay(db, scope),
  peakToday: (db: Db, scope: DashboardScope) => peakToday(db, scope, scope.now ?? new Date()),
  onSiteNow: (db: Db, scope: DashboardScope) => onSiteNow(db, scope, scope.now ?? new Date()),
  noShows: (db: Db, scope: DashboardScope) => noShows(db, scope, scope.now ?? new Date()),
  decisions: (db: Db, scope: DashboardScope) => decisions(db, scope),
  events: (db: Db, scope: DashboardScope) => events(db, scope),
} as const;

/** The day `now` is in `timeZone` (YYYY-MM-DD). */
export function localDay(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(now);
}

/** Every figure and series of the dashboard for `scope`'s period and the one before it. */
export async function readDashboard(db: Db, scope: DashboardScope): Promise<Dashboard> {
  const now = scope.now ?? new Date();
  const withNow = { ...scope, now };
  const previous = previousPeriod(scope.from, scope.to);
  const [sites, arrived, series, hosts, peaks, todayPeak, inside, due, answered, held] =
    await Promise.all([
      sitesOf(db, withNow),
      arrivals(db, withNow),
      arrivalSeries(db, withNow),
      topHosts(db, withNow),
      peaksPerDay(db, withNow),
      peakToday(db, withNow, now),
      onSiteNow(db, withNow, now),
      noShows(db, withNow, now),
      decisions(db, withNow),
      events(db, withNow),
    ]);

  const days = (from: string, to: string) =>
    Array.from({ length: daysInPeriod(from, to) }, (_, i) => addDays(from, i));
  const currentDays = days(scope.from, scope.to);
  const previousDays = days(previous.from, previous.to);
  const peakOf = (list: string[]) => Math.max(0, ...list.map((d) => peaks.get(d) ?? 0));

  const figures = (cur: boolean): DashboardFigures => {
    const a = cur ? arrived.current : arrived.previous;
    const d = cur ? answered.current : answered.previous;
    const dueRows = due.filter((r) => r.cur === cur);
    const eventRows = held.filter((e) => e.cur === cur);
    return {
      arrivals: a?.arrivals ?? 0,
      visits: a?.visits ?? 0,
      expected: dueRows.reduce((n, r) => n + r.expected, 0),
      no_shows: dueRows.reduce((n, r) => n + r.no_shows, 0),
      peak_on_site: peakOf(cur ? currentDays : previousDays),
      visit_length_median_minutes: a?.length_median ?? null,
      visit_length_p90_minutes: a?.length_p90 ?? null,
      automatic_check_outs: a?.automatic_check_outs ?? 0,
      decisions: d?.decisions ?? 0,
      decision_median_minutes: d?.median ?? null,
      decision_p90_minutes: d?.p90 ?? null,
      event_registrations: eventRows.reduce((n, e) => n + e.registrations, 0),
      event_attendees: eventRows.reduce((n, e) => n + e.attendees, 0),
    };
  };

  return {
    period: { from: scope.from, to: scope.to, days: currentDays.length },
    previous_period: previous,
    sites,
    current: figures(true),
    previous: figures(false),
    on_site_now: inside,
    peak_today: todayPeak,
    charts: {
      ...series,
      on_site_peaks: currentDays.map((day) => ({ day, peak: peaks.get(day) ?? 0 })),
      no_shows_per_day: currentDays.map((day) => {
        const row = due.find((r) => r.cur && r.day === day);
        return { day, expected: row?.expected ?? 0, no_shows: row?.no_shows ?? 0 };
      }),
      decision_times: answered.series,
      event_attendance: held
        .filter((e) => e.cur)
        .slice(0, DASHBOARD_LIMITS.topEvents)
        .map(({ event_id, name, day, registrations, attendees }) => ({
          event_id,
          name,
          day,
          registrations,
          attendees,
        })),
      top_hosts: hosts,
    },
  };
}
