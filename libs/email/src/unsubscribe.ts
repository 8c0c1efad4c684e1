// Signed one-click unsubscribe links (RFC 8058). The token carries the user's unsubscribe_token_version,
// so bumping that column revokes every link sent before without keeping a token table.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type DbOrTx, EMAIL_CATEGORIES } from '@story/db';
import { createPreferencesRepository } from './preferences.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface UnsubscribePayload {
  userId: string | null;
  email: string;
  /** An email category, or 'all'. */
  category: string;
  version: number;
}

export interface UnsubscribeTokens {
  /** A URL-safe token `<payload>.<hmac>`, both base64url. */
  sign(p: UnsubscribePayload): string;
  /** The payload of a genuine token, else null (tampered, malformed, other secret). */
  verify(token: string): UnsubscribePayload | null;
}

export function createUnsubscribeTokens(secret: string): UnsubscribeTokens {
  if (!secret) throw new Error('createUnsubscribeTokens needs a non-empty secret');
  const mac = (body: string) => createHmac('sha256', secret).update(`unsubscribe:${body}`).digest();
  return {
    sign(p) {
      const body = Buffer.from(JSON.stringify({ u: p.userId, e: p.email, c: p.category, v: p.version })).toString('base64url');
      return `${body}.${mac(body).toString('base64url')}`;
    },
    verify(token) {
      const [body, sig, extra] = token.split('.');
      if (!body || !sig || extra !== undefined) return null;
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const raw = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
        if ((raw['u'] !== null && typeof raw['u'] !== 'string') || typeof raw['e'] !== 'string' || typeof raw['c'] !== 'string' || !Number.isInteger(raw['v'])) return null;
        return { userId: raw['u'] as string | null, email: raw['e'], category: raw['c'], version: raw['v'] as number };
      } catch {
        return null;
      }
    },
  };
}

/** The RFC 8058 headers for a message; the POST to the same URL unsubscribes without a confirmation page. */
export function unsubscribeHeaders(baseUrl: string, token: string): Record<string, string> {
  const url = `${baseUrl.replace(/\/+$/, '')}/api/email/unsubscribe?token=${encodeURIComponent(token)}`;
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The version to sign into a new link: the row's, or 1 (the column default) when the user has no row yet. */
export async function currentUnsubscribeVersion(db: DbOrTx, userId: string): Promise<number> {
  return (await createPreferencesRepository(db).unsubscribeVersion(userId)) ?? 1;
}

/**
 * Apply a verified token. False when the link was revoked (version bumped), names no account, or names a
 * category that cannot be opted out of (transactional, system). Applying twice is harmless.
 */
export async function applyUnsubscribe(db: DbOrTx, payload: UnsubscribePayload): Promise<boolean> {
  if (!payload.userId || !UUID.test(payload.userId)) return false;
  const all = payload.category === 'all';
  const optional = EMAIL_CATEGORIES.filter((c) => c !== 'transactional' && c !== 'system') as string[];
  if (!all && !optional.includes(payload.category)) return false;
  const userId = payload.userId;
  return db.transaction(async (tx) => {
    const preferences = createPreferencesRepository(tx);
    // No row means the defaults (version 1): create it so the version check has something to match.
    await preferences.ensurePreferencesRow(userId);
    return preferences.unsubscribe(userId, payload.category, payload.version);
  });
}
