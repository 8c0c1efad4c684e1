// GET /api/search: full-text search across every tool and the responses. A session (X-Session-ID or
// ?sessionId) or a Bearer token is optional and only adds the caller's own private items.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TOOL_ROUTES, type ToolRoute } from '@story/db';
import { optionalToolsSession, toolsCallerOf } from '../../shared/caller';
import type { ToolsFeatureDeps } from '../../shared/deps';
import { envelopeSchema, okEnvelope, paginationMeta, toolsErrors } from '../../shared/envelope';
import { toolsError } from '../../shared/errors';
import { isToolRoute } from '../../shared/tool-param';
import { boolParam, enumParam, intParam } from '../responses/query-params';
import type { SearchEngine } from './search.port';
import { createSearchService, SEARCH_SORTS, SEARCH_TYPES, type SearchQuery } from './search.service';

/** websearch_to_tsquery accepts any text, but a visitor's query longer than this is not a search. */
export const MAX_QUERY_LENGTH = 200;

// Strings, parsed below, so each bad value is INVALID_INPUT naming its plain field.
const searchQuery = z.object({
  q: z.string().optional(),
  type: z.string().optional(),
  tools: z.union([z.string(), z.array(z.string())]).optional(),
  public: z.string().optional(),
  page: z.string().optional(),
  limit: z.string().optional(),
  sort: z.string().optional(),
  sessionId: z.string().max(100).optional(),
});

const hitSchema = z.object({
  id: z.string(),
  tool: z.string(),
  type: z.enum(['content', 'responses']),
  title: z.string(),
  excerpt: z.string(),
  shareCode: z.string().optional(),
  promptId: z.string().optional(),
  createdAt: z.string(),
  relevanceScore: z.number(),
});

const facetSchema = z.array(z.object({ name: z.string(), count: z.number().int() }));

export function parseSearchQuery(raw: z.infer<typeof searchQuery>): SearchQuery {
  const q = (raw.q ?? '').trim();
  if (q === '') throw toolsError.invalidInput('q', 'q (the search text) is required');
  if (q.length > MAX_QUERY_LENGTH) throw toolsError.invalidInput('q', `q must be at most ${MAX_QUERY_LENGTH} characters`);
  let tools: ToolRoute[] | null = null;
  if (raw.tools !== undefined) {
    const names = (Array.isArray(raw.tools) ? raw.tools : [raw.tools]).flatMap((t) => t.split(',')).map((t) => t.trim()).filter(Boolean);
    const unknown = names.filter((n) => !isToolRoute(n));
    if (unknown.length) throw toolsError.invalidInput('tools', `Unknown tool: ${unknown.join(', ')}`, { allowed: TOOL_ROUTES });
    tools = names.length ? [...new Set(names as ToolRoute[])] : null;
  }
  const sort = enumParam(raw.sort, 'sort', SEARCH_SORTS, 'relevance');
  return {
    q,
    type: enumParam(raw.type, 'type', SEARCH_TYPES, 'all'),
    tools,
    isPublic: boolParam(raw.public, 'public'),
    page: intParam(raw.page, 'page', 1, 1, 100),
    limit: intParam(raw.limit, 'limit', 20, 1, 50),
    sort: sort === 'newest' ? 'date' : sort,
  };
}

export const searchRoutes =
  (deps: Pick<ToolsFeatureDeps, 'sql' | 'tokens' | 'sessions' | 'ipHashKey'> & { engine?: SearchEngine }): FastifyPluginAsyncZod =>
  async (app) => {
    const service = createSearchService(deps);
    app.get(
      '/api/search',
      {
        onRequest: optionalToolsSession(deps),
        schema: {
          operationId: 'searchTools',
          summary: 'Full-text search across every tool’s content and the responses',
          description:
            'q uses web-search syntax ("exact phrase", or, -exclude). type content|responses|all; tools a comma list of tool names; ' +
            'sort relevance|date|popular. Public items plus the caller’s own. Facet counts (and totalResults) stop at 200 per tool and type, and are ' +
            'estimated when a word matches more than 200 items; relevance and popularity then rank the newest matches. 503 (with Retry-After) ' +
            'when the search engine or the database is unavailable.',
          tags: ['search'],
          querystring: searchQuery,
          response: {
            200: envelopeSchema(z.object({ content: z.array(hitSchema), suggestions: z.array(z.string()), facets: z.object({ tools: facetSchema, types: facetSchema }) })),
            ...toolsErrors([400, 401, 429, 500, 503] as const),
          },
        },
      },
      async (req) => {
        const query = parseSearchQuery(req.query);
        const result = await service.search(query, toolsCallerOf(req));
        return okEnvelope(
          req,
          { content: result.hits, suggestions: result.suggestions, facets: result.facets },
          { query: query.q, totalResults: result.total, pagination: paginationMeta(query.page, query.limit, result.total) },
        );
      },
    );
  };
