/**
 * Orphan files (issue 12 §7): bytes whose row never committed (a server killed
 * mid-upload, a transaction that failed before its cleanup ran). At start the
 * storage (folder or bucket) is listed and every file older than an hour that no `files` row
 * names is removed. An hour leaves any upload still in flight alone.
 */
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { files } from '../db/schema';
import type { FileStorage, StoredEntry } from './storage';

export const ORPHAN_MIN_AGE_MS = 60 * 60_000;

export interface SweepResult {
  examined: number;
  removed: string[];
}

export async function sweepOrphanFiles(
  db: Db,
  storage: FileStorage,
  { minAgeMs = ORPHAN_MIN_AGE_MS, now = Date.now() }: { minAgeMs?: number; now?: number } = {},
): Promise<SweepResult> {
  const removed: string[] = [];
  let examined = 0;
  // Checked 500 names at a time as the listing goes: a bucket of a million files is
  // never held whole, and a removal never happens on a page the database has not seen.
  let chunk: StoredEntry[] = [];
  const settle = async () => {
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
      await storage.remove(f.name);
      removed.push(f.name);
    }
    chunk = [];
  };
  for await (const entry of storage.list()) {
    if (now - entry.modifiedAt.getTime() < minAgeMs) continue;
    examined += 1;
    chunk.push(entry);
    if (chunk.length >= 500) await settle();
  }
  if (chunk.length > 0) await settle();
  return { examined, removed };
}
