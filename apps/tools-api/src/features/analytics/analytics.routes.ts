// POST /api/:tool/:id/analytics (a visitor's page reports an event) and GET (admin only: aggregates).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, requireRole } from '@story/auth';
import { requireToolsSession, toolsCallerOf } from '../../shared/caller';
import type { ToolsFeatureDeps } from '../../shared/deps';
import { envelopeSchema, okEnvelope, toolsErrors } from '../../shared/envelope';
import { parseTool, toolPathParam } from '../../shared/tool-param';
import { intParam } from '../responses/query-params';
import { CLIENT_EVENT_TYPES, createAnalyticsService } from './analytics.service';

const params = z.object({ tool: toolPathParam, id: z.string().min(1).max(100) });
const counts = z.record(z.string(), z.number().int());

const analyticsSchema = z.object({
  period: z.object({ days: z.number().int(), from: z.string(), to: z.string() }),
  views: z.object({ total: z.number().int(), unique: z.number().int(), trend: z.array(z.object({ date: z.string(), count: z.number().int() })) }),
  shares: z.object({ total: z.number().int(), platforms: counts }),
  responses: z.object({ total: z.number().int(), public: z.number().int(), averageWordCount: z.number() }),
  exports: z.object({ total: z.number().int(), formats: counts }),
  engagement: z.object({ averageTimeOnPage: z.number(), bounceRate: z.number(), conversionRate: z.number() }),
});

export const analyticsRoutes =
  (deps: Pick<ToolsFeatureDeps, 'sql' | 'tokens' | 'sessions' | 'ipHashKey'>): FastifyPluginAsyncZod =>
  async (app) => {
    const service = createAnalyticsService(deps);
    const session = requireToolsSession(deps);

    app.post(
      '/api/:tool/:id/analytics',
      {
        onRequest: async (req) => {
          parseTool((req.params as { tool: string }).tool);
          await session(req);
        },
        schema: {
          operationId: 'recordToolAnalyticsEvent',
          summary: 'Record a view, share, export or response_created event for an item the caller can see',
          description: 'eventData is free-form JSON up to 4 KB; the aggregates read platform (shares), format (exports) and timeOnPage (seconds, views).',
          tags: ['analytics'],
          params,
          body: z.object({
            sessionId: z.string().max(100).optional(),
            eventType: z.enum(CLIENT_EVENT_TYPES),
            eventData: z.record(z.string(), z.unknown()).optional(),
            timestamp: z.iso.datetime({ offset: true }).optional(),
          }),
          response: { 201: envelopeSchema(z.object({ eventId: z.string(), recorded: z.boolean() })), ...toolsErrors([400, 401, 403, 404] as const) },
        },
      },
      async (req, reply) => reply.status(201).send(okEnvelope(req, await service.record(parseTool(req.params.tool), req.params.id, req.body, toolsCallerOf(req)))),
    );

    // Admin only: the tool, then the token (401 without one), then the role (403 for users).
    app.get(
      '/api/:tool/:id/analytics',
      {
        onRequest: [
          async (req) => {
            parseTool((req.params as { tool: string }).tool);
          },
          requireAuth(deps),
        ],
        preHandler: requireRole(['admin']),
        schema: {
          operationId: 'getToolContentAnalytics',
          summary: 'Aggregates of one item (admin only): views total, unique and by day, shares by platform, responses, exports by format, engagement',
          tags: ['analytics'],
          security: [{ bearerAuth: [] }],
          params,
          querystring: z.object({ days: z.string().optional() }),
          response: { 200: envelopeSchema(analyticsSchema), ...toolsErrors([400, 401, 403, 404] as const) },
        },
      },
      async (req) => {
        const days = intParam(req.query.days, 'days', 30, 1, 365);
        return okEnvelope(req, await service.aggregate(parseTool(req.params.tool), req.params.id, days));
      },
    );
  };
