// Clearing caches on every replica of every service (spec 001 POST /api/clear-cache; CONTRACTS §7: a flag
// change is seen everywhere within a second). Each process LISTENs on one PostgreSQL channel through
// postgres.js (a dedicated connection that reconnects by itself); a NOTIFY sent inside a transaction is
// delivered only when it commits, so no replica reloads before the change is visible.
import type postgres from 'postgres';

export const CACHE_CHANNEL = 'story_cache_clear';
/** Payload that clears every registered cache. */
export const ALL_CACHES = 'all';

export interface CacheBus {
  /** A cache this process keeps, cleared when `scope` or `all` is published. */
  register(scope: string, clear: () => void): void;
  /**
   * Start listening (idempotent). Resolves once the LISTEN is in place, or once it has failed: a service
   * starts without its database (its /health says so), postgres.js keeps re-listening until the client
   * ends, and meanwhile the caches still expire after their TTL.
   */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Clear `scope` (default all) here at once and NOTIFY every other process. */
  publish(scope?: string): Promise<void>;
  /** Clear the local caches of `scope` only (what a notification does). */
  clearLocal(scope: string): string[];
}

/** A scope name is a plain word; anything else in a payload is ignored. */
const SCOPE = /^[a-z][a-z0-9_.-]{0,62}$/;

export function createCacheBus({
  sql,
  onClear,
  onError,
}: {
  sql: postgres.Sql;
  onClear?: (scope: string, cleared: string[]) => void;
  onError?: (err: unknown) => void;
}): CacheBus {
  const caches: { scope: string; clear: () => void }[] = [];
  let listening: Promise<{ unlisten(): Promise<void> } | null> | null = null;

  function clearLocal(scope: string): string[] {
    const cleared: string[] = [];
    for (const c of caches) {
      if (scope === ALL_CACHES || scope === c.scope) {
        c.clear();
        cleared.push(c.scope);
      }
    }
    onClear?.(scope, cleared);
    return cleared;
  }

  return {
    register(scope, clear) {
      if (!SCOPE.test(scope)) throw new Error(`invalid cache scope: ${scope}`);
      caches.push({ scope, clear });
    },
    async start() {
      listening ??= sql
        .listen(CACHE_CHANNEL, (payload) => {
          if (SCOPE.test(payload)) clearLocal(payload);
        })
        .catch((err: unknown) => {
          onError?.(err);
          return null;
        });
      await listening;
    },
    async stop() {
      const l = listening;
      listening = null;
      const handle = l ? await l : null;
      await handle?.unlisten().catch(() => undefined);
    },
    async publish(scope = ALL_CACHES) {
      clearLocal(scope);
      await sql`select pg_notify(${CACHE_CHANNEL}, ${scope})`;
    },
    clearLocal,
  };
}
