/**
 * A link signed for one use of the product (a host's decision, a visitor's invitation): a
 * JWT whose key is derived from JWT_SECRET for that use alone (its audience), so neither a
 * session token nor another kind of link can stand in for it. Its expiry is read against
 * `clock`, so that a test can move the day on.
 */
import { createHmac } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';

export type LinkCheck<T> =
  ({ ok: true; expiresAt: Date } & T) | { ok: false; reason: 'invalid' | 'expired' };

export class SignedLinks {
  private readonly signer: (payload: Record<string, unknown>) => string;
  private readonly verifier: (token: string) => Record<string, unknown>;

  constructor(
    secret: string,
    audience: string,
    requiredClaims: string[],
    private readonly clock: () => number = Date.now,
  ) {
    const key = createHmac('sha256', secret).update(audience).digest('base64url');
    this.signer = createSigner({ key, algorithm: 'HS256', aud: audience });
    this.verifier = createVerifier({
      key,
      algorithms: ['HS256'],
      allowedAud: audience,
      requiredClaims: [...requiredClaims, 'exp', 'aud'],
      ignoreExpiration: true,
    });
  }

  sign(claims: Record<string, string>, expiresAt: Date): string {
    return this.signer({ ...claims, exp: Math.floor(expiresAt.getTime() / 1000) });
  }

  /** The claims of a valid, unexpired link (each a string), or why it is refused. */
  verify(token: string): LinkCheck<{ claims: Record<string, string> }> {
    let claims: Record<string, unknown>;
    try {
      claims = this.verifier(token);
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    const { exp, aud: _aud, iat: _iat, ...rest } = claims;
    if (typeof exp !== 'number' || Object.values(rest).some((v) => typeof v !== 'string'))
      return { ok: false, reason: 'invalid' };
    if (exp * 1000 <= this.clock()) return { ok: false, reason: 'expired' };
    // Every value of `rest` was checked to be a string just above.
    return { ok: true, claims: rest as Record<string, string>, expiresAt: new Date(exp * 1000) };
  }
}
