/**
 * The weekly summary mail (issue 35), in the reader's mail language (users.language): the
 * week's figures against the week before, three charts as inline PNG images (cid) — visits
 * per day, arrivals by weekday and hour, the most visited hosts — each with its words and
 * numbers in the HTML beside it and an alt text of one sentence, and a link to the dashboard
 * for that week. A plain-text part says the same. Every name (company, site, host) is
 * escaped on its way into the HTML (`escapeHtml`), and each text line kept on one line
 * (`frame`).
 *
 * Rendered by the mail worker from the outbox row's payload (the figures read when it was
 * queued, weekly-report.ts), once it has checked that the reader still may have it.
 */
import { and, eq } from 'drizzle-orm';
import {
  activeRole,
  addDays,
  catalogue,
  mayPerform,
  type Catalogue,
  type Dashboard,
  type DashboardFigure,
} from '@sesame/shared';
import type { Db } from '../db/client';
import { companies, files, users } from '../db/schema';
import {
  COLON,
  LOCALE,
  asLanguage,
  buttonHtml,
  escapeHtml,
  frame,
  type Language,
  type MailCompany,
} from '../mail/layout';
import { companyAddress, logoUrl } from '../mail/sources';
import type { RenderedMail } from '../mail/templates';
import { isPerson } from '../users/person';
import { barChart, heatmap, horizontalBars, type ChartImage } from './weekly-report-charts';
import type { WeeklyReportPayload } from './weekly-report';

/** The figures the mail shows, in order: what the week was, beside the week before. */
export const WEEKLY_FIGURES: readonly DashboardFigure[] = [
  'arrivals',
  'visits',
  'expected',
  'no_shows',
  'peak_on_site',
  'visit_length_median_minutes',
  'decision_median_minutes',
  'event_registrations',
  'event_attendees',
];

type Words = Catalogue['dashboard'];

const dayDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** 'lundi 24 mars 2031' / 'Monday 24 March 2031' (year left out when `year` is false). */
function longDay(day: string, lang: Language, year = true): string {
  return new Intl.DateTimeFormat(LOCALE[lang], {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    ...(year ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(dayDate(day));
}

/** '24 mars 2031' / '24 March 2031'. */
const dateOnly = (day: string, lang: Language) =>
  new Intl.DateTimeFormat(LOCALE[lang], {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(dayDate(day));

/** 'lun. 24' / 'Mon 24': a day under its bar. */
const shortDay = (day: string, lang: Language) =>
  new Intl.DateTimeFormat(LOCALE[lang], {
    weekday: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(dayDate(day));

const count = (n: number, lang: Language) => new Intl.NumberFormat(LOCALE[lang]).format(n);

/** '9 h–10 h' / '9–10 am': an hour of the day as a slot. */
function hourSlot(hour: number, lang: Language): string {
  if (lang === 'fr') return `${hour} h–${hour + 1} h`;
  const twelve = (h: number) => (h % 12 === 0 ? 12 : h % 12);
  const half = (h: number) => (h % 24 < 12 ? 'am' : 'pm');
  return `${twelve(hour)} ${half(hour)}–${twelve(hour + 1)} ${half(hour + 1)}`;
}

/** A figure's value as the mail shows it; null (nothing measured) as the words say so. */
const shown = (value: number | null, lang: Language, words: Words) =>
  value === null ? words.weeklyMail.none : count(value, lang);

/** '+7 (+20 %)', '-3 (-10 %)', '0', '+4' (nothing the week before); '' when unknown. */
export function changeText(current: number | null, previous: number | null, lang: Language) {
  if (current === null || previous === null) return '';
  const diff = current - previous;
  if (diff === 0) return '0';
  const signed = (n: number) => `${n > 0 ? '+' : '-'}${count(Math.abs(n), lang)}`;
  if (previous === 0) return signed(diff);
  const percent = Math.round((diff / previous) * 100);
  return `${signed(diff)} (${signed(percent)}${lang === 'fr' ? ' %' : '%'})`;
}

/** The reader of a queued report: still active in the company, a person, subscribed, allowed. */
async function findReader(db: Db, userId: string, companyId: string) {
  const [row] = await db
    .select({
      firstname: users.firstname,
      language: users.language,
      status: users.status,
      companyId: users.companyId,
      roles: users.roles,
      weeklyReport: users.weeklyReport,
    })
    .from(users)
    .where(and(eq(users.id, userId), isPerson))
    .limit(1);
  if (!row || !row.status || row.companyId !== companyId || !row.weeklyReport) return null;
  if (!mayPerform(activeRole(row.roles), 'dashboard.view')) return null;
  return { firstname: row.firstname, lang: asLanguage(row.language) };
}

async function findCompany(db: Db, companyId: string, publicUrl: string) {
  const [row] = await db
    .select({ company: companies, logo: files.storedName })
    .from(companies)
    .leftJoin(files, eq(files.id, companies.logoFileId))
    .where(eq(companies.id, companyId))
    .limit(1);
  if (!row) return null;
  const { company } = row;
  const brand: MailCompany = {
    name: company.name,
    logoUrl: logoUrl(publicUrl, row.logo),
    address: companyAddress(company),
    country: company.country,
  };
  return { slug: company.slug, brand };
}

interface Chart {
  cid: string;
  title: string;
  alt: string;
  image: ChartImage;
  /** The HTML beside the image: its words and numbers. */
  html: string;
  text: string[];
}

const cell = 'padding:4px 8px;border-bottom:1px solid #e5e7eb';
const th = `${cell};text-align:left;color:#555;font-weight:normal`;
const num = `${cell};text-align:right;white-space:nowrap`;

/** The week's days, Monday to Sunday, with their visits of every type. */
async function visitsChart(
  dashboard: Dashboard,
  lang: Language,
  words: Words,
  week: string,
): Promise<Chart> {
  const days = Array.from({ length: 7 }, (_, i) => addDays(dashboard.period.from, i));
  const visits = days.map((day) =>
    dashboard.charts.visits_per_day.filter((r) => r.day === day).reduce((n, r) => n + r.visits, 0),
  );
  const title = words.charts.visits_per_day.title;
  const perDay = days.map((day, i) => `${shortDay(day, lang)} (${count(visits[i]!, lang)})`);
  return {
    cid: `visits-${week}@sesame`,
    title,
    alt: words.weeklyMail.visitsAlt(perDay.join(', ')),
    image: await barChart(visits),
    // Seven equal columns under the seven bars: each day and its number below its bar.
    html: `<table role="presentation" width="520" style="border-collapse:collapse;table-layout:fixed;width:520px;max-width:100%;font-size:13px"><tr>${days
      .map(
        (day, i) =>
          `<td style="text-align:center;padding:2px 0;color:#555">${escapeHtml(shortDay(day, lang))}<br><strong style="color:#1a1a1a">${escapeHtml(count(visits[i]!, lang))}</strong></td>`,
      )
      .join('')}</tr></table>`,
    text: days.map(
      (day, i) => `- ${longDay(day, lang, false)}${COLON[lang]}${count(visits[i]!, lang)}`,
    ),
  };
}

/** Arrivals by weekday (rows) and hour (columns), with the busiest hour and each day's total. */
async function arrivalsChart(
  dashboard: Dashboard,
  lang: Language,
  words: Words,
  week: string,
): Promise<Chart> {
  const grid = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const r of dashboard.charts.arrivals_by_hour) {
    const row = grid[r.weekday - 1];
    if (row && r.hour >= 0 && r.hour < 24) row[r.hour] = (row[r.hour] ?? 0) + r.arrivals;
  }
  // The busiest hour: the first of the week's highest cells.
  let busiest: { weekday: number; hour: number; arrivals: number } | null = null;
  for (const [w, row] of grid.entries()) {
    for (const [hour, arrivals] of row.entries()) {
      if (arrivals > (busiest?.arrivals ?? 0)) busiest = { weekday: w + 1, hour, arrivals };
    }
  }
  const m = words.weeklyMail;
  const sentence = busiest
    ? m.busiest(
        words.weekdays[busiest.weekday - 1] ?? '',
        hourSlot(busiest.hour, lang),
        count(busiest.arrivals, lang),
      )
    : m.noArrivals;
  const totals = grid.map((row) => row.reduce((n, v) => n + v, 0));
  const title = words.charts.arrivals_by_hour.title;
  const capital = sentence.charAt(0).toUpperCase() + sentence.slice(1);
  return {
    cid: `arrivals-${week}@sesame`,
    title,
    alt: m.heatmapAlt(sentence),
    image: await heatmap(grid),
    html:
      `<p style="margin:8px 0 4px;font-size:13px;color:#555">${escapeHtml(m.heatmapLegend)}</p>` +
      `<p style="margin:0 0 8px"><strong>${escapeHtml(capital)}</strong></p>` +
      `<table role="presentation" style="border-collapse:collapse;font-size:13px"><tr>${totals
        .map(
          (total, i) =>
            `<td style="text-align:center;padding:2px 8px 2px 0;color:#555">${escapeHtml(words.weekdays[i] ?? '')}<br><strong style="color:#1a1a1a">${escapeHtml(count(total, lang))}</strong></td>`,
        )
        .join('')}</tr></table>`,
    text: [
      `- ${capital}`,
      ...totals.map((total, i) => `- ${words.weekdays[i]}${COLON[lang]}${count(total, lang)}`),
    ],
  };
}

/** The most visited hosts, most first: their bars, and their names and visits beside. */
async function hostsChart(
  dashboard: Dashboard,
  lang: Language,
  words: Words,
  week: string,
): Promise<Chart | null> {
  const hosts = dashboard.charts.top_hosts;
  if (hosts.length === 0) return null;
  const title = words.charts.top_hosts.title;
  return {
    cid: `hosts-${week}@sesame`,
    title,
    alt: words.weeklyMail.hostsAlt(
      hosts.map((h) => `${h.host} (${count(h.visits, lang)})`).join(', '),
    ),
    image: await horizontalBars(hosts.map((h) => h.visits)),
    html: `<table role="presentation" style="border-collapse:collapse;font-size:14px;margin-top:4px">${hosts
      .map(
        (h, i) =>
          `<tr><td style="${cell};color:#555">${i + 1}.</td><td style="${cell}">${escapeHtml(h.host)}</td><td style="${num}"><strong>${escapeHtml(count(h.visits, lang))}</strong></td></tr>`,
      )
      .join('')}</table>`,
    text: hosts.map((h, i) => `${i + 1}. ${h.host}${COLON[lang]}${count(h.visits, lang)}`),
  };
}

/**
 * The mail itself, from the queued figures (pure: no database). `siteId` says whether one
 * site was chosen (the dashboard link opens on it).
 */
export async function weeklyReportMail(input: {
  lang: Language;
  firstname: string;
  company: MailCompany;
  slug: string;
  publicUrl: string;
  week: string;
  siteId: string | null;
  dashboard: Dashboard;
}): Promise<RenderedMail> {
  const { lang, dashboard, week } = input;
  const words = catalogue(lang).dashboard;
  const m = words.weeklyMail;
  const { from, to } = dashboard.period;
  const chosen = input.siteId ? dashboard.sites.find((s) => s.id === input.siteId) : undefined;
  const place = chosen?.name ?? input.company.name;
  // One site named when one was chosen (or there is only one); else every site they may see.
  const only = chosen ?? (dashboard.sites.length === 1 ? dashboard.sites[0] : undefined);
  const scope = only ? m.scopeSite(only.name) : m.scopeAll;
  const subject = m.subject(place, dateOnly(from, lang));
  const intro = m.intro(longDay(from, lang, false), longDay(to, lang));

  const query = new URLSearchParams({ from, to });
  if (input.siteId) query.set('site', input.siteId);
  const dashboardUrl = `${input.publicUrl}/${input.slug}/dashboard?${query.toString()}`;
  const settingsUrl = `${input.publicUrl}/${input.slug}/my-mail-settings`;

  const figures = WEEKLY_FIGURES.map((figure) => {
    const current = dashboard.current[figure];
    const previous = dashboard.previous[figure];
    return {
      label: words.figures[figure],
      current: shown(current, lang, words),
      previous: shown(previous, lang, words),
      change: changeText(current, previous, lang),
    };
  });

  const charts = await Promise.all([
    visitsChart(dashboard, lang, words, week),
    arrivalsChart(dashboard, lang, words, week),
    hostsChart(dashboard, lang, words, week),
  ]);
  const drawn = charts.filter((c): c is Chart => c !== null);

  const h2 = (text: string) =>
    `<h2 style="font-size:16px;margin:24px 0 8px">${escapeHtml(text)}</h2>`;
  const figuresHtml =
    `<table role="presentation" style="border-collapse:collapse;width:100%;font-size:14px">` +
    `<tr><th style="${th}">${escapeHtml(m.figure)}</th><th style="${th};text-align:right">${escapeHtml(m.thisWeek)}</th><th style="${th};text-align:right">${escapeHtml(m.previousWeek)}</th><th style="${th};text-align:right">${escapeHtml(m.change)}</th></tr>` +
    figures
      .map(
        (f) =>
          `<tr><td style="${cell}">${escapeHtml(f.label)}</td><td style="${num}"><strong>${escapeHtml(f.current)}</strong></td><td style="${num};color:#555">${escapeHtml(f.previous)}</td><td style="${num}">${escapeHtml(f.change)}</td></tr>`,
      )
      .join('') +
    `</table>`;
  const chartHtml = (c: Chart) =>
    h2(c.title) +
    `<img src="cid:${escapeHtml(c.cid)}" alt="${escapeHtml(c.alt)}" width="${c.image.width}" height="${c.image.height}" style="display:block;width:100%;max-width:${c.image.width}px;height:auto;border:0">` +
    c.html;

  const html =
    `<p style="margin:0 0 12px">${escapeHtml(m.greeting(input.firstname))}</p>` +
    `<p style="margin:0 0 12px">${escapeHtml(intro)}</p>` +
    `<p style="margin:0 0 12px;color:#555">${escapeHtml(scope)}</p>` +
    h2(m.figuresTitle) +
    figuresHtml +
    drawn.map(chartHtml).join('') +
    (charts[2]
      ? ''
      : h2(words.charts.top_hosts.title) +
        `<p style="margin:0 0 12px">${escapeHtml(m.noHosts)}</p>`) +
    `<p style="margin:24px 0 12px">${buttonHtml(m.open, dashboardUrl)}</p>` +
    `<p style="margin:16px 0 0;color:#555;font-size:13px">${escapeHtml(m.why)} <a href="${escapeHtml(settingsUrl)}">${escapeHtml(m.stop)}</a></p>`;

  const colon = COLON[lang];
  const text = [
    m.greeting(input.firstname),
    '',
    intro,
    scope,
    '',
    `${m.figuresTitle}${colon.trimEnd()}`,
    ...figures.map(
      (f) =>
        `- ${f.label}${colon}${f.current} (${m.previousWeek}${colon}${f.previous}${f.change ? `, ${m.change.toLowerCase()}${colon}${f.change}` : ''})`,
    ),
    ...drawn.flatMap((c) => ['', `${c.title}${colon.trimEnd()}`, ...c.text]),
    ...(charts[2] ? [] : ['', `${words.charts.top_hosts.title}${colon.trimEnd()}`, m.noHosts]),
    '',
    `${m.open}${colon}${dashboardUrl}`,
    '',
    m.why,
    `${m.stop}${colon}${settingsUrl}`,
  ];

  const framed = frame({
    lang,
    subject,
    company: input.company,
    html,
    text,
    footer: m.footer(input.company.name),
  });
  return {
    ...framed,
    // A mail the reader subscribed to: mail programs offer "unsubscribe" (RFC 2369), which
    // opens 'Mes notifications', where the reader switches it off once signed in.
    list: { unsubscribe: settingsUrl },
    attachments: drawn.map((c) => ({
      filename: `${c.cid.split('@')[0]}.png`,
      content: c.image.png,
      contentType: 'image/png',
      cid: c.cid,
    })),
  };
}

/**
 * The queued report's mail, or null when it is no longer wanted: the reader gone, switched
 * off, moved to another company, or no longer allowed to read the dashboard.
 */
export async function renderWeeklyReportMail(
  db: Db,
  payload: WeeklyReportPayload,
  companyId: string,
  publicUrl: string,
): Promise<RenderedMail | null> {
  if (!payload.userId || !payload.dashboard) return null;
  const reader = await findReader(db, payload.userId, companyId);
  if (!reader) return null;
  const company = await findCompany(db, companyId, publicUrl);
  if (!company) return null;
  return weeklyReportMail({
    lang: reader.lang,
    firstname: reader.firstname,
    company: company.brand,
    slug: company.slug,
    publicUrl,
    week: payload.week,
    siteId: payload.siteId,
    dashboard: payload.dashboard,
  });
}
