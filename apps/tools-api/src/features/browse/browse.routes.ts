// GET /api/:tool and /api/:tool/browse (paged lists), GET /api/:tool/:id (one item, by id or share code, view counted).
// A session (X-Session-ID or ?sessionId) is optional and only adds the caller's own private items.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { optionalToolsSession, toolsCallerOf, type ToolsSessionDeps } from '../../shared/caller';
import { envelopeSchema, okEnvelope, paginationMeta, toolsErrors } from '../../shared/envelope';
import { toolsError } from '../../shared/errors';
import { parseTool, toolPathParam } from '../../shared/tool-param';
import type { BrowseService } from './browse.service';
import { BROWSE_SORTS, type BrowseQuery } from './browse.types';

export const browseItemSchema = z.object({
  id: z.uuid(),
  shareCode: z.string(),
  title: z.string(),
  content: z.record(z.string(), z.unknown()),
  seoTitle: z.string().nullable(),
  seoDescription: z.string().nullable(),
  keywords: z.array(z.string()),
  viewCount: z.number().int(),
  shareCount: z.number().int(),
  responseCount: z.number().int(),
  averageRating: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  isPublic: z.boolean(),
  isFeatured: z.boolean(),
  category: z.string().nullable(),
});

export const contentDetailSchema = browseItemSchema.extend({
  tool: z.string(),
  exportCount: z.number().int(),
  isReviewed: z.boolean(),
  isOwner: z.boolean(),
  shareType: z.string(),
  expiresAt: z.string().nullable(),
  seoMetadata: z.object({ title: z.string(), description: z.string(), keywords: z.array(z.string()) }),
  aiMetadata: z.object({ model: z.string().nullable(), tokensUsed: z.number().nullable(), processingTime: z.number().nullable(), confidenceScore: z.number().nullable(), isAiGenerated: z.boolean() }),
  generationOptions: z.record(z.string(), z.unknown()),
});

// Strings here, checked in parseBrowseQuery, so a bad value names the plain field (limit, not query.limit).
const browseQuery = z.object({
  page: z.string().optional(),
  limit: z.string().optional(),
  sort: z.string().optional(),
  search: z.string().max(200).optional(),
  public: z.string().optional(),
  featured: z.string().optional(),
  category: z.string().max(100).optional(),
  sessionId: z.string().max(100).optional(),
});

function intParam(value: string | undefined, field: string, fallback: number, min: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value)) throw toolsError.invalidInput(field, `${field} must be a whole number between ${min} and ${max}`);
  const n = Number(value);
  if (n < min || n > max) throw toolsError.invalidInput(field, `${field} must be between ${min} and ${max}`);
  return n;
}

function boolParam(value: string | undefined, field: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw toolsError.invalidInput(field, `${field} must be true or false`);
}

export function parseBrowseQuery(q: z.infer<typeof browseQuery>, maxLimit = 100): Omit<BrowseQuery, 'sessionId' | 'userId'> {
  const sort = q.sort ?? 'newest';
  if (!(BROWSE_SORTS as readonly string[]).includes(sort)) throw toolsError.invalidInput('sort', `sort must be one of ${BROWSE_SORTS.join(', ')}`);
  return {
    page: intParam(q.page, 'page', 1, 1, 100_000),
    limit: intParam(q.limit, 'limit', 20, 1, maxLimit),
    sort: sort as BrowseQuery['sort'],
    search: q.search?.trim() || undefined,
    isPublic: boolParam(q.public, 'public'),
    featured: boolParam(q.featured, 'featured'),
    category: q.category?.trim() || undefined,
  };
}

export const browseRoutes =
  (deps: ToolsSessionDeps & { browse: BrowseService }): FastifyPluginAsyncZod =>
  async (app) => {
    const session = optionalToolsSession(deps);
    const onRequest = async (req: FastifyRequest) => {
      parseTool((req.params as { tool: string }).tool);
      await session(req);
    };

    for (const [path, operationId, summary] of [
      ['/api/:tool', 'browseToolContent', 'Browse a tool’s content (public, plus the session’s own)'],
      ['/api/:tool/browse', 'browseToolContentAlias', 'Browse a tool’s content (same as GET /api/{tool})'],
    ] as const) {
      app.get(
        path,
        {
          onRequest,
          schema: {
            operationId,
            summary,
            tags: ['browse'],
            params: z.object({ tool: toolPathParam }),
            querystring: browseQuery,
            response: { 200: envelopeSchema(z.array(browseItemSchema)), ...toolsErrors([400, 401, 404] as const) },
          },
        },
        async (req) => {
          const tool = parseTool(req.params.tool);
          const caller = toolsCallerOf(req);
          const query = parseBrowseQuery(req.query);
          const { items, total, hasNext } = await deps.browse.browse(tool, { ...query, sessionId: caller.sessionId || undefined, userId: caller.userId });
          return okEnvelope(req, items, { pagination: { ...paginationMeta(query.page, query.limit, total), hasNext } });
        },
      );
    }

    app.get(
      '/api/:tool/:id',
      {
        onRequest,
        schema: {
          operationId: 'getToolContent',
          summary: 'One item by id (public or the caller’s own) or by share code (anyone with the link)',
          tags: ['browse'],
          params: z.object({ tool: toolPathParam, id: z.string().min(1).max(100).describe('Content id or share code') }),
          querystring: z.object({ sessionId: z.string().max(100).optional() }),
          response: { 200: envelopeSchema(contentDetailSchema), ...toolsErrors([400, 401, 404] as const) },
        },
      },
      async (req) => {
        const tool = parseTool(req.params.tool);
        const caller = toolsCallerOf(req);
        return okEnvelope(req, await deps.browse.view(tool, req.params.id, caller));
      },
    );
  };
