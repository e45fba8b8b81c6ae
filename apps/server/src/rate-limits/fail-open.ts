/**
 * What a shared counter does when its store does not answer: the request goes through
 * uncounted (the plugin's `skipOnError`), and the log says so once per outage.
 *
 * Why open rather than closed: the limits guard the public pages and the kiosks against a
 * flood, and a flood is rarer than a Redis restart or a database failover. Failing closed
 * would turn every such blip into a front desk that cannot check anyone in; failing open
 * only loosens the limits while the store is away. With the PostgreSQL store the route
 * itself needs the database, so an outage there fails the request anyway (503), with the
 * limit or without it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';

export type CounterStore = FastifyRateLimitStore;

/** Where the counters live, as the log names it. */
export type CounterPlace = 'PostgreSQL' | 'Redis';

/**
 * One store's outage, logged once when it begins (a warning) and once when it ends (with
 * the number of requests that went through uncounted meanwhile), never once per request:
 * a busy desk during a Redis restart would otherwise write thousands of identical lines.
 */
export class CounterOutage {
  private since: Date | null = null;
  private uncounted = 0;

  constructor(
    private readonly place: CounterPlace,
    private readonly log: FastifyBaseLogger,
  ) {}

  get down(): boolean {
    return this.since !== null;
  }

  /** A count failed (or the connection dropped): the request passes uncounted. */
  failed(error: unknown, countedRequest = true): void {
    if (countedRequest) this.uncounted += 1;
    if (this.since) return;
    this.since = new Date();
    this.log.warn(
      { err: error },
      `Rate-limit counters in ${this.place} are unavailable: requests go through uncounted until it answers again`,
    );
  }

  /** A count succeeded: the outage, if any, is over. */
  answered(): void {
    if (!this.since) return;
    this.log.info(
      { since: this.since.toISOString(), uncounted: this.uncounted },
      `Rate-limit counters in ${this.place} answer again`,
    );
    this.since = null;
    this.uncounted = 0;
  }
}

/** `inner` with every count's failure told to `outage` (its children too). */
export function failingOpen(inner: CounterStore, outage: CounterOutage): CounterStore {
  return {
    incr(key, callback, timeWindow, max) {
      const failed = (error: Error) => {
        outage.failed(error);
        callback(error);
      };
      try {
        inner.incr(
          key,
          (error, result) => {
            if (error) return failed(error);
            outage.answered();
            callback(null, result);
          },
          timeWindow,
          max,
        );
      } catch (error) {
        // A client that throws instead of calling back (a closed connection, say).
        failed(error instanceof Error ? error : new Error(String(error)));
      }
    },
    child(routeOptions) {
      return failingOpen(inner.child(routeOptions), outage);
    },
  };
}
