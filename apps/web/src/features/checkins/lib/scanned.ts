/**
 * What a scanned QR code holds (spec §4 camera scan): a URL of this application
 * (a visitor's or member's scan link), an e-mail (the kiosk presence), or
 * anything else, which is refused.
 */
import { EMAIL_PATTERN } from '@sesame/shared';

export type Scanned =
  | { kind: 'link'; path: string }
  | { kind: 'email'; email: string }
  | { kind: 'foreign-link'; url: string }
  | { kind: 'invalid'; value: string };

export function readScanned(value: string, origin: string): Scanned {
  const text = value.trim();
  if (EMAIL_PATTERN.test(text)) return { kind: 'email', email: text.toLowerCase() };
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
    // Followed only on this application's own origin: a printed code cannot send
    // the front desk's signed-in browser anywhere else.
    if (url.origin === origin) return { kind: 'link', path: `${url.pathname}${url.search}` };
    return { kind: 'foreign-link', url: text };
  }
  return { kind: 'invalid', value: text };
}
