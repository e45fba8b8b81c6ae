/**
 * The server's Prometheus metrics (issue 32), one registry per app: tests build many apps
 * in one process, and prom-client's global registry would refuse the second app's metrics
 * (or mix their counts). Routes and jobs count through `app.metrics`; what lives elsewhere
 * (the outbox, the pool, the open live streams) is read when Prometheus scrapes.
 *
 * Labels never carry a raw URL: a route is its pattern (`/api/get-qr-data/:uidn`), so no
 * code, id or token reaches the metrics, and their number stays that of the routes.
 */
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import pg from 'pg';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { Database } from '../db/client';
import { poolStats } from '../db/pool-guard';
import { rowsOf } from '../db/rows';

/**
 * How long a scrape waits for the outbox's figures: under Prometheus's own scrape timeout
 * (10 s by default), so a slow database costs the scrape those gauges (scrape_ok 0), never
 * the whole answer. The statement itself ends at the database's statement timeout.
 */
export const OUTBOX_SCRAPE_LIMIT_MS = 2_000;

function withinScrapeTime<T>(work: Promise<T>, limitMs = OUTBOX_SCRAPE_LIMIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the outbox did not answer in time')), limitMs);
    timer.unref();
  });
  // The work's own failure after the limit is not an unhandled rejection.
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's metrics (app.ts): routes and jobs count through it; /metrics reads it. */
    metrics: AppMetrics;
  }
}

/** What the scrape reads from the rest of the app. */
export interface MetricSources {
  db: Database;
  /** The live screens (SSE streams) this instance holds open now. */
  liveStreams: () => number;
  /** The LISTEN connection hears the database (1) or not (0). */
  listening: () => boolean;
}

/** How a code check ended: its action or repeat, else what refused it. */
export type CheckOutcome =
  'check_in' | 'check_out' | 'repeat' | 'invalid' | 'denied' | 'unknown' | 'refused' | 'error';

export interface AppMetrics {
  /** Absent when METRICS_TOKEN is unset: nothing is counted that nobody may read. */
  registry?: Registry;
  /** onResponse: one request answered, by route pattern, method and status. */
  observeRequest(request: FastifyRequest, reply: FastifyReply): void;
  codeCheck(outcome: CheckOutcome): void;
  /** A retention sweep ended: `purged` when it ran the day's purge. */
  retentionSweep(outcome: 'purged' | 'nothing_due' | 'failed'): void;
}

/** Latency buckets (seconds): the code check answers in milliseconds, an export in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Without METRICS_TOKEN: every count is a no-op. */
const UNCOUNTED: AppMetrics = {
  observeRequest() {},
  codeCheck() {},
  retentionSweep() {},
};

/**
 * The app's metrics, or UNCOUNTED when `enabled` is false (METRICS_TOKEN unset). prom-client
 * is imported only then: about 14 MB a server nobody scrapes should not hold (bench memory).
 */
export async function createMetrics(sources: MetricSources, enabled: boolean): Promise<AppMetrics> {
  if (!enabled) return UNCOUNTED;
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } =
    await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'sesame_' });

  const requests = new Counter({
    name: 'sesame_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'sesame_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern and method.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const checks = new Counter({
    name: 'sesame_code_checks_total',
    help: 'Code checks (scans, manual validations, kiosk e-mails), by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const sweeps = new Counter({
    name: 'sesame_retention_sweeps_total',
    help: "Retention sweeps, by outcome: 'purged' when this instance ran the day's purge.",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const lastSweep = new Gauge({
    name: 'sesame_retention_sweep_last_success_timestamp_seconds',
    help: 'When a retention sweep last ended without error (Unix time); 0 before the first.',
    registers: [registry],
  });
  const lastPurge = new Gauge({
    name: 'sesame_retention_purge_last_success_timestamp_seconds',
    help: "When this instance last finished the day's retention purge (Unix time); 0 if never.",
    registers: [registry],
  });

  new Gauge({
    name: 'sesame_live_streams_open',
    help: 'Live screens (Server-Sent Events streams) open on this instance.',
    registers: [registry],
    collect() {
      this.set(sources.liveStreams());
    },
  });
  new Gauge({
    name: 'sesame_live_listener_up',
    help: 'The live feed hears the database (1) or not (0): see /api/ready.',
    registers: [registry],
    collect() {
      this.set(sources.listening() ? 1 : 0);
    },
  });

  // Before the outbox's gauges: the scrape's own outbox query is not counted as waiting.
  // drizzle's $client (the pool or PGlite) is not in the Database type.
  const client: unknown = (sources.db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    const pool = client;
    const slots = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    slots('sesame_db_pool_max', 'PostgreSQL pool: most connections.', () => poolStats(pool).max);
    slots('sesame_db_pool_open', 'PostgreSQL pool: connections open.', () => poolStats(pool).open);
    slots('sesame_db_pool_idle', 'PostgreSQL pool: connections idle.', () => poolStats(pool).idle);
    slots(
      'sesame_db_pool_waiting',
      'PostgreSQL pool: queries waiting for a connection.',
      () => poolStats(pool).waiting,
    );
  }

  // The outbox is the database's, shared by every instance: each scrape reads it, once
  // for its three figures (one statement on the pending rows' index). A scrape asks its
  // gauges together, so the three share the reading in flight.
  let reading: Promise<{ pending: number; age: number } | null> | undefined;
  const readOutbox = () =>
    (reading ??= withinScrapeTime(
      rowsOf(
        sources.db,
        z.object({ pending: z.number(), age: z.number() }),
        sql`select count(*)::int as pending,
                   coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as age
              from mail_outbox where status = 'pending'`,
      ),
    )
      .then(
        ([row]) => ({ pending: row?.pending ?? 0, age: Math.max(0, row?.age ?? 0) }),
        // A scrape still answers when the database is out or slow: the rest is worth having.
        () => null,
      )
      .finally(() => {
        reading = undefined;
      }));
  new Gauge({
    name: 'sesame_mail_outbox_pending',
    help: 'Mails waiting in the outbox (all instances).',
    registers: [registry],
    async collect() {
      const outbox = await readOutbox();
      if (outbox) this.set(outbox.pending);
    },
  });
  new Gauge({
    name: 'sesame_mail_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest mail waiting in the outbox; 0 when none waits.',
    registers: [registry],
    async collect() {
      const outbox = await readOutbox();
      if (outbox) this.set(outbox.age);
    },
  });
  new Gauge({
    name: 'sesame_mail_outbox_scrape_ok',
    help: 'The outbox figures of this scrape were read (1), or the database did not answer (0).',
    registers: [registry],
    async collect() {
      this.set((await readOutbox()) ? 1 : 0);
    },
  });

  return {
    registry,
    observeRequest(request, reply) {
      // The pattern the router matched; a URL no route matched is one label, not its text.
      const route = request.routeOptions.url ?? 'unmatched';
      const method = request.method;
      requests.inc({ method, route, status_code: String(reply.statusCode) });
      latency.observe({ method, route }, reply.elapsedTime / 1000);
    },
    codeCheck(outcome) {
      checks.inc({ outcome });
    },
    retentionSweep(outcome) {
      sweeps.inc({ outcome });
      if (outcome === 'failed') return;
      const now = Date.now() / 1000;
      lastSweep.set(now);
      if (outcome === 'purged') lastPurge.set(now);
    },
  };
}

/**
 * How a code check's failure is counted: 400 a malformed code, 401/403 a caller refused,
 * 404 an unknown code (or another company's), 409/422 a check refused; anything else an error.
 */
export function checkFailureOutcome(error: unknown): CheckOutcome {
  // HttpError and Fastify's errors carry a statusCode; others have none.
  const status = (error as { statusCode?: number } | null)?.statusCode;
  if (status === 400) return 'invalid';
  if (status === 401 || status === 403) return 'denied';
  if (status === 404) return 'unknown';
  if (status === 409 || status === 422) return 'refused';
  return 'error';
}
