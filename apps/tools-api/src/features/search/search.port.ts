// The search port (spec 002 Endpoints, GET /api/search): what GET /api/search needs from an engine.
// PostgreSQL full-text over tools_search (search.repository.ts) is the embedded default; Meilisearch
// (search.meilisearch.ts) is chosen by SEARCH_PROVIDER. Both apply shared/visibility.ts's rules inside the
// engine's filter.
import type { ToolRoute } from '@story/db';
import type { ToolsCaller } from '../../shared/caller';

export const SEARCH_TYPES = ['content', 'responses', 'all'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export const SEARCH_SORTS = ['relevance', 'date', 'newest', 'popular'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export interface SearchQuery {
  q: string;
  type: SearchType;
  tools: ToolRoute[] | null;
  /** true: public items only; false: the caller's own private items only; undefined: both. */
  isPublic?: boolean;
  page: number;
  limit: number;
  sort: SearchSort;
}

/**
 * Facet counts stop at this many matches per tool and type: past it the number is an estimate, and
 * "200+" is as useful to a visitor as the exact number.
 */
export const COUNT_CAP = 200;
/** Relevance and popularity rank at least this many of the newest matches when a word is common. */
export const CANDIDATES = 100;

export type SearchCaller = Pick<ToolsCaller, 'sessionId' | 'userId'>;

export interface HitRow {
  tool: ToolRoute;
  type: 'content' | 'responses';
  id: string;
  title: string | null;
  share_code: string | null;
  prompt_id: string | null;
  created_at: string | Date;
  rank: number;
  keywords: string[] | null;
  /** Set by engines that make their own snippets (Meilisearch crops); PostgreSQL makes them afterwards. */
  excerpt?: string;
}

export interface CountRow {
  tool: ToolRoute;
  type: 'content' | 'responses';
  /** At most COUNT_CAP. */
  n: number;
}

export interface SearchPage {
  /** Per tool and type, over every tool and both types whatever the query's tools/type (the facets). */
  counts: CountRow[];
  /** The requested page, in the requested order. */
  rows: HitRow[];
}

export interface SearchEngine {
  readonly provider: 'postgres' | 'meilisearch';
  page(query: SearchQuery, caller: SearchCaller): Promise<SearchPage>;
  /** Snippets for the page's rows that have none yet, by id. */
  excerpts(rows: HitRow[], q: string): Promise<Map<string, string>>;
  /** Titles of listed (public) content whose words start with the prefix terms, most viewed first. */
  prefixTitles(tools: readonly ToolRoute[], terms: string[], max: number): Promise<string[]>;
}
