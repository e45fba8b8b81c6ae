/**
 * A hand-written statement run as a prepared statement on both drivers, for the
 * one the query builder cannot express: the code check, a single statement with
 * data-modifying CTEs (checkins/check-statement.ts). On PostgreSQL pg prepares it
 * by name once per connection, so it is planned once; PGlite runs in-process.
 *
 * The SQL is written with drizzle's `sql` template and `sql.placeholder`, rendered
 * to text once, and filled with the values of each call.
 */
import { fillPlaceholders, is, Placeholder, type Query, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { z } from 'zod';
import type { Database } from './client';

const dialect = new PgDialect();

interface QueryRunner {
  query(text: string, params: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * The statement's text and parameters as it is prepared: each placeholder is one parameter,
 * however often the text uses it (drizzle numbers every use anew). The code check uses `now`
 * eleven times: PostgreSQL then parses one timestamp, not eleven, on every execution, and
 * the driver sends one. Other parameters (values written into the SQL) keep their own number.
 */
export function preparedQuery(statement: SQL): Query {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  const numbers = new Map<string, number>();
  const kept: unknown[] = [];
  const renumbered = params.map((param) => {
    if (is(param, Placeholder)) {
      const known = numbers.get(param.name);
      if (known !== undefined) return known;
      numbers.set(param.name, kept.length + 1);
    }
    kept.push(param);
    return kept.length;
  });
  let uses = 0;
  const sharedText = text.replace(/\$(\d+)\b/g, (_, n: string) => {
    uses++;
    return `$${renumbered[Number(n) - 1]}`;
  });
  // Every `$n` of the text is one of drizzle's parameters, once each; anything else is a bug here.
  if (uses !== params.length)
    throw new Error('a raw statement holds a "$n" that is not a parameter');
  return { sql: sharedText, params: kept };
}

/** A value of our own SQL (never a request's: those are placeholders) as a literal. */
function literalOf(value: unknown): string {
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
    return String(value);
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  throw new Error(`no literal for a value of type ${typeof value} in a function body`);
}

/**
 * The statement's text for the body of a PL/pgSQL function (the code check's,
 * checkins/check-statement.ts): each placeholder written as the function's variable that
 * `variables` names for it. A value the text holds (a rule's `true`, a constant) is written
 * as its literal.
 */
export function textWithVariables(
  statement: SQL,
  variables: Readonly<Record<string, string>>,
): string {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return text.replace(/\$(\d+)\b/g, (_, n: string) => {
    const param: unknown = params[Number(n) - 1];
    if (!is(param, Placeholder)) return literalOf(param);
    const variable = variables[param.name];
    if (!variable) throw new Error(`no variable for the placeholder "${param.name}"`);
    return variable;
  });
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
  const { sql: text, params } = preparedQuery(statement);
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
