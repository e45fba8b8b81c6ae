/**
 * The host's decision link (issue 15): a signed token naming one request and one
 * staff member, expiring at the end of the meeting's day (the company's zone). Its
 * key is derived from JWT_SECRET for this one use (auth/signed-link.ts), so neither a
 * session token nor a signed file link can stand in for it. Single use comes from the request itself:
 * once decided, every link to it shows the decision and changes nothing.
 */
import { SignedLinks } from '../auth/signed-link';
import { nextMidnight } from '../time-zones';

const AUDIENCE = 'sesame:host-decision';

export interface DecisionClaims {
  /** The staff member deciding (the host, or a front-desk member). */
  userId: string;
  requestId: string;
}

export type DecisionCheck =
  ({ ok: true; expiresAt: Date } & DecisionClaims) | { ok: false; reason: 'invalid' | 'expired' };

/** The end of a DD/MM/YYYY day in `timeZone`; a week from `now` when the date cannot be read. */
export function meetingDayEnd(date: string | null, timeZone: string, now = new Date()): Date {
  const [dd, mm, yyyy] = (date ?? '').split('/').map(Number);
  if (!dd || !mm || !yyyy) return new Date(now.getTime() + 7 * 86_400_000);
  return nextMidnight(yyyy, mm, dd, timeZone);
}

export class DecisionTokens {
  private readonly links: SignedLinks;

  constructor(secret: string, clock: () => number = Date.now) {
    this.links = new SignedLinks(secret, AUDIENCE, ['sub', 'rid'], clock);
  }

  sign(claims: DecisionClaims, expiresAt: Date): string {
    return this.links.sign({ sub: claims.userId, rid: claims.requestId }, expiresAt);
  }

  verify(token: string): DecisionCheck {
    const check = this.links.verify(token);
    if (!check.ok) return check;
    const { sub, rid } = check.claims;
    if (!sub || !rid) return { ok: false, reason: 'invalid' };
    return { ok: true, userId: sub, requestId: rid, expiresAt: check.expiresAt };
  }
}
