/**
 * A company's API keys (issue 34): its other systems (an HR tool, an access control) call the
 * same routes as the screens with `Authorization: Bearer sk_…`. A key is `sk_` and 32 random
 * bytes (base64url), shown once at its creation; only its HMAC-SHA-256 digest keyed with the
 * server's secret is stored, so a stolen row names no key.
 *
 * Each key acts through its own hidden service account: a `users` row of its company
 * (ROLE_SUPER_ADMIN, no password, `provisioned_by` 'api_key', users/person.ts), so what it
 * writes carries that account as author and the audit log reads as the key. What it may do is
 * its role's rights narrowed to its scopes (`mayAct`, auth/authorize.ts). Revoking a key
 * disables its account in the same transaction; the key is read from the database on every
 * request, so it is refused at once on every instance.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  API_KEY_LIMITS,
  API_KEY_PREFIX,
  API_KEY_SCOPES,
  isOneOf,
  FRENCH_MESSAGES,
  type ApiKey,
  type ApiKeyScope,
} from '@sesame/shared';
import { audit } from '../audit/service';
import { NO_PASSWORD } from '../auth/passwords';
import { principalColumns, type Principal } from '../auth/principal';
import { liveApiKey } from '../auth/session-rule';
import { lockCompanyBelowLimit } from '../companies/limit';
import type { Db } from '../db/client';
import { newId } from '../db/ids';
import { prepared } from '../db/prepared';
import { firstRow } from '../db/rows';
import { apiKeys, companies, users } from '../db/schema';
import { digest } from '../kiosks/device';
import {
  markTokenUsed,
  newBearerToken,
  revokeToken,
  type TokenActor,
} from '../security/bearer-tokens';
import { API_KEY_ACCOUNT } from '../users/person';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** How many characters of a key are kept to tell keys apart (`sk_` and four more). */
const SHOWN_CHARACTERS = API_KEY_PREFIX.length + 4;

/** A fresh key in clear: the prefix and 32 random bytes. */
export const newApiKey = (): string => newBearerToken(API_KEY_PREFIX);

/** What is stored of a key: its digest, under a label of its own. */
const keyHash = (secret: string, key: string) => digest(secret, `api-key:${key}`);

/**
 * The service account's e-mail: unique, and one no mail can reach (`.invalid`, RFC 2606) nor
 * anyone sign in with (the account has no password and the sign-in queries skip it).
 */
export const serviceAccountEmail = (keyId: string) => `api-key-${keyId}@api-keys.sesame.invalid`;

const iso = (at: Date | null) => (at ? at.toISOString() : null);
const knownScopes = (scopes: string[]) =>
  scopes.filter((scope): scope is ApiKeyScope => isOneOf(API_KEY_SCOPES, scope));

export function presentApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scopes: knownScopes(row.scopes),
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
    expires_at: iso(row.expiresAt),
    last_used_at: iso(row.lastUsedAt),
    revoked_at: iso(row.revokedAt),
  };
}

/** A company's keys, revoked ones too, newest first. */
export async function listApiKeys(db: Db, companyId: string): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.companyId, companyId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function findApiKeyRow(db: Db, id: string): Promise<ApiKeyRow | null> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  return row ?? null;
}

export interface NewApiKey {
  name: string;
  scopes: ApiKeyScope[];
  expiresAt: Date | null;
}

/**
 * Creates a key and its service account (409 `keysTooMany` when the company already holds the
 * most unrevoked keys), audited, in one transaction; the company's row is locked meanwhile, so
 * two creations at once cannot both pass the count. Answers the row and the key in clear.
 */
export async function createApiKey(
  db: Db,
  companyId: string,
  input: NewApiKey,
  actor: TokenActor,
): Promise<{ row: ApiKeyRow; key: string }> {
  return db.transaction(async (tx) => {
    await lockCompanyBelowLimit(tx, companyId, {
      table: apiKeys,
      held: and(eq(apiKeys.companyId, companyId), isNull(apiKeys.revokedAt)),
      max: API_KEY_LIMITS.keysMax,
      tooMany: (m) => m.integrations.keysTooMany(API_KEY_LIMITS.keysMax),
    });
    const id = newId();
    const key = newApiKey();
    const account = firstRow(
      await tx
        .insert(users)
        .values({
          companyId,
          // Stored once, in the product's language: the audit log names the key by it.
          firstname: FRENCH_MESSAGES.integrations.keyAccountFirstname,
          name: input.name,
          email: serviceAccountEmail(id),
          passwordHash: NO_PASSWORD,
          roles: ['ROLE_SUPER_ADMIN'],
          status: true,
          provisionedBy: API_KEY_ACCOUNT,
          arrivalMail: false,
        })
        .returning({ id: users.id }),
      'the API key account just inserted',
    );
    const row = firstRow(
      await tx
        .insert(apiKeys)
        .values({
          id,
          companyId,
          userId: account.id,
          name: input.name,
          scopes: input.scopes,
          tokenHash: keyHash(actor.secret, key),
          prefix: key.slice(0, SHOWN_CHARACTERS),
          expiresAt: input.expiresAt,
          createdBy: actor.userId,
        })
        .returning(),
      'the API key just inserted',
    );
    await audit(tx, {
      companyId,
      actorUserId: actor.userId,
      action: 'api_key.created',
      subjectType: 'api_key',
      subjectId: row.id,
      detail: { scopes: row.scopes, expiresAt: iso(row.expiresAt) },
    });
    return { row, key };
  });
}

/**
 * Revokes a key of the company and disables its service account, in one transaction: its
 * next call is refused on every instance. A key already revoked is answered as it is,
 * without a second entry in the log.
 */
export async function revokeApiKey(
  db: Db,
  key: ApiKeyRow,
  actor: { userId: string | null },
): Promise<ApiKeyRow> {
  return db.transaction(async (tx) => {
    const row = await revokeToken(tx, apiKeys, key.id);
    if (!row) return (await findApiKeyRow(tx, key.id)) ?? key;
    await tx
      .update(users)
      .set({ status: false, updatedAt: new Date() })
      .where(eq(users.id, row.userId));
    await audit(tx, {
      companyId: row.companyId,
      actorUserId: actor.userId,
      action: 'api_key.revoked',
      subjectType: 'api_key',
      subjectId: row.id,
    });
    return row;
  });
}

/** One query (prepared: every call with a key runs it): the live key, its account, its company. */
const keyPrincipalQuery = (db: Db) =>
  db
    .select({
      keyId: apiKeys.id,
      keyName: apiKeys.name,
      scopes: apiKeys.scopes,
      lastUsedAt: apiKeys.lastUsedAt,
      ...principalColumns,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(
      companies,
      and(eq(companies.id, apiKeys.companyId), eq(companies.id, users.companyId)),
    )
    .where(and(eq(apiKeys.tokenHash, sql.placeholder('tokenHash')), liveApiKey()))
    .limit(1)
    .prepare('load_api_key_principal');

/**
 * The caller of a request made with `bearer` (the `Authorization: Bearer …` value, prefix
 * included): the live key whose digest matches, as a Principal of its company; null for
 * anything else (unknown, revoked, expired, its account disabled). Marks the key used, at
 * most once a minute (a conditional write: calls at once write it once).
 */
export async function findApiKeyPrincipal(
  db: Db,
  secret: string,
  bearer: string,
  now = new Date(),
): Promise<Principal | null> {
  if (!bearer.startsWith(API_KEY_PREFIX)) return null;
  const rows = await prepared(db, 'load_api_key_principal', keyPrincipalQuery).execute({
    tokenHash: keyHash(secret, bearer),
  });
  const row = rows[0];
  if (!row) return null;
  const { keyId, keyName, scopes, lastUsedAt, ...caller } = row;
  await markTokenUsed(
    db,
    apiKeys,
    { id: keyId, lastUsedAt },
    API_KEY_LIMITS.lastUseResolutionMs,
    now,
  );
  return { ...caller, sessionId: keyId, apiKey: { id: keyId, name: keyName, scopes } };
}
