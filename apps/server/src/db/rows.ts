import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
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
 * The rows of a hand-written statement (issue 36 §2: the one reader), each parsed by `schema`,
 * so that what the columns hold is checked where it is read rather than cast by hand. A row
 * unlike its schema is a broken invariant: a ZodError naming the row and the column, a 500.
 *
 * What the drivers give for a raw statement (drizzle's `execute`, node-postgres and PGlite):
 * - int4, float8, boolean, jsonb, arrays: the same JavaScript values from both;
 * - int8 (`count(*)`, `sum` of integers): a string from node-postgres, a number from PGlite:
 *   read it with `column.count` (or write `::int` in the statement);
 * - numeric (`avg`, `extract(epoch …)`): a string from both: `column.number`;
 * - timestamptz, timestamp, date, interval: the text PostgreSQL wrote, from both (drizzle
 *   turns the drivers' own date parsing off): `column.time` makes it a Date.
 */
export async function rowsOf<S extends z.ZodType<unknown, Record<string, unknown>>>(
  db: Db,
  schema: S,
  query: SQL,
): Promise<z.infer<S>[]> {
  const { rows } = await db.execute(query);
  return z.array(schema).parse(rows);
}

/** Column schemas for what the two drivers give differently (see `rowsOf`). */
export const column = {
  /** An int8 (`count(*)`, `sum` of integers, a bigint column) as a number. */
  count: z.coerce.number().int(),
  /** A numeric (`avg`, `extract(epoch …)`) as a number. */
  number: z.coerce.number(),
  /** A timestamptz as a Date. */
  time: z.coerce.date(),
};

/** A row of `… returning id`. */
export const idRow = z.object({ id: z.string() });
