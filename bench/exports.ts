/**
 * CSV exports in constant memory (issue 12 §9): twenty concurrent exports of the
 * visitor log at its largest (EXPORT_MAX_ROWS rows) must not grow the server the way
 * they did when every export was built in memory (313 MB → 1.3 GB). The server runs
 * as `npm start` runs it, on PostgreSQL (a database this benchmark creates and drops);
 * its RSS is sampled every 50 ms while the exports stream.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { ADMIN_EMAIL, ADMIN_PASSWORD, ROOT, startServer } from '../e2e/support/server';
import { databaseOn, onConnection } from '../apps/server/src/db/one-connection';

const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'sesame_bench_exports';
const CONCURRENT = 20;
const VISITORS = 2_500;
const CHECKS_PER_VISITOR = 20; // 50,000 rows: the export's cap

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function admin(sql: string, url = SERVER_URL): Promise<void> {
  await onConnection(url, (client) => client.query(sql));
}

export async function run(): Promise<void> {
  execFileSync('npm', ['run', 'build', '--silent'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await admin(`drop database if exists ${DATABASE} with (force)`);
  await admin(`create database ${DATABASE}`);
  const databaseUrl = databaseOn(SERVER_URL, DATABASE);
  const server = await startServer({ DATABASE_URL: databaseUrl });
  try {
    await admin(
      `insert into visitors (id, company_id, site_id, uidn, firstname, lastname, email, contact, id_number, organisation_name)
       select gen_random_uuid(), c.id,
              (select s.id from sites s where s.company_id = c.id order by s.created_at limit 1),
              'BENCH-' || g, 'Prénom ' || g, 'Nom ' || g, 'v' || g || '@bench.test',
              '0102030405', 'CI-' || g, 'Acme'
       from companies c, generate_series(1, ${VISITORS}) g where c.slug = 'demo';
       insert into visitor_checks (id, company_id, site_id, visitor_id, check_in_at, check_out_at, check_in_method, check_out_method)
       select gen_random_uuid(), v.company_id, v.site_id, v.id, now() - make_interval(hours => g),
              now() - make_interval(hours => g) + interval '30 minutes', 'scan', 'scan'
       from visitors v, generate_series(1, ${CHECKS_PER_VISITOR}) g where v.uidn like 'BENCH-%';
       analyze;`,
      databaseUrl,
    );
    const login = await fetch(`${server.url}/api/login_check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    for (let i = 0; i < 20; i++) await fetch(`${server.url}/api/health`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const before = await rssMb(server.pid);

    let peak = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await rssMb(server.pid));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const started = performance.now();
    const sizes = await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        const res = await fetch(`${server.url}/api/visitorlog/export`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (!res.ok) throw new Error(`export answered ${res.status}`);
        const text = await res.text();
        return { bytes: text.length, lines: text.split('\n').filter(Boolean).length - 1 };
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    if (server.output().includes('Error')) console.log(server.output().slice(-2000));
    sampling = false;
    await sampler;
    const rows = sizes.map((s) => s.lines);
    console.log(
      `${CONCURRENT} concurrent CSV exports of ${Math.min(...rows).toLocaleString('en')}–${Math.max(...rows).toLocaleString('en')} rows ` +
        `(${(sizes.reduce((a, s) => a + s.bytes, 0) / 1e6).toFixed(1)} MB in all) in ${seconds.toFixed(1)} s`,
    );
    console.log(
      `server RSS: ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at the peak (+${(peak - before).toFixed(0)} MB); ` +
        'before streaming the same load took it from 313 MB to 1.3 GB',
    );
  } finally {
    await server.stop();
    await admin(`drop database if exists ${DATABASE} with (force)`);
  }
}
