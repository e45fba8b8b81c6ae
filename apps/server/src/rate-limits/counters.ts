/**
 * Where the per-route rate limits count (issue 32), chosen once at start:
 * - REDIS_URL set: in Redis (redis-store.ts), shared by every instance using it;
 * - else on PostgreSQL: in the `rate_limit_hits` table (postgres-store.ts), shared by every
 *   instance on the database;
 * - else (PGlite, one process by construction: data-lock.ts): in the process's memory, the
 *   plugin's own store, as fast as a counter gets.
 * The login throttle is apart: it is always in the database (auth/login-throttle.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { poolOf } from '../db/pool-of';
import { CounterOutage, failingOpen, type CounterStore } from './fail-open';
import { postgresStore, type StoreOptions } from './postgres-store';
import { openRedisCounters } from './redis-store';

export type CounterKind = 'redis' | 'postgres' | 'memory';

export interface RateLimitCounters {
  kind: CounterKind;
  /** For @fastify/rate-limit's options: its `store` (absent: in memory) and `skipOnError`. */
  pluginOptions: { store?: FastifyRateLimitStoreCtor; skipOnError: boolean };
  close(): Promise<void>;
}

/** The plugin constructs its `store` option with its global options: a class over `make`. */
function storeClass(make: (options: StoreOptions) => CounterStore): FastifyRateLimitStoreCtor {
  // The constructor returns the store object, which the plugin's constructor type cannot say.
  return class SharedRateLimitStore {
    constructor(options: StoreOptions) {
      // The plugin only calls incr and child: the object made stands in for the instance.
      return make(options);
    }
  } as unknown as FastifyRateLimitStoreCtor;
}

export async function openRateLimitCounters(
  config: Pick<Config, 'redisUrl'>,
  db: Database,
  log: FastifyBaseLogger,
): Promise<RateLimitCounters> {
  if (config.redisUrl) {
    const outage = new CounterOutage('Redis', log);
    const redis = await openRedisCounters(config.redisUrl, outage);
    return {
      kind: 'redis',
      // Fail open (fail-open.ts says why).
      pluginOptions: {
        store: storeClass((options) => failingOpen(redis.storeFor(options), outage)),
        skipOnError: true,
      },
      close: async () => {
        // Nothing is pending worth waiting for: every count has been answered or given up.
        redis.client.disconnect();
      },
    };
  }
  if (poolOf(db)) {
    const outage = new CounterOutage('PostgreSQL', log);
    return {
      kind: 'postgres',
      pluginOptions: {
        store: storeClass((options) => failingOpen(postgresStore(db, options), outage)),
        skipOnError: true,
      },
      close: async () => {},
    };
  }
  return { kind: 'memory', pluginOptions: { skipOnError: false }, close: async () => {} };
}
