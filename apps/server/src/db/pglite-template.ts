/**
 * A new embedded database starts from a committed copy of an empty, initdb'd PGlite data
 * folder (issue 32, "the smallest machine"), not from PGlite's own initdb.
 *
 * Why: PGlite 0.5 runs initdb in a second PostgreSQL instance beside the one being opened,
 * and keeps a full copy of that instance's WebAssembly memory to reset it before each of
 * initdb's PostgreSQL runs: three 128 MB-plus memories at once. A first start peaked at
 * 663–721 MB, initdb alone at 642 MB, against about 290 MB when the folder is unpacked from
 * this template (`npm run bench -- memory`). A lobby PC with 512 MB could not start.
 *
 * The template holds nothing of Sésame's (no migration, no row): it is what initdb writes
 * for this PGlite version, which fixes PostgreSQL's catalog. It is used only when it was
 * made by the installed PGlite version; otherwise (PGlite upgraded, template not yet
 * remade) PGlite's initdb runs as before, and apps/server/test/pglite-template.test.ts
 * fails until `npx tsx apps/server/scripts/pglite-template.ts` remakes it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { SERVER_ROOT } from '../paths';

export const TEMPLATE_DIR = path.join(SERVER_ROOT, 'pglite-template');
const ARCHIVE = path.join(TEMPLATE_DIR, 'pgdata.tar.gz');
const STAMP = path.join(TEMPLATE_DIR, 'pgdata.json');

interface Stamp {
  /** The PGlite version whose initdb wrote the archive. */
  pglite: string;
}

/** The installed @electric-sql/pglite's version (its package.json is not exported). */
export function installedPgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('@electric-sql/pglite has no package.json');
    dir = parent;
  }
  // JSON.parse gives any: the package's own package.json, which has a version.
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The version the committed template was made with, or null when there is none. */
export function templateVersion(): string | null {
  if (!existsSync(STAMP) || !existsSync(ARCHIVE)) return null;
  // JSON.parse gives any: the stamp this module wrote (writeTemplate).
  return (JSON.parse(readFileSync(STAMP, 'utf8')) as Stamp).pglite;
}

/**
 * The template for a new data folder, or undefined when it was made by another PGlite
 * version than the installed one (PGlite's initdb then runs).
 */
export function newDatabaseTemplate(): Blob | undefined {
  if (templateVersion() !== installedPgliteVersion()) return undefined;
  return new Blob([readFileSync(ARCHIVE)]);
}

/** Runs PGlite's initdb in memory and writes the archive and its stamp (the script). */
export async function writeTemplate(): Promise<void> {
  const client = await PGlite.create();
  try {
    const dump = await client.dumpDataDir('gzip');
    await writeFile(ARCHIVE, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
  const stamp: Stamp = { pglite: installedPgliteVersion() };
  await writeFile(STAMP, `${JSON.stringify(stamp, null, 2)}\n`);
}
