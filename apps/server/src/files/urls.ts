/**
 * Addresses of stored files. Identity documents and photos are reached only
 * through short-lived signed URLs, handed out to staff who may see them. Logos are public.
 *
 * A signed URL is bound to the session of the staff member it was handed to: the
 * session id is part of what is signed. The URL alone opens nothing (issue 26 §3):
 * the fetch must also carry that session's own credential, its bearer token (an API
 * client) or the files cookie the browser got at sign-in (an <img> sends no header),
 * and every fetch checks that this session is still live and may see the file's
 * company (files/routes.ts). A link copied out of the page is nothing in another
 * browser, stops working at logout and when the account is disabled, and is never
 * good for anyone else's session.
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

  /**
   * The files cookie's value for a session: its id and a MAC of it, so the cookie names
   * one session and cannot be made for another without the server's secret. It opens
   * only the file route (the API reads bearer tokens alone), and only while that session
   * is live.
   */
  sessionKey(sessionId: string): string {
    return `${sessionId}.${this.keyMac(sessionId)}`;
  }

  /** The session a files cookie names, or null for a value this server did not make. */
  sessionOfKey(value: string): string | null {
    const dot = value.indexOf('.');
    if (dot <= 0) return null;
    const sessionId = value.slice(0, dot);
    const expected = Buffer.from(this.keyMac(sessionId));
    const given = Buffer.from(value.slice(dot + 1));
    return expected.length === given.length && timingSafeEqual(expected, given) ? sessionId : null;
  }

  private keyMac(sessionId: string): string {
    // Its own prefix: no URL signature can pass for a cookie, nor a cookie for a signature.
    return createHmac('sha256', this.secret)
      .update(`files-cookie:session:${sessionId}`)
      .digest('base64url');
  }

  /** Public URL of a company logo (spec §7 logo/{logo}). */
  logo(storedName: string | null | undefined): string | null {
    return storedName ? `/api/public/logo/${storedName}` : null;
  }
}
