// Access tokens (CONTRACTS §2): HS256 JWTs with sub, email, role, sid, iat, exp. jose verifies with an
// explicit algorithm list, so alg "none" and any other algorithm are refused.
import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 24 * 60 * 60;

export interface AccessClaims {
  sub: string;
  email: string;
  role: string;
  sid: string;
  iat: number;
  exp: number;
}

export interface TokenSigner {
  sign(input: { userId: string; email: string; role: string; sessionId: string }): Promise<{ token: string; expiresAt: number; expiresIn: number }>;
  /** Verified claims, or null for anything malformed, expired, tampered or of another algorithm. */
  verify(token: string): Promise<AccessClaims | null>;
}

export function createTokenSigner(secret: string, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS): TokenSigner {
  const key = new TextEncoder().encode(secret);
  return {
    async sign({ userId, email, role, sessionId }) {
      const iat = Math.floor(Date.now() / 1000);
      const exp = iat + ttlSeconds;
      const token = await new SignJWT({ email, role, sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
      return { token, expiresAt: exp, expiresIn: ttlSeconds };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const { sub, email, role, sid, iat, exp } = payload as Partial<AccessClaims>;
        if (typeof sub !== 'string' || typeof sid !== 'string' || typeof email !== 'string' || typeof role !== 'string') return null;
        if (typeof iat !== 'number' || typeof exp !== 'number') return null;
        return { sub, email, role, sid, iat, exp };
      } catch {
        return null;
      }
    },
  };
}
