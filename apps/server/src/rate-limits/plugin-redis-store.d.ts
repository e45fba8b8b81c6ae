/**
 * The Redis store @fastify/rate-limit ships (its Lua counter), which the plugin builds only
 * from its own `redis` option; redis-store.ts builds it itself to report failures
 * (fail-open.ts). The package declares no types for the file.
 */
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';

  const RedisStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    redis: Redis,
    key?: string,
  ) => FastifyRateLimitStore;
  export default RedisStore;
}
