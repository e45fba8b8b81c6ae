/**
 * What the outbox workers that send one row at a time (chat, webhooks) share: the claim of
 * a due row under a lease, the fence that keeps a late writer off a row taken over since,
 * and the loop that claims and delivers until nothing is due or the worker is stopped.
 *
 * - Claim: one short transaction takes one due row `FOR UPDATE SKIP LOCKED`, the soonest
 *   due first, and marks it `sending`, its attempts counted, due again when the lease ends
 *   (a worker that died with it leaves it to another). Any number of processes may claim.
 * - Fence: the attempt number the claim wrote is the lease's token; every write of the
 *   outcome names it, so a worker whose lease ran out writes nothing over the next one's.
 * - Loop: a PollingLoop's pass drains what is due; `stop()` lets the row in hand finish and
 *   claims no other.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from './db/client';
import { PollingLoop } from './polling-loop';

/** An outbox table: its rows' id, attempt count (the fencing token) and when each is due. */
export type OutboxTable = PgTable & { id: PgColumn; attempts: PgColumn; nextAttemptAt: PgColumn };

export abstract class OutboxWorker<Table extends OutboxTable> {
  private readonly loop: PollingLoop;

  /** `state` is the table's column that says 'sending' while a worker holds the row. */
  protected constructor(
    private readonly outbox: { table: Table; state: PgColumn },
    pollMs: number,
    onPassError: (error: unknown) => void,
  ) {
    this.loop = new PollingLoop(() => this.drain(), pollMs, onPassError);
  }

  /** One due row, claimed for this worker, or null when none is due. */
  abstract claim(): Promise<Table['$inferSelect'] | null>;

  /** One attempt of a claimed row, and its outcome written down. */
  protected abstract deliver(row: Table['$inferSelect']): Promise<void>;

  /**
   * Takes the soonest due row among those `due` selects, or null when none is. `sending`
   * marks it held until the lease ends, with `nextAttempt()` as its attempt count.
   */
  protected async claimOneDue(
    db: Db,
    claim: { due: SQL | undefined; sending: PgUpdateSetSource<Table> },
  ): Promise<Table['$inferSelect'] | null> {
    const { table } = this.outbox;
    const source: PgTable = table;
    return db.transaction(async (tx) => {
      const [due] = await tx
        .select({ id: table.id })
        .from(source)
        .where(claim.due)
        .orderBy(table.nextAttemptAt)
        .limit(1)
        .for('update', { skipLocked: true });
      if (!due) return null;
      const taken: unknown = await tx
        .update(table)
        .set(claim.sending)
        .where(eq(table.id, due.id))
        .returning();
      // Every column of the table, as returning() reads them: drizzle cannot name that type
      // for a table given as a type parameter; the subclasses' concrete tables name it.
      return (taken as Table['$inferSelect'][])[0] ?? null;
    });
  }

  /** The attempt count a claim writes: one more. */
  protected nextAttempt(): SQL {
    return sql`${this.outbox.table.attempts} + 1`;
  }

  /** This worker's claim on the row: still sending, and not taken over since. */
  protected mine(row: { id: string; attempts: number }): SQL {
    const { table, state } = this.outbox;
    return and(eq(table.id, row.id), eq(state, 'sending'), eq(table.attempts, row.attempts))!;
  }

  /** Sends everything due now; resolves with the number of rows handled. */
  async drain(): Promise<number> {
    let handled = 0;
    while (!this.loop.stopping) {
      const row = await this.claim();
      if (!row) return handled;
      await this.deliver(row);
      handled += 1;
    }
    return handled;
  }

  start(): void {
    this.loop.start();
  }

  /** Finishes the row in hand, claims no other, and resolves when the worker is idle. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}

/** A worker as a background job (src/background.ts): started now, stopped by what it returns. */
export function workerJob(worker: { start(): void; stop(): Promise<void> }): () => Promise<void> {
  worker.start();
  return () => worker.stop();
}
