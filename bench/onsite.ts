/**
 * `npm run bench -- onsite` (ARCHITECTURE §9 "Live screens", issue 14), on PostgreSQL:
 * two Sésame instances on one database, 5,000 people on site, 20 open live screens
 * (Server-Sent Events, ten on each instance), and 50 scans a second for a minute made
 * through the second instance only. It prints:
 *   - whether every screen received every change (each scan is one NOTIFY from the
 *     database's trigger, heard by both instances' LISTEN connections), and the
 *     delivery delay from the scan's request to each screen's event (p50, p99, max);
 *   - the on-site page's first load (GET /api/on-site, first page of 24) p95, idle and
 *     during the scans (budget < 50 ms).
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
const ON_SITE = 5_000;
/** People the scans toggle (in, then out, then in...), not among the 5,000. */
const SCANNED = 1_500;
const SCREENS = 20;
const SCANS_PER_S = Number(process.env.BENCH_SCANS_PER_S ?? 50);
const DURATION_S = Number(process.env.BENCH_ONSITE_S ?? 60);
/** How long after the last scan the screens may still be receiving. */
const DRAIN_MS = 5_000;
const PAGE_SAMPLES = 200;
/** What the browsers' throttled refetches add during the scans (see the header). */
const REFETCHES_PER_S = SCREENS * 2.5;
const DESK = { email: 'bench-onsite@sesame.test', password: 'Bench-Password-123' };

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

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: DESK.email, password: DESK.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** A company, its front desk, 5,000 people inside (QR users and members), 1,500 to scan. */
async function seed(db: pg.Client): Promise<{ uidn: string; id: string }[]> {
  const { hashPassword } = await import('../apps/server/src/auth/passwords');
  const hash = await hashPassword(DESK.password);
  await db.query(`
    insert into companies (id, name, slug) values (gen_random_uuid(), 'Bench', 'bench');
    insert into users (id, company_id, name, firstname, email, password_hash, roles)
      select gen_random_uuid(), id, 'Desk', 'Bench', '${DESK.email}', '${hash}', array['ROLE_EMPLOYEE']
        from companies where slug = 'bench';
  `);
  await db.query(
    `insert into qr_users (id, company_id, kind, uidn, firstname, lastname, email, title)
     select gen_random_uuid(), c.id, case when g % 3 = 0 then 'member' else 'permanent' end,
            ${UIDN_OF('g')}, 'Personne', 'N' || g, 'p' || g || '@example.com', 'Technicien'
       from companies c, generate_series(1, $1::int) g where c.slug = 'bench'`,
    [ON_SITE + SCANNED],
  );
  await db.query(
    `insert into user_checks (id, company_id, qr_user_id, check_in_at, check_in_method)
     select gen_random_uuid(), company_id, id, now() - (random() * interval '8 hours'), 'scan'
       from qr_users order by uidn limit $1`,
    [ON_SITE],
  );
  await db.query('analyze');
  const { rows } = await db.query<{ uidn: string; id: string }>(
    `select uidn, id from qr_users q
      where not exists (select 1 from user_checks c where c.qr_user_id = q.id)`,
  );
  return rows;
}

interface Screen {
  received: Map<string, number[]>;
  close(): void;
}

/** One live screen: reads the SSE stream and notes when each person's events arrive. */
async function openScreen(url: string, token: string): Promise<Screen> {
  const abort = new AbortController();
  const res = await fetch(`${url}/api/live`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (res.status !== 200) throw new Error(`live: ${res.status}`);
  const received = new Map<string, number[]>();
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  void readEvents(res, (type, data) => {
    if (type === 'ready') ready();
    if (type !== 'presence' || !data) return;
    const event = JSON.parse(data) as { person_id: string };
    const times = received.get(event.person_id) ?? [];
    times.push(performance.now());
    received.set(event.person_id, times);
  });
  await isReady;
  return { received, close: () => abort.abort() };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN;

async function pageLoads(url: string, token: string, samples: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const res = await fetch(`${url}/api/on-site?per_page=24`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { meta?: { total: number } };
    if (!res.ok || !body.meta) throw new Error(`on-site: ${res.status}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
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
    console.log(`seeding ${ON_SITE.toLocaleString('en')} people on site…`);
    const scanned = await seed(db);
    servers.push(await serve(dataDir));
    const [a, b] = servers as [Child, Child];
    const pageToken = await login(a.url);
    const scanToken = await login(b.url);

    await pageLoads(a.url, pageToken, 20); // warm-up
    const idle = await pageLoads(a.url, pageToken, PAGE_SAMPLES);

    for (let i = 0; i < SCREENS; i++) {
      const server = i % 2 === 0 ? a : b;
      screens.push(await openScreen(server.url, await login(server.url)));
    }

    // Open loop: a scan every 1/SCANS_PER_S s through instance B, whatever the answers' pace.
    const total = SCANS_PER_S * DURATION_S;
    const sentAt = new Map<string, number[]>();
    let failed = 0;
    const inFlight: Promise<void>[] = [];
    const started = performance.now();
    console.log(
      `${total.toLocaleString('en')} scans at ${SCANS_PER_S}/s through instance B, ${SCREENS} screens (10 per instance)…`,
    );
    const during: number[] = [];
    let loading = true;
    const pageLoop = (async () => {
      // The browsers' refetches, paced, measured.
      while (loading) {
        const t0 = performance.now();
        during.push(...(await pageLoads(a.url, pageToken, 1)));
        const wait = 1000 / REFETCHES_PER_S - (performance.now() - t0);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    })();
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / SCANS_PER_S;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const person = scanned[i % scanned.length]!;
      const sent = performance.now();
      const times = sentAt.get(person.id) ?? [];
      times.push(sent);
      sentAt.set(person.id, times);
      inFlight.push(
        fetch(`${b.url}/api/get-qr-user-data/${person.uidn}`, {
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
    const deadline = performance.now() + DRAIN_MS;
    const expected = total;
    const complete = () =>
      screens.every((s) => [...s.received.values()].reduce((n, t) => n + t.length, 0) >= expected);
    while (!complete() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    loading = false;
    await pageLoop;

    const delays: number[] = [];
    let missing = 0;
    for (const screen of screens) {
      for (const [person, sends] of sentAt) {
        const got = screen.received.get(person) ?? [];
        missing += Math.max(0, sends.length - got.length);
        sends.forEach((sent, k) => {
          if (got[k] !== undefined) delays.push(got[k]! - sent);
        });
      }
    }
    delays.sort((x, y) => x - y);
    during.sort((x, y) => x - y);
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    console.log(`\nlive screens (two instances, one PostgreSQL, LISTEN/NOTIFY → SSE):`);
    console.log(
      `  scans: ${total} in ${elapsedS.toFixed(1)} s (${(total / elapsedS).toFixed(1)}/s), failed ${failed}`,
    );
    console.log(
      `  events expected ${(expected * SCREENS).toLocaleString('en')}, received ${delays.length.toLocaleString('en')}, missing ${missing} — ${missing === 0 ? 'every screen received every change' : 'CHANGES MISSED'}`,
    );
    console.log(
      `  delivery delay (scan sent → event on a screen): p50 ${ms(percentile(delays, 0.5))}, p99 ${ms(percentile(delays, 0.99))}, max ${ms(delays.at(-1) ?? NaN)} (budget 2,000 ms)`,
    );
    console.log(
      `on-site page, first page of 24 among ${ON_SITE.toLocaleString('en')} inside (GET /api/on-site):`,
    );
    console.log(
      `  idle: p50 ${ms(percentile(idle, 0.5))}, p95 ${ms(percentile(idle, 0.95))} (${idle.length} loads)`,
    );
    console.log(
      `  during the scans: p50 ${ms(percentile(during, 0.5))}, p95 ${ms(percentile(during, 0.95))} (${during.length} loads) — budget p95 < 50 ms`,
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
