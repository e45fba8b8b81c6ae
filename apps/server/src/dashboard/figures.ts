/**
 * The dashboard's figures (issue 35). A day's figures are its ledger rows (ledger.ts): a
 * settled day's, summarized once by the sweep (summary.ts) into `dashboard_days`; the
 * last week's and any day a late change made stale, read from the checks, visits,
 * requests and invitations through the same statements. Each figure adds up both sorts
 * of rows for the period asked and the one just before it, each site's days in its own
 * zone. Why a sweep and not counters updated by each check: a per-site, per-day row
 * updated in every check's transaction would make a busy desk's concurrent check-ins wait
 * on one row lock, and the code check's throughput is budgeted (`npm run bench --
 * checkin`); the sweep writes days no desk writes any more.
 *
 * What each figure counts is said once, in packages/shared/src/schemas/dashboard.ts.
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
import { daysOf, daysOutside, runsOf, wholeMonths } from './months';
import { lastSettledDay } from './summary';
import { rowsOf } from '../db/rows';
import { inSites } from '../sites/service';
import {
  bounds,
  ledger,
  levels,
  pairs,
  LEDGER_FIGURES,
  type LedgerPart,
  type PairSet,
} from './ledger';

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
  query: SQL | ((tx: Db) => Promise<z.infer<S>[]>),
): Promise<z.infer<S>[]> {
  // Repeatable read: a read of several statements (readLedger) sees one snapshot.
  return db.transaction(
    async (tx) => {
      await tx.execute(
        sql`select set_config('jit', 'off', true), set_config('work_mem', '32MB', true)`,
      );
      return typeof query === 'function' ? query(tx) : rowsOf(tx, schema, query);
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
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
 * How each ledger statement reads its rows: of which periods (the per-host and per-type
 * figures are the period's only), and where whole settled months may come from
 * `dashboard_months` (never for a figure drawn day by day: the types, the period's no-shows,
 * the peaks).
 */
const READS: Record<
  LedgerPart,
  { periods: 'both' | 'current'; months: 'both' | 'previous' | 'none' }
> = {
  arrivals: { periods: 'both', months: 'both' },
  types: { periods: 'current', months: 'none' },
  hosts: { periods: 'current', months: 'both' },
  noShows: { periods: 'both', months: 'previous' },
  decisions: { periods: 'both', months: 'both' },
  peaks: { periods: 'both', months: 'none' },
};

/**
 * Which months of the scope's periods are read whole from `dashboard_months`: those lying
 * inside one period, settled, and marked for every scope read (the company's own rows for
 * all its sites; each site's for a list of sites; none for every company at once).
 */
async function summarizedMonths(tx: Db, scope: DashboardScope, part: LedgerPart, now: Date) {
  const ids = scope.siteIds ?? (scope.companyId ? [scope.companyId] : []);
  const previous = previousPeriod(scope.from, scope.to);
  const { months } = READS[part];
  const candidates = [
    ...(months === 'both' || months === 'previous'
      ? wholeMonths(previous, lastSettledDay(now))
      : []),
    ...(months === 'both' ? wholeMonths(scope, lastSettledDay(now)) : []),
  ];
  if (ids.length === 0 || candidates.length === 0) return { ids, months: [] };
  const company = scope.companyId ? sql`and company_id = ${scope.companyId}::uuid` : sql``;
  const found = await rowsOf(
    tx,
    z.object({ month: z.string() }),
    sql`select month::text as month from dashboard_month_summaries
         where scope_id = any(${`{${ids.join(',')}}`}::uuid[]) ${company}
           and month = any(${`{${candidates.join(',')}}`}::date[])
         group by month having count(*) = ${ids.length}`,
  );
  return { ids, months: found.map((r) => r.month) };
}

/** Both periods' days: the previous period's first day to the period's last. */
function bothPeriods(scope: DashboardScope): { from: string; to: string } {
  return { from: previousPeriod(scope.from, scope.to).from, to: scope.to };
}

/**
 * The rows of one ledger statement over its periods (`rows`, added up by `tail`): whole
 * settled months from `dashboard_months`; the other days' summarized rows from
 * `dashboard_days`, one index range per run of days; every pair not summarized read from
 * the checks (ledger.ts) — the last week, a day made stale by a late change. Read in one
 * snapshot, so that a mark deleted meanwhile cannot drop a month.
 */
async function readLedger<S extends z.ZodType<unknown, Record<string, unknown>>>(
  db: Db,
  schema: S,
  scope: DashboardScope,
  part: LedgerPart,
  tail: SQL,
): Promise<z.infer<S>[]> {
  const now = scope.now ?? new Date();
  return read(db, schema, async (tx) => {
    const summarized = await summarizedMonths(tx, scope, part, now);
    const periods =
      READS[part].periods === 'both'
        ? [previousPeriod(scope.from, scope.to), scope]
        : [{ from: scope.from, to: scope.to }];
    const runs = periods.flatMap((p) => daysOutside(p, summarized.months));
    const days = daysOf(runs);
    const figures = sql.join(
      LEDGER_FIGURES[part].map((f) => sql`${f}`),
      sql`, `,
    );
    const monthRows = summarized.months.length
      ? [
          sql`select m.scope_id, m.month, m.figure, m.key, m.value from dashboard_months m
               where m.scope_id = any(${`{${summarized.ids.join(',')}}`}::uuid[])
                 and m.figure in (${figures})
                 and m.month = any(${`{${summarized.months.join(',')}}`}::date[])`,
        ]
      : [];
    const company = scope.companyId ? sql`s.company_id = ${scope.companyId}::uuid` : sql`true`;
    const ofScope = sql`select s.id from sites s where ${company} ${inSites('s.id', scope.siteIds)}`;
    // A whole company's summarized days are read from its all-sites rows (one row per
    // figure and key, not one per site); the peaks have their own (peaksPerDay).
    const allSites = scope.companyId && !scope.siteIds && part !== 'peaks';
    // Each day: whether its company's all-sites rows stand, and whether a site of the
    // scope has no summary of it (read from the checks then, between the first and last
    // of those days only).
    const found = days.length
      ? await rowsOf(
          tx,
          z.object({ day: z.string(), whole: z.boolean(), live: z.boolean() }),
          sql`select d::text as day,
                     ${
                       allSites
                         ? sql`exists (select 1 from dashboard_company_days k
                                        where k.company_id = ${scope.companyId!}::uuid and k.day = d)`
                         : sql`false`
                     } as whole,
                     exists (select 1 from (${ofScope}) s
                              where not exists (select 1 from dashboard_summaries m
                                                 where m.site_id = s.id and m.day = d)) as live
                from unnest(${`{${days.join(',')}}`}::date[]) d
               order by 1`,
        )
      : [];
    const wholeDays = runsOf(found.filter((d) => d.whole).map((d) => d.day)).map(
      (run) =>
        sql`select ${scope.companyId!}::uuid, d.day, d.figure, d.key, d.value
              from dashboard_all_sites_days d
              join dashboard_company_days k on k.company_id = d.company_id and k.day = d.day
               and k.day between ${run.from}::date and ${run.to}::date
             where d.company_id = ${scope.companyId!}::uuid
               and d.figure in (${figures}) and d.day between ${run.from}::date and ${run.to}::date`,
    );
    const siteDays = runsOf(found.filter((d) => !d.whole).map((d) => d.day)).map(
      (run) =>
        sql`select d.site_id, d.day, d.figure, d.key, d.value
              from dashboard_days d
              join dashboard_summaries m on m.site_id = d.site_id and m.day = d.day
               and m.day between ${run.from}::date and ${run.to}::date
             where d.site_id in (${ofScope})
               and d.figure in (${figures}) and d.day between ${run.from}::date and ${run.to}::date`,
    );
    const liveDays = found.filter((d) => !d.whole && d.live).map((d) => d.day);
    const ctes: SQL[] = [];
    const sources = [...monthRows, ...wholeDays, ...siteDays];
    if (liveDays.length) {
      const set: PairSet = {
        ...scope,
        from: liveDays[0]!,
        to: liveDays[liveDays.length - 1]!,
        days: liveDays,
        only: 'unsummarized',
      };
      const statement = ledger(part, set, now);
      ctes.push(pairs(set));
      if (statement.ctes.queryChunks.length) ctes.push(statement.ctes);
      ctes.push(sql`ledger (site_id, day, figure, key, value) as (${statement.rows})`);
      sources.push(sql`select site_id, day::date, figure, key, value from ledger`);
    }
    if (sources.length === 0) return [];
    ctes.push(
      sql`rows (site_id, day, figure, key, value) as (${sql.join(sources, sql` union all `)})`,
    );
    return rowsOf(tx, schema, sql`with ${sql.join(ctes, sql`, `)} ${tail}`);
  });
}

/** Whole minutes (`key`) and how many of them. */
interface KeyCount {
  key: string;
  count: number;
}

/**
 * PostgreSQL's percentile_cont over whole minutes counted by value (`hist`), rounded:
 * the value at rank p·(n−1), between the two nearest values.
 */
function percentile(hist: KeyCount[], p: number): number | null {
  const sorted = hist
    .map((h) => ({ value: Number(h.key), count: h.count }))
    .filter((h) => h.count > 0)
    .sort((a, b) => a.value - b.value);
  const n = sorted.reduce((sum, h) => sum + h.count, 0);
  if (n === 0) return null;
  const valueAt = (rank: number) => {
    let seen = 0;
    for (const h of sorted) {
      seen += h.count;
      if (rank < seen) return h.value;
    }
    return sorted[sorted.length - 1]!.value;
  };
  const pos = p * (n - 1);
  const lower = valueAt(Math.floor(pos));
  const upper = valueAt(Math.ceil(pos));
  return Math.round(lower + (upper - lower) * (pos - Math.floor(pos)));
}

/** How many of `hist`'s minutes fall in each bucket (`width_bucket` over its thresholds). */
function byBucket(hist: KeyCount[], buckets: readonly number[]): number[] {
  const counts = buckets.map(() => 0);
  for (const h of hist) {
    const minutes = Number(h.key);
    const i = buckets.filter((from, k) => k > 0 && from <= minutes).length;
    counts[i]! += h.count;
  }
  return counts;
}

/** Arrivals, visits, automatic check-outs, visit lengths and arrivals by hour, both periods. */
async function arrivals(db: Db, scope: DashboardScope) {
  const found = await readLedger(
    db,
    z.object({ cur: z.boolean(), figure: z.string(), key: z.string(), count: z.number() }),
    scope,
    'arrivals',
    sql`select day >= ${scope.from}::date as cur, figure, key, sum(value)::int as count
            from rows group by 1, 2, 3`,
  );
  const of = (cur: boolean, figure: string) =>
    found.filter((r) => r.cur === cur && r.figure === figure);
  const total = (cur: boolean, figure: string) => of(cur, figure).reduce((n, r) => n + r.count, 0);
  const period = (cur: boolean) => {
    const lengths = of(cur, 'length');
    return {
      arrivals: total(cur, 'arrivals'),
      visits: total(cur, 'visits'),
      automatic_check_outs: total(cur, 'automatic'),
      length_median: percentile(lengths, 0.5),
      length_p90: percentile(lengths, 0.9),
    };
  };
  const lengths = byBucket(of(true, 'length'), VISIT_LENGTH_BUCKETS);
  return {
    current: period(true),
    previous: period(false),
    arrivals_by_hour: of(true, 'hour')
      .map((r) => ({
        weekday: Math.floor(Number(r.key) / 100),
        hour: Number(r.key) % 100,
        arrivals: r.count,
      }))
      .sort((a, b) => a.weekday - b.weekday || a.hour - b.hour),
    visit_lengths: VISIT_LENGTH_BUCKETS.map((from, i) => ({
      from_minutes: from,
      visits: lengths[i]!,
    })),
  };
}

/** The period's visits by day and visitor type (its name in the reader's language). */
async function visitTypes(db: Db, scope: DashboardScope) {
  const typeName = scope.lang === 'en' ? sql.raw('vt.name_en') : sql.raw('vt.name_fr');
  return readLedger(
    db,
    z.object({ day: z.string(), visitor_type: z.string().nullable(), visits: z.number() }),
    scope,
    'types',
    sql`, typed as (
            select day, key, sum(value)::int as visits from rows
             where day >= ${scope.from}::date group by 1, 2
          )
          select t.day::text as day,
                 case when t.key like '~%' then substr(t.key, 2) else ${typeName} end as visitor_type,
                 sum(t.visits)::int as visits
            from typed t
            left join visitor_types vt on vt.id::text = t.key
           group by 1, 2 order by 1, 2`,
  );
}

/** The hosts who received most visits in the period (a visit: a visitor's arrival day). */
async function topHosts(db: Db, scope: DashboardScope) {
  return readLedger(
    db,
    z.object({ host: z.string(), visits: z.number() }),
    scope,
    'hosts',
    sql`, hosted as (
            select nullif(split_part(key, '|', 1), '')::uuid as host_user_id,
                   nullif(substr(key, strpos(key, '|') + 1), '') as host_text,
                   sum(value)::int as visits
              from rows where day >= ${scope.from}::date group by 1, 2
          ),
          named as (
            select h.host_user_id, h.visits,
                   coalesce(nullif(btrim(u.firstname || ' ' || u.name), ''), h.host_text) as host
              from hosted h left join users u on u.id = h.host_user_id
          )
          select host, sum(visits)::int as visits
            from named where host is not null
           group by host_user_id, host
           order by visits desc, host
           limit ${DASHBOARD_LIMITS.topHosts}`,
  );
}

/**
 * The most visitors inside at once, each day of both periods. One site: its own summarized
 * peaks and the others read. A whole company: its summarized days' peaks of all its sites
 * together, the others read. Any other set of sites (a site-limited reader's, every
 * company's) has no summary of its own: read from the checks.
 */
async function peaksPerDay(db: Db, scope: DashboardScope): Promise<Map<string, number>> {
  const days = bothPeriods(scope);
  const dayPeak = z.object({ day: z.string(), peak: z.number() });
  let found: z.infer<typeof dayPeak>[];
  if (scope.siteIds?.length === 1) {
    found = await readLedger(
      db,
      dayPeak,
      scope,
      'peaks',
      sql`select day::text as day, max(value)::int as peak from rows group by 1`,
    );
  } else if (scope.companyId && !scope.siteIds) {
    found = await read(db, dayPeak, async (tx) => {
      const summarized = sql`select day::text as day, peak from dashboard_company_days
           where company_id = ${scope.companyId}::uuid
             and day between ${days.from}::date and ${days.to}::date`;
      // The days without the company's peak, read from the checks between the first and
      // last of them only.
      const live = await rowsOf(
        tx,
        z.object({ day: z.string() }),
        sql`select d::date::text as day
              from generate_series(${days.from}::timestamp, ${days.to}::timestamp, interval '1 day') d
             where not exists (select 1 from dashboard_company_days m
                                where m.company_id = ${scope.companyId}::uuid and m.day = d::date)
             order by 1`,
      );
      if (live.length === 0) return rowsOf(tx, dayPeak, summarized);
      const set: PairSet = {
        ...scope,
        from: live[0]!.day,
        to: live[live.length - 1]!.day,
        days: live.map((r) => r.day),
        only: 'no-company-peak',
      };
      return rowsOf(
        tx,
        dayPeak,
        sql`with ${pairs(set)}, ${levels(set, 'together')}
            select day::text as day, peak from peak union all ${summarized}`,
      );
    });
  } else {
    const set: PairSet = { ...scope, ...days, only: 'all' };
    found = await read(
      db,
      dayPeak,
      sql`with ${pairs(set)}, ${levels(set, 'together')} select day::text as day, peak from peak`,
    );
  }
  return new Map(found.map((r) => [r.day, Math.max(0, r.peak)]));
}

/**
 * The visits due in both periods whose day has ended — a confirmed meeting's day, each day
 * of an invitation (neither cancelled) — and of those, whose visitor never arrived that day
 * (from the site's early-arrival margin before it).
 */
async function noShows(db: Db, scope: DashboardScope) {
  const found = await readLedger(
    db,
    z.object({ day: z.string(), figure: z.string(), count: z.number() }),
    scope,
    'noShows',
    sql`select day::text as day, figure, sum(value)::int as count from rows group by 1, 2 order by 1`,
  );
  const days = [...new Set(found.map((r) => r.day))];
  const count = (day: string, figure: string) =>
    found.find((r) => r.day === day && r.figure === figure)?.count ?? 0;
  return days.map((day) => ({
    day,
    cur: day >= scope.from,
    expected: count(day, 'expected'),
    no_shows: count(day, 'no_show'),
  }));
}

/** Requests made in both periods and answered: how long the answer took. */
async function decisions(db: Db, scope: DashboardScope) {
  const found = await readLedger(
    db,
    z.object({ cur: z.boolean(), key: z.string(), count: z.number() }),
    scope,
    'decisions',
    sql`select day >= ${scope.from}::date as cur, key, sum(value)::int as count
            from rows group by 1, 2`,
  );
  const period = (cur: boolean) => {
    const took = found.filter((r) => r.cur === cur);
    return {
      decisions: took.reduce((n, r) => n + r.count, 0),
      median: percentile(took, 0.5),
      p90: percentile(took, 0.9),
    };
  };
  const buckets = byBucket(
    found.filter((r) => r.cur),
    DECISION_TIME_BUCKETS,
  );
  return {
    current: period(true),
    previous: period(false),
    series: DECISION_TIME_BUCKETS.map((from, i) => ({ from_minutes: from, requests: buckets[i]! })),
  };
}

/** The events of both periods, their registrations and how many of those arrived. */
async function events(db: Db, scope: DashboardScope) {
  const { lo, hi } = bounds(bothPeriods(scope));
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
  visitTypes: (db: Db, scope: DashboardScope) => visitTypes(db, scope),
  topHosts: (db: Db, scope: DashboardScope) => topHosts(db, scope),
  peaksPerDay: (db: Db, scope: DashboardScope) => peaksPerDay(db, scope),
  peakToday: (db: Db, scope: DashboardScope) => peakToday(db, scope, scope.now ?? new Date()),
  onSiteNow: (db: Db, scope: DashboardScope) => onSiteNow(db, scope, scope.now ?? new Date()),
  noShows: (db: Db, scope: DashboardScope) => noShows(db, scope),
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
  const [sites, arrived, perDay, hosts, peaks, todayPeak, inside, due, answered, held] =
    await Promise.all([
      sitesOf(db, withNow),
      arrivals(db, withNow),
      visitTypes(db, withNow),
      topHosts(db, withNow),
      peaksPerDay(db, withNow),
      peakToday(db, withNow, now),
      onSiteNow(db, withNow, now),
      noShows(db, withNow),
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
      visits_per_day: perDay,
      arrivals_by_hour: arrived.arrivals_by_hour,
      visit_lengths: arrived.visit_lengths,
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
