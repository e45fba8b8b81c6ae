/**
 * A kiosk's identity (issue 29): a tablet in the lobby holds no staff session, ever. An
 * admin creates the kiosk and gets a 6-digit pairing code (10 minutes); the tablet trades it,
 * once, for a device token. Code and token are kept as HMAC-SHA-256 digests keyed with the
 * server's secret: a stolen database row names neither, and a 6-digit code cannot be
 * reversed from its digest without the secret.
 *
 * Routes with `config.kiosk` take the device token (`Authorization: Bearer kiosk_…`) and
 * nothing else; every other route refuses it (a device token is no JWT, so it loads no
 * principal: 401), and kiosk routes refuse a staff token.
 */
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { KIOSK_LIMITS } from '@sesame/shared';
import type { Db } from '../db/client';
import { companies, kiosks, sites } from '../db/schema';
import { isUniqueViolation } from '../errors';

/** What a device token carries into a kiosk route. */
export interface KioskDevice {
  id: string;
  companyId: string;
  companySlug: string;
  companyName: string;
  siteId: string;
  name: string;
}

/** Device tokens start with this, so a log or a leak says what the secret is for. */
export const DEVICE_TOKEN_PREFIX = 'kiosk_';

export function digest(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}

export function newPairingCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function newDeviceToken(): string {
  return DEVICE_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** The bearer token of a request when it is a device token, else undefined. */
export function deviceTokenOf(authorization: string | undefined): string | undefined {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : undefined;
  return token?.startsWith(DEVICE_TOKEN_PREFIX) ? token : undefined;
}

/**
 * Gives the kiosk a fresh pairing code (its digest stored with its expiry): creating a kiosk,
 * or "Nouveau code" on the list. The tablet that held the old token keeps it until it pairs
 * again or the kiosk is revoked. Answers the code in clear, once.
 */
export async function issuePairingCode(
  db: Db,
  secret: string,
  kioskId: string,
  now = new Date(),
): Promise<{ code: string; expiresAt: Date }> {
  const expiresAt = new Date(now.getTime() + KIOSK_LIMITS.pairingCodeTtlMs);
  // Codes expired long ago are cleared, so a new code never collides with a dead one.
  await db
    .update(kiosks)
    .set({ pairingCodeHash: null, pairingExpiresAt: null })
    .where(lt(kiosks.pairingExpiresAt, now));
  for (let attempt = 0; ; attempt += 1) {
    const code = newPairingCode();
    try {
      await db
        .update(kiosks)
        .set({ pairingCodeHash: digest(secret, `pair:${code}`), pairingExpiresAt: expiresAt })
        .where(eq(kiosks.id, kioskId));
      return { code, expiresAt };
    } catch (error) {
      // Another live kiosk holds the same 6 digits (the unique index): draw again.
      if (!isUniqueViolation(error) || attempt >= 20) throw error;
    }
  }
}

/**
 * Trades a live pairing code for a device token: the code is spent (a second use finds
 * nothing), the kiosk is paired (revoked no more) and any earlier tablet's token dies.
 * Null when the code is unknown, used or expired.
 */
export async function pairKiosk(
  db: Db,
  secret: string,
  code: string,
  now = new Date(),
): Promise<{ token: string; kioskId: string } | null> {
  const token = newDeviceToken();
  const [paired] = await db
    .update(kiosks)
    .set({
      tokenHash: digest(secret, token),
      pairingCodeHash: null,
      pairingExpiresAt: null,
      pairedAt: now,
      lastSeenAt: now,
      revokedAt: null,
    })
    .where(
      and(
        eq(kiosks.pairingCodeHash, digest(secret, `pair:${code}`)),
        gt(kiosks.pairingExpiresAt, now),
      ),
    )
    .returning({ id: kiosks.id });
  return paired ? { token, kioskId: paired.id } : null;
}

/**
 * The kiosk a device token belongs to, when it is paired and not revoked (and its site
 * not archived); its last contact is written at most once a minute.
 */
export async function loadKioskDevice(
  db: Db,
  secret: string,
  token: string,
  now = new Date(),
): Promise<KioskDevice | null> {
  const [row] = await db
    .select({
      id: kiosks.id,
      companyId: kiosks.companyId,
      companySlug: companies.slug,
      companyName: companies.name,
      siteId: kiosks.siteId,
      name: kiosks.name,
      lastSeenAt: kiosks.lastSeenAt,
    })
    .from(kiosks)
    .innerJoin(companies, eq(companies.id, kiosks.companyId))
    .innerJoin(sites, eq(sites.id, kiosks.siteId))
    .where(
      and(
        eq(kiosks.tokenHash, digest(secret, token)),
        isNull(kiosks.revokedAt),
        isNull(sites.archivedAt),
      ),
    )
    .limit(1);
  if (!row) return null;
  const { lastSeenAt, ...device } = row;
  if (!lastSeenAt || now.getTime() - lastSeenAt.getTime() >= KIOSK_LIMITS.lastSeenEveryMs) {
    const staleBefore = new Date(now.getTime() - KIOSK_LIMITS.lastSeenEveryMs);
    await db
      .update(kiosks)
      .set({ lastSeenAt: now })
      .where(
        and(
          eq(kiosks.id, device.id),
          or(isNull(kiosks.lastSeenAt), lt(kiosks.lastSeenAt, staleBefore)),
        ),
      );
  }
  return device;
}

/** Revokes a kiosk: its token and any pairing code stop working at once. */
export async function revokeKiosk(db: Db, kioskId: string, now = new Date()): Promise<void> {
  await db
    .update(kiosks)
    .set({ revokedAt: now, tokenHash: null, pairingCodeHash: null, pairingExpiresAt: null })
    .where(eq(kiosks.id, kioskId));
}
