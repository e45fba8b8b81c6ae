/**
 * One Drizzle schema, two drivers: the embedded PGlite in DATA_DIR/db when
 * DATABASE_URL is unset, PostgreSQL over pg when it is set. Both apply the same
 * committed migrations.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './availability';
import { lockDataFolder } from './data-lock';
import { onConnection } from './one-connection';
import { newDatabaseTemplate } from './pglite-template';
import { ownTransactions, PoolWatch } from './pool-guard';
import * as schema from './schema';
import { SERVER_ROOT } from '../paths';

export const MIGRATIONS_FOLDER = path.join(SERVER_ROOT, 'drizzle');

export type Database = ReturnType<typeof drizzlePg<typeof schema>>;
/** A transaction handle; services take `Database | Tx` as `Db`. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Db = Database | Tx;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export async function openPostgres(
  url: string,
  max = 10,
  timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS,
  /**
   * DATABASE_LISTEN_URL when it differs from `url` (issue 32): `url` is then a pooler in
   * transaction mode, which lends each transaction whichever server connection is free.
   * What must stay on one connection goes to this direct one (the migrations' session
   * lock), and statements are not prepared by name (withoutStatementNames).
   */
  directUrl?: string,
): Promise<DatabaseHandle> {
  const pooled = directUrl !== undefined && directUrl !== url;
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    // A partition leaves the socket silent: the client gives up a little after the server would.
    query_timeout: timeouts.statementMs + 1_000,
    // A transaction left open by a vanished client must not hold its locks.
    idle_in_transaction_session_timeout: Math.max(10_000, timeouts.statementMs * 2),
    keepAlive: true,
  });
  // An idle connection dropped by the server (restart, failover) is replaced on the
  // next query; without a listener its 'error' event would end the process.
  pool.on('error', (error) => {
    process.emitWarning(`PostgreSQL dropped an idle connection: ${error.message}`);
  });
  // A connection checked out by a request or a transaction has no pool listener: when
  // PostgreSQL drops it, its own 'error' would end the process. The query running on it
  // fails (the request answers 503) and the pool discards the broken client on release.
  pool.on('connect', (client) => {
    if (pooled) withoutStatementNames(client);
    client.on('error', (error) => {
      process.emitWarning(`PostgreSQL dropped a connection in use: ${error.message}`);
    });
  });
  if (pooled) {
    await onConnection(
      { connectionString: directUrl, connectionTimeoutMillis: timeouts.connectMs },
      migrateOnce,
    );
  } else {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      broken = await migrateOnce(client);
    } catch (error) {
      client.release(true);
      throw error;
    }
    client.release(broken);
  }
  const db = drizzlePg(pool, { schema });
  // drizzle's transaction() can lose a pool client when BEGIN fails (pool-guard.ts).
  ownTransactions(db, pool);
  const watch = new PoolWatch(pool, {
    everyMs: 1_000,
    stalledMs: Math.max(3_000, timeouts.connectMs),
    onReclaim: (reclaimed) =>
      process.emitWarning(
        `The PostgreSQL pool had run dry: ${reclaimed} dead connection(s) taken back`,
      ),
  });
  return {
    db,
    kind: 'postgres',
    close: () => {
      watch.stop();
      return pool.end();
    },
  };
}

/**
 * Two instances started together on a new database (two replicas of one deployment)
 * would both find the migrations unapplied and both run them. A session lock on one
 * connection makes the second wait, then find them applied. PGlite has one owner per
 * data folder (data-lock.ts) and needs none.
 */
async function migrateOnce(client: pg.Client | pg.PoolClient): Promise<Error | undefined> {
  await client.query('select pg_advisory_lock(hashtext($1))', [MIGRATIONS_LOCK]);
  const migrated = await migratePg(drizzlePg(client, { schema }), {
    migrationsFolder: MIGRATIONS_FOLDER,
  })
    .then(() => installFunctions((text) => client.query(text)))
    .then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
  // A failed unlock means the connection is gone, and its lock with it: the caller
  // discards it (the error answered).
  const broken = await client
    .query('select pg_advisory_unlock(hashtext($1))', [MIGRATIONS_LOCK])
    .then(
      () => undefined,
      (error: Error) => error,
    );
  if (migrated) throw migrated.error;
  return broken;
}

/**
 * Behind PgBouncer in transaction mode (1.18 in Debian 12; `max_prepared_statements` came
 * in 1.21) a statement prepared by name on one server connection is missing on the next
 * ("does not exist"), or there already from another client ("already exists"). The
 * client's statements go unnamed instead: parsed and planned at each use.
 */
function withoutStatementNames(client: pg.PoolClient): void {
  // pg's query is overloaded and a method in its types; the wrapper passes every form through.
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (
    config: unknown,
    ...rest: unknown[]
  ) => {
    // A plain config object ({ name, text, values }), not a Submittable (a cursor, a stream).
    const named =
      typeof config === 'object' && config !== null && 'name' in config && !('submit' in config);
    return query(named ? { ...config, name: undefined } : config, ...rest);
  };
}
const MIGRATIONS_LOCK = 'sesame:migrations';

/**
 * After the migrations, the functions the code is the source of (the code check's,
 * checkins/check-statement.ts), named by a hash of their text: created when missing.
 * Imported when called: that module's rules import modules that import this one.
 */
async function installFunctions(
  query: (text: string) => Promise<{ rows: unknown[] }>,
): Promise<void> {
  const { installCheckFunctions } = await import('../checkins/check-statement');
  await installCheckFunctions(query);
}

/** `dataDir` undefined means in memory; `loadDataDir` starts from a dumped template. */
export async function openPglite(options: {
  dataDir?: string;
  loadDataDir?: Blob | File;
}): Promise<DatabaseHandle> {
  let unlock: (() => Promise<void>) | undefined;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    // One process per embedded data folder: a second server refuses to start.
    unlock = await lockDataFolder(options.dataDir);
  }
  // A new data folder is unpacked from the committed template instead of PGlite's initdb,
  // which peaks at about 650 MB (pglite-template.ts): the first start fits a 512 MB machine.
  const loadDataDir =
    options.loadDataDir ??
    (options.dataDir && !existsSync(path.join(options.dataDir, 'PG_VERSION'))
      ? newDatabaseTemplate()
      : undefined);
  // pg_trgm and unaccent back the searches (migrations create them); PGlite loads them as modules.
  const client = new PGlite({
    dataDir: options.dataDir,
    loadDataDir,
    extensions: { pg_trgm, unaccent },
    // An embedded database serves one small company: an 8 MB page cache instead of
    // PostgreSQL's 128 MB keeps the idle server about 90 MB smaller (npm run bench -- memory;
    // 16 MB held 9–10 MB more, 208–211 against 198–199 MB idle, for no CPU per request the
    // bench could see: the pages it drops stay in the system's file cache). Left as they are:
    // `initialMemory` (128 MB by default) reserves address
    // space, and untouched pages cost no RSS (about 30 MB of it is touched); `relaxedDurability`
    // stays off: a write is in the data folder's files when its query returns. The big saving
    // is V8's, not PostgreSQL's: `--liftoff-only` in package.json's "start" (tools/start.ts).
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB'],
  });
  try {
    await client.waitReady;
  } catch (error) {
    await unlock?.();
    throw error;
  }
  // The pglite driver has the same query surface; the cast lets services take one type.
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  // drizzle's migrator is typed for its PGlite database; `db` is that one, typed as Database.
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  await installFunctions((text) => client.query(text));
  const close = async () => {
    await client.close();
    await unlock?.();
  };
  // The PGlite handle also returns its client (the migration tests read it): not in DatabaseHandle.
  return { db, kind: 'pglite', close, pglite: client } as DatabaseHandle & {
    pglite: PGlite;
  };
}

export async function openDatabase(config: {
  databaseUrl: string | undefined;
  dataDir: string;
  databaseTimeouts?: DatabaseTimeouts;
  databaseListenUrl?: string;
}): Promise<DatabaseHandle> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, 10, config.databaseTimeouts, config.databaseListenUrl)
    : openPglite({ dataDir: path.join(config.dataDir, 'db') });
}
