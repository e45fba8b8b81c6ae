/**
 * What SCIM's two resource types, Users and Groups, do alike: find one of the caller's by
 * id, list a page of them under a filter, search them by id, and refuse a PATCH of what no
 * resource lets the directory change.
 */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { countRows } from '../db/pagination';
import { invalidPath, mutability } from './errors';
import { filterSql, type AttributeSql, type Filter } from './filter';
import type { PatchPath } from './patch';

/** Who calls: the token's company and id, and the base of the resources' locations. */
export interface ScimCaller {
  companyId: string;
  tokenId: string;
  base: string;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A select of a resource's rows, as drizzle's dynamic builder (`$dynamic()`) offers it. */
interface RowSelect<Row> extends PromiseLike<Row[]> {
  where(where: SQL | undefined): RowSelect<Row>;
  orderBy(...order: SQL[]): RowSelect<Row>;
  limit(limit: number): RowSelect<Row>;
  offset(offset: number): RowSelect<Row>;
}

/** Where a resource type's rows are: its table, how they are read, and the caller's part. */
export interface ScimSource<Row> {
  table: PgTable & { id: PgColumn; createdAt: PgColumn };
  /** The resource's columns of the table: `db.select(columns).from(table).$dynamic()`. */
  select: (db: Db) => RowSelect<Row>;
  /** The rows the caller may see: their company's. */
  scope: SQL;
}

/** One of the caller's rows by id, or null (an id that is no UUID included). */
export async function findScimRow<Row>(db: Db, source: ScimSource<Row>, id: string) {
  if (!UUID.test(id)) return null;
  const [row] = await source
    .select(db)
    .where(and(eq(source.table.id, id), source.scope))
    .limit(1);
  return row ?? null;
}

/** A list's query (RFC 7644 §3.4.2): the filter read, and the page (startIndex from 1). */
export interface ScimListQuery {
  filter?: { parsed: Filter; text: string };
  startIndex: number;
  count: number;
}

/**
 * A page of the caller's rows the filter keeps (searching `attributes`), oldest first,
 * and how many it keeps in all. A count of 0 asks for the total alone.
 */
export async function listScimRows<Row>(
  db: Db,
  source: ScimSource<Row>,
  attributes: Record<string, AttributeSql>,
  query: ScimListQuery,
) {
  const { table } = source;
  const conditions: SQL[] = [source.scope];
  if (query.filter) {
    conditions.push(filterSql(query.filter.parsed, attributes, query.filter.text));
  }
  const where = and(...conditions);
  const [rows, total] = await Promise.all([
    query.count > 0
      ? source
          .select(db)
          .where(where)
          .orderBy(asc(table.createdAt), asc(table.id))
          .limit(query.count)
          .offset(query.startIndex - 1)
      : Promise.resolve([]),
    countRows(db, table, where),
  ]);
  return { rows, total };
}

/** Each row with the entries of `related` that belong to it (by `ownerOf`), in their order. */
export function withTheirEntries<Row extends { id: string }, Entry>(
  rows: Row[],
  related: Entry[],
  ownerOf: (entry: Entry) => string,
): [Row, Entry[]][] {
  return rows.map((row) => [row, related.filter((entry) => ownerOf(entry) === row.id)]);
}

/** A filter's `eq` on an id (`id`, `members.value`): no row for a value that is no UUID. */
export const idEquals =
  (condition: (id: string) => SQL): AttributeSql =>
  (op, value) =>
    op === 'eq' && typeof value === 'string'
      ? UUID.test(value)
        ? condition(value)
        : sql`false`
      : undefined;

/**
 * A PATCH of an attribute the resource type does not change itself: `id`, accepted only
 * as it is; `meta`, read-only; any other, unknown.
 */
export function refusePatch(path: PatchPath, value: unknown, id: string): void {
  if (path.attribute === 'id') {
    if (value !== id) throw mutability('id');
    return;
  }
  if (path.attribute === 'meta') throw mutability(path.raw);
  throw invalidPath(path.raw);
}
