import { count, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ListMeta, ListQuery } from '@sesame/shared';
import type { Db } from './client';

/** Rows of `table` matching `where` (for a list's meta.total). */
export async function countRows(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ total: count() }).from(table).where(where);
  return Number(row?.total ?? 0);
}

export function offsetOf(query: ListQuery): number {
  return (query.page - 1) * query.per_page;
}

export function listMeta(query: ListQuery, total: number): ListMeta {
  return { page: query.page, per_page: query.per_page, total };
}

/** A list's answer: its rows, and `meta` (page, per_page, total, then what the list adds). */
export function listAnswer<T, E extends object = object>(
  query: ListQuery,
  total: number,
  data: T[],
  // An empty object is an E only when E asks for nothing; callers that ask pass `extra`.
  extra: E = {} as E,
): { data: T[]; meta: ListMeta & E } {
  return { data, meta: { ...listMeta(query, total), ...extra } };
}

/** A person's full name in both orders ('Awa Koné', 'Koné Awa'), for a search to match either. */
export function fullNames(first: SQL | AnyPgColumn, last: SQL | AnyPgColumn): SQL[] {
  return [sql`${first} || ' ' || ${last}`, sql`${last} || ' ' || ${first}`];
}

/** `q` as a LIKE pattern matching it anywhere, literally: a typed '%' or '_' is not a wildcard. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A list's search: `q` found anywhere in any of `columns`, ignoring case and accents
 * ("keita" finds "Keïta", "9pjf" the code 108P-9PJF-6PNV). Both sides go through
 * `sesame_fold` (migration 0017); a column already folded (an indexed expression
 * such as `visitorSearchText`) is passed with `folded: true`.
 */
export function likeAny(
  q: string,
  columns: (SQL | AnyPgColumn)[],
  options: { folded?: boolean } = {},
): SQL {
  const pattern = sql`sesame_fold(${containsPattern(q)})`;
  const matches = columns.map((column) =>
    options.folded ? sql`${column} like ${pattern}` : sql`sesame_fold(${column}) like ${pattern}`,
  );
  return sql`(${sql.join(matches, sql` or `)})`;
}
