// GET /api/admin/stats/users|content|platform and /api/overview-stats (spec 001 "Admin application
// reference", CONTRACTS §7), inside the admin scope (admin and support read).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailErrorSchema, errorResponses, type RateLimitHandle, type WindowLimitName } from '@story/http';
import type { AdminStatsService } from './admin-stats.service';

const count = z.number().int();
const users = z.object({ total: count, active7d: count, active30d: count, newToday: count });
const content = z.object({ campaigns: count, activeCampaigns: count, stories: count, wordCount: count });
const engagement = z.object({ conversations: count, responseRate: z.number(), familyMembers: count, invitations: count });
const publishing = z.object({ books: count, booksInProgress: count, images: count, audioRecordings: count });
const business = z.object({
  monthlyRevenue: z.number(),
  monthlyRevenueCents: count,
  tiers: z.object({ free: count, starter: count, family: count, premium: count }),
});
const waitlist = z.object({ signups: count, verified: count, conversionRate: z.number(), freeEligible: count });
const activity = z.object({
  type: z.enum(['signup', 'campaign_created', 'story_created', 'conversation_response', 'book_published']),
  at: z.string(),
  userId: z.string().nullable(),
  id: z.string(),
  title: z.string().nullable(),
});

const security = [{ bearerAuth: [] }];
const tags = ['admin-stats'];
const errors = errorResponses(emailErrorSchema, [401, 403, 429] as const);

export const adminStatsRoutes =
  ({ stats, rateLimit, limit }: { stats: AdminStatsService; rateLimit: RateLimitHandle; limit: WindowLimitName }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route(limit) };
    const route = { config, schema: { tags, security } };

    app.get(
      '/api/admin/stats/users',
      { ...route, schema: { ...route.schema, operationId: 'adminUserStats', summary: 'Users: total, active in 7 and 30 days, new today', response: { 200: z.object({ success: z.boolean(), users }), ...errors } } },
      async () => ({ success: true, ...(await stats.users()) }),
    );

    app.get(
      '/api/admin/stats/content',
      {
        ...route,
        schema: {
          ...route.schema,
          operationId: 'adminContentStats',
          summary: 'Content, engagement, publishing and media counts',
          response: { 200: z.object({ success: z.boolean(), content, engagement, publishing }), ...errors },
        },
      },
      async () => ({ success: true, ...(await stats.content()) }),
    );

    app.get(
      '/api/admin/stats/platform',
      {
        ...route,
        schema: { ...route.schema, operationId: 'adminPlatformStats', summary: 'Business (revenue, tiers) and waitlist', response: { 200: z.object({ success: z.boolean(), business, waitlist }), ...errors } },
      },
      async () => ({ success: true, ...(await stats.platform()) }),
    );

    app.get(
      '/api/overview-stats',
      {
        ...route,
        schema: {
          ...route.schema,
          operationId: 'adminOverviewStats',
          summary: 'Every dashboard metric and the recent-activity feed',
          response: {
            200: z.object({ success: z.boolean(), users, content, engagement, publishing, business, waitlist, recentActivity: z.array(activity) }),
            ...errors,
          },
        },
      },
      async () => ({ success: true, ...(await stats.overview()) }),
    );
  };
