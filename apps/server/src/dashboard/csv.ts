/**
 * The dashboard's figures as CSV for French Excel (as the visitor log: BOM, semicolons,
 * CRLF, formulas defused): one chart's table (`?chart=`), or the figures of the period
 * beside the previous one. The headers are the shared messages' (dashboard.charts.*.header),
 * the same the screen's table view shows.
 */
import {
  DASHBOARD_FIGURES,
  DECISION_TIME_BUCKETS,
  VISIT_LENGTH_BUCKETS,
  catalogue,
  type Dashboard,
  type DashboardChart,
  type Language,
} from '@sesame/shared';
import { frenchExcelCsv } from '../checkins/csv';

type Cell = string | null;
const count = (n: number | null): Cell => (n === null ? '' : String(n));

/** The label of bucket `i` of `buckets` ("15 min à 30 min", "8 h et plus"). */
export function bucketLabel(buckets: readonly number[], i: number, lang: Language): string {
  return catalogue(lang).dashboard.bucket(buckets[i]!, buckets[i + 1] ?? null);
}

/** One chart's rows, as its table view shows them. */
export function chartRows(dashboard: Dashboard, chart: DashboardChart, lang: Language): Cell[][] {
  const words = catalogue(lang).dashboard;
  const c = dashboard.charts;
  switch (chart) {
    case 'visits_per_day':
      return c.visits_per_day.map((r) => [r.day, r.visitor_type ?? words.noType, count(r.visits)]);
    case 'arrivals_by_hour':
      return c.arrivals_by_hour.map((r) => [
        words.weekdays[r.weekday - 1] ?? String(r.weekday),
        `${String(r.hour).padStart(2, '0')}:00`,
        count(r.arrivals),
      ]);
    case 'on_site_peaks':
      return c.on_site_peaks.map((r) => [r.day, count(r.peak)]);
    case 'visit_lengths':
      return c.visit_lengths.map((r, i) => [
        bucketLabel(VISIT_LENGTH_BUCKETS, i, lang),
        count(r.visits),
      ]);
    case 'no_shows_per_day':
      return c.no_shows_per_day.map((r) => [r.day, count(r.expected), count(r.no_shows)]);
    case 'decision_times':
      return c.decision_times.map((r, i) => [
        bucketLabel(DECISION_TIME_BUCKETS, i, lang),
        count(r.requests),
      ]);
    case 'event_attendance':
      return c.event_attendance.map((r) => [
        r.name,
        r.day,
        count(r.registrations),
        count(r.attendees),
      ]);
    case 'top_hosts':
      return c.top_hosts.map((r) => [r.host, count(r.visits)]);
  }
}

/** The CSV of one chart, or of every figure beside the previous period's. */
export function dashboardCsv(
  dashboard: Dashboard,
  chart: DashboardChart | undefined,
  lang: Language,
): string {
  const words = catalogue(lang).dashboard;
  if (chart) return frenchExcelCsv(words.charts[chart].header, chartRows(dashboard, chart, lang));
  const rows = [
    ...DASHBOARD_FIGURES.map((figure) => [
      words.figures[figure],
      count(dashboard.current[figure]),
      count(dashboard.previous[figure]),
    ]),
  ];
  return frenchExcelCsv(words.figuresHeader, rows);
}
