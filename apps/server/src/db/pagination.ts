import { count, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
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
