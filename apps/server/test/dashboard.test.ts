/**
 * Issue 35, the dashboard's routes — on PGlite and on PostgreSQL: who may read
 * `GET /api/dashboard` and `GET /api/dashboard.csv` (dashboard.view: the platform's admin in
 * any company with ?company=, the company's super admin, managers and supervisors, a
 * supervisor limited to some sites within those), the filters' refusals with their
 * messages, the CSV of each chart and of the figures for French Excel in both languages,
 * and the API description. The clock is fixed (Date faked) at 2030-04-03 10:00 UTC; the
 * data is one small known week, 2030-03-25 … 2030-03-31, and the week before.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import {
  DASHBOARD_CHARTS,
  DASHBOARD_FIGURES,
  DECISION_TIME_BUCKETS,
  VISIT_LENGTH_BUCKETS,
  catalogue,
  sayIn,
  type Dashboard,
  type DashboardChart,
  type Language,
  type Role,
} from '@sesame/shared';
import type { Db } from '../src/db/client';
import { sites } from '../src/db/schema';
import { callAs, useTestApp } from './helpers/app';
import {
  check,
  dashboardRows,
  meeting,
  paris,
  visitor,
  visitorType,
  type Place,
} from './helpers/dashboard-data';
import { buildCompany, buildEvent, buildSite, buildUser } from './helpers/factories';

const ctx = useTestApp();
const db = (): Db => ctx.db as unknown as Db;
const call = callAs(ctx);
const NOW = new Date('2030-04-03T10:00:00Z');
const fr = sayIn.bind(null, 'fr');
const en = sayIn.bind(null, 'en');

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

const week = 'from=2030-03-25&to=2030-03-31';
const HOST_FORMULA = '=SOMME(A1:A2)';
const EVENT_NAME = 'Forum; "emploi"';

const the = {} as {
  company: { id: string; slug: string };
  other: { id: string; slug: string; siteId: string };
  paris: string;
  lyon: string;
  staff: Record<Role, string>;
  /** A supervisor limited to Paris. */
  parisSupervisor: string;
  otherSuperAdmin: string;
};

beforeAll(async () => {
  dashboardRows.db = db();
  const company = await buildCompany(db(), { name: 'Acme Tableau', timezone: 'Europe/Paris' });
  await db().update(sites).set({ name: 'Paris' }).where(eq(sites.id, company.siteId));
  const lyon = await buildSite(db(), { company, name: 'Lyon', timezone: 'Europe/Paris' });
  const staff = {} as Record<Role, string>;
  for (const role of [
    'ROLE_USER',
    'ROLE_EMPLOYEE',
    'ROLE_SUPERVISOR',
    'ROLE_SESAME',
    'ROLE_MANAGER',
    'ROLE_ADMIN',
    'ROLE_SUPER_ADMIN',
  ] as Role[]) {
    staff[role] = (await buildUser(db(), { company, role })).email;
  }
  const parisSupervisor = await buildUser(db(), {
    company,
    role: 'ROLE_SUPERVISOR',
    siteIds: [company.siteId],
  });
  const desk = await buildUser(db(), { company, role: 'ROLE_EMPLOYEE' });
  dashboardRows.deskUserId = desk.id;
  const awa = await buildUser(db(), { company, firstname: 'Awa', name: 'Traoré' });

  const P: Place = { companyId: company.id, siteId: company.siteId, zone: paris };
  const L: Place = { companyId: company.id, siteId: lyon.id, zone: paris };
  const clientP = await visitorType(P, 'Client', 'Customer');
  const clientL = await visitorType(L, 'Client', 'Customer');

  // The week, Paris.
  // V1: Monday 09:00–10:00 (60); its host typed as a spreadsheet formula; answered in 20.
  await meeting(P, {
    day: '2030-03-25',
    typeId: clientP,
    host: HOST_FORMULA,
    createdAt: paris('2030-03-25 07:00'),
    answeredAfter: 20,
    checks: [['2030-03-25 09:00', '2030-03-25 10:00']],
  });
  // V2: Tuesday 10:00–10:30 (30), no type; host Awa; answered in 90.
  await meeting(P, {
    day: '2030-03-26',
    hostUserId: awa.id,
    createdAt: paris('2030-03-25 08:00'),
    answeredAfter: 90,
    checks: [['2030-03-26 10:00', '2030-03-26 10:30']],
  });
  // V3: Tuesday, never came; answered in 5.
  await meeting(P, {
    day: '2030-03-26',
    typeId: clientP,
    hostUserId: awa.id,
    createdAt: paris('2030-03-25 08:00'),
    answeredAfter: 5,
  });
  // A forum on Thursday: two registered, one came 10:00–11:00 (60).
  const forum = await buildEvent(db(), {
    company,
    siteId: P.siteId,
    name: EVENT_NAME,
    dateEvent: '28/03/2030',
  });
  const guest = await visitor(P, { day: '2030-03-28', eventId: forum.id });
  await check(P, guest.id, paris('2030-03-28 10:00'), { out: paris('2030-03-28 11:00') });
  await visitor(P, { day: '2030-03-28', eventId: forum.id });
  // The week, Lyon. V4: Wednesday 14:00–16:00 (120); host Awa; answered in 1500.
  await meeting(L, {
    day: '2030-03-27',
    typeId: clientL,
    hostUserId: awa.id,
    createdAt: paris('2030-03-26 08:00'),
    answeredAfter: 1500,
    checks: [['2030-03-27 14:00', '2030-03-27 16:00']],
  });
  // The week before, Paris. P1: Wednesday 11:00–11:45 (45); answered in 10.
  await meeting(P, {
    day: '2030-03-20',
    typeId: clientP,
    hostUserId: awa.id,
    createdAt: paris('2030-03-19 08:00'),
    answeredAfter: 10,
    checks: [['2030-03-20 11:00', '2030-03-20 11:45']],
  });

  // Another company: one visit on Tuesday.
  const other = await buildCompany(db(), { name: 'Autre Tableau', timezone: 'Europe/Paris' });
  const otherSuperAdmin = await buildUser(db(), { company: other, role: 'ROLE_SUPER_ADMIN' });
  const O: Place = { companyId: other.id, siteId: other.siteId, zone: paris };
  await meeting(O, {
    day: '2030-03-26',
    host: 'Autre hôte',
    createdAt: paris('2030-03-25 08:00'),
    answeredAfter: 7,
    checks: [['2030-03-26 09:00', '2030-03-26 09:50']],
  });

  Object.assign(the, {
    company,
    other,
    paris: company.siteId,
    lyon: lyon.id,
    staff,
    parisSupervisor: parisSupervisor.email,
    otherSuperAdmin: otherSuperAdmin.email,
  });
});

const get = (url: string, email?: string, headers: InjectOptions['headers'] = {}) =>
  call({ method: 'GET', url, headers }, email);

async function dashboardOf(query: string, email: string): Promise<Dashboard> {
  const res = await get(`/api/dashboard?${query}`, email);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Dashboard>();
}

/** The figures of the week at both sites, and at Paris alone (worked out by hand). */
const BOTH_SITES = {
  current: {
    arrivals: 4, // V1, V2, the guest, V4
    visits: 4,
    expected: 4, // V1, V2, V3, V4
    no_shows: 1, // V3
    peak_on_site: 1,
    visit_length_median_minutes: 60, // 30 60 60 120
    visit_length_p90_minutes: 102, // 60 + 0.7 × 60
    automatic_check_outs: 0,
    decisions: 4, // 5 20 90 1500
    decision_median_minutes: 55,
    decision_p90_minutes: 1077, // 90 + 0.7 × 1410
    event_registrations: 2,
    event_attendees: 1,
  },
  previous: {
    arrivals: 1,
    visits: 1,
    expected: 1,
    no_shows: 0,
    peak_on_site: 1,
    visit_length_median_minutes: 45,
    visit_length_p90_minutes: 45,
    automatic_check_outs: 0,
    decisions: 1,
    decision_median_minutes: 10,
    decision_p90_minutes: 10,
    event_registrations: 0,
    event_attendees: 0,
  },
};
const PARIS_ONLY = {
  current: {
    ...BOTH_SITES.current,
    arrivals: 3,
    visits: 3,
    expected: 3,
    visit_length_median_minutes: 60, // 30 60 60
    visit_length_p90_minutes: 60,
    decisions: 3, // 5 20 90
    decision_median_minutes: 20,
    decision_p90_minutes: 76, // 20 + 0.8 × 70
  },
  previous: BOTH_SITES.previous,
};

describe('who reads the dashboard', () => {
  it('401 without a session, on both routes', async () => {
    for (const path of ['/api/dashboard', '/api/dashboard.csv']) {
      expect((await get(`${path}?${week}`)).statusCode).toBe(401);
    }
  });

  it('403 for an employee, a user and the Sésame role, on both routes', async () => {
    for (const role of ['ROLE_EMPLOYEE', 'ROLE_USER', 'ROLE_SESAME'] as Role[]) {
      for (const path of ['/api/dashboard', '/api/dashboard.csv']) {
        const res = await get(`${path}?${week}`, the.staff[role]);
        expect(res.statusCode, `${role} ${path}`).toBe(403);
      }
    }
  });

  it('the super admin, a manager, a supervisor and the platform admin read their company’s', async () => {
    for (const role of [
      'ROLE_SUPER_ADMIN',
      'ROLE_MANAGER',
      'ROLE_SUPERVISOR',
      'ROLE_ADMIN',
    ] as Role[]) {
      const query = role === 'ROLE_ADMIN' ? `${week}&company=${the.company.slug}` : week;
      const d = await dashboardOf(query, the.staff[role]);
      expect(
        d.sites.map((s) => s.name),
        role,
      ).toEqual(['Lyon', 'Paris']);
      expect(d.current, role).toEqual(BOTH_SITES.current);
      expect(d.previous, role).toEqual(BOTH_SITES.previous);
      const csv = await get(`/api/dashboard.csv?${query}`, the.staff[role]);
      expect(csv.statusCode, role).toBe(200);
    }
    // Its own company named is the same as none.
    const named = await dashboardOf(`${week}&company=${the.company.slug}`, the.staff.ROLE_MANAGER);
    expect(named.current).toEqual(BOTH_SITES.current);
  });

  it('?site= one site: its figures alone', async () => {
    const d = await dashboardOf(`${week}&site=${the.paris}`, the.staff.ROLE_MANAGER);
    expect(d.sites.map((s) => s.name)).toEqual(['Paris']);
    expect(d.current).toEqual(PARIS_ONLY.current);
    expect(d.previous).toEqual(PARIS_ONLY.previous);
  });

  it('a supervisor limited to Paris gets Paris’s figures only, and 404 for Lyon', async () => {
    const d = await dashboardOf(week, the.parisSupervisor);
    expect(d.sites.map((s) => s.name)).toEqual(['Paris']);
    expect(d.current).toEqual(PARIS_ONLY.current);
    expect(d.previous).toEqual(PARIS_ONLY.previous);
    expect(d.charts.top_hosts).toEqual(expect.arrayContaining([{ host: 'Awa Traoré', visits: 1 }]));
    const named = await dashboardOf(`${week}&site=${the.paris}`, the.parisSupervisor);
    expect(named.current).toEqual(PARIS_ONLY.current);
    for (const path of ['/api/dashboard', '/api/dashboard.csv']) {
      const res = await get(`${path}?${week}&site=${the.lyon}`, the.parisSupervisor);
      expect(res.statusCode, path).toBe(404);
    }
    // The CSV of the figures is Paris's too.
    const csv = await get(`/api/dashboard.csv?${week}`, the.parisSupervisor);
    expect(csv.body.split('\r\n')[1]).toBe(`${fr((m) => m.dashboard.figures.arrivals)};3;1`);
  });

  it('404 for another company named, another company’s site, or a site that does not exist', async () => {
    const stranger = '0b7d7a52-3f7a-4c1e-9d3a-2f1c5b6a7e8f';
    for (const role of ['ROLE_SUPER_ADMIN', 'ROLE_MANAGER', 'ROLE_SUPERVISOR'] as Role[]) {
      for (const path of ['/api/dashboard', '/api/dashboard.csv']) {
        for (const query of [
          `company=${the.other.slug}`,
          `company=${the.other.id}`,
          `site=${the.other.siteId}`,
          `site=${stranger}`,
        ]) {
          const res = await get(`${path}?${week}&${query}`, the.staff[role]);
          expect(res.statusCode, `${role} ${path} ${query}`).toBe(404);
        }
      }
    }
    // The platform admin: a site of a company other than the one named.
    const mixed = await get(
      `/api/dashboard?${week}&company=${the.other.slug}&site=${the.paris}`,
      the.staff.ROLE_ADMIN,
    );
    expect(mixed.statusCode).toBe(404);
  });

  it('the platform admin reads another company’s by ?company= (its figures alone)', async () => {
    const d = await dashboardOf(`${week}&company=${the.other.slug}`, the.staff.ROLE_ADMIN);
    expect(d.sites).toEqual([
      { id: the.other.siteId, name: expect.any(String), timezone: 'Europe/Paris' },
    ]);
    expect(d.current).toMatchObject({
      arrivals: 1,
      visits: 1,
      expected: 1,
      no_shows: 0,
      visit_length_median_minutes: 50,
      decisions: 1,
      decision_median_minutes: 7,
    });
    expect(d.charts.top_hosts).toEqual([{ host: 'Autre hôte', visits: 1 }]);
    // As its own super admin sees it.
    expect(await dashboardOf(week, the.otherSuperAdmin)).toEqual(d);
  });
});

describe('the filters’ refusals', () => {
  const errorsOf = async (query: string, lang: Language = 'fr') => {
    const res = await get(`/api/dashboard?${query}`, the.staff.ROLE_MANAGER, {
      'accept-language': lang,
    });
    expect(res.statusCode, res.body).toBe(400);
    return res.json<{ errors: Record<string, string> }>().errors;
  };

  it('a bad date: its own field, and nothing said of the range', async () => {
    const invalid = fr((m) => m.dashboard.dateInvalid);
    expect(await errorsOf('from=2030-02-30&to=2030-03-31')).toEqual({ from: invalid });
    expect(await errorsOf('from=2030-03-25&to=2030-3-31')).toEqual({ to: invalid });
    expect(await errorsOf('from=25/03/2030&to=2030-03-31')).toEqual({ from: invalid });
    expect(await errorsOf('from=2030-13-01&to=2030-01-01')).toEqual({ from: invalid });
    expect(await errorsOf('from=2030-03-25&to=2030-03-31T00:00:00Z')).toEqual({ to: invalid });
    expect(await errorsOf('from=2030-02-30&to=2030-03-31', 'en')).toEqual({
      from: en((m) => m.dashboard.dateInvalid),
    });
    // Both dates are required.
    expect(Object.keys(await errorsOf('to=2030-03-31'))).toEqual(['from']);
  });

  it('an end before the start', async () => {
    expect(await errorsOf('from=2030-03-31&to=2030-03-25')).toEqual({
      to: fr((m) => m.dashboard.rangeReversed),
    });
    expect(await errorsOf('from=2030-03-31&to=2030-03-25', 'en')).toEqual({
      to: en((m) => m.dashboard.rangeReversed),
    });
    // One day is a period.
    expect(
      (await dashboardOf('from=2030-03-25&to=2030-03-25', the.staff.ROLE_MANAGER)).period,
    ).toEqual({ from: '2030-03-25', to: '2030-03-25', days: 1 });
  });

  it('at most 366 days', async () => {
    expect(await errorsOf('from=2030-01-01&to=2031-01-02')).toEqual({
      to: fr((m) => m.dashboard.rangeTooLong(366)),
    });
    expect(await errorsOf('from=2030-01-01&to=2031-01-02', 'en')).toEqual({
      to: en((m) => m.dashboard.rangeTooLong(366)),
    });
    const longest = await dashboardOf('from=2030-01-01&to=2031-01-01', the.staff.ROLE_MANAGER);
    expect(longest.period.days).toBe(366);
    // As long: 366 days, ending the day before.
    expect(longest.previous_period).toEqual({ from: '2028-12-31', to: '2029-12-31' });
    expect(longest.charts.on_site_peaks).toHaveLength(366);
    expect(longest.current.arrivals).toBe(5); // the week and the week before
  });

  it('the CSV refuses the same, and a chart it does not know', async () => {
    const res = await get(
      '/api/dashboard.csv?from=2030-03-31&to=2030-03-25',
      the.staff.ROLE_MANAGER,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ to: fr((m) => m.dashboard.rangeReversed) });
    const chart = await get(`/api/dashboard.csv?${week}&chart=pie`, the.staff.ROLE_MANAGER);
    expect(chart.statusCode).toBe(400);
    expect(Object.keys(chart.json().errors)).toEqual(['chart']);
  });
});

describe('the CSV for French Excel', () => {
  async function csv(query: string, lang: Language = 'fr') {
    const res = await get(`/api/dashboard.csv?${query}`, the.staff.ROLE_MANAGER, {
      'accept-language': lang === 'en' ? 'en-GB,en;q=0.9' : 'fr-FR',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    // UTF-8 with a byte-order mark, CRLF line ends only, a last line end.
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const body = res.rawPayload.toString('utf8').slice(1);
    expect(body.endsWith('\r\n')).toBe(true);
    expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    return { lines: body.split('\r\n').slice(0, -1), res };
  }
  const header = (lang: Language, chart: DashboardChart) =>
    catalogue(lang).dashboard.charts[chart].header.join(';');
  const bucket = (lang: Language, buckets: readonly number[], i: number) =>
    catalogue(lang).dashboard.bucket(buckets[i]!, buckets[i + 1] ?? null);

  it('each chart: its header from the messages, then the known week’s rows', async () => {
    const expected: Record<DashboardChart, string[]> = {
      visits_per_day: [
        '2030-03-25;Client;1',
        '2030-03-26;Sans type;1',
        '2030-03-27;Client;1',
        '2030-03-28;Sans type;1',
      ],
      arrivals_by_hour: ['lundi;09:00;1', 'mardi;10:00;1', 'mercredi;14:00;1', 'jeudi;10:00;1'],
      on_site_peaks: [
        '2030-03-25;1',
        '2030-03-26;1',
        '2030-03-27;1',
        '2030-03-28;1',
        '2030-03-29;0',
        '2030-03-30;0',
        '2030-03-31;0',
      ],
      visit_lengths: [0, 0, 1, 2, 1, 0, 0].map(
        (n, i) => `${bucket('fr', VISIT_LENGTH_BUCKETS, i)};${n}`,
      ),
      no_shows_per_day: [
        '2030-03-25;1;0',
        '2030-03-26;2;1',
        '2030-03-27;1;0',
        '2030-03-28;0;0',
        '2030-03-29;0;0',
        '2030-03-30;0;0',
        '2030-03-31;0;0',
      ],
      decision_times: [1, 1, 1, 0, 1].map(
        (n, i) => `${bucket('fr', DECISION_TIME_BUCKETS, i)};${n}`,
      ),
      // A separator and quotes in a name: the field quoted, its quotes doubled.
      event_attendance: ['"Forum; ""emploi""";2030-03-28;2;1'],
      // A host typed as a formula is defused: it never runs in Excel.
      top_hosts: ['Awa Traoré;2', `'${HOST_FORMULA};1`],
    };
    for (const chart of DASHBOARD_CHARTS) {
      const { lines, res } = await csv(`${week}&chart=${chart}`);
      expect(lines[0], chart).toBe(header('fr', chart));
      expect(lines.slice(1), chart).toEqual(expected[chart]);
      expect(res.headers['content-disposition'], chart).toBe(
        `attachment; filename="tableau-de-bord-${chart}-2030-03-25-2030-03-31.csv"`,
      );
    }
    // The labels the buckets carry, as French readers read them.
    expect(bucket('fr', VISIT_LENGTH_BUCKETS, 2)).toBe('30 min à 1 h');
    expect(bucket('fr', DECISION_TIME_BUCKETS, 4)).toBe('24 h et plus');
  });

  it('in English with Accept-Language: headers, weekdays, types, buckets', async () => {
    const visits = await csv(`${week}&chart=visits_per_day`, 'en');
    expect(visits.lines).toEqual([
      'Day;Visitor type;Visits',
      '2030-03-25;Customer;1',
      '2030-03-26;No type;1',
      '2030-03-27;Customer;1',
      '2030-03-28;No type;1',
    ]);
    expect(visits.res.headers['content-disposition']).toBe(
      'attachment; filename="dashboard-visits_per_day-2030-03-25-2030-03-31.csv"',
    );
    const hours = await csv(`${week}&chart=arrivals_by_hour`, 'en');
    expect(hours.lines).toEqual([
      header('en', 'arrivals_by_hour'),
      'Monday;09:00;1',
      'Tuesday;10:00;1',
      'Wednesday;14:00;1',
      'Thursday;10:00;1',
    ]);
    const lengths = await csv(`${week}&chart=visit_lengths`, 'en');
    expect(lengths.lines[0]).toBe('Length;Visits');
    expect(lengths.lines[3]).toBe('30 min to 1 h;1');
    expect(lengths.lines[7]).toBe('8 h or more;0');
  });

  it('without ?chart=: every figure beside the previous period’s, empty where none', async () => {
    const values: Record<string, [number | null, number | null]> = {};
    for (const figure of DASHBOARD_FIGURES) {
      values[figure] = [BOTH_SITES.current[figure], BOTH_SITES.previous[figure]];
    }
    for (const lang of ['fr', 'en'] as Language[]) {
      const words = catalogue(lang).dashboard;
      const { lines, res } = await csv(week, lang);
      expect(lines).toEqual([
        words.figuresHeader.join(';'),
        ...DASHBOARD_FIGURES.map(
          (f) => `${words.figures[f]};${values[f]![0] ?? ''};${values[f]![1] ?? ''}`,
        ),
      ]);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${words.fileName}-2030-03-25-2030-03-31.csv"`,
      );
    }
    expect((await csv(week)).lines.slice(0, 2)).toEqual([
      'Indicateur;Période;Période précédente',
      'Arrivées;4;1',
    ]);
    // Lyon had nobody the week before: its lengths and times are empty, not 0.
    const lyon = await csv(`${week}&site=${the.lyon}`);
    const row = (figure: keyof Dashboard['current']) =>
      lyon.lines.find((l) => l.startsWith(`${fr((m) => m.dashboard.figures[figure])};`));
    expect(row('visit_length_median_minutes')).toBe('Durée médiane de visite (min);120;');
    expect(row('decision_p90_minutes')).toBe('Délai de réponse, 90e centile (min);1500;');
    expect(row('arrivals')).toBe('Arrivées;1;0');
  });
});

describe('the API description', () => {
  it('lists both routes with their filters', async () => {
    vi.useRealTimers();
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<
      string,
      Record<string, { parameters?: { name: string; in: string }[]; produces?: string[] }>
    >;
    const query = (path: string) =>
      (paths[path]?.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(query('/api/dashboard').sort()).toEqual(['company', 'from', 'site', 'to']);
    expect(query('/api/dashboard.csv').sort()).toEqual(['chart', 'company', 'from', 'site', 'to']);
  });
});
