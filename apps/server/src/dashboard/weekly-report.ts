/**
 * The weekly summary mail (issue 35): each Monday from 08:00 in the zone of the report's
 * site, the previous Monday–Sunday's figures against the week before, to whoever switched
 * it on in "Mes notifications" and may read the dashboard ('dashboard.view').
 *
 * - The report's site is the one the person chose, else their home site, else the first
 *   active site they may read (the company's first, unless they are limited to some). Its
 *   zone says when Monday 08:00 is; the week's days are each site's own (figures.ts).
 * - What it counts: the chosen site, else the sites the person is limited to, else every
 *   site of their company — what their dashboard shows them.
 * - Every instance runs the sweep (background.ts). The `weekly_reports_sent` row (person,
 *   Monday) and the mail's outbox row are written in one transaction, the row inserted with
 *   `on conflict do nothing`: the instance whose insert lands queues the mail, any other
 *   queues nothing. The outbox's dedupe key says the same once more.
 * - A report is queued on its Monday only, from 08:00 to 23:59 local time: a server down at
 *   08:00 still sends it that day once back, but nobody gets last week's figures on a
 *   Wednesday (someone who subscribes after Monday gets the next Monday's; on a Monday, that
 *   day's). Missed Mondays are not made up.
 * - The figures are read when the mail is queued (readDashboard, the clock of the sweep) and
 *   travel in the outbox row: a retry sends the same mail.
 */
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import {
  activeRole,
  addDays,
  mayPerform,
  type Dashboard,
  type Language,
  type MailPreferences,
  type Say,
} from '@sesame/shared';
import type { Principal } from '../auth/principal';
import { mayAct } from '../auth/authorize';
import type { Db } from '../db/client';
import { companies, mailOutbox, sites, users, weeklyReportsSent } from '../db/schema';
import { badRequest, forbidden, notFound } from '../errors';
import { asLanguage } from '../mail/layout';
import { findSite, withinSites } from '../sites/service';
import { dayOf, wallClock } from '../time-zones';
import { isPerson } from '../users/person';
import { readDashboard } from './figures';

/** The outbox kind of the weekly summary mail. */
export const WEEKLY_REPORT_MAIL = 'weekly_report';

/** The local hour on Monday from which the week's report goes. */
export const WEEKLY_REPORT_HOUR = 8;

/** How often the sweep looks for reports due (and once at start). */
export const WEEKLY_REPORT_SWEEP_MS = 5 * 60_000;

/** What the mail is rendered from (mail/worker.ts → weekly-report-mail.ts). */
export interface WeeklyReportPayload {
  userId: string;
  /** The Monday the report is sent (YYYY-MM-DD); the week reported is the seven days before. */
  week: string;
  /** The site chosen; null: every site the person may read. */
  siteId: string | null;
  dashboard: Dashboard;
}

interface SiteRow {
  id: string;
  companyId: string;
  name: string;
  timezone: string;
}

/** A company's active sites the person may read, oldest first (the main site first). */
function readableSites(all: SiteRow[], who: { companyId: string; siteIds: string[] }) {
  return all.filter((s) => s.companyId === who.companyId && withinSites(who, s.id));
}

/** An ISO date's weekday, 1 Monday … 7 Sunday. */
const isoWeekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7;

/** The Monday whose report is due at `now` in `timeZone` (Monday, 08:00–23:59), else null. */
export function dueMonday(now: Date, timeZone: string): string | null {
  const day = dayOf(now, timeZone);
  if (isoWeekday(day) !== 1) return null;
  return wallClock(now, timeZone).hour >= WEEKLY_REPORT_HOUR ? day : null;
}

/** The week a Monday's report is about: the Monday to Sunday before it. */
export function reportedWeek(monday: string): { from: string; to: string } {
  return { from: addDays(monday, -7), to: addDays(monday, -1) };
}

interface Subscriber {
  id: string;
  companyId: string;
  email: string;
  language: string;
  siteIds: string[];
  homeSiteId: string | null;
  chosenSiteId: string | null;
}

/** Where a subscriber's report is about, and the zone of its Monday; null: no site to read. */
function placeOf(person: Subscriber, activeSites: SiteRow[]) {
  const readable = readableSites(activeSites, person);
  const chosen = person.chosenSiteId
    ? readable.find((s) => s.id === person.chosenSiteId)
    : undefined;
  const zoneSite = chosen ?? readable.find((s) => s.id === person.homeSiteId) ?? readable[0];
  if (!zoneSite) return null;
  const siteIds = chosen ? [chosen.id] : person.siteIds.length > 0 ? person.siteIds : undefined;
  return { timeZone: zoneSite.timezone, siteId: chosen?.id ?? null, siteIds };
}

/**
 * Queues the reports due at `now`: one mail per subscriber with 'dashboard.view' whose
 * Monday it is (08:00 or later) and whose week has none yet. Resolves with the mails queued
 * by this call. `signal` stops it between two people.
 */
export async function queueWeeklyReports(
  db: Db,
  { now = new Date(), signal }: { now?: Date; signal?: AbortSignal } = {},
): Promise<number> {
  const subscribed = await db
    .select({
      id: users.id,
      companyId: users.companyId,
      email: users.email,
      language: users.language,
      roles: users.roles,
      siteIds: users.siteIds,
      homeSiteId: users.homeSiteId,
      chosenSiteId: users.weeklyReportSiteId,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(
      and(
        eq(users.weeklyReport, true),
        eq(users.status, true),
        isPerson,
        isNull(companies.archivedAt),
      ),
    );
  const people = subscribed.filter(
    (p) => p.email.trim() && mayPerform(activeRole(p.roles), 'dashboard.view'),
  );
  if (people.length === 0) return 0;

  const companyIds = [...new Set(people.map((p) => p.companyId))];
  const activeSites = await activeSitesOf(db, companyIds);

  const due = people.flatMap((person) => {
    const place = placeOf(person, activeSites);
    const week = place && dueMonday(now, place.timeZone);
    return place && week ? [{ person, place, week }] : [];
  });
  if (due.length === 0) return 0;
  const sent = await db
    .select({ userId: weeklyReportsSent.userId, week: weeklyReportsSent.week })
    .from(weeklyReportsSent)
    .where(
      and(
        inArray(
          weeklyReportsSent.userId,
          due.map((d) => d.person.id),
        ),
        inArray(weeklyReportsSent.week, [...new Set(due.map((d) => d.week))]),
      ),
    );
  const done = new Set(sent.map((s) => `${s.userId}/${s.week}`));

  // People of the same scope, week and language read the same figures: read once per sweep.
  const read = new Map<string, Promise<Dashboard>>();
  let queued = 0;
  for (const { person, place, week } of due) {
    if (signal?.aborted) break;
    if (done.has(`${person.id}/${week}`)) continue;
    const lang: Language = asLanguage(person.language);
    const key = JSON.stringify([person.companyId, place.siteIds ?? null, week, lang]);
    let figures = read.get(key);
    if (!figures) {
      figures = readDashboard(db, {
        companyId: person.companyId,
        siteIds: place.siteIds,
        ...reportedWeek(week),
        now,
        lang,
      });
      read.set(key, figures);
    }
    const dashboard = await figures;
    const payload: WeeklyReportPayload = {
      userId: person.id,
      week,
      siteId: place.siteId,
      dashboard,
    };
    const wrote = await db.transaction(async (tx) => {
      const [mine] = await tx
        .insert(weeklyReportsSent)
        .values({ userId: person.id, week })
        .onConflictDoNothing()
        .returning({ userId: weeklyReportsSent.userId });
      // Another instance queued this week's report first.
      if (!mine) return false;
      await tx
        .insert(mailOutbox)
        .values({
          companyId: person.companyId,
          kind: WEEKLY_REPORT_MAIL,
          toAddress: person.email,
          payload,
          dedupeKey: `${WEEKLY_REPORT_MAIL}:${person.id}:${week}`,
        })
        .onConflictDoNothing({ target: mailOutbox.dedupeKey });
      return true;
    });
    if (wrote) queued += 1;
  }
  return queued;
}

// ---- "Mes notifications" ----

/** The companies' sites not archived, oldest first (the first is a company's main one). */
function activeSitesOf(db: Db, companyIds: string[]) {
  return db
    .select({
      id: sites.id,
      companyId: sites.companyId,
      name: sites.name,
      timezone: sites.timezone,
    })
    .from(sites)
    .where(and(inArray(sites.companyId, companyIds), isNull(sites.archivedAt)))
    .orderBy(asc(sites.createdAt), asc(sites.id));
}

/** A person's own company's active sites they may read, for the report's site choice. */
async function sitesFor(db: Db, who: Pick<Principal, 'companyId' | 'siteIds'>) {
  const rows = await activeSitesOf(db, [who.companyId]);
  return readableSites(rows, who).map(({ id, name }) => ({ id, name }));
}

/**
 * What "Mes notifications" shows of the weekly summary to `who`: the stored settings,
 * whether they may have it, and the sites it may report on.
 */
export async function weeklyReportView(db: Db, who: Principal) {
  const [row] = await db
    .select({ on: users.weeklyReport, siteId: users.weeklyReportSiteId })
    .from(users)
    .where(eq(users.id, who.userId))
    .limit(1);
  const available = mayAct(who, 'dashboard.view');
  return {
    weekly_report: row?.on ?? false,
    weekly_report_site_id: row?.siteId ?? null,
    weekly_report_available: available,
    weekly_report_sites: available ? await sitesFor(db, who) : [],
  };
}

/**
 * The weekly summary's settings of a save, checked: switching it on needs 'dashboard.view'
 * (403); the site must be one of the person's company (another's or none: 404), active and
 * within their site limits (400, said on the field). Resolves with the columns to write.
 */
export async function weeklyReportUpdate(
  db: Db,
  who: Principal,
  body: Pick<MailPreferences, 'weekly_report' | 'weekly_report_site_id'>,
): Promise<Partial<Pick<typeof users.$inferInsert, 'weeklyReport' | 'weeklyReportSiteId'>>> {
  const set: Partial<Pick<typeof users.$inferInsert, 'weeklyReport' | 'weeklyReportSiteId'>> = {};
  if (body.weekly_report !== undefined) {
    if (body.weekly_report && !mayAct(who, 'dashboard.view'))
      throw forbidden((m) => m.dashboard.weeklyMail.notAllowed);
    set.weeklyReport = body.weekly_report;
  }
  if (body.weekly_report_site_id !== undefined) {
    const siteId = body.weekly_report_site_id;
    if (siteId !== null) {
      const site = await findSite(db, siteId);
      if (!site || site.companyId !== who.companyId) throw notFound();
      if (site.archivedAt || !withinSites(who, site.id)) {
        const said: Say = (m) => m.dashboard.weeklyMail.siteOutOfReach;
        throw badRequest(said, { weekly_report_site_id: said });
      }
    }
    set.weeklyReportSiteId = siteId;
  }
  return set;
}
