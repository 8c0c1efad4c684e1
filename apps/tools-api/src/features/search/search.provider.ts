// Which search engine tools-api uses (config.search, from SEARCH_PROVIDER): the engine behind the port,
// the job kinds that keep it in step, and what to do at start.
import type postgres from 'postgres';
import type { PlatformConfig } from '@story/config';
import type { JobDefinition } from '@story/jobs';
import { createMeiliSearchEngine, meiliIndex, type MeiliIndex } from './search.meilisearch';
import type { SearchEngine } from './search.port';
import { createSearchRepository } from './search.repository';
import { searchSyncJob, setExternalSearch } from './search.sync';

export interface SearchProvider {
  engine: SearchEngine;
  jobs: JobDefinition<Record<string, never>>[];
  /** Turns the outbox on or off to match the engine (a first switch to Meilisearch queues every document). */
  start(): Promise<{ queued: number }>;
}

export function createSearchProvider(sql: postgres.Sql, config: PlatformConfig['search'], syncEverySeconds = 2): SearchProvider {
  if (config.provider === 'postgres') {
    return { engine: createSearchRepository(sql), jobs: [], start: () => setExternalSearch(sql, false) };
  }
  let index: Promise<MeiliIndex> | undefined;
  const lazyIndex = () => {
    index ??= meiliIndex(config).catch((err: unknown) => {
      index = undefined;
      throw err;
    });
    return index;
  };
  return {
    engine: createMeiliSearchEngine({ sql, index: lazyIndex }),
    jobs: [searchSyncJob({ sql, index: lazyIndex, everySeconds: syncEverySeconds })],
    start: () => setExternalSearch(sql, true),
  };
}
