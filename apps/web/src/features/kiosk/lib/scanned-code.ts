/**
 * The code a kiosk sends for a QR held to its camera: a badge's QR carries a visitor's code
 * (uidn) itself, the mail's a scan link (`{public URL}/scan/{code}`). The link's address may
 * not be the one the tablet reaches the server by (a proxy, another host name), and the kiosk
 * only ever posts the code to its own server (it never follows the link), so any web address
 * whose path is `/scan/{code}` counts. Anything else is not a visitor's code: null.
 */
const CODE = /^[A-Za-z0-9][A-Za-z0-9-]{2,63}$/;

export function visitorCodeOf(value: string): string | null {
  const text = value.trim();
  if (!text) return null;
  if (URL.canParse(text)) {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const match = /^\/scan\/([^/]+)\/?$/.exec(url.pathname);
    const code = match ? decodeURIComponent(match[1]!) : null;
    return code && CODE.test(code) ? code : null;
  }
  return CODE.test(text) ? text : null;
}
