// Usage and activity routes (spec 000 User; Uploads, images, audio, timeline, misc), authenticated scope:
// GET /api/user/usage (admin only), /api/user/writing-activity, /api/content/stats, /api/analytics/*.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf, requireRole } from '@story/auth';
import { coreErrorSchema, errorResponses } from '@story/http';
import { METRICS } from './analytics.repository';
import type { AnalyticsService } from './analytics.service';

const security = [{ bearerAuth: [] }];
const totals = z.object({
  requests: z.number(),
  costUsd: z.number(),
  sttCostUsd: z.number(),
  llmCostUsd: z.number(),
  ttsCostUsd: z.number(),
  tokens: z.number(),
  audioSeconds: z.number(),
  characters: z.number(),
});
const point = z.object({ date: z.string(), value: z.number() });
const day = z.iso.date({ message: 'must be a date as YYYY-MM-DD' });

export const analyticsRoutes =
  ({ analytics }: { analytics: AnalyticsService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/user/usage',
      {
        preHandler: requireRole(['admin']),
        schema: {
          operationId: 'getUserUsage',
          summary: "An account's AI usage and cost today, this month (UTC) and in all, from ai_usage_logs (admin only)",
          description: 'Without userId, the calling admin\'s own account. An unknown userId answers 404; a caller without role admin 403.',
          tags: ['user'],
          security,
          querystring: z.object({ userId: z.uuid().optional() }),
          response: {
            200: z.object({ success: z.literal(true), usage: z.object({ daily: totals, monthly: totals, total: totals }), userId: z.uuid() }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const),
          },
        },
      },
      async (req) => analytics.userUsage(callerOf(req).userId, req.query.userId),
    );

    app.get(
      '/api/user/writing-activity',
      {
        schema: {
          operationId: 'getWritingActivity',
          summary: "The caller's stories, words and recordings per day (in their time zone) and their writing streaks",
          tags: ['user'],
          security,
          querystring: z.object({ days: z.coerce.number().int().min(1).max(366).default(30) }),
          response: {
            200: z.object({
              success: z.literal(true),
              timezone: z.string(),
              startDate: z.string(),
              endDate: z.string(),
              activity: z.array(z.object({ date: z.string(), stories: z.number(), words: z.number(), recordings: z.number() })),
              totals: z.object({ stories: z.number(), words: z.number(), recordings: z.number(), activeDays: z.number() }),
              streak: z.object({ current: z.number(), longest: z.number() }),
            }),
            ...errorResponses(coreErrorSchema, [400, 401, 429] as const),
          },
        },
      },
      async (req) => analytics.writingActivity(callerOf(req).userId, req.query.days),
    );

    app.get(
      '/api/content/stats',
      {
        schema: {
          operationId: 'getContentStats',
          summary: 'Counts of everything the caller owns: campaigns, stories and words, recordings and minutes, conversations, books, images, family groups',
          tags: ['content'],
          security,
          response: {
            200: z.object({
              success: z.literal(true),
              stats: z.object({
                campaigns: z.number(),
                activeCampaigns: z.number(),
                stories: z.number(),
                words: z.number(),
                recordings: z.number(),
                videos: z.number(),
                recordingMinutes: z.number(),
                conversations: z.number(),
                books: z.number(),
                images: z.number(),
                familyGroups: z.number(),
              }),
            }),
            ...errorResponses(coreErrorSchema, [401, 429] as const),
          },
        },
      },
      async (req) => analytics.contentStats(callerOf(req).userId),
    );

    app.get(
      '/api/analytics/usage',
      {
        schema: {
          operationId: 'getAnalyticsUsage',
          summary: "The caller's usage per day between startDate and endDate (default the last 30 days), for one metric or all",
          tags: ['analytics'],
          security,
          querystring: z.object({ startDate: day.optional(), endDate: day.optional(), metric: z.enum(METRICS).optional() }),
          response: {
            200: z.object({
              success: z.literal(true),
              startDate: z.string(),
              endDate: z.string(),
              timezone: z.string(),
              metric: z.enum(METRICS).nullable(),
              metrics: z.record(z.string(), z.object({ total: z.number(), series: z.array(point) })),
            }),
            ...errorResponses(coreErrorSchema, [400, 401, 429] as const),
          },
        },
      },
      async (req) => analytics.usage(callerOf(req).userId, req.query),
    );

    app.get(
      '/api/analytics/config',
      {
        schema: {
          operationId: 'getAnalyticsConfig',
          summary: 'Whether analytics may run for the caller (privacy setting and consent), and the metrics and ranges offered',
          tags: ['analytics'],
          security,
          response: {
            200: z.object({
              success: z.literal(true),
              config: z.object({
                enabled: z.boolean(),
                analyticsSetting: z.boolean(),
                analyticsConsent: z.boolean(),
                metrics: z.array(z.string()),
                defaultRangeDays: z.number(),
                maxRangeDays: z.number(),
                timezone: z.string(),
              }),
            }),
            ...errorResponses(coreErrorSchema, [401, 429] as const),
          },
        },
      },
      async (req) => analytics.config(callerOf(req).userId),
    );

    app.get(
      '/api/analytics/health',
      {
        schema: {
          operationId: 'getAnalyticsHealth',
          summary: 'Whether the analytics data can be read, and how fresh the usage log is; 503 when the database does not answer',
          tags: ['analytics'],
          security,
          response: {
            200: z.object({
              status: z.literal('ok'),
              checks: z.object({
                database: z.object({ ok: z.boolean(), latencyMs: z.number() }),
                usageLog: z.object({ ok: z.boolean(), latestEventAt: z.string().nullable() }),
              }),
            }),
            ...errorResponses(coreErrorSchema, [401, 429, 503] as const),
          },
        },
      },
      async () => analytics.health(),
    );
  };
