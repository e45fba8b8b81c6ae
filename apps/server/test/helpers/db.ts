/**
 * A fresh, migrated database for one test file: PGlite (default) or a clone of
 * the PostgreSQL template when the project runs with TEST_DB=postgres.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type DatabaseHandle } from '../../src/db/client';
import { withDatabase } from '../global-setup';

export const testDatabaseKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export async function createTestDatabase(): Promise<DatabaseHandle> {
  if (testDatabaseKind === 'pglite') {
    const dump = await readFile(inject('pgliteTemplate'));
    return openPglite({ loadDataDir: new Blob([dump]) });
  }
  const url = process.env.TEST_DATABASE_URL;
  const template = inject('postgresTemplate');
  if (!url || !template) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `sesame_t_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  await admin.end();
  const handle = await openPostgres(withDatabase(url, name), 20);
  return {
    ...handle,
    kind: 'postgres',
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
