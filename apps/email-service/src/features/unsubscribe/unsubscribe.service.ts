// One-click unsubscribe (RFC 8058, spec 001): a link's signed token names an address and a category; applying
// it records the opt-out through @story/email, which also refuses revoked links and non-optional categories.
import type { Database } from '@story/db';
import { applyUnsubscribe, createUnsubscribeTokens } from '@story/email';

/** Who a genuine link unsubscribes, and from what ('all' or an email category). */
export interface UnsubscribeTarget {
  email: string;
  category: string;
}

export function createUnsubscribeService({ db, secret }: { db: Database; secret: string }) {
  const tokens = createUnsubscribeTokens(secret);
  return {
    /** What a token would unsubscribe, without changing anything; null for a missing or forged token. */
    preview(token: string | undefined): UnsubscribeTarget | null {
      const payload = token ? tokens.verify(token) : null;
      return payload ? { email: payload.email, category: payload.category } : null;
    },

    /** Apply a token; null when it is forged, revoked, names no account or a category that cannot be left. */
    async apply(token: string | undefined): Promise<UnsubscribeTarget | null> {
      const payload = token ? tokens.verify(token) : null;
      if (!payload) return null;
      if (!(await applyUnsubscribe(db, payload))) return null;
      return { email: payload.email, category: payload.category };
    },
  };
}

export type UnsubscribeService = ReturnType<typeof createUnsubscribeService>;
