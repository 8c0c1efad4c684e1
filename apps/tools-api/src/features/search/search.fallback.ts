// Meilisearch with PostgreSQL behind it (SEARCH_PROVIDER=meilisearch; the answer to the engine's outage,
// docs/reliability.md "Search engine outage"): tools_search is kept by triggers whichever engine serves,
// so when Meilisearch does not answer (refused, timed out, 5xx) GET /api/search answers from PostgreSQL
// full text at once: the same shape, the same visibility rules, its own ranking and snippets. A circuit
// breaker (libs/http) leaves Meilisearch alone for `retryMs`, then one search tries it again; the outage
// is logged once each way and /health reports search "degraded" meanwhile. The sync job keeps its
// outbox, so the engine catches up when it is back.
import { createCircuitBreaker, type DependencyCheck } from '@story/http';
import type { HitRow, SearchCaller, SearchEngine, SearchPage, SearchQuery } from './search.port';
import type { ToolRoute } from '@story/db';

export const SEARCH_RETRY_MS = 10_000;

export interface FallbackSearchEngine extends SearchEngine {
  /** /health's check: 'ok', or degraded while PostgreSQL answers for Meilisearch. */
  health: DependencyCheck;
}

interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export function createFallbackSearchEngine(deps: {
  primary: SearchEngine;
  fallback: SearchEngine;
  /** A cheap request to the primary (health polls while no search comes). */
  ping: () => Promise<unknown>;
  log: Log;
  retryMs?: number;
}): FallbackSearchEngine {
  const { primary, fallback, log } = deps;
  const retryMs = deps.retryMs ?? SEARCH_RETRY_MS;
  const breaker = createCircuitBreaker({
    retryMs,
    onOpen: (reason) => log.warn({ engine: primary.provider, reason }, 'search: Meilisearch does not answer; searching PostgreSQL full text until it does'),
    onClose: () => log.info({ engine: primary.provider }, 'search: Meilisearch answers again'),
  });

  async function either<T>(onPrimary: () => Promise<T>, onFallback: () => Promise<T>): Promise<T> {
    if (!breaker.allow()) return onFallback();
    try {
      const result = await onPrimary();
      breaker.success();
      return result;
    } catch (err) {
      breaker.failure(err);
      return onFallback();
    }
  }

  return {
    provider: primary.provider,
    page: (query: SearchQuery, caller: SearchCaller): Promise<SearchPage> => either(() => primary.page(query, caller), () => fallback.page(query, caller)),
    // Meilisearch rows carry their snippet; rows without one came from PostgreSQL, which makes them.
    excerpts: (rows: HitRow[], q: string) => fallback.excerpts(rows, q),
    prefixTitles: (tools: readonly ToolRoute[], terms: string[], max: number) =>
      either(() => primary.prefixTitles(tools, terms, max), () => fallback.prefixTitles(tools, terms, max)),
    health: {
      required: false,
      // Polls ask Meilisearch at most every 5 s (or every retry, when that is shorter).
      cacheMs: Math.min(5_000, retryMs),
      check: async () => {
        if (breaker.allow()) {
          try {
            await deps.ping();
            breaker.success();
            return 'ok';
          } catch (err) {
            breaker.failure(err);
          }
        }
        return { status: 'degraded', engine: 'postgres', error: `Meilisearch does not answer (${breaker.lastError ?? 'circuit open'}); searching PostgreSQL full text` };
      },
    },
  };
}
