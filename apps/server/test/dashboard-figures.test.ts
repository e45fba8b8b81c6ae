/**
 * Issue 35, the dashboard's figures, checked against a week built by hand — on PGlite and
 * on PostgreSQL. Every expected number below is worked out from the definitions in
 * packages/shared/src/schemas/dashboard.ts (its header comment), never from the queries:
 * the comment beside each row of data says what it must count for.
 *
 * The company has two sites: "Paris" (Europe/Paris, whose week of Monday 2030-03-25 holds
 * the change to summer time on Sunday 2030-03-31, a day of 23 hours) and "Tokyo"
 * (Asia/Tokyo, nine hours ahead of UTC, no change). Another company's data lies in the
 * same days and is never counted. The clock is fixed (Date faked): 2030-04-03 10:00 UTC,
 * a Wednesday, 12:00 in Paris and 19:00 in Tokyo, so every day of the week has ended.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { addDays, type Dashboard, type DashboardFigures } from '@sesame/shared';
import type { Db } from '../src/db/client';
import {
  invitationDays,
  invitations,
  kiosks,
  sites,
  visitRequests,
  visitorChecks,
  visitors,
} from '../src/db/schema';
import { rowsOf } from '../src/db/rows';
import { readDashboard } from '../src/dashboard/figures';
import { summarizeSettledDays } from '../src/dashboard/summary';
import { as, tokenFor, useTestApp } from './helpers/app';
import {
  check,
  dashboardRows,
  meeting,
  nextDay,
  paris,
  request,
  tokyo,
  utc,
  visitor,
  visitorType,
  type Place,
} from './helpers/dashboard-data';
import { buildCompany, buildEvent, buildSite, buildUser } from './helpers/factories';

const ctx = useTestApp();
const db = (): Db => ctx.db as unknown as Db;

const NOW = new Date('2030-04-03T10:00:00Z');

afterEach(() => {
  vi.useRealTimers();
});

// ---------------------------------------------------------------------------------------

const world = {} as {
  company: { id: string; slug: string };
  parisSite: string;
  tokyoSite: string;
  paris: Place;
  tokyo: Place;
  reader: string;
  rennes: { place: Place; client: string };
  m2: string;
  helene: string;
  karim: string;
};

beforeAll(async () => {
  dashboardRows.db = db();
  const company = await buildCompany(db(), { name: 'Acme Dashboard', timezone: 'Europe/Paris' });
  // The main site is renamed "Paris" (names order the sites; Paris comes first).
  await db().update(sites).set({ name: 'Paris' }).where(eq(sites.id, company.siteId));
  const tokyoRow = await buildSite(db(), { company, name: 'Tokyo', timezone: 'Asia/Tokyo' });
  // A third site in Paris's zone, for the night the clocks go back (October), with nobody
  // inside now.
  const rennes = await buildSite(db(), { company, name: 'Rennes', timezone: 'Europe/Paris' });
  const P: Place = { companyId: company.id, siteId: company.siteId, zone: paris };
  const T: Place = { companyId: company.id, siteId: tokyoRow.id, zone: tokyo };

  const reader = await buildUser(db(), { company, role: 'ROLE_SUPER_ADMIN' });
  dashboardRows.deskUserId = (await buildUser(db(), { company, role: 'ROLE_EMPLOYEE' })).id;
  const helene = await buildUser(db(), { company, firstname: 'Hélène', name: 'Martin' });
  const karim = await buildUser(db(), { company, firstname: 'Karim', name: 'Benali' });
  const yuki = await buildUser(db(), { company, firstname: 'Yuki', name: 'Tanaka' });

  const clientP = await visitorType(P, 'Client', 'Customer');
  const contractorP = await visitorType(P, 'Prestataire', 'Contractor');
  const clientT = await visitorType(T, 'Client', 'Customer');

  // ===== The week: Monday 2030-03-25 … Sunday 2030-03-31 ==============================
  // --- Paris ---
  // A1: 90 min on Monday; its host is the staff member (not the name typed). Answered in 10.
  await meeting(P, {
    day: '2030-03-25',
    typeId: clientP,
    hostUserId: helene.id,
    host: 'H. Martin',
    createdAt: paris('2030-03-25 07:00'),
    answeredAfter: 10,
    checks: [['2030-03-25 09:00', '2030-03-25 10:30']],
  });
  // A2: comes twice on Monday (2 arrivals, 1 visit): 20 and 60 min. Typed host. Answered in 20.
  await meeting(P, {
    day: '2030-03-25',
    typeId: clientP,
    host: 'M. Diallo',
    createdAt: paris('2030-03-25 07:00'),
    answeredAfter: 20,
    checks: [
      ['2030-03-25 10:00', '2030-03-25 10:20'],
      ['2030-03-25 14:00', '2030-03-25 15:00'],
    ],
  });
  // A3: Tuesday, never came (no-show). Answered in 90.
  await meeting(P, {
    day: '2030-03-26',
    typeId: contractorP,
    hostUserId: helene.id,
    createdAt: paris('2030-03-25 11:00'),
    answeredAfter: 90,
  });
  // A4: Tuesday, an arrival undone (a scan by mistake): no arrival, a no-show. Answered in 300.
  await meeting(P, {
    day: '2030-03-26',
    typeId: contractorP,
    hostUserId: helene.id,
    createdAt: paris('2030-03-25 11:00'),
    answeredAfter: 300,
    checks: [['2030-03-26 08:00', null, { undoneAt: paris('2030-03-26 08:02') }]],
  });
  // A5: Wednesday, a free-text type, 5 min. Answered in 1500 (over a day).
  await meeting(P, {
    day: '2030-03-27',
    typeText: 'Livreur',
    host: 'Livraisons Ouest',
    createdAt: paris('2030-03-25 13:00'),
    answeredAfter: 1500,
    checks: [['2030-03-27 11:00', '2030-03-27 11:05']],
  });
  // A6: Wednesday, no type, checked out automatically at the day's end: an arrival, a visit,
  // an automatic check-out, no length. Answered in 45.
  await meeting(P, {
    day: '2030-03-27',
    hostUserId: karim.id,
    host: 'Karim B.',
    createdAt: paris('2030-03-26 11:00'),
    answeredAfter: 45,
    checks: [['2030-03-27 17:00', '2030-03-27 23:59', { outMethod: 'automatic' }]],
  });
  // A7: Thursday, declined: not expected; an answer (30 min).
  await meeting(P, {
    day: '2030-03-28',
    typeId: clientP,
    hostUserId: helene.id,
    createdAt: paris('2030-03-26 11:00'),
    answeredAfter: 30,
    confirmed: false,
  });
  // A8: Thursday, never answered: not expected, not an answer.
  await meeting(P, {
    day: '2030-03-28',
    typeId: clientP,
    hostUserId: helene.id,
    createdAt: paris('2030-03-27 11:00'),
    confirmed: null,
  });
  // A9: Thursday 09:00–12:00 (180 min): a departure at 10:00 was undone. Asked on Monday at
  // 00:30 in Paris (Sunday 23:30 UTC): in the week. Answered in 5.
  await meeting(P, {
    day: '2030-03-28',
    typeId: clientP,
    hostUserId: karim.id,
    createdAt: paris('2030-03-25 00:30'),
    answeredAfter: 5,
    checks: [['2030-03-28 09:00', '2030-03-28 12:00', { undoneOut: paris('2030-03-28 10:00') }]],
  });
  // A10: Sunday (the change to summer time): in at 01:30 winter time, out at 04:00 summer
  // time: 90 min, not the 150 the clock's faces say. Asked long before.
  await meeting(P, {
    day: '2030-03-31',
    typeId: contractorP,
    host: 'M. Diallo',
    createdAt: paris('2030-03-10 10:00'),
    answeredAfter: 100,
    checks: [['2030-03-31 01:30', '2030-03-31 04:00']],
  });
  // A11: Sunday, in at 03:30 summer time (hour 3), 30 min. Asked Sunday 23:30: in the week;
  // answered in exactly 15 (the bucket from 15).
  await meeting(P, {
    day: '2030-03-31',
    typeId: contractorP,
    hostUserId: helene.id,
    createdAt: paris('2030-03-31 23:30'),
    answeredAfter: 15,
    checks: [['2030-03-31 03:30', '2030-03-31 04:00']],
  });
  // A12: Monday 2030-04-01 at 00:30 in Paris (still Sunday in UTC): the next week. Asked at
  // the next week's first instant.
  await meeting(P, {
    day: '2030-04-01',
    typeId: clientP,
    hostUserId: helene.id,
    createdAt: paris('2030-04-01 00:00'),
    answeredAfter: 5,
    checks: [['2030-04-01 00:30', '2030-04-01 01:00']],
  });
  // A13: Monday 00:30 in Paris (Sunday 23:30 UTC): this week, Monday, hour 0; 15 min.
  await meeting(P, {
    day: '2030-03-25',
    typeId: clientP,
    hostUserId: helene.id,
    createdAt: paris('2030-03-01 10:00'),
    answeredAfter: 60,
    checks: [['2030-03-25 00:30', '2030-03-25 00:45']],
  });
  // Karim's invitation for two visitors, Tuesday to Friday, Wednesday cancelled. Its
  // requests are confirmed as they are written (no answer to time).
  const [invitation] = await db()
    .insert(invitations)
    .values({
      companyId: company.id,
      siteId: P.siteId,
      hostUserId: karim.id,
      firstDate: '26/03/2030',
      time: '09:00',
      endTime: '17:00',
      visitorTypeId: contractorP,
      createdAt: paris('2030-03-25 09:00'),
    })
    .returning();
  for (const day of ['2030-03-26', '2030-03-27', '2030-03-28', '2030-03-29']) {
    await db()
      .insert(invitationDays)
      .values({
        companyId: company.id,
        invitationId: invitation!.id,
        day,
        startsAt: paris(`${day} 00:00`),
        endsAt: paris(`${nextDay(day)} 00:00`),
        cancelledAt: day === '2030-03-27' ? paris('2030-03-25 12:00') : null,
      });
  }
  const invited = async () => {
    const v = await visitor(P, {
      day: '2030-03-26',
      typeId: contractorP,
      bounds: { start: paris('2030-03-26 00:00'), end: paris('2030-03-30 00:00') },
    });
    await request(P, v.id, {
      hostUserId: karim.id,
      host: 'Karim Benali',
      createdAt: paris('2030-03-25 09:00'),
      answeredAfter: 0,
      invitationId: invitation!.id,
    });
    return v;
  };
  // VI: Tuesday 09:00–17:00 (480), Thursday 09:00–09:40 (40), missed Friday.
  const visitorI = await invited();
  await check(P, visitorI.id, paris('2030-03-26 09:00'), { out: paris('2030-03-26 17:00') });
  await check(P, visitorI.id, paris('2030-03-28 09:00'), { out: paris('2030-03-28 09:40') });
  // VJ: missed Tuesday and Thursday, Friday 10:50–11:40 (50).
  const vj = await invited();
  await check(P, vj.id, paris('2030-03-29 10:50'), { out: paris('2030-03-29 11:40') });
  // An open day on Friday: four registered; two came (60, 120 min), one arrival undone.
  // (A registration's own request, confirmed as it is filed, is the subject of its own test
  // below, 'requests confirmed as they are filed'.)
  const openDay = await buildEvent(db(), {
    company,
    siteId: P.siteId,
    name: 'Journée portes ouvertes',
    dateEvent: '29/03/2030',
  });
  const guest = () => visitor(P, { day: '2030-03-29', eventId: openDay.id });
  const g1 = await guest();
  await check(P, g1.id, paris('2030-03-29 10:00'), { out: paris('2030-03-29 11:00') });
  const g2 = await guest();
  await check(P, g2.id, paris('2030-03-29 10:15'), { out: paris('2030-03-29 12:15') });
  const g3 = await guest();
  await check(P, g3.id, paris('2030-03-29 10:30'), { undoneAt: paris('2030-03-29 10:31') });
  await guest();

  // --- Tokyo ---
  // B1: Tuesday 09:00–10:05 (65). Asked Monday 01:00 Tokyo (Sunday in UTC): this week; 240.
  await meeting(T, {
    day: '2030-03-26',
    typeId: clientT,
    hostUserId: helene.id,
    createdAt: tokyo('2030-03-25 01:00'),
    answeredAfter: 240,
    checks: [['2030-03-26 09:00', '2030-03-26 10:05']],
  });
  // B2: Tuesday 08:30 Tokyo (Monday 23:30 UTC) – 09:15 (45). Asked Sunday 23:00 Tokyo: the
  // previous week's answer (1440).
  await meeting(T, {
    day: '2030-03-26',
    typeId: clientT,
    host: 'Sato Kenji',
    createdAt: tokyo('2030-03-24 23:00'),
    answeredAfter: 1440,
    checks: [['2030-03-26 08:30', '2030-03-26 09:15']],
  });
  // B3: Saturday, no-show. Answered in exactly 60.
  await meeting(T, {
    day: '2030-03-30',
    hostUserId: yuki.id,
    createdAt: tokyo('2030-03-27 09:00'),
    answeredAfter: 60,
  });
  // B4: Sunday 23:30–23:50 Tokyo (20). Asked long before.
  await meeting(T, {
    day: '2030-03-31',
    typeId: clientT,
    host: 'M. Diallo',
    createdAt: tokyo('2030-03-01 10:00'),
    answeredAfter: 10,
    checks: [['2030-03-31 23:30', '2030-03-31 23:50']],
  });
  // B5: Thursday, a walk-in let in after 5 min, 14:00–14:40 (40).
  await meeting(T, {
    day: '2030-03-28',
    hostUserId: yuki.id,
    createdAt: tokyo('2030-03-28 13:50'),
    answeredAfter: 5,
    checks: [['2030-03-28 14:00', '2030-03-28 14:40']],
  });
  // B7: Wednesday 18:00, checked out automatically at 23:59. Answered in 5.
  await meeting(T, {
    day: '2030-03-27',
    typeId: clientT,
    host: 'Sato Kenji',
    createdAt: tokyo('2030-03-27 17:55'),
    answeredAfter: 5,
    checks: [['2030-03-27 18:00', '2030-03-27 23:59', { outMethod: 'automatic' }]],
  });
  // A fair on Saturday: two registered, nobody came.
  const fair = await buildEvent(db(), {
    company,
    siteId: T.siteId,
    name: 'Salon Tokyo',
    dateEvent: '30/03/2030',
  });
  await visitor(T, { day: '2030-03-30', eventId: fair.id });
  await visitor(T, { day: '2030-03-30', eventId: fair.id });

  // ===== The previous week: Monday 2030-03-18 … Sunday 2030-03-24 =====================
  // --- Paris ---
  await meeting(P, {
    day: '2030-03-18',
    typeId: clientP,
    hostUserId: helene.id,
    createdAt: paris('2030-03-18 08:00'),
    answeredAfter: 30,
    checks: [['2030-03-18 10:00', '2030-03-18 11:00']],
  }); // C1: 60
  await meeting(P, {
    day: '2030-03-18',
    typeId: clientP,
    host: 'Accueil',
    createdAt: paris('2030-03-18 10:25'),
    answeredAfter: 4,
    checks: [['2030-03-18 10:30', '2030-03-18 10:45']],
  }); // C4: 15, inside with C1
  await meeting(P, {
    day: '2030-03-20',
    typeId: clientP,
    hostUserId: helene.id,
    createdAt: paris('2030-03-18 08:00'),
    answeredAfter: 120,
  }); // C2: no-show
  await meeting(P, {
    day: '2030-03-24',
    typeId: contractorP,
    hostUserId: karim.id,
    createdAt: paris('2030-03-17 23:30'),
    answeredAfter: 10,
    checks: [['2030-03-24 23:30', '2030-03-24 23:50']],
  }); // C3: Sunday 23:30 (22:30 UTC), 20; asked before the previous week
  const workshop = await buildEvent(db(), {
    company,
    siteId: P.siteId,
    name: 'Atelier',
    dateEvent: '21/03/2030',
  });
  const k1 = await visitor(P, { day: '2030-03-21', eventId: workshop.id });
  await check(P, k1.id, paris('2030-03-21 10:00'), { out: paris('2030-03-21 10:30') });
  await visitor(P, { day: '2030-03-21', eventId: workshop.id });
  await visitor(P, { day: '2030-03-21', eventId: workshop.id });
  // --- Tokyo ---
  await meeting(T, {
    day: '2030-03-19',
    typeId: clientT,
    hostUserId: yuki.id,
    createdAt: tokyo('2030-03-18 09:00'),
    answeredAfter: 1450,
    checks: [['2030-03-19 10:00', '2030-03-19 12:00']],
  }); // D1: 120
  await meeting(T, {
    day: '2030-03-22',
    hostUserId: yuki.id,
    createdAt: tokyo('2030-03-22 12:00'),
    answeredAfter: 1,
    checks: [['2030-03-22 13:00', '2030-03-22 23:59', { outMethod: 'automatic' }]],
  }); // D2: automatic

  // ===== Today, Wednesday 2030-04-03 (the clock: 10:00 UTC) ===========================
  const early = { createdAt: paris('2030-03-01 10:00'), answeredAfter: 10 };
  await meeting(P, {
    day: '2030-04-03',
    typeId: clientP,
    ...early,
    checks: [['2030-04-03 10:00', '2030-04-03 11:30']],
  }); // N1
  await meeting(P, {
    day: '2030-04-03',
    typeId: clientP,
    ...early,
    checks: [['2030-04-03 10:30', null]],
  }); // N2: still inside
  await meeting(P, {
    day: '2030-04-03',
    typeId: clientP,
    ...early,
    checks: [['2030-04-03 11:00', '2030-04-03 11:10']],
  }); // N3
  await meeting(P, {
    day: '2030-04-03',
    typeId: clientP,
    ...early,
    checks: [['2030-04-03 11:05', null, { undoneAt: paris('2030-04-03 11:06') }]],
  }); // N4: undone
  await meeting(T, {
    day: '2030-04-03',
    typeId: clientT,
    ...early,
    checks: [['2030-04-03 10:00', '2030-04-03 18:30']],
  }); // M1: 01:00–09:30 UTC
  const m2 = await meeting(T, {
    day: '2030-04-03',
    typeId: clientT,
    ...early,
    checks: [['2030-04-03 18:40', null]],
  }); // M2: from 09:40 UTC, inside at 10:00 UTC (leaves at 14:00 UTC, below)
  await meeting(T, { day: '2030-04-02', ...early }); // M0: Tuesday, no-show

  // ===== Another company, the same days: never counted ================================
  const other = await buildCompany(db(), { name: 'Autre', timezone: 'Europe/Paris' });
  const O: Place = { companyId: other.id, siteId: other.siteId, zone: paris };
  const otherHost = await buildUser(db(), { company: other, firstname: 'Karim', name: 'Benali' });
  await meeting(O, {
    day: '2030-03-26',
    hostUserId: otherHost.id,
    createdAt: paris('2030-03-25 09:00'),
    answeredAfter: 12,
    checks: [['2030-03-26 10:00', '2030-03-26 11:00']],
  });
  await meeting(O, {
    day: '2030-03-27',
    host: 'Hélène Martin',
    createdAt: paris('2030-03-25 09:00'),
    answeredAfter: 7,
  });
  await meeting(O, {
    day: '2030-03-28',
    host: 'M. Diallo',
    createdAt: paris('2030-03-26 09:00'),
    answeredAfter: 3,
    checks: [['2030-03-28 09:00', '2030-03-28 23:59', { outMethod: 'automatic' }]],
  });
  await meeting(O, {
    day: '2030-04-03',
    host: 'M. Diallo',
    ...early,
    checks: [['2030-04-03 10:45', null]],
  });
  const otherEvent = await buildEvent(db(), {
    company: other,
    siteId: O.siteId,
    name: 'Autre événement',
    dateEvent: '29/03/2030',
  });
  const og = await visitor(O, { day: '2030-03-29', eventId: otherEvent.id });
  await check(O, og.id, paris('2030-03-29 10:00'), { out: paris('2030-03-29 10:30') });
  await visitor(O, { day: '2030-03-29', eventId: otherEvent.id });

  Object.assign(world, {
    company,
    parisSite: P.siteId,
    tokyoSite: T.siteId,
    paris: P,
    tokyo: T,
    reader: reader.email,
    rennes: {
      place: { companyId: company.id, siteId: rennes.id, zone: paris },
      client: await visitorType(
        { companyId: company.id, siteId: rennes.id, zone: paris },
        'Client',
        'Customer',
      ),
    },
    m2: m2.id,
    helene: helene.id,
    karim: karim.id,
  });
});

const tokens = new Map<string, string>();
/** GET /api/dashboard as the company's super admin, the clock at `now`. */
async function dashboard(query: string, now = NOW): Promise<Dashboard> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  try {
    const key = `${world.reader}|${now.toISOString()}`;
    let token = tokens.get(key);
    if (!token) {
      token = await tokenFor(ctx.app, world.reader);
      tokens.set(key, token);
    }
    const res = await as(ctx.app, token)({ method: 'GET', url: `/api/dashboard?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Dashboard>();
  } finally {
    vi.useRealTimers();
  }
}

const week = 'from=2030-03-25&to=2030-03-31';

/** The chart's rows in one order (the definitions fix none for these two). */
function sortedVisits(d: Dashboard) {
  return [...d.charts.visits_per_day].sort(
    (a, b) =>
      a.day.localeCompare(b.day) || (a.visitor_type ?? '').localeCompare(b.visitor_type ?? ''),
  );
}
function sortedHours(d: Dashboard) {
  return [...d.charts.arrivals_by_hour].sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);
}
/** Most visits first; hosts with as many visits in name order (ties have no fixed order). */
function sortedHosts(d: Dashboard) {
  return [...d.charts.top_hosts].sort(
    (a, b) => b.visits - a.visits || a.host.localeCompare(b.host),
  );
}

const figures = (f: DashboardFigures) => f;
const lengths = (counts: number[]) =>
  [0, 15, 30, 60, 120, 240, 480].map((from, i) => ({ from_minutes: from, visits: counts[i] }));
const decisionBuckets = (counts: number[]) =>
  [0, 15, 60, 240, 1440].map((from, i) => ({ from_minutes: from, requests: counts[i] }));
const days = [
  '2030-03-25',
  '2030-03-26',
  '2030-03-27',
  '2030-03-28',
  '2030-03-29',
  '2030-03-30',
  '2030-03-31',
];
const perDay = <T>(values: T[], make: (day: string, v: T) => object) =>
  days.map((day, i) => make(day, values[i]!));

describe('the week of 2030-03-25, Paris only (its Sunday has 23 hours)', () => {
  it('counts every figure of the week and of the week before from the definitions', async () => {
    const d = await dashboard(`${week}&site=${world.parisSite}`);
    expect(d.period).toEqual({ from: '2030-03-25', to: '2030-03-31', days: 7 });
    expect(d.previous_period).toEqual({ from: '2030-03-18', to: '2030-03-24' });
    expect(d.sites).toEqual([{ id: world.parisSite, name: 'Paris', timezone: 'Europe/Paris' }]);
    expect(d.current).toEqual(
      figures({
        // A1, A2 ×2, A5, A6, A9, A10, A11, A13, VI ×2, VJ, G1, G2 (A4, G3 undone; A12 next week)
        arrivals: 14,
        // A2's two arrivals are one visit
        visits: 13,
        // meetings A1 A2 A3 A4 A5 A6 A9 A10 A11 A13, invitation 2 visitors × 3 days kept
        expected: 16,
        // A3, A4 (undone arrival), VI Friday, VJ Tuesday and Thursday
        no_shows: 5,
        // Friday: G1, G2 and VJ at 10:50
        peak_on_site: 3,
        // 5 15 20 30 40 50 [60] 60 90 90 120 180 480 (A6 automatic, left out)
        visit_length_median_minutes: 60,
        // position 10.8: 120 + 0.8 × (180 − 120)
        visit_length_p90_minutes: 168,
        automatic_check_outs: 1,
        // A1 10, A2 20, A3 90, A4 300, A5 1500, A6 45, A7 30 (declined), A9 5, A11 15
        decisions: 9,
        decision_median_minutes: 30,
        // position 7.2: 300 + 0.2 × (1500 − 300)
        decision_p90_minutes: 540,
        event_registrations: 4,
        event_attendees: 2,
      }),
    );
    expect(d.previous).toEqual(
      figures({
        arrivals: 4, // C1, C4, C3 (Sunday 23:30), K1
        visits: 4,
        expected: 4, // C1, C4, C2, C3
        no_shows: 1, // C2
        peak_on_site: 2, // C1 and C4 on Monday
        visit_length_median_minutes: 25, // 15 20 | 30 60
        visit_length_p90_minutes: 51, // 30 + 0.7 × 30
        automatic_check_outs: 0,
        decisions: 3, // C1 30, C4 4, C2 120 (C3 asked before the week)
        decision_median_minutes: 30,
        decision_p90_minutes: 102, // 30 + 0.8 × 90
        event_registrations: 3,
        event_attendees: 1,
      }),
    );
    // Now: N2 inside; today's most at once: N1, N2, N3 at 11:00 (N4's arrival undone).
    expect(d.on_site_now).toBe(1);
    expect(d.peak_today).toBe(3);
  });

  it('gives each chart, element by element', async () => {
    const d = await dashboard(`${week}&site=${world.parisSite}`);
    expect(sortedVisits(d)).toEqual([
      { day: '2030-03-25', visitor_type: 'Client', visits: 3 },
      { day: '2030-03-26', visitor_type: 'Prestataire', visits: 1 },
      { day: '2030-03-27', visitor_type: null, visits: 1 },
      { day: '2030-03-27', visitor_type: 'Livreur', visits: 1 },
      { day: '2030-03-28', visitor_type: 'Client', visits: 1 },
      { day: '2030-03-28', visitor_type: 'Prestataire', visits: 1 },
      { day: '2030-03-29', visitor_type: null, visits: 2 },
      { day: '2030-03-29', visitor_type: 'Prestataire', visits: 1 },
      { day: '2030-03-31', visitor_type: 'Prestataire', visits: 2 },
    ]);
    expect(sortedHours(d)).toEqual([
      { weekday: 1, hour: 0, arrivals: 1 }, // A13, Sunday 23:30 UTC
      { weekday: 1, hour: 9, arrivals: 1 },
      { weekday: 1, hour: 10, arrivals: 1 },
      { weekday: 1, hour: 14, arrivals: 1 },
      { weekday: 2, hour: 9, arrivals: 1 },
      { weekday: 3, hour: 11, arrivals: 1 },
      { weekday: 3, hour: 17, arrivals: 1 },
      { weekday: 4, hour: 9, arrivals: 2 },
      { weekday: 5, hour: 10, arrivals: 3 },
      { weekday: 7, hour: 1, arrivals: 1 }, // A10, winter time
      { weekday: 7, hour: 3, arrivals: 1 }, // A11, summer time
    ]);
    expect(d.charts.on_site_peaks).toEqual(
      perDay([2, 1, 1, 2, 3, 0, 2], (day, peak) => ({ day, peak })),
    );
    expect(d.charts.visit_lengths).toEqual(lengths([1, 2, 3, 4, 2, 0, 1]));
    expect(d.charts.no_shows_per_day).toEqual(
      perDay(
        [
          [3, 0],
          [4, 3],
          [2, 0],
          [3, 1],
          [2, 1],
          [0, 0],
          [2, 0],
        ],
        (day, [expected, noShows]) => ({ day, expected, no_shows: noShows }),
      ),
    );
    expect(d.charts.decision_times).toEqual(decisionBuckets([2, 4, 1, 1, 1]));
    expect(d.charts.event_attendance).toEqual([
      {
        event_id: expect.any(String),
        name: 'Journée portes ouvertes',
        day: '2030-03-29',
        registrations: 4,
        attendees: 2,
      },
    ]);
    expect(sortedHosts(d)).toEqual([
      { host: 'Karim Benali', visits: 5 }, // A6, A9, VI Tuesday and Thursday, VJ Friday
      { host: 'Hélène Martin', visits: 3 }, // A1 (not "H. Martin"), A11, A13
      { host: 'M. Diallo', visits: 2 }, // A2 once, A10
      { host: 'Livraisons Ouest', visits: 1 },
    ]);
    // The hosts' order is the definition's: most visits first.
    expect(d.charts.top_hosts.map((h) => h.visits)).toEqual([5, 3, 2, 1]);
  });

  it('names visitor types in the reader’s language', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    try {
      const token = await tokenFor(ctx.app, world.reader);
      const res = await as(
        ctx.app,
        token,
      )({
        method: 'GET',
        url: `/api/dashboard?${week}&site=${world.parisSite}`,
        headers: { 'accept-language': 'en' },
      });
      const types = new Set(res.json<Dashboard>().charts.visits_per_day.map((r) => r.visitor_type));
      expect(types).toEqual(new Set(['Customer', 'Contractor', 'Livreur', null]));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the week of 2030-03-25, Tokyo only', () => {
  it('counts every figure and chart in Tokyo’s days', async () => {
    const d = await dashboard(`${week}&site=${world.tokyoSite}`);
    expect(d.sites).toEqual([{ id: world.tokyoSite, name: 'Tokyo', timezone: 'Asia/Tokyo' }]);
    expect(d.current).toEqual(
      figures({
        arrivals: 5, // B1, B2 (Monday 23:30 UTC), B4, B5, B7
        visits: 5,
        expected: 6, // B1 B2 B3 B4 B5 B7
        no_shows: 1, // B3
        peak_on_site: 2, // B1 and B2 on Tuesday morning
        visit_length_median_minutes: 43, // 20 40 | 45 65: 42.5, rounded
        visit_length_p90_minutes: 59, // 45 + 0.7 × 20
        automatic_check_outs: 1, // B7
        decisions: 4, // B1 240, B3 60, B5 5, B7 5 (B2 asked the week before)
        decision_median_minutes: 33, // 5 5 | 60 240: 32.5, rounded
        decision_p90_minutes: 186, // 60 + 0.7 × 180
        event_registrations: 2,
        event_attendees: 0,
      }),
    );
    expect(d.previous).toEqual(
      figures({
        arrivals: 2, // D1, D2
        visits: 2,
        expected: 2,
        no_shows: 0,
        peak_on_site: 1,
        visit_length_median_minutes: 120, // D2 automatic, left out
        visit_length_p90_minutes: 120,
        automatic_check_outs: 1,
        decisions: 3, // D1 1450, D2 1, B2 1440
        decision_median_minutes: 1440,
        decision_p90_minutes: 1448, // 1440 + 0.8 × 10
        event_registrations: 0,
        event_attendees: 0,
      }),
    );
    // Now (19:00 in Tokyo): M2 inside; today M1 then M2, never together.
    expect(d.on_site_now).toBe(1);
    expect(d.peak_today).toBe(1);

    expect(sortedVisits(d)).toEqual([
      { day: '2030-03-26', visitor_type: 'Client', visits: 2 },
      { day: '2030-03-27', visitor_type: 'Client', visits: 1 },
      { day: '2030-03-28', visitor_type: null, visits: 1 },
      { day: '2030-03-31', visitor_type: 'Client', visits: 1 },
    ]);
    expect(sortedHours(d)).toEqual([
      { weekday: 2, hour: 8, arrivals: 1 },
      { weekday: 2, hour: 9, arrivals: 1 },
      { weekday: 3, hour: 18, arrivals: 1 },
      { weekday: 4, hour: 14, arrivals: 1 },
      { weekday: 7, hour: 23, arrivals: 1 },
    ]);
    expect(d.charts.on_site_peaks).toEqual(
      perDay([0, 2, 1, 1, 0, 0, 1], (day, peak) => ({ day, peak })),
    );
    expect(d.charts.visit_lengths).toEqual(lengths([0, 1, 2, 1, 0, 0, 0]));
    expect(d.charts.no_shows_per_day).toEqual(
      perDay(
        [
          [0, 0],
          [2, 0],
          [1, 0],
          [1, 0],
          [0, 0],
          [1, 1],
          [1, 0],
        ],
        (day, [expected, noShows]) => ({ day, expected, no_shows: noShows }),
      ),
    );
    expect(d.charts.decision_times).toEqual(decisionBuckets([2, 0, 1, 1, 0]));
    expect(d.charts.event_attendance).toEqual([
      {
        event_id: expect.any(String),
        name: 'Salon Tokyo',
        day: '2030-03-30',
        registrations: 2,
        attendees: 0,
      },
    ]);
    expect(sortedHosts(d)).toEqual([
      { host: 'Sato Kenji', visits: 2 },
      { host: 'Hélène Martin', visits: 1 },
      { host: 'M. Diallo', visits: 1 },
      { host: 'Yuki Tanaka', visits: 1 },
    ]);
  });
});

describe('the week of 2030-03-25, every site (the other company never counted)', () => {
  it('adds both sites, each in its own days', async () => {
    const d = await dashboard(week);
    expect(d.sites.map((s) => s.name)).toEqual(['Paris', 'Rennes', 'Tokyo']);
    expect(d.current).toEqual(
      figures({
        arrivals: 19,
        visits: 18,
        expected: 22,
        no_shows: 6,
        peak_on_site: 3,
        // 5 15 20 20 30 40 40 45 [50] 60 60 65 90 90 120 180 480
        visit_length_median_minutes: 50,
        visit_length_p90_minutes: 144, // position 14.4: 120 + 0.4 × 60
        automatic_check_outs: 2,
        decisions: 13,
        // 5 5 5 10 15 20 [30] 45 60 90 240 300 1500
        decision_median_minutes: 30,
        decision_p90_minutes: 288, // position 10.8: 240 + 0.8 × 60
        event_registrations: 6,
        event_attendees: 2,
      }),
    );
    expect(d.previous).toEqual(
      figures({
        arrivals: 6,
        visits: 6,
        expected: 6,
        no_shows: 1,
        peak_on_site: 2,
        visit_length_median_minutes: 30, // 15 20 30 60 120
        visit_length_p90_minutes: 96, // 60 + 0.6 × 60
        automatic_check_outs: 1,
        decisions: 6, // 1 4 30 120 1440 1450
        decision_median_minutes: 75,
        decision_p90_minutes: 1445,
        event_registrations: 3,
        event_attendees: 1,
      }),
    );
    // N2 and M2 inside now; today N1, N2, N3 (Paris) and M1 (Tokyo) at 09:00 UTC.
    expect(d.on_site_now).toBe(2);
    expect(d.peak_today).toBe(4);

    expect(sortedVisits(d)).toEqual([
      { day: '2030-03-25', visitor_type: 'Client', visits: 3 },
      { day: '2030-03-26', visitor_type: 'Client', visits: 2 },
      { day: '2030-03-26', visitor_type: 'Prestataire', visits: 1 },
      { day: '2030-03-27', visitor_type: null, visits: 1 },
      { day: '2030-03-27', visitor_type: 'Client', visits: 1 },
      { day: '2030-03-27', visitor_type: 'Livreur', visits: 1 },
      { day: '2030-03-28', visitor_type: null, visits: 1 },
      { day: '2030-03-28', visitor_type: 'Client', visits: 1 },
      { day: '2030-03-28', visitor_type: 'Prestataire', visits: 1 },
      { day: '2030-03-29', visitor_type: null, visits: 2 },
      { day: '2030-03-29', visitor_type: 'Prestataire', visits: 1 },
      { day: '2030-03-31', visitor_type: 'Client', visits: 1 },
      { day: '2030-03-31', visitor_type: 'Prestataire', visits: 2 },
    ]);
    expect(sortedHours(d)).toEqual([
      { weekday: 1, hour: 0, arrivals: 1 },
      { weekday: 1, hour: 9, arrivals: 1 },
      { weekday: 1, hour: 10, arrivals: 1 },
      { weekday: 1, hour: 14, arrivals: 1 },
      { weekday: 2, hour: 8, arrivals: 1 },
      { weekday: 2, hour: 9, arrivals: 2 }, // VI in Paris, B1 in Tokyo: each 09:00 local
      { weekday: 3, hour: 11, arrivals: 1 },
      { weekday: 3, hour: 17, arrivals: 1 },
      { weekday: 3, hour: 18, arrivals: 1 },
      { weekday: 4, hour: 9, arrivals: 2 },
      { weekday: 4, hour: 14, arrivals: 1 },
      { weekday: 5, hour: 10, arrivals: 3 },
      { weekday: 7, hour: 1, arrivals: 1 },
      { weekday: 7, hour: 3, arrivals: 1 },
      { weekday: 7, hour: 23, arrivals: 1 },
    ]);
    // Wednesday: A5 in Paris while B7 is inside in Tokyo (10:00 UTC, both Wednesday): 2 at once.
    expect(d.charts.on_site_peaks).toEqual(
      perDay([2, 2, 2, 2, 3, 0, 2], (day, peak) => ({ day, peak })),
    );
    expect(d.charts.visit_lengths).toEqual(lengths([1, 3, 5, 5, 2, 0, 1]));
    expect(d.charts.no_shows_per_day).toEqual(
      perDay(
        [
          [3, 0],
          [6, 3],
          [3, 0],
          [4, 1],
          [2, 1],
          [1, 1],
          [3, 0],
        ],
        (day, [expected, noShows]) => ({ day, expected, no_shows: noShows }),
      ),
    );
    expect(d.charts.decision_times).toEqual(decisionBuckets([4, 4, 2, 2, 1]));
    expect(d.charts.event_attendance.map(({ event_id: _, ...e }) => e)).toEqual([
      { name: 'Journée portes ouvertes', day: '2030-03-29', registrations: 4, attendees: 2 },
      { name: 'Salon Tokyo', day: '2030-03-30', registrations: 2, attendees: 0 },
    ]);
    expect(sortedHosts(d)).toEqual([
      { host: 'Karim Benali', visits: 5 },
      { host: 'Hélène Martin', visits: 4 },
      { host: 'M. Diallo', visits: 3 },
      { host: 'Sato Kenji', visits: 2 },
      { host: 'Livraisons Ouest', visits: 1 },
      { host: 'Yuki Tanaka', visits: 1 },
    ]);
    expect(d.charts.top_hosts.map((h) => h.visits)).toEqual([5, 4, 3, 2, 1, 1]);
  });
});

describe('days in each site’s zone', () => {
  it('Sunday 2030-03-31 alone in Paris: 01:30 winter time and 03:30 summer time, not 00:30 Monday', async () => {
    const d = await dashboard(`from=2030-03-31&to=2030-03-31&site=${world.parisSite}`);
    expect(d.period).toEqual({ from: '2030-03-31', to: '2030-03-31', days: 1 });
    expect(d.previous_period).toEqual({ from: '2030-03-30', to: '2030-03-30' });
    expect(sortedHours(d)).toEqual([
      { weekday: 7, hour: 1, arrivals: 1 },
      { weekday: 7, hour: 3, arrivals: 1 },
    ]);
    expect(d.current.arrivals).toBe(2);
    expect(d.previous.arrivals).toBe(0);
    expect(d.charts.on_site_peaks).toEqual([{ day: '2030-03-31', peak: 2 }]);
    // A10 lasted 90 minutes (01:30 winter to 04:00 summer), A11 30.
    expect(d.charts.visit_lengths).toEqual(lengths([0, 0, 1, 1, 0, 0, 0]));
    expect(d.charts.no_shows_per_day).toEqual([{ day: '2030-03-31', expected: 2, no_shows: 0 }]);
    // A11's request at 23:30 summer time is Sunday's; A12's at Monday 00:00 is not.
    expect(d.charts.decision_times).toEqual(decisionBuckets([0, 1, 0, 0, 0]));
  });

  it('the night the clocks go back (Europe/Paris, 2030-10-27): 02:30 twice is Sunday, hour 2, twice', async () => {
    const P = world.rennes.place;
    // The day lasts 25 hours: 2030-10-26 22:00 UTC to 2030-10-27 23:00 UTC.
    const sunday = { start: utc('2030-10-26T22:00'), end: utc('2030-10-27T23:00') };
    const saturday = { start: utc('2030-10-25T22:00'), end: utc('2030-10-26T22:00') };
    const monday = { start: utc('2030-10-27T23:00'), end: utc('2030-10-28T23:00') };
    const asked = { createdAt: utc('2030-10-01T10:00'), answeredAfter: 10 };
    const come = async (
      bounds: { start: Date; end: Date },
      day: string,
      checkIn?: string,
      checkOut?: string,
    ) => {
      const v = await visitor(P, { day, typeId: world.rennes.client, bounds });
      await request(P, v.id, asked);
      if (checkIn) await check(P, v.id, utc(checkIn), { out: utc(checkOut!) });
    };
    // 02:30 summer time (00:30 UTC) to 02:45 winter time (01:45 UTC): 75 minutes.
    await come(sunday, '2030-10-27', '2030-10-27T00:30', '2030-10-27T01:45');
    // 02:30 winter time (01:30 UTC), 10 minutes: inside with the first.
    await come(sunday, '2030-10-27', '2030-10-27T01:30', '2030-10-27T01:40');
    // 23:30 winter time, Sunday still.
    await come(sunday, '2030-10-27', '2030-10-27T22:30', '2030-10-27T22:40');
    // 00:30 summer time on Sunday (Saturday 22:30 UTC), 15 minutes.
    await come(sunday, '2030-10-27', '2030-10-26T22:30', '2030-10-26T22:45');
    await come(sunday, '2030-10-27'); // never came
    // Monday 00:30 winter time (Sunday 23:30 UTC): not Sunday.
    await come(monday, '2030-10-28', '2030-10-27T23:30', '2030-10-27T23:40');
    // Saturday 23:30 summer time (21:30 UTC): the previous period.
    await come(saturday, '2030-10-26', '2030-10-26T21:30', '2030-10-26T21:40');

    const d = await dashboard(
      `from=2030-10-27&to=2030-10-27&site=${P.siteId}`,
      new Date('2030-10-29T12:00:00Z'),
    );
    expect(sortedHours(d)).toEqual([
      { weekday: 7, hour: 0, arrivals: 1 },
      { weekday: 7, hour: 2, arrivals: 2 },
      { weekday: 7, hour: 23, arrivals: 1 },
    ]);
    expect(d.current).toEqual(
      figures({
        arrivals: 4,
        visits: 4,
        expected: 5,
        no_shows: 1,
        peak_on_site: 2,
        visit_length_median_minutes: 13, // 10 10 | 15 75: 12.5
        visit_length_p90_minutes: 57, // 15 + 0.7 × 60
        automatic_check_outs: 0,
        decisions: 0,
        decision_median_minutes: null,
        decision_p90_minutes: null,
        event_registrations: 0,
        event_attendees: 0,
      }),
    );
    expect(d.previous).toMatchObject({
      arrivals: 1,
      visits: 1,
      expected: 1,
      no_shows: 0,
      peak_on_site: 1,
      visit_length_median_minutes: 10,
    });
    expect(d.charts.visits_per_day).toEqual([
      { day: '2030-10-27', visitor_type: 'Client', visits: 4 },
    ]);
    expect(d.charts.on_site_peaks).toEqual([{ day: '2030-10-27', peak: 2 }]);
    expect(d.charts.visit_lengths).toEqual(lengths([2, 1, 0, 1, 0, 0, 0]));
    expect(d.charts.no_shows_per_day).toEqual([{ day: '2030-10-27', expected: 5, no_shows: 1 }]);
    expect(d.on_site_now).toBe(0);
    expect(d.peak_today).toBe(0);
  });
});

describe('a day still under way is not judged yet', () => {
  const range = 'from=2030-04-01&to=2030-04-03';

  it('at 10:00 UTC on 2030-04-03, neither site’s Wednesday has ended', async () => {
    const d = await dashboard(range);
    // A12 (Monday, came) and M0 (Tuesday, never came); N1–N4, M1, M2 wait for their day's end.
    expect(d.current.expected).toBe(2);
    expect(d.current.no_shows).toBe(1);
    expect(d.charts.no_shows_per_day).toEqual([
      { day: '2030-04-01', expected: 1, no_shows: 0 },
      { day: '2030-04-02', expected: 1, no_shows: 1 },
      { day: '2030-04-03', expected: 0, no_shows: 0 },
    ]);
    // A12, N1, N2, N3, M1, M2 (N4 undone)
    expect(d.current.arrivals).toBe(6);
  });

  it('at 20:00 UTC, Tokyo’s Wednesday has ended (M1, M2 came), Paris’s has not', async () => {
    const d = await dashboard(range, new Date('2030-04-03T20:00:00Z'));
    expect(d.charts.no_shows_per_day).toEqual([
      { day: '2030-04-01', expected: 1, no_shows: 0 },
      { day: '2030-04-02', expected: 1, no_shows: 1 },
      { day: '2030-04-03', expected: 2, no_shows: 0 },
    ]);
  });

  it('the real clock (2026 or so) judges no day of 2030', async () => {
    const token = await tokenFor(ctx.app, world.reader);
    const res = await as(ctx.app, token)({ method: 'GET', url: `/api/dashboard?${week}` });
    const d = res.json<Dashboard>();
    expect(d.current.expected).toBe(0);
    expect(d.current.no_shows).toBe(0);
    expect(d.current.arrivals).toBe(19);
  });
});

describe('today is each site’s own day', () => {
  it('at 20:00 UTC on 2030-04-03 (22:00 in Paris, 05:00 Thursday in Tokyo) Tokyo’s Wednesday is not today', async () => {
    const late = new Date('2030-04-03T20:00:00Z');
    // M2 left Tokyo at 23:00 there (14:00 UTC).
    await db()
      .update(visitorChecks)
      .set({ checkOutAt: utc('2030-04-03T14:00'), checkOutMethod: 'scan' })
      .where(eq(visitorChecks.visitorId, world.m2));
    // Tokyo: today is Thursday 2030-04-04 there, and nobody has come yet.
    const tokyoOnly = await dashboard(`${week}&site=${world.tokyoSite}`, late);
    expect(tokyoOnly.on_site_now).toBe(0);
    expect(tokyoOnly.peak_today).toBe(0);
    // Every site: N2 is inside; today's most at once is Paris's N1, N2, N3 (3). M1 was inside
    // with them, but on Tokyo's Wednesday, which is no longer today there.
    const all = await dashboard(week, late);
    expect(all.on_site_now).toBe(1);
    expect(all.peak_today).toBe(3);
  });
});

describe('what the figures leave out', () => {
  const may = 'from=2030-05-06&to=2030-05-12';
  const later = new Date('2030-05-20T10:00:00Z');

  it('requests confirmed as they are filed (event registrations, a kiosk type let in at once) need no answer', async () => {
    const R = world.rennes.place;
    // R1: a meeting its host answered after 30 minutes; R1 came.
    await meeting(R, {
      day: '2030-05-07',
      typeId: world.rennes.client,
      hostUserId: world.helene,
      createdAt: paris('2030-05-06 09:00'),
      answeredAfter: 30,
      checks: [['2030-05-07 10:00', '2030-05-07 11:00']],
    });
    // Three registrations to a forum, each with the request the registration writes:
    // confirmed at once, by nobody, no host. One guest came.
    const forum = await buildEvent(db(), {
      company: world.company,
      siteId: R.siteId,
      name: 'Forum',
      dateEvent: '08/05/2030',
    });
    for (const [i, came] of [true, false, false].entries()) {
      const v = await visitor(R, { day: '2030-05-08', eventId: forum.id });
      await request(R, v.id, {
        createdAt: paris(`2030-05-06 1${i}:00`),
        answeredAfter: 0,
        decidedBy: null,
        reason: 'not applicable',
      });
      if (came) {
        await check(R, v.id, paris('2030-05-08 09:00'), { out: paris('2030-05-08 09:30') });
      }
    }
    // A walk-in at a kiosk, of a type let in without the host's answer: confirmed by no one.
    const [kiosk] = await db()
      .insert(kiosks)
      .values({ companyId: R.companyId, siteId: R.siteId, name: 'Borne hall' })
      .returning();
    await meeting(R, {
      day: '2030-05-09',
      hostUserId: world.karim,
      createdAt: paris('2030-05-09 10:00'),
      answeredAfter: 0,
      decidedBy: null,
      kioskId: kiosk!.id,
      checks: [['2030-05-09 10:00', '2030-05-09 10:20']],
    });

    const d = await dashboard(`${may}&site=${R.siteId}`, later);
    // Only R1's request was answered, by its host, after 30 minutes.
    expect({
      decisions: d.current.decisions,
      decision_median_minutes: d.current.decision_median_minutes,
      decision_p90_minutes: d.current.decision_p90_minutes,
      decision_times: d.charts.decision_times,
    }).toEqual({
      decisions: 1,
      decision_median_minutes: 30,
      decision_p90_minutes: 30,
      decision_times: decisionBuckets([0, 1, 0, 0, 0]),
    });
    // The guest is a visit with no host; the registrations are not visits due.
    expect(sortedHosts(d)).toEqual([
      { host: 'Hélène Martin', visits: 1 },
      { host: 'Karim Benali', visits: 1 },
    ]);
    expect(d.current).toMatchObject({
      arrivals: 3,
      visits: 3,
      expected: 2, // R1 and the walk-in
      no_shows: 0,
      event_registrations: 3,
      event_attendees: 1,
    });
  });

  it('a cancelled invitation, or one visitor’s, is not expected', async () => {
    const R = world.rennes.place;
    const invite = async (cancelled: boolean) => {
      const [row] = await db()
        .insert(invitations)
        .values({
          companyId: R.companyId,
          siteId: R.siteId,
          hostUserId: world.karim,
          firstDate: '10/05/2030',
          time: '09:00',
          endTime: '12:00',
          cancelledAt: cancelled ? paris('2030-05-02 09:00') : null,
          createdAt: paris('2030-05-01 09:00'),
        })
        .returning();
      await db()
        .insert(invitationDays)
        .values({
          companyId: R.companyId,
          invitationId: row!.id,
          day: '2030-05-10',
          startsAt: paris('2030-05-10 00:00'),
          endsAt: paris('2030-05-11 00:00'),
        });
      return row!.id;
    };
    const guestOf = async (invitationId: string, cancelled: boolean) => {
      const v = await visitor(R, { day: '2030-05-10' });
      await request(R, v.id, {
        hostUserId: world.karim,
        host: 'Karim Benali',
        createdAt: paris('2030-05-01 09:00'),
        answeredAfter: 0,
        confirmed: !cancelled,
        invitationId,
      });
      if (cancelled) {
        await db()
          .update(visitRequests)
          .set({ cancelledAt: paris('2030-05-03 09:00') })
          .where(eq(visitRequests.visitorId, v.id));
      }
    };
    const whole = await invite(true);
    await guestOf(whole, false);
    const group = await invite(false);
    await guestOf(group, false); // expected, never came
    await guestOf(group, true); // cancelled for this visitor alone

    const d = await dashboard(`from=2030-05-10&to=2030-05-10&site=${R.siteId}`, later);
    expect(d.charts.no_shows_per_day).toEqual([{ day: '2030-05-10', expected: 1, no_shows: 1 }]);
    expect(d.current.decisions).toBe(0);
  });

  it('at most ten hosts and ten events in their charts, every one in the figures', async () => {
    const R = world.rennes.place;
    // 2030-05-13 … 2030-05-19: ten hosts with two visits each, an eleventh with one; ten
    // events with two registrations, an eleventh with one.
    const asked = { createdAt: paris('2030-05-01 09:00'), answeredAfter: 10 };
    for (let h = 1; h <= 11; h++) {
      for (let n = 0; n < (h === 11 ? 1 : 2); n++) {
        await meeting(R, {
          day: '2030-05-14',
          host: `Hôte ${String(h).padStart(2, '0')}`,
          ...asked,
          checks: [['2030-05-14 09:00', '2030-05-14 09:30']],
        });
      }
    }
    for (let e = 1; e <= 11; e++) {
      const event = await buildEvent(db(), {
        company: world.company,
        siteId: R.siteId,
        name: `Conférence ${String(e).padStart(2, '0')}`,
        dateEvent: '15/05/2030',
      });
      for (let n = 0; n < (e === 11 ? 1 : 2); n++) {
        await visitor(R, { day: '2030-05-15', eventId: event.id });
      }
    }
    const d = await dashboard(`from=2030-05-13&to=2030-05-19&site=${R.siteId}`, later);
    expect(sortedHosts(d)).toEqual(
      Array.from({ length: 10 }, (_, i) => ({
        host: `Hôte ${String(i + 1).padStart(2, '0')}`,
        visits: 2,
      })),
    );
    expect(d.charts.event_attendance.map((e) => [e.name, e.registrations]).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => [`Conférence ${String(i + 1).padStart(2, '0')}`, 2]),
    );
    expect(d.current.visits).toBe(21);
    expect(d.current.event_registrations).toBe(21);
  });
});

describe('the summary of settled days (dashboard_days) gives the same figures', () => {
  // On 2030-05-20 (the clock of the tests above, whose sign-in is reused) every day up to
  // 2030-05-16 has settled: the sweep summarizes them; later days are read from the checks.
  const settled = new Date('2030-05-20T10:00:00Z');
  const views = () => [
    `${week}&site=${world.parisSite}`,
    `${week}&site=${world.tokyoSite}`,
    week,
    'from=2030-03-18&to=2030-04-03',
    'from=2030-10-21&to=2030-10-27',
    'from=2030-05-06&to=2030-05-12',
    'from=2030-03-01&to=2030-11-30',
  ];
  // One after the other: the first signs in, the others reuse its token.
  const readAll = async () => {
    const read: Dashboard[] = [];
    for (const query of views()) read.push(await dashboard(query, settled));
    return read;
  };
  const marks = async () => {
    const [row] = await rowsOf(
      db(),
      z.object({ n: z.number() }),
      sql`select count(*)::int as n from dashboard_summaries m join sites s on s.id = m.site_id
           where s.company_id = ${world.company.id}::uuid`,
    );
    return row!.n;
  };
  const summarizeAll = () => summarizeSettledDays(db(), { now: settled, batches: 1_000 });

  it('every figure and chart, of one site or all, read from the summary or from the checks', async () => {
    const fromChecks = await readAll();
    expect(await marks()).toBe(0);
    expect((await summarizeAll()).days).toBeGreaterThan(0);
    // Every site (Paris, Tokyo, Rennes) has each day from the first record (March) to the
    // last settled day (2030-05-16) marked; April, whole, is added up for each site and
    // for all of them.
    expect(await marks()).toBeGreaterThanOrEqual(3 * 50);
    const months = await rowsOf(
      db(),
      z.object({ n: z.number() }),
      sql`select count(*)::int as n from dashboard_month_summaries
           where company_id = ${world.company.id}::uuid and month = '2030-04-01'`,
    );
    expect(months[0]!.n).toBe(4);
    expect(await summarizeAll()).toEqual({ days: 0, months: 0 });
    const fromSummary = await readAll();
    expect(fromSummary).toEqual(fromChecks);
  });

  it('a summarized day is what the dashboard reads', async () => {
    const before = await dashboard(`${week}&site=${world.parisSite}`, settled);
    await db().execute(
      sql`update dashboard_days set value = value + 100
           where site_id = ${world.parisSite}::uuid and figure = 'arrivals' and day = '2030-03-26'`,
    );
    const tampered = await dashboard(`${week}&site=${world.parisSite}`, settled);
    expect(tampered.current.arrivals).toBe(before.current.arrivals + 100);
    await db().execute(
      sql`update dashboard_days set value = value - 100
           where site_id = ${world.parisSite}::uuid and figure = 'arrivals' and day = '2030-03-26'`,
    );
  });

  it("all sites' summarized days and months are what the dashboard reads", async () => {
    const tamper = async (table: 'dashboard_all_sites_days' | 'dashboard_months', by: number) =>
      db().execute(
        table === 'dashboard_all_sites_days'
          ? sql`update dashboard_all_sites_days set value = value + ${by}
                 where company_id = ${world.company.id}::uuid and figure = 'arrivals' and day = '2030-03-26'`
          : sql`update dashboard_months set value = value + ${by}
                 where scope_id = ${world.company.id}::uuid and figure = 'arrivals' and month = '2030-04-01'`,
      );
    const year = 'from=2030-03-01&to=2030-11-30';
    const [weekBefore, yearBefore] = [
      await dashboard(week, settled),
      await dashboard(year, settled),
    ];
    await tamper('dashboard_all_sites_days', 100);
    expect((await dashboard(week, settled)).current.arrivals).toBe(
      weekBefore.current.arrivals + 100,
    );
    await tamper('dashboard_all_sites_days', -100);
    await tamper('dashboard_months', 1000);
    expect((await dashboard(year, settled)).current.arrivals).toBe(
      yearBefore.current.arrivals + 1000,
    );
    await tamper('dashboard_months', -1000);
    expect(await dashboard(year, settled)).toEqual(yearBefore);
  });
});

describe('a late change to a summarized day', () => {
  // The triggers judge "settled" by the database's clock: this company's days are weeks
  // before the real today, in UTC.
  const now = new Date();
  const day = (offset: number) =>
    new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const D = day(-20);
  const utcZone = (local: string) => new Date(`${local.replace(' ', 'T')}:00Z`);
  const place = {} as Place;
  const read = () =>
    readDashboard(db(), {
      companyId: place.companyId,
      siteIds: [place.siteId],
      from: day(-23),
      to: day(-17),
      now,
    });
  const marks = async () =>
    (
      await rowsOf(
        db(),
        z.object({ day: z.string() }),
        sql`select day::text as day from dashboard_summaries
             where site_id = ${place.siteId}::uuid and day between ${day(-22)} and ${day(-18)}
             order by day`,
      )
    ).map((m) => m.day);
  const fromChecks = async () => {
    await db().execute(sql`delete from dashboard_summaries where site_id = ${place.siteId}::uuid`);
    await db().execute(
      sql`delete from dashboard_company_days where company_id = ${place.companyId}::uuid`,
    );
    const figures = await read();
    await summarizeSettledDays(db(), { now, batches: 1_000 });
    return figures;
  };

  it('is read from the checks again, until the sweep summarizes it anew', async () => {
    const company = await buildCompany(db(), { name: 'Acme Late', timezone: 'UTC' });
    Object.assign(place, { companyId: company.id, siteId: company.siteId, zone: utcZone });
    const first = await meeting(place, {
      day: D,
      createdAt: utcZone(`${day(-21)} 09:00`),
      answeredAfter: 60,
      host: 'Hélène Martin',
      checks: [[`${D} 10:00`, `${D} 11:00`]],
    });
    await meeting(place, {
      day: D,
      createdAt: utcZone(`${day(-21)} 10:00`),
      answeredAfter: 30,
      host: 'Karim Benali',
      checks: [[`${D} 10:30`, `${D} 12:30`]],
    });
    const live = await read();
    expect(live.current.arrivals).toBe(2);
    expect(live.current.peak_on_site).toBe(2);
    expect((await summarizeSettledDays(db(), { now, batches: 1_000 })).days).toBeGreaterThan(0);
    expect(await marks()).toEqual([day(-22), day(-21), D, day(-19), day(-18)]);
    expect(await read()).toEqual(live);

    // An arrival undone weeks later: the days it may fall on (in some zone) lose their mark.
    await db()
      .update(visitorChecks)
      .set({ undoneAt: now })
      .where(eq(visitorChecks.visitorId, first.id));
    expect(await marks()).toEqual([day(-22), day(-18)]);
    const undone = await read();
    expect(undone.current.arrivals).toBe(1);
    expect(undone.current.peak_on_site).toBe(1);
    expect(undone).toEqual(await fromChecks());
    expect(await read()).toEqual(undone);

    // A request answered weeks later: its day's answer times change.
    await db()
      .update(visitRequests)
      .set({ decidedAt: utcZone(`${day(-21)} 13:00`) })
      .where(eq(visitRequests.visitorId, first.id));
    expect(await marks()).toEqual([day(-18)]);
    const answered = await read();
    // 30 and 240 minutes: the 90th percentile is 30 + 0.9 × 210.
    expect(answered.current.decision_p90_minutes).toBe(219);
    expect(answered).toEqual(await fromChecks());

    // The visitor erased: their checks and requests go, so do the marks of their days.
    await db().delete(visitors).where(eq(visitors.id, first.id));
    expect(await marks()).toEqual([day(-18)]);
    const erased = await read();
    expect(erased.current.decisions).toBe(1);
    expect(erased).toEqual(await fromChecks());

    // A change to a day not settled (yesterday's check) leaves the marks alone.
    const recent = await meeting(place, {
      day: day(-1),
      createdAt: utcZone(`${day(-2)} 09:00`),
      checks: [[`${day(-1)} 10:00`, null]],
    });
    const before = await marks();
    await db()
      .update(visitorChecks)
      .set({ checkOutAt: now })
      .where(eq(visitorChecks.visitorId, recent.id));
    expect(await marks()).toEqual(before);
  });

  it('is summarized 2 days after it ended, and a change then still reaches it', async () => {
    const company = await buildCompany(db(), { name: 'Acme Recent', timezone: 'UTC' });
    const at = { companyId: company.id, siteId: company.siteId, zone: utcZone } as Place;
    const recent = await meeting(at, {
      day: day(-4),
      createdAt: utcZone(`${day(-5)} 09:00`),
      checks: [[`${day(-4)} 10:00`, `${day(-4)} 11:00`]],
    });
    const markOf = async (d: string) =>
      (
        await rowsOf(
          db(),
          z.object({ n: z.number() }),
          sql`select count(*)::int as n from dashboard_summaries
               where site_id = ${company.siteId}::uuid and day = ${d}::date`,
        )
      )[0]!.n;
    await summarizeSettledDays(db(), { now, batches: 1_000 });
    expect(await markOf(day(-4))).toBe(1);
    expect(await markOf(day(-3))).toBe(0);
    await db()
      .update(visitorChecks)
      .set({ undoneAt: now })
      .where(eq(visitorChecks.visitorId, recent.id));
    expect(await markOf(day(-4))).toBe(0);
  });

  it('takes the months it falls in out of the summary too', async () => {
    const company = await buildCompany(db(), { name: 'Acme Late Month', timezone: 'UTC' });
    const at = { companyId: company.id, siteId: company.siteId, zone: utcZone } as Place;
    // A first record 75 days ago: the next month is whole and settled.
    await meeting(at, {
      day: day(-75),
      createdAt: utcZone(`${day(-76)} 09:00`),
      checks: [[`${day(-75)} 10:00`, `${day(-75)} 11:00`]],
    });
    const month = `${addDays(`${day(-75).slice(0, 7)}-28`, 7).slice(0, 7)}-01`;
    const inMonth = addDays(month, 10);
    const late = await meeting(at, {
      day: inMonth,
      createdAt: utcZone(`${addDays(inMonth, -1)} 09:00`),
      answeredAfter: 45,
      checks: [[`${inMonth} 09:00`, `${inMonth} 10:30`]],
    });
    await meeting(at, {
      day: inMonth,
      createdAt: utcZone(`${addDays(inMonth, -1)} 10:00`),
      answeredAfter: 15,
      checks: [[`${inMonth} 14:00`, `${inMonth} 14:20`]],
    });
    const scopes = [
      { companyId: company.id, siteIds: [company.siteId] },
      { companyId: company.id },
    ];
    const readBoth = () =>
      Promise.all(
        scopes.map((scope) => readDashboard(db(), { ...scope, from: day(-80), to: day(-11), now })),
      );
    const monthMarks = async () =>
      (
        await rowsOf(
          db(),
          z.object({ n: z.number() }),
          sql`select count(*)::int as n from dashboard_month_summaries
               where company_id = ${company.id}::uuid and month = ${month}::date`,
        )
      )[0]!.n;
    const live = await readBoth();
    expect(live[0]!.current.arrivals).toBe(3);
    expect((await summarizeSettledDays(db(), { now, batches: 1_000 })).months).toBeGreaterThan(0);
    expect(await monthMarks()).toBe(2);
    expect(await readBoth()).toEqual(live);

    // Undone weeks later: the month's marks go with its days', for the site and all sites.
    await db()
      .update(visitorChecks)
      .set({ undoneAt: now })
      .where(eq(visitorChecks.visitorId, late.id));
    expect(await monthMarks()).toBe(0);
    const undone = await readBoth();
    expect(undone[0]!.current.arrivals).toBe(2);
    expect(undone[1]!.current.visit_length_median_minutes).toBe(40);
    await db().execute(
      sql`delete from dashboard_summaries where site_id = ${company.siteId}::uuid`,
    );
    await db().execute(
      sql`delete from dashboard_company_days where company_id = ${company.id}::uuid`,
    );
    expect(await readBoth()).toEqual(undone);
    await summarizeSettledDays(db(), { now, batches: 1_000 });
    expect(await monthMarks()).toBe(2);
    expect(await readBoth()).toEqual(undone);
  });
});
