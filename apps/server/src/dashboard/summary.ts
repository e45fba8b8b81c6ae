/**
 * The dashboard's summary of settled days (issue 35): a sweep writes each settled day's
 * ledger rows (ledger.ts) into `dashboard_days`, so that a month or a year of the
 * dashboard adds up a few thousand rows instead of reading every check again.
 *
 * - A day is settled once it ended DASHBOARD_SETTLED_DAYS ago in every zone: desks seldom
 *   write it any more (a visit checked out the next morning, an undone arrival are within
 *   it). The dashboard reads the days after it from the checks, as they happen: few, so
 *   that even the last week of all sites is read fast.
 * - A later change to a settled day's rows (a request answered days later, a visit checked
 *   out days later, an erasure, the retention purge, a site's zone) deletes its marks, and
 *   its month's (the triggers of migrations 0035 and 0036); the dashboard reads it from
 *   the checks until this sweep writes it again.
 * - A month whose every day is summarized for every site of its company is added up once
 *   more (dashboard_months), per site and for all sites: a year reads whole months.
 * - Every instance runs the sweep (background.ts); a company's days are summarized under
 *   its advisory lock, taken without waiting: an instance that finds it taken leaves the
 *   company to the other. The triggers take the same lock, shared, so a summary's
 *   statements see every change that deleted a mark before they read.
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { addDays } from '@sesame/shared';
import { monthEnd } from './months';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { ledger, levels, pairs, LEDGER_FIGURES, type LedgerPart, type PairSet } from './ledger';

/** How many days after its end a day is summarized; migration 0036 says the same ('2 days'). */
export const DASHBOARD_SETTLED_DAYS = 2;
/**
 * How many days of a company one transaction summarizes: few, so that each statement stays
 * well within the server's statement timeout at 20 busy sites (the bench's company).
 */
const DAYS_PER_BATCH = 4;
/** How many batches one sweep writes at most (the rest waits for the next sweep). */
const BATCHES_PER_SWEEP = 100;
/** The advisory lock's first key (the issue's number); the second, the company's hash. */
const LOCK_CLASS = 35;

/**
 * The last day settled in every zone at `now`: a day D ends at the latest at D+1 12:00
 * UTC (UTC−12), so D is settled once now ≥ D + 1 + 12 h + the settled days.
 */
export function lastSettledDay(now: Date): string {
  const utcDay = now.toISOString().slice(0, 10);
  return addDays(utcDay, -(DASHBOARD_SETTLED_DAYS + 2));
}

/** The days of each company not summarized yet, oldest first, from its first record. */
async function daysToSummarize(db: Db, lastDay: string, limit: number) {
  return rowsOf(
    db,
    z.object({ company_id: z.string(), day: z.string() }),
    sql`with co as (
          select c.id,
                 least((select min(check_in_at) from visitor_checks where company_id = c.id),
                       (select min(created_at) from visit_requests where company_id = c.id),
                       (select min(starts_at) from invitation_days where company_id = c.id)) as first
            from companies c
        )
        select co.id::text as company_id, d.d::date::text as day
          from co
          cross join generate_series(((co.first at time zone 'UTC')::date - 1)::timestamp,
                                     ${lastDay}::timestamp, interval '1 day') d(d)
         where co.first is not null
           and not exists (select 1 from dashboard_company_days m
                            where m.company_id = co.id and m.day = d.d::date)
         order by 1, 2
         limit ${limit}`,
  );
}

/** Rows of a table keyed by site that belong to the company's sites. */
const ofCompanySites = (companyId: string) =>
  sql`site_id in (select id from sites where company_id = ${companyId}::uuid)`;

/**
 * Takes the company's summary lock for the transaction, without waiting: false when another
 * instance (or a change to the company's settled days) holds it.
 */
async function companyLocked(tx: Db, companyId: string): Promise<boolean> {
  const [lock] = await rowsOf(
    tx,
    z.object({ locked: z.boolean() }),
    sql`select pg_try_advisory_xact_lock(${LOCK_CLASS}, hashtext(${companyId})) as locked`,
  );
  return lock?.locked === true;
}

/**
 * Summarizes `days` of one company in one transaction: each site's ledger rows, the
 * company's peaks, and the marks that let the dashboard read them. False when another
 * instance (or a change to the company's settled days) holds the company's lock.
 */
async function summarize(db: Db, companyId: string, days: string[], now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await companyLocked(tx, companyId))) return false;
    await tx.execute(
      sql`select set_config('jit', 'off', true), set_config('work_mem', '32MB', true)`,
    );
    const set: PairSet = {
      companyId,
      from: days[0]!,
      to: days[days.length - 1]!,
      days,
      only: 'all',
    };
    const dayList = sql`${`{${days.join(',')}}`}::date[]`;
    const ofCompany = ofCompanySites(companyId);
    await tx.execute(sql`delete from dashboard_days where ${ofCompany} and day = any(${dayList})`);
    for (const part of Object.keys(LEDGER_FIGURES) as LedgerPart[]) {
      const { ctes, rows } = ledger(part, set, now);
      const parts: SQL[] = [pairs(set), ...(ctes.queryChunks.length ? [ctes] : [])];
      await tx.execute(
        sql`insert into dashboard_days (site_id, day, figure, key, value)
            with ${sql.join(parts, sql`, `)}
            select site_id, day, figure, key, value
              from (${rows}) as r (site_id, day, figure, key, value)
             where value <> 0`,
      );
    }
    await tx.execute(
      sql`delete from dashboard_all_sites_days
           where company_id = ${companyId}::uuid and day = any(${dayList})`,
    );
    await tx.execute(
      sql`insert into dashboard_all_sites_days (company_id, day, figure, key, value)
          select ${companyId}::uuid, day, figure, key, sum(value) from dashboard_days
           where ${ofCompany} and day = any(${dayList}) and figure <> 'peak'
           group by day, figure, key`,
    );
    await tx.execute(
      sql`insert into dashboard_company_days (company_id, day, peak)
          with ${pairs(set)}, ${levels(set, 'together')}
          select ${companyId}::uuid, day, greatest(peak, 0) from peak
          on conflict (company_id, day) do update set peak = excluded.peak`,
    );
    await tx.execute(
      sql`insert into dashboard_summaries (site_id, day, summarized_at)
          select s.id, d.d, now() from sites s cross join unnest(${dayList}) d(d)
           where s.company_id = ${companyId}::uuid
          on conflict (site_id, day) do update set summarized_at = excluded.summarized_at`,
    );
    return true;
  });
}

/** The figures added up by month: the sums over a period (never the peaks, nor the per-day types). */
const MONTH_FIGURES = [
  ...LEDGER_FIGURES.arrivals,
  ...LEDGER_FIGURES.hosts,
  ...LEDGER_FIGURES.noShows,
  ...LEDGER_FIGURES.decisions,
] as const;
/** How many months one sweep adds up at most. */
const MONTHS_PER_SWEEP = 24;

/**
 * The months whose every day is summarized for every site of their company, and that are
 * not added up yet (or no longer: a late change deleted a mark), oldest first.
 */
async function monthsToAddUp(db: Db, limit: number) {
  return rowsOf(
    db,
    z.object({ company_id: z.string(), month: z.string() }),
    sql`with marks as (
          select s.company_id, date_trunc('month', m.day)::date as month, count(*) as days
            from dashboard_summaries m join sites s on s.id = m.site_id
           group by 1, 2
        )
        select k.company_id::text as company_id, k.month::text as month
          from marks k
         where k.days = (select count(*) from sites s where s.company_id = k.company_id)
                        * ((k.month + interval '1 month')::date - k.month)
           and not exists (select 1 from dashboard_month_summaries x
                            where x.scope_id = k.company_id and x.month = k.month)
         order by k.month, k.company_id
         limit ${limit}`,
  );
}

/**
 * Adds up one month of one company from its days' rows: each site's (scope: the site) and
 * all its sites' (scope: the company), then marks both. Under the company's lock, like a
 * day's summary, and only if every day is still marked then.
 */
async function addUpMonth(db: Db, companyId: string, month: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await companyLocked(tx, companyId))) return false;
    const end = monthEnd(month);
    const ofCompany = ofCompanySites(companyId);
    const [complete] = await rowsOf(
      tx,
      z.object({ complete: z.boolean() }),
      sql`select (select count(*) from dashboard_summaries
                   where ${ofCompany} and day between ${month}::date and ${end}::date)
                 = (select count(*) from sites where company_id = ${companyId}::uuid)
                   * (${end}::date - ${month}::date + 1) as complete`,
    );
    if (!complete?.complete) return false;
    const figures = sql.join(
      MONTH_FIGURES.map((f) => sql`${f}`),
      sql`, `,
    );
    await tx.execute(
      sql`delete from dashboard_months where company_id = ${companyId}::uuid and month = ${month}::date`,
    );
    await tx.execute(
      sql`insert into dashboard_months (company_id, scope_id, month, figure, key, value)
          select ${companyId}::uuid, coalesce(site_id, ${companyId}::uuid), ${month}::date, figure, key, sum(value)
            from dashboard_days
           where ${ofCompany} and figure in (${figures})
             and day between ${month}::date and ${end}::date
           group by grouping sets ((site_id, figure, key), (figure, key))`,
    );
    await tx.execute(
      sql`insert into dashboard_month_summaries (company_id, scope_id, month)
          select ${companyId}::uuid, id, ${month}::date
            from (select ${companyId}::uuid as id union all
                  select id from sites where company_id = ${companyId}::uuid) x
          on conflict (scope_id, month) do update set summarized_at = now()`,
    );
    return true;
  });
}

/**
 * One sweep: summarizes the settled days not summarized yet (or no longer), a company's
 * days DAYS_PER_BATCH at a time, at most BATCHES_PER_SWEEP batches. Returns how many
 * company days it wrote.
 */
export async function summarizeSettledDays(
  db: Db,
  options: { now?: Date; signal?: AbortSignal; batches?: number } = {},
): Promise<{ days: number; months: number }> {
  const now = options.now ?? new Date();
  const lastDay = lastSettledDay(now);
  let written = 0;
  const skipped = new Set<string>();
  for (let batch = 0; batch < (options.batches ?? BATCHES_PER_SWEEP); batch++) {
    if (options.signal?.aborted) break;
    const due = await daysToSummarize(db, lastDay, (skipped.size + 1) * DAYS_PER_BATCH * 4);
    const companyId = due.find((d) => !skipped.has(d.company_id))?.company_id;
    if (!companyId) break;
    const days = due
      .filter((d) => d.company_id === companyId)
      .slice(0, DAYS_PER_BATCH)
      .map((d) => d.day);
    if (await summarize(db, companyId, days, now)) written += days.length;
    else skipped.add(companyId);
  }
  let months = 0;
  for (const { company_id, month } of await monthsToAddUp(db, MONTHS_PER_SWEEP)) {
    if (options.signal?.aborted) break;
    if (await addUpMonth(db, company_id, month)) months += 1;
  }
  return { days: written, months };
}
