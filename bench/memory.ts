/**
 * `npm run bench -- memory` (ARCHITECTURE §9, issue 19): the memory of exactly the processes
 * `npm start` leaves running below npm's own — the compiled server, and any launcher still
 * alive beside it (`tools/start.ts` checks and builds, then ends: the script execs the server
 * in its place, so none is expected) — on the embedded PGlite and on PostgreSQL (a database
 * this benchmark creates and drops).
 *
 * For each database: a first start on a new data folder (it creates and migrates the database),
 * then a restart on that folder, idle, then after a burst of requests (signed-in list pages and
 * public pages). RSS is read from /proc after the process has settled. npm's own CLI process,
 * which waits for the script, is printed apart: it is npm's, not Sésame's.
 * Budgets (ARCHITECTURE §9): idle, under 200 MB on PGlite, under 150 MB on PostgreSQL, after a
 * restart; the figure after the burst is printed beside it, not judged. The server's peak
 * (VmHWM) during the first start is printed too, judged on PGlite: under 400 MB (issue 32).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_EMAIL, ADMIN_PASSWORD, freePort, ROOT } from '../e2e/support/server';
import { cpuDuring } from './cpu';
import { onConnection } from '../apps/server/src/db/one-connection';

const BUDGET_MB = { PGlite: 200, PostgreSQL: 150 };
/** A first start on a new embedded database fits a 512 MB machine (issue 32). */
const FIRST_START_PEAK_MB = 400;
const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'sesame_bench_memory';
const BURST = Number(process.env.BENCH_MEMORY_BURST ?? 2000);
const SETTLE_MS = 5000;

interface Proc {
  pid: number;
  ppid: number;
  rssMb: number;
  /** VmHWM: the most the process has held since it started. */
  peakMb: number;
  command: string;
}

async function processes(): Promise<Proc[]> {
  const all: Proc[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = await readFile(`/proc/${entry}/status`, 'utf8');
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replace(/\0/g, ' ').trim();
      all.push({
        pid: Number(entry),
        ppid: Number(/PPid:\s+(\d+)/.exec(status)?.[1] ?? 0),
        rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024,
        peakMb: Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024,
        command: cmdline,
      });
    } catch {
      // The process ended while it was read.
    }
  }
  return all;
}

/** `root` and every process below it. */
async function tree(root: number): Promise<Proc[]> {
  const all = await processes();
  const found = all.filter((p) => p.pid === root);
  for (let i = 0; i < found.length; i++) {
    found.push(...all.filter((p) => p.ppid === found[i]!.pid));
  }
  return found;
}

/** What the tree holds, as npm's CLI, the launcher and the server. */
async function measure(npmPid: number) {
  const procs = await tree(npmPid);
  const launcher = procs.find((p) => p.command.includes('tools/start.ts'));
  const server = procs.find((p) => p.command.includes('dist/main.js'));
  const npm = procs.find((p) => p.pid === npmPid);
  if (!server) throw new Error(`no server process below npm start: ${JSON.stringify(procs)}`);
  return {
    npm: npm?.rssMb ?? Number.NaN,
    launcher: launcher?.rssMb ?? 0,
    server: server.rssMb,
    serverPeak: server.peakMb,
    app: (launcher?.rssMb ?? 0) + server.rssMb,
  };
}

interface Started {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

async function npmStart(dataDir: string, env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start ended:\n${output}`);
    const ok = await fetch(`${url}/api/health`)
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`not serving after 300 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/** Signed-in list pages and public pages, eight at a time: what a desk's morning asks. */
async function burst(url: string): Promise<void> {
  const login = await fetch(`${url}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const { token } = (await login.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  const calls = [
    () => fetch(`${url}/api/company/demo`),
    () => fetch(`${url}/`),
    () => fetch(`${url}/api/requests/list`, { headers: auth }),
    () => fetch(`${url}/api/visitorlog`, { headers: auth }),
    () => fetch(`${url}/api/on-site`, { headers: auth }),
    () => fetch(`${url}/api/user/list`, { headers: auth }),
  ];
  let next = 0;
  const worker = async () => {
    while (next < BURST) {
      const call = calls[next++ % calls.length]!;
      await (await call()).arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

const fmt = (mb: number) => `${mb.toFixed(0)} MB`;

async function database(label: keyof typeof BUDGET_MB, env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-bench-memory-'));
  try {
    const first = await npmStart(dataDir, env);
    await settle();
    const atFirst = await measure(first.child.pid!);
    await first.stop();

    const again = await npmStart(dataDir, env);
    await settle();
    const idle = await measure(again.child.pid!);
    const server = (await tree(again.child.pid!)).find((p) => p.command.includes('dist/main.js'));
    const startedBurst = performance.now();
    const { cpu } = await cpuDuring(server!.pid, () => burst(again.url));
    const burstMs = performance.now() - startedBurst;
    const loadAverage = (await readFile('/proc/loadavg', 'utf8')).split(' ')[0];
    await settle();
    const busy = await measure(again.child.pid!);
    await again.stop();

    const budget = BUDGET_MB[label];
    const line = (name: string, m: Awaited<ReturnType<typeof measure>>) =>
      `  ${name.padEnd(30)} server ${fmt(m.server).padStart(7)} + launcher ${fmt(m.launcher).padStart(6)} = ${fmt(m.app).padStart(7)}   (npm's CLI ${fmt(m.npm)})`;
    console.log(`${label}:`);
    // The first start's peak (issue 32): a new embedded database once took PGlite's initdb,
    // 663–721 MB, where the data folder is now unpacked from a template (db/pglite-template.ts).
    console.log(
      `${line('first start (new database)', atFirst)}   server's peak ${fmt(atFirst.serverPeak)}${label === 'PGlite' ? ` — under ${FIRST_START_PEAK_MB} MB: ${atFirst.serverPeak < FIRST_START_PEAK_MB ? 'ok' : 'OVER'}` : ''}`,
    );
    console.log(line('restart, idle', idle));
    console.log(line(`restart, after ${BURST} requests`, busy));
    // CPU per request beside the memory: the node flags (package.json "start") and the
    // embedded database's settings trade one for the other (issue 19).
    console.log(
      `  CPU per request during the burst: server ${(cpu.serverMs / BURST).toFixed(2)} ms${label === 'PostgreSQL' ? `, PostgreSQL ${(cpu.postgresMs / BURST).toFixed(2)} ms` : ''} (${(burstMs / BURST).toFixed(2)} ms wall per request, 8 at a time; load ${loadAverage})`,
    );
    // The budget is idle memory (ARCHITECTURE §9); after the burst is printed to show the growth.
    console.log(
      `  idle after a restart, the app's processes: ${fmt(idle.app)} — budget ${budget} MB: ${idle.app < budget ? 'ok' : 'OVER'}; after the burst ${fmt(busy.app)}`,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function onServer(sql: string): Promise<void> {
  await onConnection(SERVER_URL, (client) => client.query(sql));
}

export async function run(): Promise<void> {
  // `npm start` builds what is out of date; built here first so no start below builds.
  execFileSync('npm', ['run', 'build', '--silent'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await database('PGlite', {});
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
    await database('PostgreSQL', { DATABASE_URL: url.toString() });
  } finally {
    await onServer(`drop database if exists ${DATABASE} with (force)`);
  }
}
