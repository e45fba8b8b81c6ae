/**
 * @fastify/rate-limit's counters in PostgreSQL (issue 32): every instance on one database
 * counts in the same `rate_limit_hits` row, so three instances enforce a route's limit
 * once, not three times over.
 *
 * One statement per counted request: an upsert that adds the hit, or opens a new window
 * when the row's has ended, and returns the count and what is left of the window. Time is
 * the database's (`now()`), never an instance's clock, so instances whose clocks disagree
 * still agree on the windows. The row lock of the upsert orders concurrent hits on one key.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { rawPrepared } from '../db/raw-prepared';
import type { CounterStore } from './fail-open';

/** The route part of a key: two routes (or one route's GET and HEAD) never share a row. */
export function routePrefix(routeOptions: unknown): string {
  // The plugin passes a route's options as unknown; routeInfo is read when present.
  const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
  // `app.createRateLimit` (the event registrations) names no route: its key generator
  // names its own counter.
  if (!route?.url) return 'limiter|';
  return `${[route.method].flat().join(',')} ${String(route.url)}|`;
}

/**
 * Prepared by name, planned once per connection (pgbench on this machine: about 0.3 ms less
 * per count than parsed each time). Behind a pooler in transaction mode the pool sends it
 * unnamed instead (db/client.ts, withoutStatementNames).
 */
const hit = rawPrepared(
  'rate_limit_hit',
  z.object({ hits: z.number(), ttl_ms: z.number() }),
  sql`insert into rate_limit_hits as h (key, hits, resets_at)
      values (${sql.placeholder('key')}, 1,
              now() + ${sql.placeholder('windowMs')}::float8 * interval '1 millisecond')
      on conflict (key) do update set
        hits = case when h.resets_at <= now() then 1 else h.hits + 1 end,
        resets_at = case when h.resets_at <= now() then excluded.resets_at else h.resets_at end
      returning h.hits, ceil(extract(epoch from h.resets_at - now()) * 1000)::float8 as ttl_ms`,
);

/**
 * Options the plugin may hand a store, of which these counters keep to the fixed window.
 * (Sésame's routes use neither; a route that asked would otherwise be silently ignored.)
 */
export interface StoreOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}

function refuseUnsupported(options: StoreOptions): void {
  if (options.continueExceeding || options.exponentialBackoff)
    throw new Error(
      'The shared rate-limit counters keep a fixed window: continueExceeding and exponentialBackoff are not supported',
    );
}

/**
 * A store counting in `db` (a PostgreSQL pool, not PGlite: see counters.ts), for the
 * plugin's global options; each route's is its `child`, under the route's prefix.
 */
export function postgresStore(db: Database, options: StoreOptions, prefix = ''): CounterStore {
  refuseUnsupported(options);
  return {
    incr(key, callback, timeWindow) {
      hit(db, { key: `${prefix}${key}`, windowMs: timeWindow }).then(
        ([row]) => {
          if (!row) return callback(new Error('the rate-limit upsert returned no row'));
          callback(null, { current: row.hits, ttl: Math.max(0, row.ttl_ms) });
        },
        (error: Error) => callback(error),
      );
    },
    child(routeOptions) {
      // The plugin hands a route's rate-limit options, which StoreOptions describes.
      return postgresStore(db, routeOptions as StoreOptions, prefix + routePrefix(routeOptions));
    },
  };
}
