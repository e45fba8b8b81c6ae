import { randomBytes, randomUUID } from 'node:crypto';
import { uidnFromBytes } from '@sesame/shared';

/**
 * A time-ordered UUID v7 (RFC 9562): 48-bit milliseconds, then random bits.
 * It is a v4 UUID from randomUUID() with its first 48 bits replaced by the time and
 * its version digit set to 7: randomUUID() draws from a pool of random bytes Node
 * refills in batches, where randomBytes(16) asked the system for entropy on every
 * id (a tenth of the code check's own CPU, npm run bench -- checkin). The variant
 * bits and the 74 random bits that remain are randomUUID()'s.
 */
export function newId(now = Date.now()): string {
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}

/** A new visitor or QR-user code: 60 random bits in Crockford base32 (ARCHITECTURE §6). */
export function newUidn(): string {
  return uidnFromBytes(randomBytes(12));
}
