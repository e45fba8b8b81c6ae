/**
 * Once per test run: a migrated PGlite data dir dumped to a file (each test
 * file loads it in well under a second), and, with TEST_DATABASE_URL, a
 * migrated PostgreSQL template database that each test file clones.
 */
import { randomBytes } from 'node:crypto';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string | null;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sesame-test-'));
  const handle = (await openPglite({})) as Awaited<ReturnType<typeof openPglite>> & {
    pglite: PGlite;
  };
  const dump = await handle.pglite.dumpDataDir('gzip');
  await handle.close();
  const templateFile = path.join(dir, 'template.tar.gz');
  await writeFile(templateFile, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', templateFile);

  const url = process.env.TEST_DATABASE_URL;
  let templateName: string | null = null;
  if (url) {
    templateName = `sesame_tpl_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${templateName}`);
    await admin.end();
    const pgHandle = await openPostgres(withDatabase(url, templateName), 1);
    await pgHandle.close();
  }
  project.provide('postgresTemplate', templateName);

  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (url && templateName) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
      await admin.end();
    }
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
