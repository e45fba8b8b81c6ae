/**
 * A new embedded data folder starts from the committed template, not from PGlite's initdb
 * (src/db/pglite-template.ts: initdb peaks at about 650 MB, the template about 290 MB;
 * the figures are `npm run bench -- memory`'s, this test checks the path, not the memory).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/db/client';
import {
  installedPgliteVersion,
  newDatabaseTemplate,
  templateVersion,
} from '../src/db/pglite-template';

/** initdb draws a new system identifier each time it runs: it names the folder's origin. */
async function systemIdentifier(run: (query: string) => Promise<unknown[]>): Promise<string> {
  const [row] = (await run('select system_identifier::text as id from pg_control_system()')) as {
    id: string;
  }[];
  return row!.id;
}

describe('the embedded database template', () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('was made by the installed PGlite version (remake it after an upgrade: the script in its header)', () => {
    expect(templateVersion()).toBe(installedPgliteVersion());
  });

  it('is what a new data folder starts from, then migrated; a second open resumes it', async () => {
    const template = newDatabaseTemplate();
    expect(template).toBeDefined();
    const fromTemplate = await PGlite.create({ loadDataDir: template });
    const templateId = await systemIdentifier(
      async (query) => (await fromTemplate.query(query)).rows,
    );
    await fromTemplate.close();

    const folder = await mkdtemp(path.join(os.tmpdir(), 'sesame-template-'));
    folders.push(folder);
    const dataDir = path.join(folder, 'db');
    const first = await openPglite({ dataDir });
    const idOf = async (handle: Awaited<ReturnType<typeof openPglite>>) =>
      systemIdentifier(async (query) => (await handle.db.execute(sql.raw(query))).rows);
    // Not a fresh initdb: the template's own identifier, in the new folder.
    expect(await idOf(first)).toBe(templateId);
    // The migrations ran on it (the searches' extension among them).
    const { rows } = await first.db.execute(
      sql`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`,
    );
    expect(rows[0]).toEqual({ n: 1 });
    await first.db.execute(sql`create table kept (v int)`);
    await first.db.execute(sql`insert into kept values (7)`);
    await first.close();

    // An existing folder is opened as it is, never unpacked over.
    const again = await openPglite({ dataDir });
    expect(await idOf(again)).toBe(templateId);
    expect((await again.db.execute(sql`select v from kept`)).rows).toEqual([{ v: 7 }]);
    await again.close();
  });
});
