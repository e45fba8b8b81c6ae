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
import type { Database } from './client';

const dialect = new PgDialect();

interface QueryRunner {
  query(text: string, params: unknown[]): Promise<{ rows: unknown[] }>;
}

export function rawPrepared<Row>(
  name: string,
  statement: SQL,
): (db: Database, values: Record<string, unknown>) => Promise<Row[]> {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return async (db, values) => {
    const filled = fillPlaceholders(params, values);
    // The database's pool, or inside a transaction the connection it holds (an
    // idempotent scan runs the check and records its answer in one transaction).
    const client: unknown =
      (db as { $client?: unknown }).$client ??
      (db as unknown as { session: { client: unknown } }).session.client;
    if (client instanceof pg.Pool || client instanceof pg.Client) {
      const result = await client.query({ name, text, values: filled });
      return result.rows as Row[];
    }
    const result = await (client as QueryRunner).query(text, filled);
    return result.rows as Row[];
  };
}
