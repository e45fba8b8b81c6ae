/**
 * The pieces of a several-instance deployment, started for `npm run test:cluster` and
 * `npm run bench -- cluster` from Debian's packages and npm: a fresh database on the
 * machine's PostgreSQL, PgBouncer in transaction mode and haproxy (each with its file
 * from deploy/, as is: only ports, paths and authentication are given to them), s3rver,
 * and compiled Sésame servers. Every process started is remembered and ended by
 * `stopAll()`, every database created is dropped by `dropDatabases()`: the callers run
 * both in a `finally`, and a Ctrl-C or SIGTERM runs them too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { freshness } from '../../../tools/build-stamp';
import { freePort } from '../test/helpers/smtp';
import { onConnection } from '../src/db/one-connection';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
const COMPILED_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
export const HAPROXY_CFG = path.join(ROOT, 'deploy/haproxy.cfg');
export const PGBOUNCER_INI = path.join(ROOT, 'deploy/pgbouncer.ini');
const HAPROXY = process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy';
const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

/** The PostgreSQL server the databases are created on (the machine's, trust on 127.0.0.1). */
export const SERVER_URL =
  process.env.CLUSTER_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ── Processes ────────────────────────────────────────────────────────────────

export interface Proc {
  name: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  alive(): boolean;
}

const running = new Set<Proc>();

/** util-linux's setpriv (Debian's, always there on Linux), else none (children may outlive a killed runner). */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((candidate) => existsSync(candidate));

export function startProcess(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Proc {
  // Each child dies with the runner, even a runner killed with SIGKILL (which runs no
  // handler): util-linux's setpriv sets the child's parent-death signal, then runs it.
  const [file, argv] = SETPRIV
    ? [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]]
    : [command, args];
  const child = spawn(file, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // The last 20 kB: enough to say why something failed.
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (error) => {
      keep(Buffer.from(String(error)));
      resolve(-1);
    });
  });
  const proc: Proc = {
    name,
    child,
    output: () => output,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
  running.add(proc);
  void exited.then(() => running.delete(proc));
  return proc;
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcess(proc: Proc, graceMs = 10_000): Promise<void> {
  if (!proc.alive()) return;
  proc.child.kill('SIGTERM');
  await Promise.race([proc.exited, sleep(graceMs)]);
  if (proc.alive()) {
    proc.child.kill('SIGKILL');
    await proc.exited;
  }
}

/** Ends every process still running (servers first, then what they lean on). */
export async function stopAll(): Promise<void> {
  for (const proc of [...running]) proc.child.kill('SIGKILL');
  await Promise.race([Promise.all([...running].map((p) => p.exited)), sleep(5_000)]);
}

/** Kills what is left if the runner itself is stopped (Ctrl-C, CI's timeout). */
export function stopAllOnSignal(cleanup: () => Promise<void>): void {
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: ending the cluster's processes and dropping its database`);
    void cleanup().finally(() => process.exit(130));
  };
  // A promise nobody awaited that fails must not end the run before the cleanup.
  process.on('unhandledRejection', (error) => {
    console.error('cluster: unexpected failure', error);
  });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // A crash of the runner: at least the children go (a SIGKILL of the runner: setpriv's
  // parent-death signal, startProcess).
  process.once('exit', () => {
    for (const proc of running) proc.child.kill('SIGKILL');
  });
}

/** A probe's failure meaning "it will never come": `until` stops at once. */
export class GaveUp extends Error {}

export async function until<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  ms: number,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch((error: unknown) => {
      if (error instanceof GaveUp) throw error;
      return undefined;
    });
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

async function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits for a port to accept connections, failing early (with its output) if `proc` exits. */
export async function listening(proc: Proc, port: number, ms = 20_000): Promise<void> {
  await until(
    async () => {
      if (!proc.alive()) throw new GaveUp(`${proc.name} exited`);
      return (await portOpen(port)) ? true : undefined;
    },
    `${proc.name} on port ${port}`,
    ms,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${proc.name}'s output:\n${proc.output().slice(-3000)}`);
  });
}

/** `count` distinct free ports (a port just released may be handed out again). */
export async function freePorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  return ports;
}

// ── The server's build ───────────────────────────────────────────────────────

/** The compiled server, built first when missing or older than its sources. */
export async function compiledServer(): Promise<string[]> {
  const fresh = await freshness('server');
  if (!fresh.upToDate) {
    console.log(`cluster: building the server (${fresh.reason})`);
    const { buildParts } = await import('../../../tools/build');
    await buildParts(['server']);
  }
  // Node's flags from the root `start` script itself, so the two cannot drift apart.
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const flags = /exec node (.*) apps\/server\/dist\/main\.js/.exec(manifest.scripts.start)?.[1];
  if (!flags) throw new Error('package.json: the start script no longer execs the compiled server');
  return [...flags.split(' ').filter(Boolean), COMPILED_MAIN];
}

// ── PostgreSQL ───────────────────────────────────────────────────────────────

export function databaseUrl(name: string, port?: number): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  if (port) {
    url.hostname = '127.0.0.1';
    url.port = String(port);
  }
  return url.toString();
}

const admin = <T>(work: (client: pg.Client) => Promise<T>) => onConnection(SERVER_URL, work);

const createdDatabases: string[] = [];

/**
 * A new database with the timeouts deploy/pgbouncer.ini asks an operator to set on the
 * database (the pooler drops the ones the server sends at connection start).
 */
export async function freshDatabase(prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await admin(async (client) => {
    await client.query(`CREATE DATABASE ${name}`);
    createdDatabases.push(name);
    await client.query(`ALTER DATABASE ${name} SET statement_timeout = '5s'`);
    await client.query(`ALTER DATABASE ${name} SET idle_in_transaction_session_timeout = '10s'`);
  });
  return name;
}

export async function dropDatabases(): Promise<void> {
  if (createdDatabases.length === 0) return;
  await admin(async (client) => {
    for (const name of createdDatabases.splice(0))
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error: Error) => {
        console.error(`cluster: could not drop database ${name}: ${error.message}`);
      });
  });
}

// ── PgBouncer ────────────────────────────────────────────────────────────────

/**
 * PgBouncer with deploy/pgbouncer.ini as it is: a small file of the test's includes it,
 * after naming the test's database, and overrides what differs here (port, files, trust
 * authentication: the machine's PostgreSQL trusts 127.0.0.1). Settings after the
 * %include stay in its [pgbouncer] section: opening that section again would reset them.
 * PgBouncer refuses to run as root: as root it is told to switch to nobody.
 */
export async function startPgBouncer(dir: string, database: string): Promise<number> {
  await mkdir(dir, { recursive: true });
  // nobody reads the files (mkdtemp folders are private to their owner).
  chmodSync(dir, 0o755);
  const [port] = await freePorts(1);
  const target = new URL(SERVER_URL);
  const users = path.join(dir, 'userlist.txt');
  const ini = path.join(dir, 'pgbouncer.ini');
  await writeFile(users, `"${decodeURIComponent(target.username || 'postgres')}" ""\n`);
  await writeFile(
    ini,
    [
      '[databases]',
      `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database}`,
      `%include ${PGBOUNCER_INI}`,
      `listen_port = ${port}`,
      'auth_type = trust',
      `auth_file = ${users}`,
      'logfile =',
      'pidfile =',
      '',
    ].join('\n'),
  );
  chmodSync(users, 0o644);
  chmodSync(ini, 0o644);
  if (!existsSync(PGBOUNCER)) throw new Error(`${PGBOUNCER} is missing: apt-get install pgbouncer`);
  const asRoot = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];
  const proc = startProcess('pgbouncer', PGBOUNCER, [...asRoot, ini]);
  await listening(proc, port!);
  return port!;
}

// ── s3rver ───────────────────────────────────────────────────────────────────

export const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

/** s3rver (npm) in its own process with one bucket; answers the STORAGE_URL for it. */
export async function startS3rver(dir: string, bucket: string): Promise<string> {
  const [port] = await freePorts(1);
  const bin = path.join(ROOT, 'node_modules/s3rver/bin/s3rver.js');
  const proc = startProcess('s3rver', process.execPath, [
    bin,
    '-d',
    dir,
    '-a',
    '127.0.0.1',
    '-p',
    String(port),
    '-s',
    '--configure-bucket',
    bucket,
  ]);
  await listening(proc, port!);
  return `s3://${bucket}?endpoint=http://127.0.0.1:${port}&region=us-east-1&path_style=true`;
}

// ── Sésame ───────────────────────────────────────────────────────────────────

export interface Instance {
  name: string;
  port: number;
  url: string;
  proc: Proc;
  env: Record<string, string>;
}

export function startInstance(
  command: string[],
  name: string,
  port: number,
  env: Record<string, string>,
): Instance {
  const full = { ...env, PORT: String(port), HOST: '127.0.0.1' };
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    env: full,
    proc: startProcess(name, process.execPath, command, full),
  };
}

/** Waits until the instance answers `path` with 200 (its output when it exits or never does). */
export async function instanceUp(
  instance: Instance,
  probePath = '/api/health',
  ms = 90_000,
): Promise<void> {
  await until(
    async () => {
      if (!instance.proc.alive()) throw new GaveUp(`${instance.name} exited`);
      const res = await fetch(`${instance.url}${probePath}`, {
        signal: AbortSignal.timeout(2000),
      });
      await res.arrayBuffer();
      return res.status === 200 ? true : undefined;
    },
    `${instance.name} to answer ${probePath}`,
    ms,
  ).catch((error: Error) => {
    throw new Error(
      `${error.message}\n${instance.name}'s output:\n${instance.proc.output().slice(-3000)}`,
    );
  });
}

// ── haproxy ──────────────────────────────────────────────────────────────────

/** haproxy with deploy/haproxy.cfg as it is, its addresses from the environment. */
export async function startHaproxy(
  servers: [number, number, number],
): Promise<{ url: string; port: number; proc: Proc }> {
  if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: apt-get install haproxy`);
  const [port, stats] = await freePorts(2);
  const proc = startProcess('haproxy', HAPROXY, ['-f', HAPROXY_CFG, '-db'], {
    SESAME_BIND: `127.0.0.1:${port}`,
    SESAME_1: `127.0.0.1:${servers[0]}`,
    SESAME_2: `127.0.0.1:${servers[1]}`,
    SESAME_3: `127.0.0.1:${servers[2]}`,
    HAPROXY_STATS_BIND: `127.0.0.1:${stats}`,
  });
  await listening(proc, port!);
  return { url: `http://127.0.0.1:${port}`, port: port!, proc };
}
