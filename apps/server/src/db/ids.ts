import { randomBytes } from 'node:crypto';
import { uidnFromBytes } from '@sesame/shared';

/** A time-ordered UUID v7 (RFC 9562): 48-bit milliseconds, then random bits. */
export function newId(): string {
  const bytes = randomBytes(16);
  const ms = BigInt(Date.now());
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A new visitor or QR-user code: 60 random bits in Crockford base32 (ARCHITECTURE §6). */
export function newUidn(): string {
  return uidnFromBytes(randomBytes(12));
}
