/**
 * `npm run bench -- onsite` (ARCHITECTURE §9 "Live screens", issues 14 and 28), on
 * PostgreSQL: two Sésame instances on one database; one company of 20 sites with 5,000
 * people inside spread over them (visitors and QR users and members); and beside it, the
 * baseline, a company of one site with 5,000 people inside as before sites existed.
 * Live screens (Server-Sent Events) are opened on 10 of the 20 sites (`/api/live?site=`,
 * one on each instance per site), with two more screens of every site (no `?site=`);
 * then 50 scans a second for a minute, each at its person's site (`?site=`, the desk's),
 * spread over all 20 sites, made through the second instance only. It prints:
 *   - whether every site's screens received every change made at their site, and nothing
 *     of another site (each scan is one NOTIFY from the database's trigger carrying its
 *     site, heard by both instances' LISTEN connections), and the delivery delay from the
 *     scan's request to each screen's event (p50, p99, max; budget 2 s);
 *   - a site's first page of the on-site list (GET /api/on-site?site=, 24 of ~250 inside)
 *     p95, idle and during the scans (budget < 50 ms), beside the same first page of the
 *     20-site company without `?site=` (5,000 inside) and of the one-site company (the
 *     baseline: 5,000 inside, no `?site=`).
 * The screens here only count events; a browser also refetches its page, at most a
 * few times a second (apps/web/src/lib/live.ts), which the "during" figure includes
 * as 20 × 2.5 page loads a second.
 *
 * BENCH_DATABASE_URL (else TEST_DATABASE_URL, else the local server) names the
 * PostgreSQL server; the benchmark creates and drops its own database there.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { readEvents } from '../apps/server/test/helpers/sse';
import { freePort } from '../e2e/support/server';

const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'sesame_bench_onsite';
const SITES = 20;
const ON_SITE = 5_000;
/** Of the 5,000 inside, this many are visitors (an open visitor check); the rest QR users and members. */
const VISITORS_INSIDE = 1_500;
/** People the scans toggle (in, then out, then in...), not among the 5,000: QR users and visitors. */
const SCANNED_USERS = 1_000;
const SCANNED_VISITORS = 500;
/** Sites with screens open on them (one screen on each instance per site). */
const SCREEN_SITES = 10;
/** Screens of every site (no ?site=), one on each instance. */
const ALL_SITES_SCREENS = 2;
const SCANS_PER_S = Number(process.env.BENCH_SCANS_PER_S ?? 50);
const DURATION_S = Number(process.env.BENCH_ONSITE_S ?? 60);
/** How long after the last scan the screens may still be receiving. */
const DRAIN_MS = 5_000;
const DELIVERY_BUDGET_MS = 2_000;
const PAGE_BUDGET_MS = 50;
const PAGE_SAMPLES = 200;
/** What the browsers' throttled refetches add during the scans (see the header). */
const REFETCHES_PER_S = SCREEN_SITES * 2 * 2.5;
const DESK = { email: 'bench-onsite@sesame.test', password: 'Bench-Password-123' };
const SOLO_DESK = { email: 'bench-onsite-solo@sesame.test', password: 'Bench-Password-123' };
/** The sites' zones, in turn: their days, and the visitors' days, are each site's own. */
const ZONES = ['Europe/Paris', 'Pacific/Noumea', 'America/Los_Angeles', 'Asia/Tokyo', 'UTC'];

const UIDN_OF = (n: string) =>
  `overlay(overlay(lpad(upper(to_hex(${n})), 12, '0') placing '-' from 5 for 0) placing '-' from 10 for 0)`;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

interface Child {
  url: string;
  stop(): Promise<void>;
}

async function serve(dataDir: string): Promise<Child> {
  const port = await freePort();
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'serve.ts'), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      BENCH_MODE: 'app',
      PORT: String(port),
      DATABASE_URL: withDatabase(SERVER_URL, DATABASE),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      REPEAT_SCAN_WINDOW_SECONDS: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function login(url: string, who = DESK): Promise<string> {
  const res = await fetch(`${url}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: who.email, password: who.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** Someone the scans toggle: their code, at their site, through the route of their kind. */
interface Scanned {
  uidn: string;
  id: string;
  site: string;
  route: 'get-qr-user-data' | 'get-qr-data';
}

/**
 * One company: its site, its front desk (every site; no home site), and `inside` people
 * inside, spread over its sites by row number (the first `visitors` of them visitors with
 * a confirmed request of today, in their site's zone; the others QR users and members);
 * and `scanned` more of each kind, outside, to scan. Codes are numbered from `first`.
 */
async function seedCompany(
  db: pg.Client,
  options: {
    slug: string;
    sites: number;
    desk: { email: string; password: string };
    inside: number;
    visitors: number;
    scannedUsers: number;
    scannedVisitors: number;
    first: number;
  },
): Promise<{ sites: string[]; scanned: Scanned[] }> {
  const { hashPassword } = await import('../apps/server/src/auth/passwords');
  const hash = await hashPassword(options.desk.password);
  const { rows: company } = await db.query<{ id: string }>(
    `insert into companies (id, name, slug) values (gen_random_uuid(), $1, $1) returning id`,
    [options.slug],
  );
  const companyId = company[0]!.id;
  // Sites created a second apart, the first the main site. Each site's day end falls
  // before the earliest arrival seeded below (8 hours back), so that the automatic
  // check-out does not empty the site during the run, whatever its zone and the hour.
  const { rows: sites } = await db.query<{ id: string }>(
    `insert into sites (id, company_id, name, city, country, timezone, day_end, created_at)
     select gen_random_uuid(), $1, 'Site ' || lpad(g::text, 2, '0'), 'Ville ' || g, 'FR',
            ($3::text[])[1 + (g - 1) % array_length($3::text[], 1)],
            to_char((now() - interval '8 hours 30 minutes')
                    at time zone ($3::text[])[1 + (g - 1) % array_length($3::text[], 1)], 'HH24:MI'),
            now() - interval '1 day' + g * interval '1 second'
       from generate_series(1, $2::int) g
     returning id`,
    [companyId, options.sites, ZONES],
  );
  await db.query(
    `insert into users (id, company_id, name, firstname, email, password_hash, roles)
     values (gen_random_uuid(), $1, 'Desk', 'Bench', $2, $3, array['ROLE_EMPLOYEE'])`,
    [companyId, options.desk.email, hash],
  );
  const siteIds = sites.map((s) => s.id);
  // Person number n is at site n % sites (the ids in the order they were created).
  const siteOf = (n: string) => `($2::uuid[])[1 + (${n}) % array_length($2::uuid[], 1)]`;
  const users = options.inside - options.visitors + options.scannedUsers;
  await db.query(
    `insert into qr_users (id, company_id, kind, uidn, firstname, lastname, email, title)
     select gen_random_uuid(), $1, case when g % 3 = 0 then 'member' else 'permanent' end,
            ${UIDN_OF('g')}, 'Personne', 'N' || g, 'p' || g || '@example.com', 'Technicien'
       from generate_series($2::int, $3::int) g`,
    [companyId, options.first, options.first + users - 1],
  );
  // A QR user's or member's check is at the desk's site where they were scanned.
  const numbered = `select id, uidn, row_number() over (order by uidn) as n from qr_users where company_id = $1`;
  await db.query(
    `insert into user_checks (id, company_id, site_id, qr_user_id, check_in_at, check_in_method)
     select gen_random_uuid(), $1, ${siteOf('q.n')}, q.id, now() - (random() * interval '8 hours'), 'scan'
       from (${numbered}) q
      where q.n <= $3`,
    [companyId, siteIds, options.inside - options.visitors],
  );
  // Visitors: a meeting today at their site (in its zone, their day), a confirmed request.
  const firstVisitor = options.first + users;
  await db.query(
    `insert into visitors (id, company_id, site_id, uidn, firstname, lastname, email, contact, id_number,
                           organisation_name, request_date, request_time, day_starts_at, day_ends_at)
     select gen_random_uuid(), $1, s.id, ${UIDN_OF('g')}, 'Visiteur', 'N' || g, 'v' || g || '@example.com',
            '0700000000', 'ID-' || g, 'Acme',
            to_char(now() at time zone s.timezone, 'DD/MM/YYYY'), '10:00',
            date_trunc('day', now() at time zone s.timezone) at time zone s.timezone,
            (date_trunc('day', now() at time zone s.timezone) + interval '1 day') at time zone s.timezone
       from generate_series($3::int, $4::int) g
       join sites s on s.id = ${siteOf('g')}`,
    [
      companyId,
      siteIds,
      firstVisitor,
      firstVisitor + options.visitors + options.scannedVisitors - 1,
    ],
  );
  await db.query(
    `insert into visit_requests (id, company_id, visitor_id, host, reason, status, confirmed)
     select gen_random_uuid(), company_id, id, 'Hôte', 'Réunion', 1, true from visitors
      where company_id = $1`,
    [companyId],
  );
  // A visitor's check is at the visitor's site.
  await db.query(
    `insert into visitor_checks (id, company_id, site_id, visitor_id, check_in_at, check_in_method)
     select gen_random_uuid(), company_id, site_id, id,
            greatest(day_starts_at, now() - (random() * interval '8 hours')), 'scan'
       from visitors where company_id = $1 order by uidn limit $2`,
    [companyId, options.visitors],
  );
  // Those outside, to scan, each at their site: a QR user's is the desk's (?site=), a visitor's their own.
  const { rows: scanned } = await db.query<Scanned>(
    `select q.uidn, q.id, ${siteOf('q.n')} as site, 'get-qr-user-data' as route
       from (${numbered}) q
      where not exists (select 1 from user_checks c where c.qr_user_id = q.id)
     union all
     select v.uidn, v.id, v.site_id, 'get-qr-data' from visitors v
      where v.company_id = $1 and not exists (select 1 from visitor_checks c where c.visitor_id = v.id)`,
    [companyId, siteIds],
  );
  return { sites: siteIds, scanned };
}

interface Screen {
  /** The site it was opened on; null: every site. */
  site: string | null;
  received: Map<string, number[]>;
  /** Events of another site than the screen's. */
  foreign: number;
  close(): void;
}

/** One live screen: reads the SSE stream and notes when each person's events arrive. */
async function openScreen(url: string, token: string, site: string | null): Promise<Screen> {
  const abort = new AbortController();
  const res = await fetch(`${url}/api/live${site ? `?site=${site}` : ''}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (res.status !== 200) throw new Error(`live: ${res.status}`);
  const screen: Screen = { site, received: new Map(), foreign: 0, close: () => abort.abort() };
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  void readEvents(res, (type, data) => {
    if (type === 'ready') ready();
    if (type !== 'presence' || !data) return;
    const event = JSON.parse(data) as { person_id: string; site_id: string | null };
    if (site && event.site_id !== site) screen.foreign += 1;
    const times = screen.received.get(event.person_id) ?? [];
    times.push(performance.now());
    screen.received.set(event.person_id, times);
  });
  await isReady;
  return screen;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN;

/**
 * One first page (24 rows) of the on-site list, timed; `query` narrows it (`site=…`).
 * `inside`: how many the list must count (a filter not applied would be measured otherwise).
 */
async function pageLoad(url: string, token: string, query = '', inside?: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/api/on-site?per_page=24${query ? `&${query}` : ''}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { meta?: { total: number }; data?: unknown[] };
  const elapsed = performance.now() - started;
  if (!res.ok || !body.meta) throw new Error(`on-site: ${res.status}`);
  if (inside !== undefined && body.meta.total !== inside)
    throw new Error(`on-site?${query}: ${body.meta.total} inside, not ${inside}`);
  return elapsed;
}

export async function run(): Promise<void> {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${DATABASE} with (force)`);
  await admin.query(`create database ${DATABASE}`);
  await admin.end();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-bench-onsite-'));
  const db = new pg.Client({ connectionString: withDatabase(SERVER_URL, DATABASE) });
  const servers: Child[] = [];
  const screens: Screen[] = [];
  try {
    // The first instance migrates the new database; the second starts on it.
    servers.push(await serve(dataDir));
    await db.connect();
    console.log(
      `seeding ${ON_SITE.toLocaleString('en')} people inside ${SITES} sites of one company, and ${ON_SITE.toLocaleString('en')} inside a one-site company…`,
    );
    const many = await seedCompany(db, {
      slug: 'bench',
      sites: SITES,
      desk: DESK,
      inside: ON_SITE,
      visitors: VISITORS_INSIDE,
      scannedUsers: SCANNED_USERS,
      scannedVisitors: SCANNED_VISITORS,
      first: 1,
    });
    await seedCompany(db, {
      slug: 'bench-solo',
      sites: 1,
      desk: SOLO_DESK,
      inside: ON_SITE,
      visitors: VISITORS_INSIDE,
      scannedUsers: 0,
      scannedVisitors: 0,
      first: 1_000_000,
    });
    await db.query('analyze');
    // Who is inside each site, by kind: each site's page must count its own.
    const { rows: perSite } = await db.query<{ site_id: string; visitors: string; users: string }>(
      `select site_id, count(*) filter (where tbl = 'v') as visitors, count(*) filter (where tbl = 'u') as users
         from (select site_id, 'u' as tbl from user_checks where check_out_at is null
               union all select site_id, 'v' from visitor_checks where check_out_at is null) o
        where site_id = any($1::uuid[]) group by site_id`,
      [many.sites],
    );
    const insideOf = new Map(perSite.map((r) => [r.site_id, Number(r.visitors) + Number(r.users)]));
    servers.push(await serve(dataDir));
    const [a, b] = servers as [Child, Child];
    const pageToken = await login(a.url);
    const soloToken = await login(a.url, SOLO_DESK);
    const scanToken = await login(b.url);
    const screenSites = many.sites.slice(0, SCREEN_SITES);
    const sitePage = (i: number) => {
      const site = many.sites[i % SITES]!;
      return pageLoad(a.url, pageToken, `site=${site}`, insideOf.get(site));
    };

    // Idle: the three pages in turn, so that a slow moment of the machine falls on each.
    const loadBefore = os.loadavg()[0]!;
    for (let i = 0; i < 20; i++) {
      await sitePage(i);
      await pageLoad(a.url, pageToken, '', ON_SITE);
      await pageLoad(a.url, soloToken, '', ON_SITE);
    }
    const idle = { site: [] as number[], all: [] as number[], solo: [] as number[] };
    for (let i = 0; i < PAGE_SAMPLES; i++) {
      idle.site.push(await sitePage(i));
      idle.all.push(await pageLoad(a.url, pageToken));
      idle.solo.push(await pageLoad(a.url, soloToken));
    }
    for (const times of Object.values(idle)) times.sort((x, y) => x - y);

    for (const [i, server] of [a, b].entries()) {
      for (const site of screenSites)
        screens.push(await openScreen(server.url, await login(server.url), site));
      for (let k = i; k < ALL_SITES_SCREENS; k += 2)
        screens.push(await openScreen(server.url, await login(server.url), null));
    }

    // Open loop: a scan every 1/SCANS_PER_S s through instance B, whatever the answers' pace.
    const total = SCANS_PER_S * DURATION_S;
    const order = [...many.scanned].sort(() => Math.random() - 0.5);
    const sentAt = new Map<string, number[]>();
    const siteOfPerson = new Map(order.map((p) => [p.id, p.site]));
    let failed = 0;
    const inFlight: Promise<void>[] = [];
    const started = performance.now();
    console.log(
      `${total.toLocaleString('en')} scans at ${SCANS_PER_S}/s over the ${SITES} sites through instance B; ` +
        `${screens.length} screens: ${SCREEN_SITES} sites × 2 (one per instance) and ${ALL_SITES_SCREENS} of every site…`,
    );
    const during: number[] = [];
    let loading = true;
    const pageLoop = (async () => {
      // The browsers' refetches, paced, measured: each a screen's site's first page.
      for (let i = 0; loading; i++) {
        const t0 = performance.now();
        during.push(await pageLoad(a.url, pageToken, `site=${screenSites[i % SCREEN_SITES]}`));
        const wait = 1000 / REFETCHES_PER_S - (performance.now() - t0);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    })();
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / SCANS_PER_S;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const person = order[i % order.length]!;
      const sent = performance.now();
      const times = sentAt.get(person.id) ?? [];
      times.push(sent);
      sentAt.set(person.id, times);
      inFlight.push(
        fetch(`${b.url}/api/${person.route}/${person.uidn}?site=${person.site}`, {
          headers: { authorization: `Bearer ${scanToken}` },
        }).then(
          async (res) => {
            const body = (await res.json()) as { status?: string };
            if (!res.ok || body.status !== 'success') failed += 1;
          },
          () => {
            failed += 1;
          },
        ),
      );
    }
    await Promise.all(inFlight);
    const elapsedS = (performance.now() - started) / 1000;
    const loadAfter = os.loadavg()[0]!;
    // What each screen should hear: the scans at its site (every scan, for a screen of every site).
    const expectedOf = (screen: Screen) =>
      [...sentAt].reduce(
        (n, [person, sends]) =>
          n + (!screen.site || siteOfPerson.get(person) === screen.site ? sends.length : 0),
        0,
      );
    const heard = (screen: Screen) =>
      [...screen.received.values()].reduce((n, t) => n + t.length, 0);
    const deadline = performance.now() + DRAIN_MS;
    const complete = () => screens.every((s) => heard(s) >= expectedOf(s));
    while (!complete() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    loading = false;
    await pageLoop;

    const delays = { site: [] as number[], all: [] as number[] };
    let expected = 0;
    let missing = 0;
    let foreign = 0;
    for (const screen of screens) {
      expected += expectedOf(screen);
      foreign += screen.foreign;
      for (const [person, sends] of sentAt) {
        if (screen.site && siteOfPerson.get(person) !== screen.site) continue;
        const got = screen.received.get(person) ?? [];
        missing += Math.max(0, sends.length - got.length);
        sends.forEach((sent, k) => {
          if (got[k] !== undefined) (screen.site ? delays.site : delays.all).push(got[k]! - sent);
        });
      }
    }
    delays.site.sort((x, y) => x - y);
    delays.all.sort((x, y) => x - y);
    during.sort((x, y) => x - y);
    const received = delays.site.length + delays.all.length;
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    const worst = Math.max(delays.site.at(-1) ?? NaN, delays.all.at(-1) ?? NaN);
    const sizes = [...insideOf.values()];
    const mix = (pick: (r: (typeof perSite)[number]) => string) =>
      perSite.reduce((n, r) => n + Number(pick(r)), 0);
    console.log(
      `\nload average (1 min, ${os.cpus().length} cores): ${loadBefore.toFixed(1)} before the idle pages, ${loadAfter.toFixed(1)} after the scans`,
    );
    console.log(`live screens (two instances, one PostgreSQL, LISTEN/NOTIFY → SSE, ?site=):`);
    console.log(
      `  scans: ${total} in ${elapsedS.toFixed(1)} s (${(total / elapsedS).toFixed(1)}/s), failed ${failed}`,
    );
    console.log(
      `  events expected ${expected.toLocaleString('en')} (each scan to its site's 2 screens and the ${ALL_SITES_SCREENS} of every site), ` +
        `received ${received.toLocaleString('en')}, missing ${missing}, of another site ${foreign} — ` +
        (missing === 0 && foreign === 0
          ? "every site's screens received every change of their site and none of another's"
          : foreign
            ? 'ANOTHER SITE’S CHANGES RECEIVED'
            : 'CHANGES MISSED'),
    );
    console.log(
      `  delivery delay (scan sent → event on a screen), a site's screens: p50 ${ms(percentile(delays.site, 0.5))}, p99 ${ms(percentile(delays.site, 0.99))}, max ${ms(delays.site.at(-1) ?? NaN)}`,
    );
    console.log(
      `  delivery delay, screens of every site: p50 ${ms(percentile(delays.all, 0.5))}, p99 ${ms(percentile(delays.all, 0.99))}, max ${ms(delays.all.at(-1) ?? NaN)} ` +
        `(budget ${DELIVERY_BUDGET_MS.toLocaleString('en')} ms: ${worst <= DELIVERY_BUDGET_MS ? 'ok' : 'OVER'})`,
    );
    console.log(
      `on-site page, first page of 24 (GET /api/on-site), p50 / p95 of ${PAGE_SAMPLES} loads each, idle, in turn:`,
    );
    const line = (label: string, times: number[]) =>
      console.log(
        `  ${label.padEnd(62)} p50 ${ms(percentile(times, 0.5))}, p95 ${ms(percentile(times, 0.95))}`,
      );
    const each =
      Math.min(...sizes) === Math.max(...sizes)
        ? `${sizes[0]}`
        : `${Math.min(...sizes)}–${Math.max(...sizes)}`;
    console.log(
      `  inside the 20 sites: ${mix((r) => r.visitors).toLocaleString('en')} visitors, ${mix((r) => r.users).toLocaleString('en')} QR users and members, ${each} at each site`,
    );
    line(`a site's page (?site=, ${each} inside, each of the ${SITES} sites in turn)`, idle.site);
    line(`every site of the 20 (no ?site=, ${ON_SITE.toLocaleString('en')} inside)`, idle.all);
    line(
      `baseline: a one-site company (no ?site=, ${ON_SITE.toLocaleString('en')} inside)`,
      idle.solo,
    );
    console.log(
      `  a site's page during the scans: p50 ${ms(percentile(during, 0.5))}, p95 ${ms(percentile(during, 0.95))} (${during.length} loads) — ` +
        `budget p95 < ${PAGE_BUDGET_MS} ms: ${Math.max(percentile(during, 0.95), percentile(idle.site, 0.95)) < PAGE_BUDGET_MS ? 'ok' : 'OVER'}`,
    );
  } finally {
    for (const screen of screens) screen.close();
    for (const server of servers) await server.stop().catch(() => undefined);
    await db.end().catch(() => undefined);
    const dropper = new pg.Client({ connectionString: SERVER_URL });
    await dropper.connect();
    await dropper.query(`drop database if exists ${DATABASE} with (force)`);
    await dropper.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}
