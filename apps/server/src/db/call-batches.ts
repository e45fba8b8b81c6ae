/**
 * Concurrent calls of one statement, sent together (issue 32, a desk's morning rush).
 *
 * A code check is one round trip (checkins/check-statement.ts), and on PostgreSQL each
 * round trip is also a transaction: a backend woken, a snapshot, a commit and its WAL
 * flush. Under a rush those cost more than the check's own work. So calls on the pool go
 * out at once while fewer than `maxInFlight` are on their way; the calls that arrive while
 * all of them are, wait for the first to come back and then go as one statement (`many`),
 * at most `maxSize` of them, in the order they came. A lone scan never waits: at a quiet
 * desk every call is the single statement, as before.
 *
 * One statement is one transaction: its calls commit together, and a call answers only
 * after that commit, so an acknowledged scan is written. When the statement fails for one
 * call's sake (PostgreSQL refused something: a deadlock between two batches, a value it
 * would not take) nothing of it was written, and each call is run again alone, to answer
 * its own outcome. When the connection or the server failed instead (a cut, a timeout,
 * a shutdown), every call of it fails as it would have alone, without a second wait.
 *
 * Inside a transaction (an idempotent scan records its answer with it) and on PGlite (one
 * connection in the process), calls go alone.
 */
import pg from 'pg';
import type { Database } from './client';
import { poolOf } from './pool-of';

export interface CallBatchOptions {
  /** Statements of this kind on their way at once; more calls wait and then go together. */
  maxInFlight: number;
  /** The most calls one statement carries. */
  maxSize: number;
  /**
   * The longest a call waits for a statement on its way to come back. One held up (by a lock
   * another transaction keeps, a slow disk) must not hold up every scan of the server: past
   * this, the calls waiting go anyway, beside the statements on their way.
   */
  maxWaitMs: number;
}

interface Waiting<V, R> {
  values: V;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * PostgreSQL refused the statement itself (a constraint, a deadlock, a bad value): running
 * its calls alone can succeed. Not so for a lost connection, a timeout or a shutting-down
 * server (classes 08, 53, 57, 58), nor for the driver's own errors, which are no DatabaseError.
 */
export function refusedByStatement(error: unknown): boolean {
  return error instanceof pg.DatabaseError && !/^(08|53|57|58)/.test(error.code ?? '');
}

/**
 * `single` runs one call; `many` runs several as one statement and answers their results in
 * their order. The returned function runs a call, batched with the concurrent ones.
 */
export function callBatches<V, R>(
  single: (db: Database, values: V) => Promise<R>,
  many: (db: Database, values: V[]) => Promise<R[]>,
  { maxInFlight, maxSize, maxWaitMs }: CallBatchOptions,
): (db: Database, values: V) => Promise<R> {
  const lanes = new WeakMap<pg.Pool, Lane>();

  class Lane {
    private inFlight = 0;
    private readonly waiting: Waiting<V, R>[] = [];
    /** Set while calls wait: when it fires, they go whatever is on its way. */
    private overdue: NodeJS.Timeout | undefined;
    constructor(private readonly db: Database) {}

    call(values: V): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        this.waiting.push({ values, resolve, reject });
        if (this.inFlight < maxInFlight) void this.send();
        else this.overdue ??= setTimeout(() => this.sendOverdue(), maxWaitMs);
      });
    }

    private sendOverdue(): void {
      this.overdue = undefined;
      if (this.waiting.length > 0) void this.send();
    }

    private async send(): Promise<void> {
      const calls = this.waiting.splice(0, maxSize);
      if (this.waiting.length > 0) this.overdue ??= setTimeout(() => this.sendOverdue(), maxWaitMs);
      else if (this.overdue) {
        clearTimeout(this.overdue);
        this.overdue = undefined;
      }
      this.inFlight++;
      try {
        await this.run(calls);
      } finally {
        this.inFlight--;
        if (this.waiting.length > 0 && this.inFlight < maxInFlight) void this.send();
      }
    }

    private async run(calls: Waiting<V, R>[]): Promise<void> {
      if (calls.length > 1) {
        let results: R[];
        try {
          results = await many(
            this.db,
            calls.map((c) => c.values),
          );
        } catch (error) {
          if (!refusedByStatement(error)) {
            for (const c of calls) c.reject(error);
            return;
          }
          // Nothing of the statement was written: each call again, alone.
          results = [];
        }
        if (results.length === calls.length) {
          calls.forEach((c, k) => c.resolve(results[k]!));
          return;
        }
        if (results.length > 0) {
          const error = new Error(`a batch of ${calls.length} calls answered ${results.length}`);
          for (const c of calls) c.reject(error);
          return;
        }
      }
      await Promise.all(calls.map((c) => single(this.db, c.values).then(c.resolve, c.reject)));
    }
  }

  return (db, values) => {
    const pool = poolOf(db);
    if (!pool) return single(db, values);
    let lane = lanes.get(pool);
    if (!lane) lanes.set(pool, (lane = new Lane(db)));
    return lane.call(values);
  };
}
