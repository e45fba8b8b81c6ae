/**
 * The host's decision link (issue 15): a signed token naming one request and one
 * staff member, expiring at the end of the meeting's day (the company's zone). Its
 * key is derived from JWT_SECRET for this one use, so neither a session token nor a
 * signed file link can stand in for it. Single use comes from the request itself:
 * once decided, every link to it shows the decision and changes nothing.
 */
import { createHmac } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
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
  private readonly signer: (payload: Record<string, unknown>) => string;
  private readonly verifier: (token: string) => Record<string, unknown>;

  constructor(
    secret: string,
    private readonly clock: () => number = Date.now,
  ) {
    const key = createHmac('sha256', secret).update(AUDIENCE).digest('base64url');
    this.signer = createSigner({ key, algorithm: 'HS256', aud: AUDIENCE });
    this.verifier = createVerifier({
      key,
      algorithms: ['HS256'],
      allowedAud: AUDIENCE,
      requiredClaims: ['sub', 'rid', 'exp', 'aud'],
      // Expiry is checked below against `clock`, so a test can move the day on.
      ignoreExpiration: true,
    });
  }

  sign(claims: DecisionClaims, expiresAt: Date): string {
    return this.signer({
      sub: claims.userId,
      rid: claims.requestId,
      exp: Math.floor(expiresAt.getTime() / 1000),
    });
  }

  verify(token: string): DecisionCheck {
    let claims: Record<string, unknown>;
    try {
      claims = this.verifier(token);
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    const { sub, rid, exp } = claims;
    if (typeof sub !== 'string' || typeof rid !== 'string' || typeof exp !== 'number')
      return { ok: false, reason: 'invalid' };
    if (exp * 1000 <= this.clock()) return { ok: false, reason: 'expired' };
    return { ok: true, userId: sub, requestId: rid, expiresAt: new Date(exp * 1000) };
  }
}
