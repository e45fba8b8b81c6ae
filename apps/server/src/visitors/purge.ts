/**
 * Anonymous visitors who never file a request are not kept (issue 11 §3): the
 * visitor form stores the person and their identity document first, and the
 * request comes in a second call that may never come. A day later such a visitor,
 * with no request, no check and no event, is deleted with their document.
 */
import { and, inArray, isNull, lt, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { files, visitRequests, visitorChecks, visitors } from '../db/schema';
import type { FileStorage } from '../files/storage';

/** How long an anonymous visitor may wait between the form and the request. */
export const UNFILED_VISITOR_TTL = sql`interval '1 day'`;
/** Rows per transaction: a backlog is purged in short steps, never one long lock. */
const BATCH = 500;

/** Deletes one batch of unfiled visitors and their documents; answers how many went. */
async function purgeBatch(db: Database, storage: FileStorage): Promise<number> {
  const removed = await db.transaction(async (tx) => {
    const unfiled = tx
      .select({ id: visitors.id })
      .from(visitors)
      .where(
        and(
          lt(visitors.createdAt, sql`now() - ${UNFILED_VISITOR_TTL}`),
          isNull(visitors.eventId),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(visitRequests)
              .where(sql`${visitRequests.visitorId} = ${visitors.id}`),
          ),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(visitorChecks)
              .where(sql`${visitorChecks.visitorId} = ${visitors.id}`),
          ),
        ),
      )
      .limit(BATCH);
    const gone = await tx
      .delete(visitors)
      .where(inArray(visitors.id, unfiled))
      .returning({ documentId: visitors.requestImageId, photoId: visitors.photoFileId });
    const documentIds = gone.flatMap((row) =>
      [row.documentId, row.photoId].filter((id): id is string => id !== null),
    );
    const documents = documentIds.length
      ? await tx
          .delete(files)
          .where(inArray(files.id, documentIds))
          .returning({ storedName: files.storedName })
      : [];
    return { visitors: gone.length, storedNames: documents.map((d) => d.storedName) };
  });
  // The rows are gone for good: now the bytes (a failure here leaves an orphan the
  // start-up sweep removes).
  await Promise.all(removed.storedNames.map((name) => storage.remove(name).catch(() => undefined)));
  return removed.visitors;
}

/** Purges every unfiled visitor older than a day; answers how many. */
export async function purgeUnfiledVisitors(
  db: Database,
  storage: FileStorage,
  signal?: AbortSignal,
): Promise<number> {
  let total = 0;
  // A stopping server ends between batches: each batch is whole or not done at all.
  while (!signal?.aborted) {
    const count = await purgeBatch(db, storage);
    total += count;
    if (count < BATCH) return total;
  }
  return total;
}
