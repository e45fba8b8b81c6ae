import { createSigner, createVerifier } from 'fast-jwt';
import { TOKEN_TTL_SECONDS } from '@sesame/shared';

/** Verified tokens remembered: more than the desks and staff signed in at once on one server. */
const VERIFIED_TOKENS_KEPT = 1000;

/** The token is a signed pointer to a server-side session row (revocable on logout). */
export interface TokenClaims {
  sub: string;
  sid: string;
}

/**
 * HS256 tokens (ARCHITECTURE §6). fast-jwt verifies synchronously with node:crypto:
 * every authenticated request verifies one, and the Web Crypto path (jose) cost a
 * tenth of the server's CPU per code check (npm run bench -- checkin).
 *
 * A desk sends the same token all day, so verified tokens are kept (fast-jwt's LRU,
 * keyed by a hash of the token, never past the token's own expiry). The cache only
 * spares the signature and claims check: whether the session is still live (logout,
 * a disabled account) is read from the database on every request.
 */
export class TokenService {
  private readonly signer: (payload: Record<string, unknown>) => string;
  private readonly verifier: (token: string) => Record<string, unknown>;

  constructor(secret: string) {
    this.signer = createSigner({ key: secret, algorithm: 'HS256' });
    this.verifier = createVerifier({
      key: secret,
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'sid', 'exp'],
      cache: VERIFIED_TOKENS_KEPT,
    });
  }

  async sign(claims: TokenClaims, expiresAt: Date): Promise<string> {
    return this.signer({
      sub: claims.sub,
      sid: claims.sid,
      exp: Math.floor(expiresAt.getTime() / 1000),
    });
  }

  /** Returns the claims, or null for a malformed, forged or expired token. */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const payload = this.verifier(token);
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      return { sub: payload.sub, sid: payload.sid };
    } catch {
      return null;
    }
  }
}

export function tokenExpiry(now = new Date()): Date {
  return new Date(now.getTime() + TOKEN_TTL_SECONDS * 1000);
}
