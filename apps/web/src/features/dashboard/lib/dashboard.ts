/**
 * The dashboard's plain logic (issue 35), without React: the period the screen asks for,
 * each figure's change from the previous period, each chart's series, its table (the
 * shared messages' headers and labels: the screen's table, the CSV and the weekly mail say
 * the same) and the sentence that says what the chart shows. The web unit tests read this.
 */
import {
  DASHBOARD_LIMITS,
  addDays,
  catalogue,
  dashboardTable,
  hourLabel,
  daysInPeriod,
  isIsoDate,
  periodDays,
  type Dashboard,
  type DashboardChart,
  type DashboardPeriod,
  type DashboardTable,
  type Language,
} from '@sesame/shared';

export type DashboardWords = ReturnType<typeof catalogue>['dashboard'];

/** The shared words of the dashboard (figures, charts' titles and headers) in `lang`. */
export const dashboardWords = (lang: Language): DashboardWords => catalogue(lang).dashboard;

// ---- The period ----

/** What the period picker holds: a choice, and the range's two fields (DD/MM/YYYY). */
export interface PeriodChoice {
  period: DashboardPeriod;
  /** The range's days as typed (DD/MM/YYYY); read only for 'range'. */
  from: string;
  to: string;
}

export type PeriodError = 'dateInvalid' | 'rangeReversed' | 'rangeTooLong';

export type ResolvedPeriod =
  { ok: true; from: string; to: string } | { ok: false; field: 'from' | 'to'; error: PeriodError };

/** 'DD/MM/YYYY' → 'YYYY-MM-DD', or null when it is no real day. */
export function isoOf(ddmmyyyy: string): string | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(ddmmyyyy.trim());
  if (!match) return null;
  const iso = `${match[3]}-${match[2]}-${match[1]}`;
  return isIsoDate(iso) ? iso : null;
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY'. */
export const typedOf = (iso: string) => iso.split('-').reverse().join('/');

/**
 * The days asked for: the last 1, 7 or 30 days ending `today` (the site's day), or the
 * range as typed — the server's own checks (dashboardQuerySchema) made first, so a bad
 * range is said beside its field instead of being sent.
 */
export function resolvePeriod(choice: PeriodChoice, today: string): ResolvedPeriod {
  if (choice.period !== 'range') return { ok: true, ...periodDays(choice.period, today) };
  const from = isoOf(choice.from);
  if (!from) return { ok: false, field: 'from', error: 'dateInvalid' };
  const to = isoOf(choice.to);
  if (!to) return { ok: false, field: 'to', error: 'dateInvalid' };
  if (from > to) return { ok: false, field: 'to', error: 'rangeReversed' };
  if (daysInPeriod(from, to) > DASHBOARD_LIMITS.maxDays)
    return { ok: false, field: 'to', error: 'rangeTooLong' };
  return { ok: true, from, to };
}

/** A period error in the shared words (the server's own message for it). */
export function periodErrorText(error: PeriodError, words: DashboardWords): string {
  return error === 'rangeTooLong' ? words.rangeTooLong(DASHBOARD_LIMITS.maxDays) : words[error];
}

/** Every day from `from` to `to`, both included. */
export function daysOf(from: string, to: string): string[] {
  return Array.from({ length: Math.max(0, daysInPeriod(from, to)) }, (_, i) => addDays(from, i));
}

// ---- Figures ----

export interface Change {
  /** current − previous. */
  delta: number;
  /** The change as a whole percentage of the previous value; null when it was 0. */
  percent: number | null;
}

/** How a figure moved since the previous period; null when either side is unknown. */
export function changeOf(current: number | null, previous: number | null): Change | null {
  if (current === null || previous === null) return null;
  const delta = current - previous;
  return {
    delta,
    percent: previous === 0 ? null : Math.round((delta / previous) * 100),
  };
}

// ---- Words for days, hours, numbers ----

const locale = (lang: Language) => (lang === 'en' ? 'en-GB' : 'fr-FR');
const utcDay = (day: string) => new Date(`${day}T00:00:00Z`);

/** 'mardi 24' / 'Tuesday 24': a day of the period in a sentence. */
export const dayInSentence = (day: string, lang: Language) =>
  new Intl.DateTimeFormat(locale(lang), {
    weekday: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(utcDay(day));

/** 'mar. 24/03/2026' / 'Tue 24/03/2026': a day in a table. */
export const dayInTable = (day: string, lang: Language) =>
  new Intl.DateTimeFormat(locale(lang), {
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  })
    .format(utcDay(day))
    .replace(',', '');

/** '24/03': a day under a chart's bar. */
export const dayOnAxis = (day: string, lang: Language) =>
  new Intl.DateTimeFormat(locale(lang), {
    day: '2-digit',
    month: '2-digit',
    timeZone: 'UTC',
  }).format(utcDay(day));

/** '24/03/2026'. */
export const dayInText = (day: string, lang: Language) =>
  new Intl.DateTimeFormat(locale(lang), {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(utcDay(day));

export const numberText = (n: number, lang: Language) =>
  new Intl.NumberFormat(locale(lang)).format(n);

/**
 * A bucket under a chart's bar, short enough for a phone: '0–15 min', '30 min–1 h', '≥ 8 h'
 * (the table and the CSV say it in full: the shared `bucketLabel`).
 */
export function bucketAxis(buckets: readonly number[], i: number, lang: Language): string {
  const from = buckets[i]!;
  const to = buckets[i + 1];
  const unit = (m: number) => (m >= 60 ? 'h' : 'min');
  const value = (m: number) => numberText(m >= 60 ? m / 60 : m, lang);
  if (to === undefined) return `≥ ${value(from)} ${unit(from)}`;
  return unit(from) === unit(to)
    ? `${value(from)}–${value(to)} ${unit(to)}`
    : `${value(from)} ${unit(from)}–${value(to)} ${unit(to)}`;
}

/** The bucket `minutes` falls in (its label), or null. */
export function bucketOf(
  buckets: readonly number[],
  minutes: number | null,
  words: DashboardWords,
): string | null {
  if (minutes === null) return null;
  let found = 0;
  buckets.forEach((from, i) => {
    if (minutes >= from) found = i;
  });
  return words.bucket(buckets[found]!, buckets[found + 1] ?? null);
}

// ---- The tables: the CSV's columns, each chart's rows ----

export type ChartTable = DashboardTable;

/**
 * One chart's table: the shared dashboardTable (the CSV's columns and rows, the same as
 * `GET /api/dashboard.csv?chart=`), days written for a reader.
 */
export function chartTable(
  dashboard: Dashboard,
  chart: DashboardChart,
  lang: Language,
): ChartTable {
  return dashboardTable(dashboard, chart, lang, (day) => dayInTable(day, lang));
}

// ---- The charts' series ----

/** Visits of each day of the period, one key per visitor type (`t0`, `t1`…: a type's name may hold a dot). */
export function visitsPerDaySeries(dashboard: Dashboard, lang: Language) {
  const words = dashboardWords(lang);
  const types: string[] = [];
  for (const row of dashboard.charts.visits_per_day) {
    const name = row.visitor_type ?? words.noType;
    if (!types.includes(name)) types.push(name);
  }
  const data = daysOf(dashboard.period.from, dashboard.period.to).map((day) => {
    const point: Record<string, string | number> = { day: dayOnAxis(day, lang) };
    types.forEach((_, i) => (point[`t${i}`] = 0));
    for (const row of dashboard.charts.visits_per_day.filter((r) => r.day === day)) {
      const key = `t${types.indexOf(row.visitor_type ?? words.noType)}`;
      point[key] = (point[key] as number) + row.visits;
    }
    return point;
  });
  return { data, series: types.map((label, i) => ({ name: `t${i}`, label })) };
}

/** The heatmap's cells: every weekday (rows) × hour (columns), 0 where nobody arrived. */
export function arrivalCells(dashboard: Dashboard, lang: Language) {
  const words = dashboardWords(lang);
  const short = (weekday: number) =>
    new Intl.DateTimeFormat(locale(lang), { weekday: 'short', timeZone: 'UTC' }).format(
      // 2024-01-01 was a Monday (ISO weekday 1).
      utcDay(addDays('2024-01-01', weekday - 1)),
    );
  const weekdays = [1, 2, 3, 4, 5, 6, 7].map(short);
  const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));
  const cells = [1, 2, 3, 4, 5, 6, 7].flatMap((weekday) =>
    hours.map((hour, h) => ({
      x: hour,
      y: weekdays[weekday - 1]!,
      // Nobody: an empty cell (its own grey), not the lightest shade of some.
      value:
        dashboard.charts.arrivals_by_hour.find((r) => r.weekday === weekday && r.hour === h)
          ?.arrivals || null,
      weekday: words.weekdays[weekday - 1]!,
    })),
  );
  return { cells, weekdays, hours };
}

// ---- What each chart says, in one sentence ----

/** A chart's sentence: its key under `charts.<chart>.` in the dashboard namespace, and its values. */
export interface Summary {
  key: string;
  values: Record<string, string | number>;
}

const maxBy = <T>(list: readonly T[], value: (item: T) => number): T | undefined =>
  list.reduce<T | undefined>(
    (best, item) => (!best || value(item) > value(best) ? item : best),
    undefined,
  );

/**
 * What the chart shows, said in one sentence computed from its data (the chart's text
 * alternative): 'Le mardi 24 a reçu le plus de visites : 42.' The first day, hour or host
 * wins a tie.
 */
export function chartSummary(dashboard: Dashboard, chart: DashboardChart, lang: Language): Summary {
  const c = dashboard.charts;
  const n = (value: number) => numberText(value, lang);
  // `count` chooses the plural form; `countText` is the number as the language writes it.
  const counted = (value: number) => ({ count: value, countText: n(value) });
  const empty: Summary = { key: 'empty', values: {} };
  switch (chart) {
    case 'visits_per_day': {
      const perDay = new Map<string, number>();
      for (const r of c.visits_per_day) perDay.set(r.day, (perDay.get(r.day) ?? 0) + r.visits);
      const best = maxBy(
        [...perDay].sort(([a], [b]) => a.localeCompare(b)),
        ([, v]) => v,
      );
      if (!best || best[1] === 0) return empty;
      const total = [...perDay.values()].reduce((a, b) => a + b, 0);
      return {
        key: 'summary',
        values: { day: dayInSentence(best[0], lang), most: n(best[1]), ...counted(total) },
      };
    }
    case 'arrivals_by_hour': {
      const best = maxBy(c.arrivals_by_hour, (r) => r.arrivals);
      if (!best || best.arrivals === 0) return empty;
      return {
        key: 'summary',
        values: {
          weekday: dashboardWords(lang).weekdays[best.weekday - 1] ?? String(best.weekday),
          from: hourLabel(best.hour),
          to: hourLabel((best.hour + 1) % 24),
          ...counted(best.arrivals),
        },
      };
    }
    case 'on_site_peaks': {
      const best = maxBy(c.on_site_peaks, (r) => r.peak);
      if (!best || best.peak === 0) return empty;
      return {
        key: 'summary',
        values: { day: dayInSentence(best.day, lang), ...counted(best.peak) },
      };
    }
    case 'visit_lengths': {
      const total = c.visit_lengths.reduce((a, r) => a + r.visits, 0);
      const { visit_length_median_minutes: median, visit_length_p90_minutes: p90 } =
        dashboard.current;
      if (total === 0 || median === null || p90 === null) return empty;
      return { key: 'summary', values: { median: n(median), p90: n(p90), ...counted(total) } };
    }
    case 'no_shows_per_day': {
      const expected = c.no_shows_per_day.reduce((a, r) => a + r.expected, 0);
      if (expected === 0) return empty;
      const noShows = c.no_shows_per_day.reduce((a, r) => a + r.no_shows, 0);
      return {
        key: 'summary',
        values: {
          ...counted(noShows),
          expected: n(expected),
          rate: n(Math.round((noShows / expected) * 100)),
        },
      };
    }
    case 'decision_times': {
      const total = c.decision_times.reduce((a, r) => a + r.requests, 0);
      const { decision_median_minutes: median, decision_p90_minutes: p90 } = dashboard.current;
      if (total === 0 || median === null || p90 === null) return empty;
      return { key: 'summary', values: { median: n(median), p90: n(p90), ...counted(total) } };
    }
    case 'event_attendance': {
      const first = c.event_attendance[0];
      if (!first) return empty;
      return {
        key: 'summary',
        values: {
          event: first.name,
          registrations: n(first.registrations),
          ...counted(first.attendees),
        },
      };
    }
    case 'top_hosts': {
      const first = c.top_hosts[0];
      if (!first) return empty;
      return { key: 'summary', values: { host: first.host, ...counted(first.visits) } };
    }
  }
}
