/**
 * Where the CPU goes during a load phase, read from /proc (Linux): the measured
 * server, every PostgreSQL process, and this process (the load generator). On a
 * 2-core machine the three share the cores, so the figures per request say which
 * one a throughput gap comes from.
 */
import { readdir, readFile } from 'node:fs/promises';

/** Linux reports process times in clock ticks of 10 ms (USER_HZ = 100). */
const MS_PER_TICK = 10;

async function cpuMsOf(pid: number): Promise<number> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return 0; // the process has exited
  }
}

async function postgresPids(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const comm = await readFile(`/proc/${entry}/comm`, 'utf8').catch(() => '');
    if (comm.trim() === 'postgres') pids.push(Number(entry));
  }
  return pids;
}

export interface CpuSample {
  serverMs: number;
  postgresMs: number;
  loadMs: number;
  /**
   * The server's read and write system calls (/proc/PID/io: a socket's writev is one):
   * on a virtual machine each costs far more than its bytes, and a route that writes
   * twice per request pays it twice.
   */
  serverReads: number;
  serverWrites: number;
}

/** The read and write system calls a process made so far (0 when it is gone). */
async function syscallsOf(pid: number): Promise<{ reads: number; writes: number }> {
  try {
    const io = await readFile(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) =>
      Number(io.match(new RegExp(`^${name}: (\\d+)$`, 'm'))?.[1] ?? 0);
    return { reads: field('syscr'), writes: field('syscw') };
  } catch {
    return { reads: 0, writes: 0 };
  }
}

interface Snapshot {
  serverMs: number;
  serverIo: { reads: number; writes: number };
  /** Per PostgreSQL process: backends come and go between phases. */
  postgresMs: Map<number, number>;
  loadMs: number;
}

async function snapshot(serverPid: number): Promise<Snapshot> {
  const pids = await postgresPids();
  const times = await Promise.all(pids.map(cpuMsOf));
  const own = process.cpuUsage();
  return {
    serverMs: await cpuMsOf(serverPid),
    serverIo: await syscallsOf(serverPid),
    postgresMs: new Map(pids.map((pid, i) => [pid, times[i]!])),
    loadMs: (own.user + own.system) / 1000,
  };
}

/** Runs `work` and returns the CPU each party spent on it. */
export async function cpuDuring<T>(
  serverPid: number,
  work: () => Promise<T>,
): Promise<{ result: T; cpu: CpuSample }> {
  const before = await snapshot(serverPid);
  const result = await work();
  const after = await snapshot(serverPid);
  let postgresMs = 0;
  // A process that started during the phase counts from zero; one that ended is lost (idle ones).
  for (const [pid, ms] of after.postgresMs) postgresMs += ms - (before.postgresMs.get(pid) ?? 0);
  return {
    result,
    cpu: {
      serverMs: after.serverMs - before.serverMs,
      postgresMs,
      loadMs: after.loadMs - before.loadMs,
      serverReads: after.serverIo.reads - before.serverIo.reads,
      serverWrites: after.serverIo.writes - before.serverIo.writes,
    },
  };
}
