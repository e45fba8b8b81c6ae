/**
 * Expired rate-limit counters leave the table (issue 32): a row whose window has ended counts
 * for nothing (the next hit on its key opens a new window), so it is deleted, a batch at a
 * time, by the background sweep of every instance; two instances sweeping at once skip each
 * other's rows. The table holds at most the keys seen within the longest window.
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { rowsOf } from '../db/rows';

/** Rows one statement deletes: a flood's leftovers go over several short statements. */
export const SWEEP_BATCH = 5_000;

/** Deletes the expired counters; the number deleted. Stops between batches when told. */
export async function sweepExpiredCounters(
  db: Database,
  signal?: AbortSignal,
  batch = SWEEP_BATCH,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const gone = await rowsOf(
      db,
      z.object({ gone: z.number() }),
      sql`
      delete from rate_limit_hits
       where key in (select key from rate_limit_hits
                      where resets_at <= now()
                      limit ${batch}
                      for update skip locked)
      returning 1 as gone`,
    );
    const count = gone.length;
    deleted += count;
    if (count < batch || signal?.aborted) return deleted;
  }
}
