/**
 * A database stopped at an older migration, for tests of what a later migration does to
 * data written before it: `openDatabaseAt(tag)` applies the committed migrations up to
 * `tag` (drizzle's own migrator, on a copy of the folder whose journal ends there), lets
 * the test write the old schema with raw SQL, then `migrate()` opens it as the server does
 * (openPglite / openPostgres apply every migration left). PGlite in memory, or a scratch
 * PostgreSQL database of its own (TEST_DB=postgres) dropped by `close()`.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import {
  MIGRATIONS_FOLDER,
  openPglite,
  openPostgres,
  type DatabaseHandle,
} from '../../src/db/client';
import { withDatabase } from '../global-setup';
import { testDatabaseKind } from './db';

export type Row = Record<string, unknown>;

/** Raw SQL on one database: `query` returns rows, `exec` runs several statements. */
export interface RawSql {
  query(text: string, params?: unknown[]): Promise<Row[]>;
  exec(text: string): Promise<void>;
  /** Hears `channel`'s notifications until the returned function is called. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
}

export interface OldDatabase {
  /** The database at `tag`, for raw SQL. */
  sql: RawSql;
  /** Applies every later migration as the server does; `sql` is then the migrated database. */
  migrate(): Promise<{ handle: DatabaseHandle; sql: RawSql }>;
  close(): Promise<void>;
}

interface JournalEntry {
  idx: number;
  tag: string;
}

/** A copy of the migrations folder whose journal stops at `tag` (which must exist). */
function migrationsUpTo(tag: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sesame-migrations-'));
  cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: JournalEntry[] };
  const last = journal.entries.findIndex((entry) => entry.tag === tag);
  if (last < 0) throw new Error(`no migration ${tag} in the journal`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

function pgliteSql(client: PGlite): RawSql {
  return {
    query: async (text, params) => (await client.query<Row>(text, params)).rows,
    exec: async (text) => {
      await client.exec(text);
    },
    listen: (channel, onPayload) => client.listen(channel, onPayload),
  };
}

/**
 * A pool of this test's own: the scratch database is dropped WITH (FORCE) at the end, and a
 * connection still closing then hears 'terminating connection' -- not a failure of the test.
 */
function scratchPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

function pgSql(pool: pg.Pool): RawSql {
  return {
    query: async (text, params) => (await pool.query<Row>(text, params)).rows,
    exec: async (text) => {
      await pool.query(text);
    },
    listen: async (channel, onPayload) => {
      const client = await pool.connect();
      const onNotification = (message: pg.Notification) => {
        if (message.channel === channel && message.payload !== undefined) {
          onPayload(message.payload);
        }
      };
      client.on('notification', onNotification);
      await client.query(`LISTEN ${channel}`);
      return async () => {
        await client.query(`UNLISTEN ${channel}`);
        client.off('notification', onNotification);
        client.release();
      };
    },
  };
}

export async function openDatabaseAt(tag: string): Promise<OldDatabase> {
  const folder = migrationsUpTo(tag);
  try {
    return testDatabaseKind === 'pglite' ? await pgliteAt(folder) : await postgresAt(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function pgliteAt(folder: string): Promise<OldDatabase> {
  const old = new PGlite({ extensions: { pg_trgm, unaccent } });
  await migratePglite(drizzlePglite(old) as never, { migrationsFolder: folder });
  let migrated: (DatabaseHandle & { pglite: PGlite }) | undefined;
  return {
    sql: pgliteSql(old),
    async migrate() {
      // The data folder as it is, opened by the server's own code (which migrates it).
      const dump = await old.dumpDataDir('gzip');
      await old.close();
      migrated = (await openPglite({ loadDataDir: dump })) as DatabaseHandle & {
        pglite: PGlite;
      };
      return { handle: migrated, sql: pgliteSql(migrated.pglite) };
    },
    async close() {
      if (migrated) await migrated.close();
      else if (!old.closed) await old.close();
    },
  };
}

async function postgresAt(folder: string): Promise<OldDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `sesame_mig_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = withDatabase(url, name);
  const pool = scratchPool(dbUrl);
  let handle: DatabaseHandle | undefined;
  let after: pg.Pool | undefined;
  let oldEnded = false;
  const endOld = async () => {
    if (oldEnded) return;
    oldEnded = true;
    await pool.end();
  };
  const drop = async () => {
    const dropper = new pg.Client({ connectionString: url });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  };
  try {
    await migratePg(drizzlePg(pool), { migrationsFolder: folder });
  } catch (error) {
    await endOld();
    await drop();
    throw error;
  }
  return {
    sql: pgSql(pool),
    async migrate() {
      await endOld();
      handle = await openPostgres(dbUrl, 4);
      after = scratchPool(dbUrl);
      return { handle, sql: pgSql(after) };
    },
    async close() {
      if (handle) await handle.close();
      if (after) await after.end();
      await endOld();
      await drop();
    },
  };
}
