// The Meilisearch adapter of the search port (SEARCH_PROVIDER=meilisearch), through the official client.
// Documents mirror tools_search rows plus their text (search.sync.ts pushes them from the job runner).
// Visibility (shared/visibility.ts) is the engine's filter; the page's hits are then checked again
// against tools_search, so an item made private a moment ago is not shown while the engine catches up.
import type postgres from 'postgres';
import { TOOL_ROUTES, type ToolRoute } from '@story/db';
import { visibleContentSql, visibleResponsesSql } from '../../shared/visibility';
import { COUNT_CAP, type CountRow, type HitRow, type SearchCaller, type SearchEngine, type SearchPage, type SearchQuery } from './search.port';

export interface MeiliSettings {
  url: string;
  apiKey?: string;
  index: string;
}

/** Dates as epoch milliseconds (filters compare numbers); "never" is the largest date. */
export const NEVER = 8_640_000_000_000_000;

export interface SearchDocument {
  id: string;
  tool: ToolRoute;
  kind: 'content' | 'responses';
  /** tool|kind: one facet gives the counts of each pair. */
  toolKind: string;
  title: string;
  body: string;
  keywords: string[];
  shareCode: string | null;
  promptId: string | null;
  sessionId: string;
  userId: string;
  isPublic: boolean;
  shareType: string;
  shareExpiresAt: number;
  expiresAt: number;
  deleted: boolean;
  moderationStatus: string;
  viewCount: number;
  createdAt: number;
}

export const INDEX_SETTINGS = {
  searchableAttributes: ['title', 'keywords', 'body'],
  filterableAttributes: ['kind', 'tool', 'toolKind', 'deleted', 'expiresAt', 'isPublic', 'shareType', 'shareExpiresAt', 'sessionId', 'userId', 'moderationStatus'],
  sortableAttributes: ['createdAt', 'viewCount'],
};

interface MeiliTask {
  status: string;
  error?: { message?: string } | null;
}
interface TaskPromise extends Promise<unknown> {
  waitTask(options?: { timeout?: number }): Promise<MeiliTask>;
}
interface MeiliHit extends Partial<SearchDocument> {
  _rankingScore?: number;
  _formatted?: { body?: string };
}
export interface MeiliIndex {
  search(q: string, options: Record<string, unknown>): Promise<{ hits: MeiliHit[]; facetDistribution?: Record<string, Record<string, number>> }>;
  addDocuments(documents: SearchDocument[], options?: { primaryKey?: string }): TaskPromise;
  deleteDocuments(ids: string[]): TaskPromise;
  updateSettings(settings: typeof INDEX_SETTINGS): TaskPromise;
}

/**
 * The client, loaded on first use only (the package is ESM: import() from this CommonJS code; the bundle
 * keeps it external, Jest transforms it).
 */
export async function meiliIndex(settings: MeiliSettings, options: { requestTimeoutMs?: number } = {}): Promise<MeiliIndex> {
  const { Meilisearch } = await import('meilisearch');
  const client = new Meilisearch({
    host: settings.url,
    apiKey: settings.apiKey,
    defaultWaitOptions: { timeout: 30_000, interval: 50 },
    // Searches give up quickly (PostgreSQL answers instead, search.fallback.ts); the sync job's bulk writes may take longer.
    ...(options.requestTimeoutMs ? { timeout: options.requestTimeoutMs } : {}),
  });
  return client.index(settings.index) as unknown as MeiliIndex;
}

/** A Meilisearch task that did not succeed is an error (the sync job retries). */
export async function settle(task: TaskPromise): Promise<void> {
  const done = await task.waitTask();
  if (done.status !== 'succeeded') throw new Error(`Meilisearch task ${done.status}: ${done.error?.message ?? 'no reason given'}`);
}

const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** shared/visibility.ts as a Meilisearch filter, at `now` (epoch ms). */
export function visibilityFilter(caller: SearchCaller, isPublic: boolean | undefined, now: number): string {
  const ownParts = [caller.sessionId ? `sessionId = ${quote(caller.sessionId)}` : null, caller.userId ? `userId = ${quote(caller.userId)}` : null].filter(Boolean);
  const own = ownParts.length ? `(${ownParts.join(' OR ')})` : null;
  const listedContent = `(isPublic = true AND (shareType != "expiring" OR shareExpiresAt > ${now}))`;
  const listedResponse = `(isPublic = true AND moderationStatus != "rejected")`;
  const pick = (listed: string) =>
    isPublic === true ? listed : isPublic === false ? (own ? `(${own} AND isPublic = false)` : 'isPublic = true AND isPublic = false') : own ? `(${listed} OR ${own})` : listed;
  return `deleted = false AND ((kind = "content" AND expiresAt > ${now} AND ${pick(listedContent)}) OR (kind = "responses" AND ${pick(listedResponse)}))`;
}

export function createMeiliSearchEngine(deps: { sql: postgres.Sql; index: () => Promise<MeiliIndex> }): SearchEngine {
  const { sql } = deps;

  /** The hits the caller may still see, by tools_search (the engine may be a few seconds behind). */
  async function stillVisible(ids: string[], caller: SearchCaller): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const s = sql`s`;
    const rows = await sql<{ id: string }[]>`
      select s.id from tools_search s where s.id in ${sql(ids)}
        and ((s.kind = 'content' and ${visibleContentSql(sql, s, caller)}) or (s.kind = 'responses' and s.deleted_at is null and ${visibleResponsesSql(sql, s, caller)}))`;
    return new Set(rows.map((r) => r.id));
  }

  return {
    provider: 'meilisearch',

    async page(query: SearchQuery, caller: SearchCaller): Promise<SearchPage> {
      const index = await deps.index();
      const visible = visibilityFilter(caller, query.isPublic, Date.now());
      const filters = [visible];
      if (query.tools) filters.push(`tool IN [${query.tools.map(quote).join(', ')}]`);
      if (query.type !== 'all') filters.push(`kind = ${quote(query.type)}`);
      const sort = query.sort === 'date' ? ['createdAt:desc'] : query.sort === 'popular' ? ['viewCount:desc'] : undefined;
      const [found, facets] = await Promise.all([
        index.search(query.q, {
          filter: filters.join(' AND '),
          ...(sort ? { sort } : {}),
          offset: (query.page - 1) * query.limit,
          limit: query.limit,
          showRankingScore: true,
          attributesToCrop: ['body'],
          cropLength: 30,
        }),
        // Facets over every tool and both types, whatever the query's tools and type.
        index.search(query.q, { filter: visible, limit: 0, facets: ['toolKind'] }),
      ]);
      const counts: CountRow[] = Object.entries(facets.facetDistribution?.['toolKind'] ?? {}).flatMap(([pair, n]) => {
        const [tool, type] = pair.split('|');
        return TOOL_ROUTES.includes(tool as ToolRoute) && (type === 'content' || type === 'responses') ? [{ tool: tool as ToolRoute, type, n: Math.min(COUNT_CAP, n) }] : [];
      });
      const ok = await stillVisible(found.hits.flatMap((h) => (h.id ? [h.id] : [])), caller);
      const rows: HitRow[] = found.hits
        .filter((h) => h.id && ok.has(h.id))
        .map((h) => ({
          tool: h.tool as ToolRoute,
          type: h.kind as 'content' | 'responses',
          id: h.id as string,
          title: h.title ?? null,
          share_code: h.shareCode ?? null,
          prompt_id: h.promptId ?? null,
          created_at: new Date(h.createdAt ?? 0),
          rank: h._rankingScore ?? 0,
          keywords: h.keywords ?? null,
          excerpt: h._formatted?.body ?? '',
        }));
      return { counts, rows };
    },

    // Meilisearch crops its own snippets (excerpt is set on every row).
    excerpts: async () => new Map(),

    async prefixTitles(tools: readonly ToolRoute[], terms: string[], max: number): Promise<string[]> {
      if (terms.length === 0) return [];
      const index = await deps.index();
      // Meilisearch matches the last word as a prefix; listed content only (shown to anyone typing).
      const found = await index.search(terms.join(' '), {
        filter: `${visibilityFilter({ sessionId: '', userId: null }, true, Date.now())} AND kind = "content" AND tool IN [${tools.map(quote).join(', ')}]`,
        sort: ['viewCount:desc'],
        limit: max,
        attributesToRetrieve: ['title'],
      });
      return found.hits.flatMap((h) => (h.title ? [h.title] : []));
    },
  };
}
