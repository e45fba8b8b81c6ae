import pg from 'pg';
import type { Database } from './client';

/** The pg pool under `db` on PostgreSQL; null on PGlite and for a transaction (which holds one connection). */
export function poolOf(db: Database): pg.Pool | null {
  // drizzle's $client (the pool or PGlite) is not in the Database type; a transaction has none.
  const client: unknown = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : null;
}
