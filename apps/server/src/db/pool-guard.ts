/**
 * Keeps the PostgreSQL pool whole when connections die under load (issue 26 §0).
 *
 * drizzle-orm 0.45's node-postgres `transaction()` takes a client from the pool and
 * sends BEGIN *before* the try/finally that gives the client back: when BEGIN fails
 * on a connection PostgreSQL has just terminated, the client is never released. Ten
 * such failures and the pool is empty for good: every request, /api/health included,
 * waits for a connection that never comes and answers 503 until a restart.
 *
 * Two defences, each enough on its own for that fault:
 * - `ownTransactions` runs every transaction on a client this module checked out
 *   itself, inside its own try/finally: whatever fails (the checkout, BEGIN, the body,
 *   COMMIT, ROLLBACK), the client goes back, and a client whose connection is dead or
 *   whose state is unknown is destroyed instead of being reused.
 * - `PoolWatch` notices a pool that has run dry (callers waiting, no free client, no
 *   client given back for a while) and takes back the clients still checked out on a
 *   connection that is dead, so the pool opens fresh ones. A live client that someone
 *   holds is never touched: only the dead ones can be leaks nobody will end.
 */
import { NodePgSession } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { isDatabaseUnavailable } from './availability';
import type { Database } from './client';

/** What pg's Client keeps about its connection (not in its typings). */
interface ClientState {
  _ended?: boolean;
  _queryable?: boolean;
}

export function connectionIsDead(client: pg.PoolClient): boolean {
  // pg's client keeps its state in private fields, not in its types (pg 8).
  const state = client as unknown as ClientState;
  return state._ended === true || state._queryable === false;
}

type TransactionBody = Parameters<Database['transaction']>[0];
type TransactionConfig = Parameters<Database['transaction']>[1];

/**
 * Replaces the database's pool-level `transaction()` with one that cannot lose a
 * client. drizzle's own code still runs the transaction (BEGIN, savepoints, COMMIT or
 * ROLLBACK); it is only handed a session bound to one checked-out client, for which
 * drizzle neither checks a client out nor releases one.
 */
export function ownTransactions(db: Database, pool: pg.Pool): void {
  // drizzle-orm 0.45 internals, not in its types: the database's session and its transaction.
  const poolSession = db._.session as unknown as NodePgSession<never, never>;
  const run = NodePgSession.prototype.transaction;
  (poolSession as { transaction: unknown }).transaction = async (
    body: TransactionBody,
    config?: TransactionConfig,
  ) => {
    const client = await pool.connect();
    // The pool's session, seen through one client: the same dialect, schema, logger
    // and cache, with `client` (the field drizzle's session queries through) shadowed.
    const session = Object.create(poolSession) as { client: unknown };
    session.client = client;
    let failure: unknown;
    try {
      // drizzle's transaction() is called as it would call itself, on the shadowed session.
      return await run.call(session as never, body as never, config);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      // A dead connection, or one whose last statement timed out on the client side
      // (it may still be running on the server), is destroyed; after an ordinary
      // error (a constraint, a refusal) ROLLBACK ran and the client is clean.
      const discard =
        connectionIsDead(client) || (failure !== undefined && isDatabaseUnavailable(failure));
      client.release(discard ? asError(failure) : undefined);
    }
  };
}

function asError(failure: unknown): Error {
  return failure instanceof Error ? failure : new Error('connection discarded');
}

export interface PoolWatchOptions {
  /** How often the pool is looked at. */
  everyMs: number;
  /** How long a dry pool may go without a client coming back before dead ones are taken back. */
  stalledMs: number;
  /** Told once per repair, with the number of clients taken back. */
  onReclaim: (reclaimed: number) => void;
}

export interface PoolStats {
  max: number;
  open: number;
  idle: number;
  waiting: number;
}

/** Counts a pool's slots for /api/health and the fault suite. */
export function poolStats(pool: pg.Pool): PoolStats {
  return {
    max: pool.options.max ?? 10,
    open: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
  };
}

export class PoolWatch {
  private readonly checkedOut = new Set<pg.PoolClient>();
  private lastRelease = Date.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: PoolWatchOptions,
  ) {
    pool.on('acquire', (client) => this.checkedOut.add(client));
    pool.on('release', (_error, client) => {
      this.checkedOut.delete(client);
      this.lastRelease = Date.now();
    });
    pool.on('remove', (client) => this.checkedOut.delete(client));
    this.timer = setInterval(() => this.look(), options.everyMs);
    this.timer.unref();
  }

  /** Whether callers wait while every slot is taken and nothing came back lately. */
  dry(now = Date.now()): boolean {
    const { max, open, idle, waiting } = poolStats(this.pool);
    return (
      waiting > 0 && idle === 0 && open >= max && now - this.lastRelease >= this.options.stalledMs
    );
  }

  /** Takes back the dead clients of a dry pool; returns how many. */
  look(now = Date.now()): number {
    if (!this.dry(now)) return 0;
    let reclaimed = 0;
    for (const client of [...this.checkedOut]) {
      if (!connectionIsDead(client)) continue;
      this.checkedOut.delete(client);
      try {
        // With an error the pool removes the client and opens a new one for a waiter.
        client.release(new Error('dead connection taken back from a dry pool'));
        reclaimed++;
        // Should its holder still give it back later, that must not throw in their code.
        client.release = () => undefined;
      } catch {
        // Already given back by its holder between two looks: nothing was leaked.
      }
    }
    if (reclaimed > 0) {
      this.lastRelease = now;
      this.options.onReclaim(reclaimed);
    }
    return reclaimed;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
