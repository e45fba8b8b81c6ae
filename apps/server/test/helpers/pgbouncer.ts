/**
 * A real PgBouncer (Debian's /usr/sbin/pgbouncer) in front of the test PostgreSQL, started
 * by the test on a free port, in transaction mode by default: the pooler an operator puts
 * before a managed PostgreSQL, and the one that silently swallows LISTEN (issue 32).
 * The listener and the cluster tests share it.
 *
 * PgBouncer refuses to run as root: as root it drops to `nobody` (`-u`), after reading its
 * ini; it logs to its stderr (kept here), as `nobody` could not open a file in the test's
 * private temporary folder. Authentication is `any` with the user forced on the database
 * line (a test machine's PostgreSQL trusts local connections).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './smtp';

export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

export interface PgBouncerOptions {
  /** The PostgreSQL to pool: its URL (host, port and user are read from it). */
  target: string;
  /** `transaction` (the default), `session` or `statement`. */
  poolMode?: 'transaction' | 'session' | 'statement';
  /** More `[pgbouncer]` lines (`key = value`), after the helper's: they win. */
  settings?: Record<string, string | number>;
}

export interface TestPgBouncer {
  port: number;
  /** `target` with PgBouncer's address instead of PostgreSQL's (same user, same database). */
  url(database?: string): string;
  /** PgBouncer's own log, for a failing test's message. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

/** Starts PgBouncer and resolves once it accepts connections. */
export async function startPgBouncer(options: PgBouncerOptions): Promise<TestPgBouncer> {
  const target = new URL(options.target);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sesame-pgbouncer-'));
  const port = await freePort();
  const user = decodeURIComponent(target.username || 'postgres');
  const settings: Record<string, string | number> = {
    listen_addr: '127.0.0.1',
    listen_port: port,
    unix_socket_dir: '',
    pool_mode: options.poolMode ?? 'transaction',
    auth_type: 'any',
    // node-postgres sends these at connection start; PgBouncer refuses what it does not
    // know ("unsupported startup parameter") unless told to ignore it.
    ignore_startup_parameters:
      'extra_float_digits,options,application_name,statement_timeout,idle_in_transaction_session_timeout',
    max_client_conn: 200,
    default_pool_size: 10,
    ...options.settings,
  };
  const ini = [
    '[databases]',
    // Any database name, at PostgreSQL's address, as the forced user (auth_type = any).
    `* = host=${target.hostname} port=${target.port || 5432} user=${user}`,
    '[pgbouncer]',
    ...Object.entries(settings).map(([key, value]) => `${key} = ${value}`),
    '',
  ].join('\n');
  const iniPath = path.join(dir, 'pgbouncer.ini');
  await writeFile(iniPath, ini, { mode: 0o644 });

  const root = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER_BIN, [...(root ? ['-u', 'nobody'] : []), iniPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const readLog = async () => output;

  const cleanUp = () => rm(dir, { recursive: true, force: true });
  try {
    await acceptsConnections(port, exited);
  } catch (error) {
    child.kill('SIGKILL');
    const log = await readLog();
    await cleanUp();
    throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
  }

  return {
    port,
    url(database) {
      const through = new URL(options.target);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      if (database) through.pathname = `/${database}`;
      return through.toString();
    },
    log: readLog,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        // SIGTERM ends PgBouncer at once in 1.18 (SIGINT would wait for clients to leave).
        const ended = await Promise.race([
          exited.then(() => true),
          new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000).unref()),
        ]);
        if (!ended) child.kill('SIGKILL');
      }
      await cleanUp();
    },
  };
}

/** Polls the port until it accepts a TCP connection; fails if PgBouncer exits first. */
async function acceptsConnections(port: number, exited: Promise<number | null>): Promise<void> {
  let gone: number | null | undefined;
  void exited.then((code) => (gone = code));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (gone !== undefined) throw new Error(`PgBouncer exited (code ${gone}) before it listened`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`PgBouncer did not listen on ${port} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
