/**
 * A real IPP Everywhere printer for tests: CUPS's `ippeveprinter` (Debian's cups-ipp-utils) on a
 * free local port, accepting PDF, keeping every job it receives as a file in its spool folder
 * (`-k`), so a test reads back exactly the document the server sent.
 *
 * ippeveprinter will not start without a D-Bus system bus to reach Avahi ("Unable to initialize
 * DNS-SD."), even with DNS-SD turned off (`-r off`). Rather than depend on the machine's buses,
 * each printer gets its own private `dbus-daemon` (its address given to ippeveprinter as
 * DBUS_SYSTEM_BUS_ADDRESS): Avahi's client accepts a bus without Avahi on it and the printer runs
 * without advertising itself. Both processes are stopped by `stop()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './smtp';

export interface TestIppPrinter {
  /** `ipp://127.0.0.1:{port}/ipp/print`, the printer's URI. */
  url: string;
  port: number;
  /** The folder where each received job is kept (`{job-id}-{job-name}.pdf`). */
  jobsDir: string;
  /** The PDF files received so far, full paths, in job order. */
  jobs(): Promise<string[]>;
  /** Polls until at least `count` jobs are kept (no fixed wait). */
  waitForJobs(count?: number, timeoutMs?: number): Promise<string[]>;
  stop(): Promise<void>;
}

const SEARCH_DIRS = ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin'];

/** The full path of a program, looking in the sbin folders a non-root PATH may lack. */
export function findProgram(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...SEARCH_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Whether this machine can run the test printer (ippeveprinter and dbus-daemon installed). */
export function ippPrinterAvailable(): boolean {
  return findProgram('ippeveprinter') !== null && findProgram('dbus-daemon') !== null;
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts a printer named `name` that accepts application/pdf and keeps its jobs. */
export async function startIppPrinter(name = 'Sesame Badge Test'): Promise<TestIppPrinter> {
  const ippeveprinter = findProgram('ippeveprinter');
  const noop = findProgram('true') ?? '/bin/true';
  const dbusDaemon = findProgram('dbus-daemon');
  if (!ippeveprinter || !dbusDaemon)
    throw new Error(
      'ippeveprinter / dbus-daemon missing: apt-get install cups-ipp-utils dbus-daemon',
    );

  const root = await mkdtemp(path.join(os.tmpdir(), 'sesame-ipp-'));
  const jobsDir = path.join(root, 'jobs');
  const busPath = path.join(root, 'bus');
  await mkdir(jobsDir);

  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 50) output.shift();
  };

  const bus = spawn(dbusDaemon, ['--session', `--address=unix:path=${busPath}`, '--nofork'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  bus.stderr?.on('data', keep);
  let printer: ChildProcess | null = null;
  const stopAll = async () => {
    if (printer) await stopProcess(printer);
    await stopProcess(bus);
  };

  try {
    await waitFor(async () => existsSync(busPath), 'the private D-Bus did not start', 10_000);
    const port = await freePort();
    printer = spawn(
      ippeveprinter,
      [
        '-k',
        '-d',
        jobsDir,
        '-p',
        String(port),
        '-n',
        'localhost',
        '-f',
        'application/pdf',
        '-r',
        'off',
        // "Prints" each job at once (a no-op command): without one it simulates 5 to 15 s of
        // printing per job and answers server-error-busy meanwhile. `-k` still keeps the file.
        '-c',
        noop,
        name,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, DBUS_SYSTEM_BUS_ADDRESS: `unix:path=${busPath}` },
      },
    );
    printer.stdout?.on('data', keep);
    printer.stderr?.on('data', keep);
    const started = printer;
    await waitFor(
      async () => {
        if (started.exitCode !== null)
          throw new Error(`ippeveprinter exited (${started.exitCode}): ${output.join('')}`);
        return canConnect(port);
      },
      'ippeveprinter did not answer',
      15_000,
    );

    const jobs = async () => {
      const names = (await readdir(jobsDir)).filter((file) => file.toLowerCase().endsWith('.pdf'));
      const jobId = (file: string) => Number.parseInt(file, 10) || 0;
      return names.sort((a, b) => jobId(a) - jobId(b)).map((file) => path.join(jobsDir, file));
    };

    return {
      url: `ipp://127.0.0.1:${port}/ipp/print`,
      port,
      jobsDir,
      jobs,
      async waitForJobs(count = 1, timeoutMs = 15_000) {
        let found: string[] = [];
        await waitFor(
          async () => {
            found = await jobs();
            return found.length >= count;
          },
          `IPP jobs kept: fewer than ${count}`,
          timeoutMs,
        );
        return found;
      },
      async stop() {
        await stopAll();
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopAll();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}
