// GET /api/search over the sixteen content tables and tools_responses, through the search port
// (search.port.ts): PostgreSQL full-text over tools_search by default (search.repository.ts), Meilisearch
// when configured (search.meilisearch.ts). Only what the caller may see: public items (an expiring link
// only until it expires) and the caller's own by session or account. Here the facets, hits and
// suggestions are assembled.
import type postgres from 'postgres';
import { TOOL_ROUTES, type ToolRoute } from '@story/db';
import { toIso } from '../../shared/dates';
import type { HitRow, SearchCaller, SearchEngine, SearchQuery } from './search.port';
import { createSearchRepository } from './search.repository';

export { CANDIDATES, COUNT_CAP, SEARCH_SORTS, SEARCH_TYPES } from './search.port';
export type { SearchQuery, SearchSort, SearchType } from './search.port';

export interface SearchHit {
  id: string;
  tool: ToolRoute;
  type: 'content' | 'responses';
  title: string;
  excerpt: string;
  shareCode?: string;
  /** For responses: the content they answer. */
  promptId?: string;
  createdAt: string;
  relevanceScore: number;
}

export interface SearchResult {
  hits: SearchHit[];
  total: number;
  facets: { tools: { name: string; count: number }[]; types: { name: string; count: number }[] };
  suggestions: string[];
}

const MAX_SUGGESTIONS = 8;

/** Words of the query usable as prefix terms (letters and digits only, so the tsquery text is always valid). */
export const prefixTerms = (q: string): string[] =>
  (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 2).slice(0, 5);

export function createSearchService({ sql, engine }: { sql: postgres.Sql; engine?: SearchEngine }) {
  const repo = engine ?? createSearchRepository(sql);

  return {
    async search(query: SearchQuery, caller: SearchCaller): Promise<SearchResult> {
      const tools = query.tools ?? [...TOOL_ROUTES];
      const { counts, rows } = await repo.page(query, caller);
      const excerpts = await repo.excerpts(
        rows.filter((r) => r.excerpt === undefined),
        query.q,
      );

      const toolCounts = new Map<string, number>();
      const typeCounts = { content: 0, responses: 0 };
      let total = 0;
      for (const c of counts) {
        if (c.n === 0) continue;
        toolCounts.set(c.tool, (toolCounts.get(c.tool) ?? 0) + c.n);
        typeCounts[c.type] += c.n;
        const inTools = tools.includes(c.tool);
        if (inTools && (query.type === 'all' || query.type === c.type)) total += c.n;
      }

      const hits = rows.map(
        (r): SearchHit => ({
          id: r.id,
          tool: r.tool,
          type: r.type,
          title: r.title ?? '',
          excerpt: (r.excerpt ?? excerpts.get(r.id) ?? '').replace(/\s+/g, ' ').trim(),
          ...(r.share_code ? { shareCode: r.share_code } : {}),
          ...(r.prompt_id ? { promptId: r.prompt_id } : {}),
          createdAt: toIso(r.created_at),
          relevanceScore: Math.round(Number(r.rank) * 10_000) / 10_000,
        }),
      );

      return {
        hits,
        total,
        facets: {
          tools: [...toolCounts.entries()].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
          types: [
            { name: 'content', count: typeCounts.content },
            { name: 'responses', count: typeCounts.responses },
          ],
        },
        suggestions: await this.suggest(query, rows, total),
      };
    },

    /**
     * Related keywords of the hits first (what similar items are tagged with); when the query found little,
     * also titles of public items matching the words as prefixes ("lightho" finds "Lighthouse ..."),
     * which catches half-typed and over-specific queries.
     */
    async suggest(query: SearchQuery, rows: Pick<HitRow, 'keywords' | 'title'>[], total: number): Promise<string[]> {
      const words = new Set(prefixTerms(query.q));
      const out: string[] = [];
      const seen = new Set<string>();
      const add = (s: string) => {
        const key = s.toLowerCase();
        if (!s || seen.has(key) || words.has(key) || out.length >= MAX_SUGGESTIONS) return;
        seen.add(key);
        out.push(s);
      };
      const keywordCounts = new Map<string, number>();
      for (const r of rows) for (const k of r.keywords ?? []) keywordCounts.set(k, (keywordCounts.get(k) ?? 0) + 1);
      [...keywordCounts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5).forEach(([k]) => add(k));

      if (total < 5) {
        const terms = prefixTerms(query.q);
        for (const title of await repo.prefixTitles(query.tools ?? [...TOOL_ROUTES], terms, MAX_SUGGESTIONS)) add(title);
      }
      return out;
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
