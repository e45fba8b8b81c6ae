/**
 * What a company's API keys (api-keys/service.ts) and SCIM tokens (sso/scim-tokens.ts) do
 * alike: both are bearer secrets shown once, stored as a digest, revoked by a date and marked
 * used as calls arrive. The two tables are named here so that each call keeps its own row type.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiKeys, scimTokens } from '../db/schema';

type TokenTable = typeof apiKeys | typeof scimTokens;
type ApiKeyRow = typeof apiKeys.$inferSelect;
type ScimTokenRow = typeof scimTokens.$inferSelect;

/** Who creates a token. */
export interface TokenActor {
  userId: string | null;
  /** The key of the digests (the server's JWT secret). */
  secret: string;
}

/** A fresh token in clear: its kind's prefix and 32 random bytes. */
export function newBearerToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/**
 * Revokes the token unless it already is: the revoked row, or null when it was revoked
 * before (its caller then answers it as it is, without a second entry in the log).
 */
export async function revokeToken(
  tx: Db,
  table: typeof apiKeys,
  tokenId: string,
): Promise<ApiKeyRow | null>;
export async function revokeToken(
  tx: Db,
  table: typeof scimTokens,
  tokenId: string,
): Promise<ScimTokenRow | null>;
export async function revokeToken(
  tx: Db,
  table: TokenTable,
  tokenId: string,
): Promise<ApiKeyRow | ScimTokenRow | null> {
  const [row] = await tx
    .update(table)
    .set({ revokedAt: new Date() })
    .where(and(eq(table.id, tokenId), isNull(table.revokedAt)))
    .returning();
  return row ?? null;
}

/**
 * Marks the token used at `now`, at most once every `everyMs` (a full sync makes many calls).
 * One write however many calls arrive at once: the row is only touched while still stale.
 */
export async function markTokenUsed(
  db: Db,
  table: TokenTable,
  token: { id: string; lastUsedAt: Date | null },
  everyMs: number,
  now: Date,
): Promise<void> {
  if (token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() < everyMs) return;
  const staleBefore = new Date(now.getTime() - everyMs);
  await db
    .update(table)
    .set({ lastUsedAt: now })
    .where(
      and(eq(table.id, token.id), or(isNull(table.lastUsedAt), lte(table.lastUsedAt, staleBefore))),
    );
}
