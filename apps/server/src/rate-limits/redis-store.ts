/**
 * @fastify/rate-limit's counters in Redis when REDIS_URL is set (issue 32): the plugin's own
 * Redis store (one Lua call per counted request, keys under `sesame-rl-` and the route),
 * shared by every instance on that Redis.
 *
 * The plugin would build that store from its `redis` option, but then a failed count passes
 * (`skipOnError`) without a word; built here, each failure reaches the outage log
 * (fail-open.ts). `?keyPrefix=` on REDIS_URL (an ioredis option) puts every key under a
 * prefix of its own, for deployments (or test runs) that share one Redis.
 */
import type { Redis } from 'ioredis';
import type { CounterOutage, CounterStore } from './fail-open';

export const REDIS_NAMESPACE = 'sesame-rl-';

/**
 * Redis is asked little and fast (one script, well under a millisecond): when it takes a
 * second, it is away, and the request goes on uncounted rather than waiting for it.
 */
const REDIS_WAIT_MS = 1_000;

export interface RedisCounters {
  client: Redis;
  /** The store for the plugin's global options; each route's is its `child`. */
  storeFor(options: { continueExceeding?: boolean; exponentialBackoff?: boolean }): CounterStore;
}

/**
 * Connects to `url` (waiting at most a second: a Redis that is down at start does not stop
 * the start; the client keeps reconnecting and counting resumes when it answers).
 */
export async function openRedisCounters(
  url: string,
  outage: CounterOutage,
): Promise<RedisCounters> {
  // Imported here, not at the top: ioredis costs about 25 MB that a server without
  // REDIS_URL should not pay (bench memory).
  const [{ Redis: RedisClient }, { default: RedisStore }] = await Promise.all([
    import('ioredis'),
    import('@fastify/rate-limit/store/RedisStore.js'),
  ]);
  const client = new RedisClient(url, {
    lazyConnect: true,
    connectTimeout: REDIS_WAIT_MS,
    commandTimeout: REDIS_WAIT_MS,
    // While disconnected a count fails at once (the request passes) instead of queueing
    // behind the reconnection, which would hold every limited request for as long.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
  });
  // Without a listener an 'error' event would end the process; each one is the outage's.
  client.on('error', (error: Error) => outage.failed(error, false));
  await client.connect().catch((error: unknown) => outage.failed(error, false));
  return {
    client,
    storeFor: (options) =>
      new RedisStore(
        options.continueExceeding === true,
        options.exponentialBackoff === true,
        client,
        REDIS_NAMESPACE,
      ),
  };
}
