/**
 * Idle server memory: RSS of a started server after it settles, on the embedded
 * PGlite and on PostgreSQL (a database the benchmark creates and drops). The process
 * measured is the one `npm start` execs into: `node` on the compiled server
 * (apps/server/dist/main.js), which this benchmark builds first.
 * Budgets (ARCHITECTURE §9): under 200 MB on PGlite, under 150 MB on PostgreSQL.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { ROOT, startServer } from '../e2e/support/server';

const BUDGET_MB = { PGlite: 200, PostgreSQL: 150 };
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'sesame_bench_memory';

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function idleRss(env: Record<string, string>): Promise<number> {
  const server = await startServer(env);
  try {
    for (let i = 0; i < 20; i++) await fetch(`${server.url}/api/health`);
    await new Promise((r) => setTimeout(r, 5000));
    return await rssMb(server.pid);
  } finally {
    await server.stop();
  }
}

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function report(database: keyof typeof BUDGET_MB, mb: number): void {
  const budget = BUDGET_MB[database];
  console.log(
    `idle RSS (${database}, after start + 20 requests + 5 s): ${mb.toFixed(1)} MB — budget ${budget} MB: ${mb < budget ? 'ok' : 'OVER'}`,
  );
}

export async function run(): Promise<void> {
  // What `npm start` runs: the server compiled from this tree (the web app must be built too).
  execFileSync('npm', ['run', 'build', '--silent', '-w', '@sesame/server'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  report('PGlite', await idleRss({}));
  try {
    await onServer(`drop database if exists ${DATABASE} with (force)`);
    await onServer(`create database ${DATABASE}`);
  } catch (error) {
    console.log(`PostgreSQL not reachable (${(error as Error).message}): skipped`);
    return;
  }
  try {
    const url = new URL(SERVER_URL);
    url.pathname = `/${DATABASE}`;
    report('PostgreSQL', await idleRss({ DATABASE_URL: url.toString() }));
  } finally {
    await onServer(`drop database if exists ${DATABASE} with (force)`);
  }
}
