/**
 * Orphan files (issue 12 §7): bytes whose row never committed (a server killed
 * mid-upload, a transaction that failed before its cleanup ran). At start the
 * storage folder is walked and every file older than an hour that no `files` row
 * names is removed. An hour leaves any upload still in flight alone.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { files } from '../db/schema';

export const ORPHAN_MIN_AGE_MS = 60 * 60_000;

export interface SweepResult {
  examined: number;
  removed: string[];
}

async function listStored(
  root: string,
): Promise<{ name: string; file: string; mtimeMs: number }[]> {
  const found: { name: string; file: string; mtimeMs: number }[] = [];
  let shards: string[];
  try {
    shards = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return found;
    throw error;
  }
  for (const shard of shards) {
    const dir = path.join(root, shard);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      continue; // not a folder
    }
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        const info = await stat(file);
        if (info.isFile()) found.push({ name, file, mtimeMs: info.mtimeMs });
      } catch {
        // removed meanwhile
      }
    }
  }
  return found;
}

export async function sweepOrphanFiles(
  db: Db,
  root: string,
  { minAgeMs = ORPHAN_MIN_AGE_MS, now = Date.now() }: { minAgeMs?: number; now?: number } = {},
): Promise<SweepResult> {
  const old = (await listStored(root)).filter((f) => now - f.mtimeMs >= minAgeMs);
  const removed: string[] = [];
  for (let i = 0; i < old.length; i += 500) {
    const chunk = old.slice(i, i + 500);
    const known = new Set(
      (
        await db
          .select({ storedName: files.storedName })
          .from(files)
          .where(
            inArray(
              files.storedName,
              chunk.map((f) => f.name),
            ),
          )
      ).map((r) => r.storedName),
    );
    for (const f of chunk) {
      if (known.has(f.name)) continue;
      await rm(f.file, { force: true });
      removed.push(f.name);
    }
  }
  return { examined: old.length, removed };
}
