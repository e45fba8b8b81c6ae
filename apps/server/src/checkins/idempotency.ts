/**
 * Scans retried by the scanner's offline queue (issue 12 §2): the request carries
 * an `Idempotency-Key`; the check and the answer it gave are written in one
 * transaction, so a retry — after a lost answer, a timeout, an outage — gets the
 * first answer back and never toggles its holder twice. Keys are per user (or per
 * kiosk, issue 29) and
 * forgotten after a day (swept at start).
 *
 * A key is bound to the request it was first used for (issue 26 §6): its route and
 * a hash of its content. The same key with another request — another code, another
 * route, another body — answers 422 and changes nothing: handing it the stored answer
 * would tell the agent about the wrong person and leave the second scan unrecorded.
 */
import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Db } from '../db/client';
import { scanRequests } from '../db/schema';
import { badRequest, errorCode, unauthenticated, unprocessable } from '../errors';

const KEY = /^[\w-]{8,100}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const SCAN_KEY_TTL_MS = 24 * 3600_000;

/**
 * One use of a key: whose it is — a staff member's, or a kiosk's (issue 29: the tablet's
 * offline queue) — and the request it stands for.
 */
export type ScanKey = ScanKeyOf &
  ({ userId: string; kioskId?: undefined } | { kioskId: string; userId?: undefined });

interface ScanKeyOf {
  key: string;
  /** `GET /api/get-qr-data/:uidn`: the method and the route's pattern, never the path. */
  route: string;
  requestHash: string;
}

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

/** Objects with their keys in order, so one request always gives the same text. */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value === null || typeof value !== 'object') return value;
  const entries: [string, unknown][] = Object.entries(value);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, ordered(v)]));
}

/**
 * SHA-256 of what the request asks, as its route's schemas validated it: the path's
 * parameters (the code), the query (a manual validation) and the body (the e-mail).
 * A retry sends the same; a different scan differs in one of them.
 */
export function requestHash(request: FastifyRequest): string {
  const content = { params: request.params, query: request.query, body: request.body };
  return createHash('sha256')
    .update(JSON.stringify(ordered(content)))
    .digest('hex');
}

/** The request's key bound to its route and content; undefined without Idempotency-Key. */
export function scanKey(request: FastifyRequest, userId: string): ScanKey | undefined {
  const key = idempotencyKey(request);
  if (key === undefined) return undefined;
  return {
    userId,
    key,
    route: `${request.method} ${request.routeOptions.url ?? ''}`,
    requestHash: requestHash(request),
  };
}

/** A kiosk's key (issue 29): the same binding, owned by the kiosk rather than a person. */
export function kioskScanKey(request: FastifyRequest, kioskId: string): ScanKey | undefined {
  const key = idempotencyKey(request);
  if (key === undefined) return undefined;
  return {
    kioskId,
    key,
    route: `${request.method} ${request.routeOptions.url ?? ''}`,
    requestHash: requestHash(request),
  };
}

/**
 * Runs `check` once per (user, key): the first call's answer is stored with the
 * check's own write, with the route and request it answered; a later call with the
 * same key and the same request gets that answer, with another request a 422. A
 * refusal (an error) stores nothing, so a retry asks again.
 */
export async function oncePerKey<T>(
  db: Database,
  { userId, kioskId, key, route, requestHash }: ScanKey,
  check: (db: Database) => Promise<T>,
): Promise<T> {
  const ownerId = kioskId ?? userId;
  if (!UUID.test(ownerId)) throw unauthenticated();
  return db.transaction(async (tx) => {
    let claimed: { key: string }[];
    try {
      // On PostgreSQL a concurrent request with the same key waits here for the first.
      claimed = await tx
        .insert(scanRequests)
        .values({ userId: userId ?? null, kioskId: kioskId ?? null, key, route, requestHash })
        .onConflictDoNothing()
        .returning({ key: scanRequests.key });
    } catch (error) {
      // A token of a user deleted since: the same answer as the check would give.
      if (errorCode(error) === '23503') throw unauthenticated();
      throw error;
    }
    const mine = and(
      kioskId ? eq(scanRequests.kioskId, kioskId) : eq(scanRequests.userId, ownerId),
      eq(scanRequests.key, key),
    );
    if (claimed.length === 0) {
      const [prior] = await tx
        .select({
          route: scanRequests.route,
          requestHash: scanRequests.requestHash,
          result: scanRequests.result,
        })
        .from(scanRequests)
        .where(mine);
      if (prior && (prior.route !== route || prior.requestHash !== requestHash))
        throw unprocessable((m) => m.availability.idempotencyKeyReused);
      // jsonb column: the answer this very function stored for this key and request.
      if (prior?.result) return prior.result as T;
    }
    // The check is typed for the database (rawPrepared's); a transaction runs its queries alike.
    const result = await check(tx as unknown as Database);
    await tx
      .update(scanRequests)
      // The check's answer is a plain object (JSON), which drizzle's jsonb type does not say.
      .set({ result: result as object })
      .where(mine);
    return result;
  });
}

/** Forgets keys older than a day. */
export async function forgetOldScanKeys(db: Db, now = Date.now()): Promise<void> {
  await db.delete(scanRequests).where(lt(scanRequests.createdAt, new Date(now - SCAN_KEY_TTL_MS)));
}
