/**
 * Each dashboard chart as a table (issue 35): its header and rows, in the reader's words.
 * One source for the screen's table view and the CSV (`GET /api/dashboard.csv?chart=`), so
 * both always say the same; the screen writes days for a reader (`dayText`), the CSV as
 * YYYY-MM-DD.
 */
import { catalogue, type Language } from './messages';
import {
  DECISION_TIME_BUCKETS,
  VISIT_LENGTH_BUCKETS,
  type Dashboard,
  type DashboardChart,
} from './schemas/dashboard';

/** A cell: numbers stay numbers (the screen formats them, the CSV writes them). */
export type DashboardCell = string | number | null;

export interface DashboardTable {
  header: readonly string[];
  rows: DashboardCell[][];
}

/** The label of bucket `i` of `buckets` ("15 min à 30 min", "8 h et plus"). */
export function bucketLabel(buckets: readonly number[], i: number, lang: Language): string {
  return catalogue(lang).dashboard.bucket(buckets[i]!, buckets[i + 1] ?? null);
}

/** An hour of the day as the tables write it: '09:00'. */
export const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** One chart's table, with the CSV's columns (dashboard.charts.*.header). */
export function dashboardTable(
  dashboard: Dashboard,
  chart: DashboardChart,
  lang: Language,
  dayText: (day: string) => string = (day) => day,
): DashboardTable {
  const words = catalogue(lang).dashboard;
  const c = dashboard.charts;
  const rows = ((): DashboardCell[][] => {
    switch (chart) {
      case 'visits_per_day':
        return c.visits_per_day.map((r) => [
          dayText(r.day),
          r.visitor_type ?? words.noType,
          r.visits,
        ]);
      case 'arrivals_by_hour':
        return c.arrivals_by_hour.map((r) => [
          words.weekdays[r.weekday - 1] ?? String(r.weekday),
          hourLabel(r.hour),
          r.arrivals,
        ]);
      case 'on_site_peaks':
        return c.on_site_peaks.map((r) => [dayText(r.day), r.peak]);
      case 'visit_lengths':
        return c.visit_lengths.map((r, i) => [
          bucketLabel(VISIT_LENGTH_BUCKETS, i, lang),
          r.visits,
        ]);
      case 'no_shows_per_day':
        return c.no_shows_per_day.map((r) => [dayText(r.day), r.expected, r.no_shows]);
      case 'decision_times':
        return c.decision_times.map((r, i) => [
          bucketLabel(DECISION_TIME_BUCKETS, i, lang),
          r.requests,
        ]);
      case 'event_attendance':
        return c.event_attendance.map((r) => [
          r.name,
          dayText(r.day),
          r.registrations,
          r.attendees,
        ]);
      case 'top_hosts':
        return c.top_hosts.map((r) => [r.host, r.visits]);
    }
  })();
  return { header: words.charts[chart].header, rows };
}
