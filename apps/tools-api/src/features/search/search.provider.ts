// Which search engine tools-api uses (config.search, from SEARCH_PROVIDER): the engine behind the port,
// the job kinds that keep it in step, and what to do at start.
import type postgres from 'postgres';
import type { PlatformConfig } from '@story/config';
import type { DependencyCheck } from '@story/http';
import type { JobDefinition } from '@story/jobs';
import { createFallbackSearchEngine } from './search.fallback';
import { createMeiliSearchEngine, meiliIndex, type MeiliIndex } from './search.meilisearch';
import type { SearchEngine } from './search.port';
import { createSearchRepository } from './search.repository';
import { searchSyncJob, setExternalSearch } from './search.sync';

export interface SearchProvider {
  engine: SearchEngine;
  jobs: JobDefinition<Record<string, never>>[];
  /** Turns the outbox on or off to match the engine (a first switch to Meilisearch queues every document). */
  start(): Promise<{ queued: number }>;
  /** /health's search check (Meilisearch only; PostgreSQL is the database check). */
  health?: DependencyCheck;
}

/** How long a search waits for Meilisearch before PostgreSQL answers instead. */
export const SEARCH_REQUEST_TIMEOUT_MS = 2_000;

interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export function createSearchProvider(
  sql: postgres.Sql,
  config: PlatformConfig['search'],
  options: { log: Log; syncEverySeconds?: number; retryMs?: number },
): SearchProvider {
  const syncEverySeconds = options.syncEverySeconds ?? 2;
  if (config.provider === 'postgres') {
    return { engine: createSearchRepository(sql), jobs: [], start: () => setExternalSearch(sql, false) };
  }
  // Two clients: searches time out after SEARCH_REQUEST_TIMEOUT_MS, the sync job's writes keep the client's default.
  const lazy = (requestTimeoutMs?: number) => {
    let index: Promise<MeiliIndex> | undefined;
    return () => {
      index ??= meiliIndex(config, { requestTimeoutMs }).catch((err: unknown) => {
        index = undefined;
        throw err;
      });
      return index;
    };
  };
  const lazyIndex = lazy();
  const searchIndex = lazy(SEARCH_REQUEST_TIMEOUT_MS);
  const engine = createFallbackSearchEngine({
    primary: createMeiliSearchEngine({ sql, index: searchIndex }),
    fallback: createSearchRepository(sql),
    ping: async () => (await searchIndex()).search('', { limit: 0 }),
    log: options.log,
    retryMs: options.retryMs,
  });
  return {
    engine,
    health: engine.health,
    jobs: [searchSyncJob({ sql, index: lazyIndex, everySeconds: syncEverySeconds })],
    start: () => setExternalSearch(sql, true),
  };
}
