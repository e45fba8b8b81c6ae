import { count, ilike, or, type SQL } from 'drizzle-orm';
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

/**
 * A list's search: `q` found anywhere in any of `columns`, case-insensitive. The
 * search is literal: '%' and '_' typed by someone are not wildcards.
 */
export function likeAny(q: string, columns: (SQL | AnyPgColumn)[]): SQL {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(...columns.map((column) => ilike(column, pattern)))!;
}
