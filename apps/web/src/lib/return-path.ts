/**
 * Where to go back after signing in: only a path of this application (same origin,
 * relative), never another site, never the sign-in page itself.
 */
const MAX_RETURN_PATH = 2000;

export function safeReturnPath(value: unknown, origin = window.location.origin): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_RETURN_PATH)
    return null;
  // '//host' and '/\host' are read by browsers as another site.
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // Control characters (a tab or a newline inside '/\t/host') are dropped by URL parsers.
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return null;
  }
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  if (url.pathname === '/' || url.pathname === '/sign-in') return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
