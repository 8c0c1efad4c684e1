// CSRF tokens of the admin application (CONTRACTS §12: every form carries one). HMAC-based synchronizer
// tokens (OWASP "HMAC based token pattern"): token = HMAC-SHA256(key, binding), where the binding is the
// signed-in session's id, or, on the sign-in form, a random nonce kept in its own HttpOnly, SameSite=Strict
// cookie (the signed double-submit cookie pattern). Nothing is stored: a token is valid exactly as long as
// what it is bound to, and a token of one session is worthless in another.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export interface Csrf {
  /** The token for a binding (`session:<id>` or `signin:<nonce>`). */
  tokenFor(binding: string): string;
  /** Whether `token` is the token of `binding` (constant time). */
  verify(binding: string, token: unknown): boolean;
}

/** The key is derived from JWT_SECRET, so every replica agrees without another secret to configure. */
export function createCsrf(secret: string): Csrf {
  const key = createHmac('sha256', secret).update('story-admin-dashboard-csrf-v1').digest();
  const tokenFor = (binding: string) => createHmac('sha256', key).update(binding).digest('base64url');
  return {
    tokenFor,
    verify(binding, token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 100) return false;
      const expected = Buffer.from(tokenFor(binding));
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/** A fresh nonce for the sign-in form's cookie. */
export const newNonce = (): string => randomBytes(32).toString('base64url');
