/**
 * Addresses of stored files. Identity documents and photos are reached only
 * through short-lived signed URLs, handed out to staff who may see them (so an
 * <img> tag and a capture can load them without a bearer header). Logos are public.
 *
 * A signed URL is bound to the session of the staff member it was handed to: the
 * session id is part of what is signed, and every fetch checks that this session
 * is still live and may see the file's company (files/routes.ts). A link copied
 * out of the page stops working at logout, when the account is disabled, and is
 * never good for anyone else's session.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNED_URL_TTL_MS = 30 * 60 * 1000;

/** Whose session a link is bound to: the signed-in staff member who is shown it. */
export interface FileViewer {
  sessionId: string;
}

/** Signs private files' URLs for one viewer (what presenters are given). */
export interface FileSigner {
  signed(fileId: string | null | undefined): string | null;
}

export class FileUrls {
  constructor(private readonly secret: string) {}

  private signature(fileId: string, sessionId: string, expires: number): string {
    return createHmac('sha256', this.secret)
      .update(`file:${fileId}:session:${sessionId}:${expires}`)
      .digest('base64url');
  }

  /**
   * A URL to a private file for `viewer`'s session, valid for SIGNED_URL_TTL_MS and
   * while that session lives. Null without a file or without a signed-in viewer.
   */
  signed(
    fileId: string | null | undefined,
    viewer: FileViewer | null | undefined,
    now = Date.now(),
  ): string | null {
    if (!fileId || !viewer) return null;
    // Rounded so that lists fetched twice in a row give the same URLs (browser cache).
    const expires = Math.ceil((now + SIGNED_URL_TTL_MS) / 60_000) * 60_000;
    const signature = this.signature(fileId, viewer.sessionId, expires);
    return `/api/files/${fileId}?session=${viewer.sessionId}&expires=${expires}&signature=${signature}`;
  }

  /** The signer of one viewer's URLs, for the presenters of one request. */
  for(viewer: FileViewer | null | undefined): FileSigner {
    return { signed: (fileId) => this.signed(fileId, viewer) };
  }

  /** Whether the URL's signature is ours for this file and session, and not expired. */
  verify(
    fileId: string,
    sessionId: string,
    expires: number,
    signature: string,
    now = Date.now(),
  ): boolean {
    if (!Number.isFinite(expires) || expires < now) return false;
    const expected = Buffer.from(this.signature(fileId, sessionId, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** Public URL of a company logo (spec §7 logo/{logo}). */
  logo(storedName: string | null | undefined): string | null {
    return storedName ? `/api/public/logo/${storedName}` : null;
  }
}
