// Admin: GET /api/admin/email/analytics (authenticated scope + admin role, spec 001).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EMAIL_CATEGORIES } from '@story/db';
import { emailErrorSchema, errorResponses, type RateLimitHandle, type WindowLimitName } from '@story/http';
import type { AnalyticsService } from './analytics.service';

const counts = {
  total_sent: z.number().int(),
  total_delivered: z.number().int(),
  total_opened: z.number().int(),
  total_clicked: z.number().int(),
};
const rates = { delivery_rate: z.string(), open_rate: z.string(), click_rate: z.string() };

const analyticsResponse = z.object({
  success: z.boolean(),
  period: z.number().int(),
  overall_stats: z.object({ ...counts, total_failed: z.number().int(), ...rates, failure_rate: z.string() }),
  template_performance: z.array(z.object({ id: z.string(), name: z.string(), display_name: z.string().nullable(), category: z.string(), ...counts, ...rates })),
  daily_trends: z.array(z.object({ date: z.string(), sent: z.number().int(), delivered: z.number().int(), opened: z.number().int(), clicked: z.number().int() })),
  category_breakdown: z.array(z.object({ category: z.string(), ...counts, template_count: z.number().int(), ...rates })),
  recent_activity: z.array(
    z.object({
      id: z.string(),
      subject: z.string(),
      to_email: z.string(),
      status: z.string(),
      created_at: z.string(),
      email_templates: z.object({ name: z.string(), display_name: z.string().nullable(), category: z.string().nullable() }).nullable(),
    }),
  ),
  queue_status: z.object({ pending: z.number().int(), processing: z.number().int() }),
  alerts: z.object({ stuck: z.number().int(), backlog: z.boolean() }),
});

const queueHealthResponse = z.object({
  success: z.boolean(),
  status: z.enum(['ok', 'alert']).describe('alert while a backlog or stuck alert is on'),
  queue: z.object({
    pending: z.number().int(),
    processing: z.number().int(),
    overdue: z.number().int().describe('pending and due for more than backlog_minutes'),
    stuck: z.number().int().describe('pending and due for more than stuck_minutes'),
    backlog: z.boolean().describe('overdue is above backlog_pending'),
    oldest_pending_since: z.string().nullable().describe('when the longest-waiting pending email fell due'),
  }),
  thresholds: z.object({ backlog_pending: z.number().int(), backlog_minutes: z.number().int(), stuck_minutes: z.number().int() }),
  alerts: z.array(z.string()).describe('one sentence per alert that is on'),
});

const analyticsQuery = z.object({
  // Analytics are kept 365 days (spec 001 Limits).
  period: z.coerce.number().int().min(1).max(365).default(30),
  template_id: z.uuid().optional(),
  category: z.enum(EMAIL_CATEGORIES).optional(),
});

export const analyticsRoutes =
  ({ analytics, rateLimit, limit }: { analytics: AnalyticsService; rateLimit: RateLimitHandle; limit: WindowLimitName }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/analytics',
      {
        config: { rateLimit: rateLimit.route(limit) },
        schema: {
          operationId: 'getEmailAnalytics',
          summary: 'Send, delivery, open and click figures over a period, plus queue health',
          tags: ['email-analytics'],
          security: [{ bearerAuth: [] }],
          querystring: analyticsQuery,
          response: { 200: analyticsResponse, ...errorResponses(emailErrorSchema, [400, 401, 403, 429] as const) },
        },
      },
      async (req) => ({ success: true, ...(await analytics.get(req.query)) }),
    );

    app.get(
      '/queue-health',
      {
        config: { rateLimit: rateLimit.route(limit) },
        schema: {
          operationId: 'getEmailQueueHealth',
          summary: 'The send queue against spec 001 thresholds: a backlog (more than 100 pending for 5 minutes) and stuck emails (pending over an hour)',
          tags: ['email-analytics'],
          security: [{ bearerAuth: [] }],
          response: { 200: queueHealthResponse, ...errorResponses(emailErrorSchema, [401, 403, 429] as const) },
        },
      },
      async () => ({ success: true, ...(await analytics.queueHealth()) }),
    );
  };
