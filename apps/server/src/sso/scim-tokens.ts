/**
 * A company's SCIM bearer tokens (issue 33). Its IT department gives one to the identity
 * provider, which then creates, changes and removes the company's accounts at `/scim/v2`.
 * A token is `scim_` and 32 random bytes (base64url), shown once at its creation; only its
 * HMAC-SHA-256 digest keyed with the server's secret is stored, so a stolen row names no
 * token. A revoked token stays listed and opens nothing. A company holds at most
 * `SSO_LIMITS.scimTokensMax` unrevoked tokens.
 */
import { and, desc, eq, isNull } from 'drizzle-orm';
import { SCIM_TOKEN_PREFIX, SSO_LIMITS, type ScimToken } from '@sesame/shared';
import { audit } from '../audit/service';
import { lockCompanyBelowLimit } from '../companies/limit';
import type { Db } from '../db/client';
import { scimTokens } from '../db/schema';
import { digest } from '../kiosks/device';
import {
  markTokenUsed,
  newBearerToken,
  revokeToken,
  type TokenActor,
} from '../security/bearer-tokens';

export type ScimTokenRow = typeof scimTokens.$inferSelect;

/** How often a token's `last_used_at` is written at most (a full sync makes many calls). */
const LAST_USED_EVERY_MS = 60_000;

/** A fresh token in clear: the prefix and 32 random bytes. */
export const newScimToken = (): string => newBearerToken(SCIM_TOKEN_PREFIX);

/** What is stored of a token: its digest, under a label of its own. */
const tokenHash = (secret: string, token: string) => digest(secret, `scim:${token}`);

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export function presentScimToken(row: ScimTokenRow): ScimToken {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
    last_used_at: iso(row.lastUsedAt),
    revoked_at: iso(row.revokedAt),
  };
}

/** A company's tokens, revoked ones too, newest first. */
export async function listScimTokens(db: Db, companyId: string): Promise<ScimTokenRow[]> {
  return db
    .select()
    .from(scimTokens)
    .where(eq(scimTokens.companyId, companyId))
    .orderBy(desc(scimTokens.createdAt), desc(scimTokens.id));
}

export async function findScimTokenRow(db: Db, id: string): Promise<ScimTokenRow | null> {
  const [row] = await db.select().from(scimTokens).where(eq(scimTokens.id, id)).limit(1);
  return row ?? null;
}

/**
 * Creates a token (409 `tokensTooMany` when the company already holds the most unrevoked
 * ones), audited, in one transaction; the company's row is locked meanwhile, so two
 * creations at once cannot both pass the count. Answers the row and the token in clear.
 */
export async function createScimToken(
  db: Db,
  companyId: string,
  name: string,
  actor: TokenActor,
): Promise<{ row: ScimTokenRow; token: string }> {
  return db.transaction(async (tx) => {
    await lockCompanyBelowLimit(tx, companyId, {
      table: scimTokens,
      held: and(eq(scimTokens.companyId, companyId), isNull(scimTokens.revokedAt)),
      max: SSO_LIMITS.scimTokensMax,
      tooMany: (m) => m.sso.tokensTooMany(SSO_LIMITS.scimTokensMax),
    });
    const token = newScimToken();
    const [row] = await tx
      .insert(scimTokens)
      .values({
        companyId,
        name,
        tokenHash: tokenHash(actor.secret, token),
        createdBy: actor.userId,
      })
      .returning();
    await audit(tx, {
      companyId,
      actorUserId: actor.userId,
      action: 'scim.token_created',
      subjectType: 'company',
      subjectId: companyId,
      detail: { tokenId: row!.id },
    });
    return { row: row!, token };
  });
}

/**
 * Revokes a token of the company: its next SCIM call is refused. A token already revoked
 * is answered as it is, without a second entry in the log.
 */
export async function revokeScimToken(
  db: Db,
  token: ScimTokenRow,
  actor: { userId: string | null },
): Promise<ScimTokenRow> {
  return db.transaction(async (tx) => {
    const row = await revokeToken(tx, scimTokens, token.id);
    if (!row) return (await findScimTokenRow(tx, token.id)) ?? token;
    await audit(tx, {
      companyId: row.companyId,
      actorUserId: actor.userId,
      action: 'scim.token_revoked',
      subjectType: 'company',
      subjectId: row.companyId,
      detail: { tokenId: row.id },
    });
    return row;
  });
}

/**
 * The SCIM routes' bearer check: the unrevoked token whose digest matches `bearer` (the
 * `Authorization: Bearer …` value, prefix included), and its company; null for anything
 * else. Marks the token used, at most once a minute.
 */
export async function findScimToken(
  db: Db,
  secret: string,
  bearer: string,
  now = new Date(),
): Promise<{ tokenId: string; companyId: string } | null> {
  if (!bearer.startsWith(SCIM_TOKEN_PREFIX)) return null;
  const [row] = await db
    .select({
      id: scimTokens.id,
      companyId: scimTokens.companyId,
      lastUsedAt: scimTokens.lastUsedAt,
    })
    .from(scimTokens)
    .where(and(eq(scimTokens.tokenHash, tokenHash(secret, bearer)), isNull(scimTokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  await markTokenUsed(db, scimTokens, row, LAST_USED_EVERY_MS, now);
  return { tokenId: row.id, companyId: row.companyId };
}
