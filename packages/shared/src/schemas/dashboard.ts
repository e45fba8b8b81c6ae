/**
 * The dashboard (issue 35): the building's figures for a period beside the period just
 * before it, and the series behind each chart. One shape for the screen, the API
 * (`GET /api/dashboard`, `GET /api/dashboard.csv`) and the weekly summary mail.
 *
 * What each figure counts (the server's day ledger, dashboard/ledger.ts, holds to this,
 * whether a day is read from the checks or from its summary):
 * - Days are each site's own calendar days (its time zone): a period "from 2030-03-25 to
 *   2030-03-31" is those seven days at every site, whatever its zone.
 * - `arrivals`: visitor check-ins in the period, an undone arrival not counted.
 * - `visits`: visitors who arrived, each counted once a day (a visitor who comes in twice
 *   the same day is one visit, two arrivals). Event guests are visitors too.
 * - `expected` / `no_shows`: the visits due in the period — a confirmed meeting's day, each
 *   day of an invitation (neither cancelled) — whose day has ended; a no-show is one whose
 *   visitor never arrived that day. A day still under way is not judged yet.
 * - `peak_on_site`: the most visitors inside at once on one day of the period. A day's
 *   level counts the visits that began that day or the day before, and those still open
 *   (a visit that lasted more than a day and has ended is not carried further); all
 *   sites: their levels on that day added up, instant by instant.
 * - `visit_length_*`: from arrival to departure, in whole minutes (seconds dropped), of the
 *   period's arrivals that have left — automatic check-outs at the site's end of day left
 *   out (they say when the day ended, not when the visitor left), and counted apart
 *   (`automatic_check_outs`). Percentiles are continuous over those whole minutes (as
 *   PostgreSQL's percentile_cont), rounded to the minute.
 * - `top_hosts`: a visit's host is its request's host (the staff member's name, else the
 *   name typed on the form); event guests have none. `on_site_peaks`, `peak_*`: visitors
 *   only (not QR users or members), as every figure here.
 * - `decision_*`: from a visitor's request to the host's or desk's answer, in whole minutes
 *   (the same percentiles), for the requests made in the period that someone answered
 *   (invitations need no answer; an event registration or a walk-in its type lets in at
 *   once is confirmed by no one).
 * - `peak_today`: each site's today in its own zone, the sites' levels added up.
 * - `event_*`: registrations to the period's events, and how many of them arrived.
 */
import { z } from 'zod';
import { slugOrIdFilter } from './common';
import { keyed } from './product-messages';
import { isIsoDate } from './qr-user';
import { siteFilter } from './site';

export const DASHBOARD_LIMITS = {
  /** The longest period one request reads (and its previous one as long). */
  maxDays: 366,
  /** Hosts in "top hosts", events in "event attendance". */
  topHosts: 10,
  topEvents: 10,
} as const;

/** The screen's period choices; 'range' reads `from` and `to` as given. */
export const DASHBOARD_PERIODS = ['today', '7d', '30d', 'range'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

/** Visit lengths (minutes) grouped for the chart: [0, 15), [15, 30) … [480, ∞). */
export const VISIT_LENGTH_BUCKETS = [0, 15, 30, 60, 120, 240, 480] as const;
/** Time to a decision (minutes): [0, 15), [15, 60) … [1440, ∞). */
export const DECISION_TIME_BUCKETS = [0, 15, 60, 240, 1440] as const;

const isoDay = z
  .string()
  .max(10, { ...keyed((m) => m.dashboard.dateInvalid, { key: 'dateInvalid' }), abort: true })
  .refine(
    isIsoDate,
    keyed((m) => m.dashboard.dateInvalid, { key: 'dateInvalid' }),
  );

/** The number of calendar days from `from` to `to`, both included (YYYY-MM-DD). */
export function daysInPeriod(from: string, to: string): number {
  return (
    Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1
  );
}

/** `day` moved by `days` calendar days (YYYY-MM-DD). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The period just before [from, to], as long. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const days = daysInPeriod(from, to);
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

/** The screen's choice as days, ending on `today` (the site's or the browser's day). */
export function periodDays(
  period: Exclude<DashboardPeriod, 'range'>,
  today: string,
): { from: string; to: string } {
  const days = period === 'today' ? 1 : period === '7d' ? 7 : 30;
  return { from: addDays(today, -(days - 1)), to: today };
}

const bothDays = (q: { from: string; to: string }) => isIsoDate(q.from) && isIsoDate(q.to);

/**
 * `?company=` (roles that see every company), `?site=` (one site; absent: every site the
 * caller may see), `?from=&to=` (YYYY-MM-DD, both included, at most `maxDays` days).
 */
export const dashboardQuerySchema = z
  .object({
    company: slugOrIdFilter,
    site: siteFilter,
    from: isoDay,
    to: isoDay,
  })
  // Each range check reads two real days only: a bad date has its own message.
  .refine((q) => !bothDays(q) || q.from <= q.to, {
    ...keyed((m) => m.dashboard.rangeReversed, { key: 'rangeReversed' }),
    path: ['to'],
  })
  .refine(
    (q) => !bothDays(q) || q.from > q.to || daysInPeriod(q.from, q.to) <= DASHBOARD_LIMITS.maxDays,
    {
      ...keyed((m) => m.dashboard.rangeTooLong(DASHBOARD_LIMITS.maxDays), {
        key: 'rangeTooLong',
        max: DASHBOARD_LIMITS.maxDays,
      }),
      path: ['to'],
    },
  );
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

/** The charts, each with its own table and CSV (`/api/dashboard.csv?chart=`). */
export const DASHBOARD_CHARTS = [
  'visits_per_day',
  'arrivals_by_hour',
  'on_site_peaks',
  'visit_lengths',
  'no_shows_per_day',
  'decision_times',
  'event_attendance',
  'top_hosts',
] as const;
export type DashboardChart = (typeof DASHBOARD_CHARTS)[number];

export const dashboardCsvQuerySchema = dashboardQuerySchema.and(
  z.object({ chart: z.enum(DASHBOARD_CHARTS).optional() }),
);
export type DashboardCsvQuery = z.infer<typeof dashboardCsvQuerySchema>;

/** The figures of one period; null where nothing was there to measure (no visit left). */
export const dashboardFiguresSchema = z.object({
  arrivals: z.number(),
  visits: z.number(),
  expected: z.number(),
  no_shows: z.number(),
  peak_on_site: z.number(),
  visit_length_median_minutes: z.number().nullable(),
  visit_length_p90_minutes: z.number().nullable(),
  automatic_check_outs: z.number(),
  decisions: z.number(),
  decision_median_minutes: z.number().nullable(),
  decision_p90_minutes: z.number().nullable(),
  event_registrations: z.number(),
  event_attendees: z.number(),
});
export type DashboardFigures = z.infer<typeof dashboardFiguresSchema>;
export type DashboardFigure = keyof DashboardFigures;
export const DASHBOARD_FIGURES = Object.keys(dashboardFiguresSchema.shape) as DashboardFigure[];

export const dashboardSchema = z.object({
  period: z.object({ from: z.string(), to: z.string(), days: z.number() }),
  previous_period: z.object({ from: z.string(), to: z.string() }),
  /** The sites counted (the one asked for, or every site the caller may see). */
  sites: z.array(z.object({ id: z.string(), name: z.string(), timezone: z.string() })),
  current: dashboardFiguresSchema,
  previous: dashboardFiguresSchema,
  /** Visitors inside now, and the most inside at once today (each site's today). */
  on_site_now: z.number(),
  peak_today: z.number(),
  charts: z.object({
    /** Visits of each day of the period by visitor type (null: none given). */
    visits_per_day: z.array(
      z.object({ day: z.string(), visitor_type: z.string().nullable(), visits: z.number() }),
    ),
    /** Arrivals by ISO weekday (1 Monday … 7 Sunday) and hour (0–23), site's local time. */
    arrivals_by_hour: z.array(
      z.object({ weekday: z.number(), hour: z.number(), arrivals: z.number() }),
    ),
    /** Each day of the period: the most visitors inside at once. */
    on_site_peaks: z.array(z.object({ day: z.string(), peak: z.number() })),
    /** The period's arrivals that left, by length: `from_minutes` to the next bucket's. */
    visit_lengths: z.array(z.object({ from_minutes: z.number(), visits: z.number() })),
    /** Each day of the period: visits due (whose day ended) and of those, never arrived. */
    no_shows_per_day: z.array(
      z.object({ day: z.string(), expected: z.number(), no_shows: z.number() }),
    ),
    /** Answered requests by time to their answer: `from_minutes` to the next bucket's. */
    decision_times: z.array(z.object({ from_minutes: z.number(), requests: z.number() })),
    /** The period's events (most registrations first, at most topEvents). */
    event_attendance: z.array(
      z.object({
        event_id: z.string(),
        name: z.string(),
        day: z.string(),
        registrations: z.number(),
        attendees: z.number(),
      }),
    ),
    /** The hosts who received most visits in the period (at most topHosts). */
    top_hosts: z.array(z.object({ host: z.string(), visits: z.number() })),
  }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
export type DashboardCharts = Dashboard['charts'];

/** A share (0–1) as a whole percentage, or null when there is nothing to divide. */
export function rate(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 100) : null;
}

/**
 * The weekly summary mail (issue 35): who subscribed, in "Mes notifications", and the site
 * it reports on (null: every site the person may see).
 */
export const weeklyReportSettingsSchema = z.object({
  weekly_report: z.boolean(),
  weekly_report_site_id: z.string().uuid().nullable(),
});
export type WeeklyReportSettings = z.infer<typeof weeklyReportSettingsSchema>;
