/**
 * Prepared statements for the hot paths (every authenticated request, every code
 * check). PostgreSQL plans a prepared statement once per connection instead of on
 * every call; for short queries the planning costs more than the execution.
 * One prepared query per database object and name.
 */
import type { Db } from './client';

const cache = new WeakMap<object, Map<string, unknown>>();

export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let queries = cache.get(db);
  if (!queries) {
    queries = new Map();
    cache.set(db, queries);
  }
  // The cache holds, per name, what `build` made for that name: the caller's T.
  let query = queries.get(name) as T | undefined;
  if (!query) {
    query = build(db);
    queries.set(name, query);
  }
  return query;
}
