/**
 * Scans retried by the scanner's offline queue (issue 12 §2): the request carries
 * an `Idempotency-Key`; the check and the answer it gave are written in one
 * transaction, so a retry — after a lost answer, a timeout, an outage — gets the
 * first answer back and never toggles its holder twice. Keys are per user and
 * forgotten after a day (swept at start).
 */
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Db } from '../db/client';
import { scanRequests } from '../db/schema';
import { badRequest, unauthenticated } from '../errors';

const KEY = /^[\w-]{8,100}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const SCAN_KEY_TTL_MS = 24 * 3600_000;

/** The request's Idempotency-Key, undefined when absent; 400 when malformed. */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !KEY.test(value))
    throw badRequest((m) => m.availability.idempotencyKeyInvalid, {
      'idempotency-key': (m) => m.availability.idempotencyKeyInvalid,
    });
  return value;
}

/**
 * Runs `check` once per (user, key): the first call's answer is stored with the
 * check's own write, a later call with the same key gets that answer. A refusal
 * (an error) stores nothing, so a retry asks again.
 */
export async function oncePerKey<T>(
  db: Database,
  userId: string,
  key: string,
  check: (db: Database) => Promise<T>,
): Promise<T> {
  if (!UUID.test(userId)) throw unauthenticated();
  return db.transaction(async (tx) => {
    let claimed: { key: string }[];
    try {
      // On PostgreSQL a concurrent retry with the same key waits here for the first.
      claimed = await tx
        .insert(scanRequests)
        .values({ userId, key })
        .onConflictDoNothing()
        .returning({ key: scanRequests.key });
    } catch (error) {
      // A token of a user deleted since: the same answer as the check would give.
      if ((error as { cause?: { code?: string } }).cause?.code === '23503') throw unauthenticated();
      throw error;
    }
    const mine = and(eq(scanRequests.userId, userId), eq(scanRequests.key, key));
    if (claimed.length === 0) {
      const [prior] = await tx
        .select({ result: scanRequests.result })
        .from(scanRequests)
        .where(mine);
      if (prior?.result) return prior.result as T;
    }
    const result = await check(tx as unknown as Database);
    await tx
      .update(scanRequests)
      .set({ result: result as object })
      .where(mine);
    return result;
  });
}

/** Forgets keys older than a day. */
export async function forgetOldScanKeys(db: Db, now = Date.now()): Promise<void> {
  await db.delete(scanRequests).where(lt(scanRequests.createdAt, new Date(now - SCAN_KEY_TTL_MS)));
}
