/**
 * The files cookie (issue 26 §3): how a browser proves, on `GET /api/files/{id}`, that it
 * holds the session a document URL was signed for. An <img> or a link cannot send the
 * bearer header, so sign-in (and every /user/info) sets this cookie and sign-out clears it.
 *
 * - HttpOnly: the page's scripts never read it (the bearer token they keep is enough).
 * - SameSite=Strict: sent only on requests from Sésame's own pages (and an address typed
 *   in), never from a link or an embed on another site.
 * - Path=/api/files: sent with file fetches only, never with other API calls.
 * - Secure over HTTPS: when the request came over HTTPS (as the trusted proxies say,
 *   TRUST_PROXY) or PUBLIC_URL is an https:// address.
 *
 * Its value names the session (FileUrls.sessionKey); files/routes.ts checks it is live.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export const FILES_COOKIE = 'sesame_files';
export const FILES_COOKIE_PATH = '/api/files';

/** A cookie value is a session id, a dot and a base64url MAC: nothing else is read. */
const COOKIE_VALUE = /^[\w.-]{1,200}$/;

function attributes(request: FastifyRequest, publicUrl: string): string {
  const secure = request.protocol === 'https' || publicUrl.startsWith('https:');
  return `Path=${FILES_COOKIE_PATH}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Sets the files cookie for one session, kept by the browser until the session expires. */
export function setFilesCookie(
  reply: FastifyReply,
  value: string,
  expiresAt: Date,
  publicUrl: string,
): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  void reply.header(
    'set-cookie',
    `${FILES_COOKIE}=${value}; Expires=${expiresAt.toUTCString()}; Max-Age=${maxAge}; ${attributes(reply.request, publicUrl)}`,
  );
}

/** Tells the browser to drop the files cookie (sign-out, or a cookie whose session ended). */
export function clearFilesCookie(reply: FastifyReply, publicUrl: string): void {
  void reply.header(
    'set-cookie',
    `${FILES_COOKIE}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; ${attributes(reply.request, publicUrl)}`,
  );
}

/** The files cookie's value sent with the request, if any. */
export function filesCookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== FILES_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (COOKIE_VALUE.test(value)) return value;
  }
  return undefined;
}
