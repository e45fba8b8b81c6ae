/**
 * A hand-written statement run as a prepared statement on both drivers, for the
 * one the query builder cannot express: the code check, a single statement with
 * data-modifying CTEs (checkins/check-statement.ts). On PostgreSQL pg prepares it
 * by name once per connection, so it is planned once; PGlite runs in-process.
 *
 * The SQL is written with drizzle's `sql` template and `sql.placeholder`, rendered
 * to text once, and filled with the values of each call.
 */
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { z } from 'zod';
import type { Database } from './client';

const dialect = new PgDialect();

interface QueryRunner {
  query(text: string, params: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Each row is parsed by `schema`, as `rowsOf` (db/rows.ts) does for drizzle's `execute`. Here
 * the drivers' own type parsing applies (no drizzle in between): a timestamptz arrives as a
 * Date from both, an int8 as a string from pg and a number from PGlite.
 */
export function rawPrepared<S extends z.ZodType<unknown, Record<string, unknown>>>(
  name: string,
  schema: S,
  statement: SQL,
): (db: Database, values: Record<string, unknown>) => Promise<z.infer<S>[]> {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const rows = z.array(schema);
  return async (db, values) => {
    const filled = fillPlaceholders(params, values);
    // The database's pool, or inside a transaction the connection it holds (an
    // idempotent scan runs the check and records its answer in one transaction).
    // Neither is in drizzle's types: `$client` is the database's, `session.client` a
    // transaction's (drizzle-orm 0.45 internals).
    const client: unknown =
      (db as { $client?: unknown }).$client ??
      (db as unknown as { session: { client: unknown } }).session.client;
    if (client instanceof pg.Pool || client instanceof pg.Client) {
      const result = await client.query({ name, text, values: filled });
      return rows.parse(result.rows);
    }
    // Not pg's: PGlite (or its transaction), whose query has this shape.
    const result = await (client as QueryRunner).query(text, filled);
    return rows.parse(result.rows);
  };
}
