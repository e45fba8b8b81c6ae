/**
 * Open-loop load: requests leave at a fixed rate whatever the server answers, and
 * each latency counts from the instant its request was due, not from when it left.
 * A closed loop (autocannon's connections) stops sending while the server is slow,
 * so its percentiles hide the queue a desk would meet at that moment (coordinated
 * omission); this one does not.
 */
import http from 'node:http';

export interface OpenLoopResult {
  rate: number;
  sent: number;
  ok: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

/** The value at quantile `q` of sorted numbers. */
function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

export async function openLoop(options: {
  url: string;
  paths: string[];
  /** Requests per second. */
  rate: number;
  durationS: number;
  token?: string | null;
}): Promise<OpenLoopResult> {
  const { rate, durationS } = options;
  const target = new URL(options.url);
  // Enough sockets that a slow moment queues at the server, not in this process.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const headers = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const total = Math.round(rate * durationS);
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;

  const send = (due: number, path: string) =>
    new Promise<void>((resolve) => {
      const request = http.request(
        { host: target.hostname, port: target.port, path, method: 'GET', agent, headers },
        (response) => {
          response.resume();
          response.on('end', () => {
            if (response.statusCode && response.statusCode < 300)
              latencies.push(performance.now() - due);
            else failed++;
            resolve();
          });
        },
      );
      request.on('error', () => {
        failed++;
        resolve();
      });
      request.end();
    });

  const pending: Promise<void>[] = [];
  const started = performance.now();
  await new Promise<void>((resolve) => {
    // Every millisecond, send what has fallen due since: timers are coarse, the schedule is not.
    const timer = setInterval(() => {
      const now = performance.now();
      while (next < total && started + (next * 1000) / rate <= now) {
        const due = started + (next * 1000) / rate;
        pending.push(send(due, options.paths[next % options.paths.length]!));
        next++;
      }
      if (next >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rate,
    sent: total,
    ok: latencies.length,
    failed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1) ?? Number.NaN,
  };
}
