import { SignJWT, jwtVerify } from 'jose';
import { TOKEN_TTL_SECONDS } from '@sesame/shared';

/** The token is a signed pointer to a server-side session row (revocable on logout). */
export interface TokenClaims {
  sub: string;
  sid: string;
}

export class TokenService {
  private readonly key: Uint8Array;
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: TokenClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** Returns the claims, or null for a malformed, forged or expired token. */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
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
