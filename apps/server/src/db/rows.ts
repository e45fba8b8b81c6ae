import type { SQL } from 'drizzle-orm';
import type { Db } from './client';
/**
 * Rows a statement cannot fail to give: what an `INSERT … RETURNING` wrote, a row read back in
 * the transaction that just wrote it, a row the foreign key guarantees. Said as a check rather
 * than a non-null assertion, so that a broken invariant fails here with its name (a 500 and a
 * log line naming it) instead of a TypeError further on.
 */

/** The first row of `rows`, which must hold one. */
export function firstRow<T>(rows: readonly T[], what: string): T {
  const [row] = rows;
  if (row === undefined) throw new Error(`expected a row: ${what}`);
  return row;
}

/** `value`, which must have been found. */
export function found<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected to find ${what}`);
  return value;
}

/**
 * The rows of a hand-written statement, typed by the caller: both drivers (node-postgres,
 * PGlite) answer `execute` with `{ rows }`; what the columns hold is the statement's to say.
 */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}
