// Access tokens (CONTRACTS §2): HS256 JWTs with sub, email, role, sid, iat, exp. jose verifies with an
// explicit algorithm list, so alg "none" and any other algorithm are refused.
import { createSecretKey } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 24 * 60 * 60;

export interface AccessClaims {
  sub: string;
  email: string;
  role: string;
  sid: string;
  iat: number;
  exp: number;
  /** RFC 8693 actor claim: present on an impersonation token, naming the admin acting as `sub`. */
  act?: { sub: string };
}

export interface SignInput {
  userId: string;
  email: string;
  role: string;
  sessionId: string;
  /** Impersonation: the admin's id, written as `act: {sub}`. */
  actorId?: string;
  /** A shorter lifetime than the signer's (impersonation tokens live at most 15 minutes). */
  ttlSeconds?: number;
}

export interface TokenSigner {
  sign(input: SignInput): Promise<{ token: string; expiresAt: number; expiresIn: number }>;
  /** Verified claims, or null for anything malformed, expired, tampered or of another algorithm. */
  verify(token: string): Promise<AccessClaims | null>;
}

/**
 * Verified claims by token string. A token's signature check always gives the same answer, so it is
 * done once per token (it cost a third of an authenticated request); expiry is still checked on every
 * use, and revocation is the session check's job, not this cache's.
 */
class VerifiedTokenCache {
  private readonly entries = new Map<string, AccessClaims>();
  constructor(private readonly max: number) {}

  get(token: string): AccessClaims | undefined {
    return this.entries.get(token);
  }

  set(token: string, claims: AccessClaims): void {
    if (this.entries.size >= this.max) {
      // Map iterates in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(token, claims);
  }

  delete(token: string): void {
    this.entries.delete(token);
  }
}

export function createTokenSigner(secret: string, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS, cacheSize = 10_000): TokenSigner {
  const verified = new VerifiedTokenCache(cacheSize);
  // A KeyObject built once: jose would otherwise import raw key bytes on every verification.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return {
    async sign({ userId, email, role, sessionId, actorId, ttlSeconds: ttl = ttlSeconds }) {
      const iat = Math.floor(Date.now() / 1000);
      const exp = iat + ttl;
      const token = await new SignJWT({ email, role, sid: sessionId, ...(actorId ? { act: { sub: actorId } } : {}) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
      return { token, expiresAt: exp, expiresIn: ttl };
    },
    async verify(token) {
      const cached = verified.get(token);
      if (cached) {
        if (cached.exp > Date.now() / 1000) return cached;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const { sub, email, role, sid, iat, exp, act } = payload as Partial<AccessClaims>;
        if (typeof sub !== 'string' || typeof sid !== 'string' || typeof email !== 'string' || typeof role !== 'string') return null;
        if (typeof iat !== 'number' || typeof exp !== 'number') return null;
        // An actor claim that is present but malformed is refused rather than read as "no actor".
        if (act !== undefined && (typeof act !== 'object' || act === null || typeof act.sub !== 'string')) return null;
        const claims: AccessClaims = { sub, email, role, sid, iat, exp, ...(act ? { act: { sub: act.sub } } : {}) };
        verified.set(token, claims);
        return claims;
      } catch {
        return null;
      }
    },
  };
}
