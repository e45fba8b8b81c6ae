/**
 * The code a kiosk sends for a QR held to its camera: a badge's QR and the mail's QR carry a
 * visitor's code (uidn), the mail's as a scan link of this application
 * (`{origin}/scan/{code}`). Anything else is not a visitor's code: null.
 */
const CODE = /^[A-Za-z0-9][A-Za-z0-9-]{2,63}$/;

export function visitorCodeOf(value: string, origin: string): string | null {
  const text = value.trim();
  if (!text) return null;
  if (URL.canParse(text)) {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    // A link of this application only: a printed code cannot make the kiosk post another site's.
    if (url.origin !== origin) return null;
    const match = /^\/scan\/([^/]+)\/?$/.exec(url.pathname);
    const code = match ? decodeURIComponent(match[1]!) : null;
    return code && CODE.test(code) ? code : null;
  }
  return CODE.test(text) ? text : null;
}
