/**
 * The dashboard's plain logic (issue 35, features/dashboard/lib/dashboard.ts): the period
 * asked for and the server's own range checks said beside the field, each figure's change,
 * each chart's table with the CSV's columns and labels (the shared messages: screen, CSV and
 * mail say the same), the charts' series, and the sentence each chart says in both languages.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DASHBOARD_CHARTS,
  DASHBOARD_LIMITS,
  DECISION_TIME_BUCKETS,
  VISIT_LENGTH_BUCKETS,
  addDays,
  catalogue,
  dashboardQuerySchema,
  dashboardSchema,
  type Dashboard,
  type DashboardFigures,
} from '@sesame/shared';
import {
  arrivalCells,
  bucketAxis,
  bucketOf,
  changeOf,
  chartSummary,
  chartTable,
  daysOf,
  isoOf,
  periodErrorText,
  resolvePeriod,
  typedOf,
  visitsPerDaySeries,
} from '../src/features/dashboard/lib/dashboard';
import { Translator, type Words } from '../src/lib/translator';

const LOCALES = join(import.meta.dirname, '../src/locales');

async function wordsIn(language: 'fr' | 'en') {
  const tr = new Translator({
    language,
    fallbackLanguage: language,
    defaultNamespace: 'dashboard',
    load: (lng, ns) =>
      Promise.resolve(JSON.parse(readFileSync(join(LOCALES, lng, `${ns}.json`), 'utf8')) as Words),
  });
  await tr.ensure(['dashboard']);
  return tr.fixedT(['dashboard']);
}
const t = { fr: await wordsIn('fr'), en: await wordsIn('en') };

const figures = (over: Partial<DashboardFigures> = {}): DashboardFigures => ({
  arrivals: 0,
  visits: 0,
  expected: 0,
  no_shows: 0,
  peak_on_site: 0,
  visit_length_median_minutes: null,
  visit_length_p90_minutes: null,
  automatic_check_outs: 0,
  decisions: 0,
  decision_median_minutes: null,
  decision_p90_minutes: null,
  event_registrations: 0,
  event_attendees: 0,
  ...over,
});

/** A week from Monday 25 to Sunday 31 March 2030; Tuesday 26 the busiest day. */
const week: Dashboard = dashboardSchema.parse({
  period: { from: '2030-03-25', to: '2030-03-31', days: 7 },
  previous_period: { from: '2030-03-18', to: '2030-03-24' },
  sites: [{ id: 's1', name: 'Siège', timezone: 'Africa/Abidjan' }],
  current: figures({
    arrivals: 50,
    visits: 47,
    expected: 10,
    no_shows: 3,
    visit_length_median_minutes: 42,
    visit_length_p90_minutes: 130,
    decisions: 4,
    decision_median_minutes: 12,
    decision_p90_minutes: 75,
  }),
  previous: figures({ arrivals: 40, visits: 40 }),
  on_site_now: 5,
  peak_today: 9,
  charts: {
    visits_per_day: [
      { day: '2030-03-25', visitor_type: 'Fournisseur', visits: 3 },
      { day: '2030-03-26', visitor_type: 'Prestataire (ext.)', visits: 40 },
      { day: '2030-03-26', visitor_type: null, visits: 2 },
      { day: '2030-03-27', visitor_type: 'Fournisseur', visits: 2 },
    ],
    arrivals_by_hour: [
      { weekday: 2, hour: 9, arrivals: 30 },
      { weekday: 2, hour: 14, arrivals: 20 },
    ],
    on_site_peaks: daysOf('2030-03-25', '2030-03-31').map((day, i) => ({
      day,
      peak: i === 1 ? 12 : 1,
    })),
    visit_lengths: VISIT_LENGTH_BUCKETS.map((from, i) => ({ from_minutes: from, visits: i })),
    no_shows_per_day: daysOf('2030-03-25', '2030-03-31').map((day, i) => ({
      day,
      expected: i < 5 ? 2 : 0,
      no_shows: i === 0 ? 3 : 0,
    })),
    decision_times: DECISION_TIME_BUCKETS.map((from) => ({ from_minutes: from, requests: 1 })),
    event_attendance: [
      { event_id: 'e1', name: 'Forum', day: '2030-03-28', registrations: 30, attendees: 21 },
    ],
    top_hosts: [
      { host: 'Mme Traoré', visits: 12 },
      { host: 'M. Diallo', visits: 4 },
    ],
  },
});

const empty: Dashboard = {
  ...week,
  current: figures(),
  previous: figures(),
  charts: {
    visits_per_day: [],
    arrivals_by_hour: [],
    on_site_peaks: week.charts.on_site_peaks.map((r) => ({ ...r, peak: 0 })),
    visit_lengths: week.charts.visit_lengths.map((r) => ({ ...r, visits: 0 })),
    no_shows_per_day: week.charts.no_shows_per_day.map((r) => ({ ...r, expected: 0, no_shows: 0 })),
    decision_times: week.charts.decision_times.map((r) => ({ ...r, requests: 0 })),
    event_attendance: [],
    top_hosts: [],
  },
};

describe('the period asked for', () => {
  const today = '2030-03-31';
  it('is the last day, 7 days or 30 days ending today', () => {
    expect(resolvePeriod({ period: 'today', from: '', to: '' }, today)).toEqual({
      ok: true,
      from: today,
      to: today,
    });
    expect(resolvePeriod({ period: '7d', from: '', to: '' }, today)).toEqual({
      ok: true,
      from: '2030-03-25',
      to: today,
    });
    expect(resolvePeriod({ period: '30d', from: '', to: '' }, today)).toEqual({
      ok: true,
      from: '2030-03-02',
      to: today,
    });
  });

  it('reads two typed dates (DD/MM/YYYY), both included', () => {
    expect(isoOf('25/03/2030')).toBe('2030-03-25');
    expect(isoOf('31/02/2030')).toBeNull();
    expect(typedOf('2030-03-25')).toBe('25/03/2030');
    expect(resolvePeriod({ period: 'range', from: '01/03/2030', to: '15/03/2030' }, today)).toEqual(
      { ok: true, from: '2030-03-01', to: '2030-03-15' },
    );
  });

  it('refuses what the server refuses, beside the field, in the server’s words', () => {
    const cases = [
      [{ from: '31/02/2030', to: '15/03/2030' }, 'from', 'dateInvalid'],
      [{ from: '01/03/2030', to: '15/3/2030' }, 'to', 'dateInvalid'],
      [{ from: '15/03/2030', to: '01/03/2030' }, 'to', 'rangeReversed'],
      [{ from: '01/01/2030', to: '02/01/2031' }, 'to', 'rangeTooLong'],
    ] as const;
    for (const [range, field, error] of cases) {
      const resolved = resolvePeriod({ period: 'range', ...range }, today);
      expect(resolved).toEqual({ ok: false, field, error });
      // The server answers the same range with the same message.
      const from = isoOf(range.from) ?? range.from;
      const to = isoOf(range.to) ?? range.to;
      const server = dashboardQuerySchema.safeParse({ from, to });
      expect(server.success).toBe(false);
    }
    const longest = {
      from: '01/01/2030',
      to: typedOf(addDays('2030-01-01', DASHBOARD_LIMITS.maxDays - 1)),
    };
    expect(resolvePeriod({ period: 'range', ...longest }, today).ok).toBe(true);
    for (const lang of ['fr', 'en'] as const) {
      const words = catalogue(lang).dashboard;
      expect(periodErrorText('rangeReversed', words)).toBe(words.rangeReversed);
      expect(periodErrorText('dateInvalid', words)).toBe(words.dateInvalid);
      expect(periodErrorText('rangeTooLong', words)).toBe(
        words.rangeTooLong(DASHBOARD_LIMITS.maxDays),
      );
    }
  });
});

describe('a figure beside the previous period', () => {
  it('says how much it moved, and by what share when there was something before', () => {
    expect(changeOf(12, 8)).toEqual({ delta: 4, percent: 50 });
    expect(changeOf(6, 8)).toEqual({ delta: -2, percent: -25 });
    expect(changeOf(3, 0)).toEqual({ delta: 3, percent: null });
    expect(changeOf(5, 5)).toEqual({ delta: 0, percent: 0 });
    expect(changeOf(null, 5)).toBeNull();
    expect(changeOf(5, null)).toBeNull();
  });
});

describe('each chart’s table: the CSV’s columns and words', () => {
  it.each(['fr', 'en'] as const)('has the shared header of every chart (%s)', (lang) => {
    const words = catalogue(lang).dashboard;
    for (const chart of DASHBOARD_CHARTS)
      expect(chartTable(week, chart, lang).header).toEqual(words.charts[chart].header);
  });

  it('writes visitor types, weekdays, hours and buckets as the CSV does', () => {
    const fr = catalogue('fr').dashboard;
    expect(chartTable(week, 'visits_per_day', 'fr').rows).toEqual([
      ['lun. 25/03/2030', 'Fournisseur', 3],
      ['mar. 26/03/2030', 'Prestataire (ext.)', 40],
      ['mar. 26/03/2030', 'Sans type', 2],
      ['mer. 27/03/2030', 'Fournisseur', 2],
    ]);
    expect(chartTable(week, 'arrivals_by_hour', 'fr').rows[0]).toEqual(['mardi', '09:00', 30]);
    expect(chartTable(week, 'arrivals_by_hour', 'en').rows[1]).toEqual(['Tuesday', '14:00', 20]);
    expect(chartTable(week, 'visit_lengths', 'fr').rows.map((r) => r[0])).toEqual(
      VISIT_LENGTH_BUCKETS.map((from, i) => fr.bucket(from, VISIT_LENGTH_BUCKETS[i + 1] ?? null)),
    );
    expect(chartTable(week, 'decision_times', 'en').rows.at(-1)).toEqual(['24 h or more', 1]);
    expect(chartTable(week, 'event_attendance', 'en').rows).toEqual([
      ['Forum', 'Thu 28/03/2030', 30, 21],
    ]);
    expect(chartTable(week, 'top_hosts', 'fr').rows).toEqual([
      ['Mme Traoré', 12],
      ['M. Diallo', 4],
    ]);
    expect(chartTable(week, 'no_shows_per_day', 'fr').rows[0]).toEqual(['lun. 25/03/2030', 2, 3]);
    expect(chartTable(week, 'on_site_peaks', 'fr').rows).toHaveLength(7);
    expect(bucketOf(VISIT_LENGTH_BUCKETS, 42, fr)).toBe('30 min à 1 h');
    // Under the bars, shorter: the same bounds.
    expect(VISIT_LENGTH_BUCKETS.map((_, i) => bucketAxis(VISIT_LENGTH_BUCKETS, i, 'fr'))).toEqual([
      '0–15 min',
      '15–30 min',
      '30 min–1 h',
      '1–2 h',
      '2–4 h',
      '4–8 h',
      '≥ 8 h',
    ]);
    expect(DECISION_TIME_BUCKETS.map((_, i) => bucketAxis(DECISION_TIME_BUCKETS, i, 'en'))).toEqual(
      ['0–15 min', '15 min–1 h', '1–4 h', '4–24 h', '≥ 24 h'],
    );
  });
});

describe('the charts’ series', () => {
  it('stacks each day’s visits by type, every day of the period shown', () => {
    const { data, series } = visitsPerDaySeries(week, 'fr');
    expect(series).toEqual([
      { name: 't0', label: 'Fournisseur' },
      { name: 't1', label: 'Prestataire (ext.)' },
      { name: 't2', label: 'Sans type' },
    ]);
    expect(data).toHaveLength(7);
    expect(data[1]).toEqual({ day: '26/03', t0: 0, t1: 40, t2: 2 });
    expect(data[6]).toEqual({ day: '31/03', t0: 0, t1: 0, t2: 0 });
  });

  it('gives the heatmap every weekday and hour', () => {
    const { cells, weekdays, hours } = arrivalCells(week, 'en');
    expect(cells).toHaveLength(7 * 24);
    expect(weekdays).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(hours[9]).toBe('09');
    expect(cells.find((c) => c.y === 'Tue' && c.x === '09')?.value).toBe(30);
    // Nobody came: an empty cell, not the lightest shade.
    expect(cells.filter((c) => c.value !== null)).toHaveLength(2);
    expect(cells.find((c) => c.y === 'Mon' && c.x === '09')?.value).toBeNull();
  });
});

describe('each chart’s sentence', () => {
  const said = (lang: 'fr' | 'en', dashboard: Dashboard) =>
    Object.fromEntries(
      DASHBOARD_CHARTS.map((chart) => {
        const summary = chartSummary(dashboard, chart, lang);
        return [chart, t[lang](`charts.${chart}.${summary.key}`, summary.values)];
      }),
    );

  it('says what the chart shows, from its data (French)', () => {
    expect(said('fr', week)).toEqual({
      visits_per_day: '47 visites sur la période ; le mardi 26 en a reçu le plus : 42.',
      arrivals_by_hour: "Le plus d'arrivées : le mardi de 09:00 à 10:00, 30 arrivées.",
      on_site_peaks: 'Le pic de présence le plus haut est le mardi 26 : 12 visiteurs à la fois.',
      visit_lengths: '21 visites terminées : durée médiane 42 min, 90e centile 130 min.',
      no_shows_per_day: "Visiteurs absents : 3 ; visites attendues : 10 ; taux d'absence : 30 %.",
      decision_times: '5 demandes traitées : délai médian 12 min, 90e centile 75 min.',
      event_attendance: "« Forum » compte le plus d'inscriptions (30) et 21 participants.",
      top_hosts: 'Mme Traoré a reçu le plus de visites : 12.',
    });
  });

  it('says it in English too, singular where one', () => {
    const one: Dashboard = {
      ...week,
      charts: { ...week.charts, top_hosts: [{ host: 'Mr Diallo', visits: 1 }] },
    };
    const en = said('en', one);
    expect(en.visits_per_day).toBe('47 visits in the period; Tuesday 26 had the most: 42.');
    expect(en.top_hosts).toBe('Mr Diallo received the most visits: 1.');
    expect(en.on_site_peaks).toBe(
      'The highest peak on site was on Tuesday 26: 12 visitors at once.',
    );
  });

  it.each(['fr', 'en'] as const)('says when there is nothing to show (%s)', (lang) => {
    for (const chart of DASHBOARD_CHARTS) {
      expect(chartSummary(empty, chart, lang).key).toBe('empty');
    }
    const sentences = Object.values(said(lang, empty));
    // Every sentence is a word of the locale file, never a key or a left {{variable}}.
    for (const sentence of [...sentences, ...Object.values(said(lang, week))]) {
      expect(sentence).not.toMatch(/\{\{|charts\./);
    }
  });
});
