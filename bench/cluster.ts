/**
 * `npm run bench -- cluster` (issue 32): what the extra hops of a several-instance
 * deployment cost the code check (GET /api/get-qr-data/{uidn}), on this one machine.
 * Throughput and p50/p99 under CONNECTIONS concurrent connections, BENCH_CLUSTER_S seconds
 * each after an unmeasured warm-up, of:
 *   - the bare route (bench/serve.ts BENCH_MODE=bare: the check's single-row write),
 *     straight to it and to PostgreSQL: the baseline of ARCHITECTURE §9;
 *   - the code check on one instance, straight to it and to PostgreSQL, its statements
 *     prepared by name (as always on a direct connection), then unnamed (as behind a pooler);
 *   - the code check on one instance, straight to it, its database through PgBouncer
 *     (transaction mode, deploy/pgbouncer.ini; statements unnamed there);
 *   - the same through haproxy (deploy/haproxy.cfg) with 1 instance behind it;
 *   - the same through haproxy with 3 instances.
 * The instances are bench/serve.ts (the rate limits' allow-list opened to loopback, in
 * that process only; haproxy's X-Forwarded-For read with TRUST_PROXY=1). On a machine of
 * two cores three instances share the same two cores with PostgreSQL, PgBouncer, haproxy
 * and the load generator: the figure shows the hops' cost, not a cluster's capacity.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client';
import {
  databaseUrl,
  dropDatabases,
  freePorts,
  freshDatabase,
  startHaproxy,
  startPgBouncer,
  stopAll,
  stopAllOnSignal,
  stopProcess,
  type Proc,
} from '../apps/server/cluster/stack';
import { compiledServe, startFlags } from './compiled-serve';

const DURATION_S = Number(process.env.BENCH_CLUSTER_S ?? 10);
const WARMUP_S = 4;
const CONNECTIONS = 32;
const VISITORS = 20_000;
/** One secret for every instance: a token signed by one is good on the others. */
const JWT_SECRET = randomBytes(32).toString('hex');
const DESK = { email: 'bench-desk@sesame.test', password: 'Bench-Password-123' };

/** SQL turning a row number into a code-shaped uidn: 'ABCD-EFGH-JKMN' (as bench/checkin.ts). */
const UIDN_OF = (n: string) =>
  `overlay(overlay(lpad(upper(to_hex(${n})), 12, '0') placing '-' from 5 for 0) placing '-' from 10 for 0)`;

async function seed(url: string): Promise<string[]> {
  // Migrated as the servers would (the direct connection).
  const handle = await openPostgres(url, 1);
  await handle.close();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const { hashPassword } = await import('../apps/server/src/auth/passwords');
    const hash = await hashPassword(DESK.password);
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    const formDate = `${pad(now.getUTCDate())}/${pad(now.getUTCMonth() + 1)}/${now.getUTCFullYear()}`;
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const dayEnd = new Date(dayStart.getTime() + 86_400_000);
    await db.query(`
      insert into companies (id, name, slug) values (gen_random_uuid(), 'Bench', 'bench');
      insert into sites (id, company_id, name, timezone)
        select gen_random_uuid(), id, 'Bench', 'UTC' from companies where slug = 'bench';
      insert into users (id, company_id, name, firstname, email, password_hash, roles)
        select gen_random_uuid(), id, 'Desk', 'Bench', '${DESK.email}', '${hash}', array['ROLE_EMPLOYEE']
          from companies where slug = 'bench';
    `);
    await db.query(
      `insert into visitors (id, company_id, site_id, uidn, firstname, lastname, email, contact, id_number,
                             organisation_name, request_date, request_time, day_starts_at, day_ends_at)
       select gen_random_uuid(), c.id, s.id, ${UIDN_OF('g')},
              'Visiteur', 'N' || g, 'v' || g || '@example.com', '0700000000', 'ID-' || g, 'Acme', $1, '10:00',
              $3, $4
         from companies c join sites s on s.company_id = c.id, generate_series(1, $2::int) g
        where c.slug = 'bench'`,
      [formDate, VISITORS, dayStart, dayEnd],
    );
    await db.query(
      `insert into visit_requests (id, company_id, visitor_id, host, reason, status, confirmed)
       select gen_random_uuid(), company_id, id, 'Hôte', 'Réunion', 1, true from visitors`,
    );
    await db.query('analyze');
    const { rows } = await db.query<{ uidn: string }>('select uidn from visitors');
    return rows.map((r) => r.uidn);
  } finally {
    await db.end();
  }
}

interface Served {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * bench/serve.ts in its own process (the load generator does not share its event loop),
 * compiled and run as `npm start` runs Sésame (compiled-serve.ts).
 */
async function serve(mode: 'app' | 'bare', env: Record<string, string>): Promise<Served> {
  const [port] = await freePorts(1);
  const child: ChildProcess = fork(await compiledServe(), {
    execArgv: startFlags(),
    env: {
      ...process.env,
      ...env,
      BENCH_MODE: mode,
      PORT: String(port),
      LOG_LEVEL: 'silent',
      REPEAT_SCAN_WINDOW_SECONDS: '0',
      TRUST_PROXY: '1',
      JWT_SECRET,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  served.add(child);
  return {
    url: `http://127.0.0.1:${port}`,
    port: port!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      served.delete(child);
    },
  };
}
const served = new Set<ChildProcess>();

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: DESK.email, password: DESK.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(url: string, token: string | null, paths: string[], seconds: number) {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({ ...request, path: paths[i++ % paths.length]! }),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  } satisfies Figures;
}

async function variant(
  name: string,
  url: string,
  token: string | null,
  paths: string[],
): Promise<Figures & { name: string }> {
  await measure(url, token, paths, WARMUP_S);
  const figures = await measure(url, token, paths, DURATION_S);
  // A refused or failed request is not a code check: figures with them would mislead.
  if (figures.non2xx > 0 || figures.errors > 0)
    throw new Error(`${name}: ${figures.non2xx} answers not 2xx, ${figures.errors} errors`);
  console.log(
    `  ${name.padEnd(46)} ${figures.rps.toFixed(0).padStart(6)} req/s   p50 ${String(figures.p50).padStart(3)} ms   p99 ${String(figures.p99).padStart(4)} ms   non-2xx ${figures.non2xx}   errors ${figures.errors}`,
  );
  return { name, ...figures };
}

export async function run(): Promise<void> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'sesame-bench-cluster-'));
  const cleanup = async () => {
    for (const child of served) child.kill('SIGKILL');
    await stopAll();
    await dropDatabases().catch((error: Error) => console.error(error.message));
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  };
  stopAllOnSignal(cleanup);
  try {
    const name = await freshDatabase('sesame_bench_cluster');
    const direct = databaseUrl(name);
    console.log(`seeding ${VISITORS.toLocaleString('en')} confirmed visitors…`);
    const codes = await seed(direct);
    const bouncer = await startPgBouncer(path.join(tmp, 'pgbouncer'), name);
    const pooled = databaseUrl(name, bouncer);
    const checkPaths = codes.map((code) => `/api/get-qr-data/${code}`);
    const barePaths = codes.map((code) => `/bare/${code}`);
    const results: (Figures & { name: string })[] = [];
    console.log(
      `${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s each; code check = GET /api/get-qr-data/{uidn}`,
    );

    const bare = await serve('bare', { DATABASE_URL: direct });
    results.push(await variant('bare route, straight, PostgreSQL', bare.url, null, barePaths));
    await bare.stop();

    const alone = await serve('app', { DATABASE_URL: direct, DATA_DIR: path.join(tmp, 'a') });
    const token = await login(alone.url);
    results.push(await variant('code check, straight, PostgreSQL', alone.url, token, checkPaths));
    await alone.stop();

    // What going unnamed costs apart from the pooler's hop: the server believes it is behind
    // a pooler (DATABASE_LISTEN_URL another address of the same database) on a direct one.
    const unnamed = await serve('app', {
      DATABASE_URL: direct,
      DATABASE_LISTEN_URL: `${direct}?application_name=bench-listen`,
      DATA_DIR: path.join(tmp, 'u'),
    });
    results.push(
      await variant('code check, straight, PostgreSQL, unnamed', unnamed.url, token, checkPaths),
    );
    await unnamed.stop();

    const env = (i: number) => ({
      DATABASE_URL: pooled,
      DATABASE_LISTEN_URL: direct,
      DATA_DIR: path.join(tmp, `i${i}`),
    });
    const instances = [await serve('app', env(1)), await serve('app', env(2))];
    instances.push(await serve('app', env(3)));
    const first = instances[0]!;
    results.push(await variant('code check, straight, PgBouncer', first.url, token, checkPaths));

    let proxy: { url: string; proc: Proc } = await startHaproxy([
      first.port,
      first.port,
      first.port,
    ]);
    await waitUp(proxy.url);
    results.push(
      await variant('code check, haproxy → 1 instance, PgBouncer', proxy.url, token, checkPaths),
    );
    await stopProcess(proxy.proc);

    proxy = await startHaproxy([instances[0]!.port, instances[1]!.port, instances[2]!.port]);
    await waitUp(proxy.url);
    results.push(
      await variant('code check, haproxy → 3 instances, PgBouncer', proxy.url, token, checkPaths),
    );
    await stopProcess(proxy.proc);
    for (const instance of instances) await instance.stop();

    const base = results[0]!;
    console.log('\n  beside the bare route (throughput ratio, p99 ratio):');
    for (const r of results.slice(1))
      console.log(
        `    ${r.name.padEnd(46)} ${(r.rps / base.rps).toFixed(2)}   ${(r.p99 / Math.max(1, base.p99)).toFixed(2)}`,
      );
  } finally {
    await cleanup();
  }
}

/** haproxy has checked its instances (GET /api/ready) and sends requests on. */
async function waitUp(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await fetch(`${url}/api/health`)
      .then((r) => r.status)
      .catch(() => 0);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`haproxy at ${url} never answered 200`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
