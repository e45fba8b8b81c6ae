/**
 * Whether a visit waits for a watchlist review or was denied by one (issue 31): its
 * request may not be confirmed (409 `watchlist.requestHeld`). Its own module: the request
 * flow reads it, and the review's decision (service.ts) reads the request flow.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { visitRequests, watchlistHolds } from '../db/schema';

export async function visitHeld(db: Db, visitorId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: watchlistHolds.id })
    .from(watchlistHolds)
    .where(
      and(
        eq(watchlistHolds.visitorId, visitorId),
        sql`${watchlistHolds.status} in ('pending', 'denied')`,
      ),
    )
    .limit(1);
  return !!row;
}

/** A visitor's request (one per visitor). */
export async function requestOfVisitor(db: Db, visitorId: string | null): Promise<string | null> {
  if (!visitorId) return null;
  const [row] = await db
    .select({ id: visitRequests.id })
    .from(visitRequests)
    .where(eq(visitRequests.visitorId, visitorId))
    .orderBy(desc(visitRequests.createdAt))
    .limit(1);
  return row?.id ?? null;
}
