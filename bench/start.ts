/**
 * `npm run bench -- start` (ARCHITECTURE §9 "Start", issue 19): how long `npm start`
 * takes until `/api/health` answers.
 *
 * - Restart on built sources: `npm start` in this tree when the build is up to date
 *   (the launcher says "no build"), on a data folder that already exists, on the
 *   embedded PGlite and on PostgreSQL (a database this benchmark creates and drops).
 *   Budget: 5 s.
 * - First start after `npm ci`: a fresh clone of this repository's HEAD in a temporary
 *   folder, `npm ci` there (timed apart), then `npm start` (both builds, a new embedded
 *   database). Budget: 60 s. `BENCH_START_FIRST=0` skips it (it takes a minute or two).
 *
 * The machine's load average is printed beside the figures: on a shared machine they
 * move with it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freshness, PARTS } from '../tools/build-stamp';
import { freePort, ROOT } from '../e2e/support/server';
import { onConnection } from '../apps/server/src/db/one-connection';

const RUNS = Number(process.env.BENCH_START_RUNS ?? 5);
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'sesame_bench_start';
const RESTART_BUDGET_MS = 5_000;
const FIRST_START_BUDGET_MS = 60_000;

async function load(): Promise<string> {
  const text = await readFile('/proc/loadavg', 'utf8').catch(() => '? ');
  return text.split(' ')[0]!;
}

interface Timed {
  ms: number;
  built: boolean;
  load: string;
}

/** `npm start` in `root` until /api/health answers 200; then SIGTERM and wait for the end. */
async function timedStart(root: string, env: Record<string, string>): Promise<Timed> {
  const port = await freePort();
  const startLoad = await load();
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ADMIN_PASSWORD: 'Bench-Start-Password-42',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 300_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start ended:\n${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((res) => res.ok)
        .catch(() => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`not serving after 300 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return {
      ms: performance.now() - started,
      built: output.includes('Sésame: building'),
      load: startLoad,
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function restarts(label: string, env: Record<string, string>): Promise<void> {
  // The first start creates the database (and builds if the tree changed): not counted.
  const first = await timedStart(ROOT, env);
  const times: Timed[] = [];
  for (let i = 0; i < RUNS; i++) {
    const stale = (await Promise.all(PARTS.map((part) => freshness(part)))).some(
      (state) => !state.upToDate,
    );
    // Someone changed a source meanwhile: build first, untimed; a restart is measured on built sources.
    if (stale) execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
    const run = await timedStart(ROOT, env);
    if (!run.built) times.push(run);
  }
  const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  console.log(
    `restart on built sources, ${label}: median ${s(median)} (${times.map((t) => `${s(t.ms)} @ load ${t.load}`).join(', ')}); ` +
      `first start on a new data folder ${s(first.ms)}${first.built ? ' (with a build)' : ''} — budget ${s(RESTART_BUDGET_MS)}: ${median < RESTART_BUDGET_MS ? 'ok' : 'OVER'}`,
  );
}

async function onServer(sql: string): Promise<void> {
  await onConnection(SERVER_URL, (client) => client.query(sql));
}

async function firstStart(): Promise<void> {
  const clone = await mkdtemp(path.join(os.tmpdir(), 'sesame-bench-start-'));
  try {
    execFileSync('git', ['clone', '--quiet', ROOT, clone], { stdio: 'inherit' });
    const ciLoad = await load();
    const ciStarted = performance.now();
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: clone,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const ciMs = performance.now() - ciStarted;
    const run = await timedStart(clone, { DATA_DIR: path.join(clone, 'data') });
    console.log(
      `first start after npm ci (fresh clone of HEAD, new embedded database): npm start ${s(run.ms)} @ load ${run.load} — budget ${s(FIRST_START_BUDGET_MS)}: ${run.ms < FIRST_START_BUDGET_MS ? 'ok' : 'OVER'}; ` +
        `npm ci before it ${s(ciMs)} @ load ${ciLoad}`,
    );
  } finally {
    await rm(clone, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  // Restarts are measured on built sources: build once if the tree changed.
  if ((await Promise.all(PARTS.map((part) => freshness(part)))).some((state) => !state.upToDate))
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-bench-start-data-'));
  try {
    await restarts('embedded PGlite', { DATA_DIR: dataDir });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }

  let postgres = true;
  try {
    await onServer(`drop database if exists ${DATABASE} with (force)`);
    await onServer(`create database ${DATABASE}`);
  } catch (error) {
    console.log(`PostgreSQL not reachable (${(error as Error).message}): skipped`);
    postgres = false;
  }
  if (postgres) {
    const url = new URL(SERVER_URL);
    url.pathname = `/${DATABASE}`;
    const pgData = await mkdtemp(path.join(os.tmpdir(), 'sesame-bench-start-pg-'));
    try {
      await restarts('PostgreSQL', { DATABASE_URL: url.toString(), DATA_DIR: pgData });
    } finally {
      await onServer(`drop database if exists ${DATABASE} with (force)`);
      await rm(pgData, { recursive: true, force: true });
    }
  }

  if (process.env.BENCH_START_FIRST !== '0') await firstStart();
}
