/**
 * What a company may hold at most (API keys, SCIM tokens, webhook endpoints, chat channels).
 * The count is made with the company's row locked until the transaction ends, so two
 * additions at once cannot both pass it.
 */
import { count, eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Say } from '@sesame/shared';
import type { Db } from '../db/client';
import { companies } from '../db/schema';
import { conflict } from '../errors';

export interface CompanyLimit {
  /** Where the company's rows are, and which of them count (e.g. the unrevoked ones). */
  table: PgTable;
  held: SQL | undefined;
  max: number;
  /** The 409's message. */
  tooMany: Say;
}

/** Locks the company's row in `tx`, then refuses (409) when it holds `limit.max` already. */
export async function lockCompanyBelowLimit(
  tx: Db,
  companyId: string,
  limit: CompanyLimit,
): Promise<void> {
  await tx
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.id, companyId))
    .for('update');
  const [held] = await tx.select({ n: count() }).from(limit.table).where(limit.held);
  if ((held?.n ?? 0) >= limit.max) throw conflict(limit.tooMany);
}
