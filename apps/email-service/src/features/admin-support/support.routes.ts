// GET /api/admin/user-support/recent-flags, /trends, /summaries (spec 001 "Admin application reference"):
// support data, readable by admin and support.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FLAG_CONTENT_TYPES, FLAG_STATUSES } from '@story/db';
import { emailErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { recordSchema, security } from '../admin/admin-views';
import type { SupportService } from './support.service';

const tags = ['admin-support'];
const reads = errorResponses(emailErrorSchema, [400, 401, 403, 429] as const);
const counted = z.object({ count: z.number().int() });

export const supportRoutes =
  ({ support, rateLimit }: { support: SupportService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route('email.admin') };
    app.get('/api/admin/user-support/recent-flags', {
      config,
      schema: {
        operationId: 'getRecentSupportFlags', summary: 'The latest content reports with their reporter', tags, security,
        querystring: z.object({ status: z.enum(FLAG_STATUSES).optional(), content_type: z.enum(FLAG_CONTENT_TYPES).optional(), limit: z.coerce.number().int().min(1).max(100).default(20) }),
        response: { 200: z.object({ success: z.boolean(), flags: z.array(recordSchema) }), ...reads },
      },
    }, async (req) => ({ success: true, ...(await support.recentFlags(req.query)) }));

    app.get('/api/admin/user-support/trends', {
      config,
      schema: {
        operationId: 'getSupportFlagTrends', summary: 'Reports opened and resolved per day, by reason and content type', tags, security,
        querystring: z.object({ days: z.coerce.number().int().min(1).max(365).default(30) }),
        response: {
          200: z.object({
            success: z.boolean(), period_days: z.number().int(),
            daily: z.array(z.object({ date: z.string(), opened: z.number().int(), resolved: z.number().int() })),
            by_reason: z.array(counted.extend({ reason: z.string() })), by_content_type: z.array(counted.extend({ content_type: z.string() })),
          }),
          ...reads,
        },
      },
    }, async (req) => ({ success: true, ...(await support.trends(req.query.days)) }));

    app.get('/api/admin/user-support/summaries', {
      config,
      schema: { operationId: 'getSupportFlagSummaries', summary: 'Counts per status, backlog age, resolution time, most-reported content', tags, security, response: { 200: z.object({ success: z.boolean() }).catchall(z.unknown()), ...errorResponses(emailErrorSchema, [401, 403, 429] as const) } },
    }, async () => ({ success: true, ...(await support.summaries()) }));
  };
