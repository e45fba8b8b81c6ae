/**
 * Addresses of stored files. Identity documents and photos are reached only
 * through short-lived signed URLs, handed out to staff who may see them (so an
 * <img> tag and a capture can load them without a bearer header). Logos are public.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNED_URL_TTL_MS = 30 * 60 * 1000;

export class FileUrls {
  constructor(private readonly secret: string) {}

  private signature(fileId: string, expires: number): string {
    return createHmac('sha256', this.secret)
      .update(`file:${fileId}:${expires}`)
      .digest('base64url');
  }

  /** A URL to a private file, valid for SIGNED_URL_TTL_MS. */
  signed(fileId: string | null | undefined, now = Date.now()): string | null {
    if (!fileId) return null;
    // Rounded so that lists fetched twice in a row give the same URLs (browser cache).
    const expires = Math.ceil((now + SIGNED_URL_TTL_MS) / 60_000) * 60_000;
    return `/api/files/${fileId}?expires=${expires}&signature=${this.signature(fileId, expires)}`;
  }

  verify(fileId: string, expires: number, signature: string, now = Date.now()): boolean {
    if (!Number.isFinite(expires) || expires < now) return false;
    const expected = Buffer.from(this.signature(fileId, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** Public URL of a company logo (spec §7 logo/{logo}). */
  logo(storedName: string | null | undefined): string | null {
    return storedName ? `/api/public/logo/${storedName}` : null;
  }
}
