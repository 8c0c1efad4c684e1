// Admin: POST/GET /api/admin/email/ab-test (authenticated scope + admin role, spec 001).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AB_SUCCESS_METRICS, AB_TEST_STATUSES } from '@story/db';
import { emailErrorSchema, errorResponses, type RateLimitHandle, type WindowLimitName } from '@story/http';
import { templateActorOf, templateName, templateView } from '../templates/templates.routes';
import type { AbTestsService } from './ab-tests.service';

/** The body of POST /ab-test; the admin application checks its form with it too. */
export const createBody = z.object({
  base_template_id: z.uuid(),
  variant_name: templateName,
  variant_display_name: z.string().trim().max(200).nullish(),
  variant_subject: z.string().min(1).max(500),
  variant_html: z.string().min(1).max(500_000),
  variant_text: z.string().max(500_000).nullish(),
  test_percentage: z.number().int().min(1).max(99),
  test_duration_days: z.number().int().min(1).max(90).default(14),
  success_metric: z.enum(AB_SUCCESS_METRICS).default('open_rate'),
});

const abTestSummary = z.object({
  id: z.string(),
  name: z.string(),
  base_template_id: z.string(),
  variant_template_id: z.string(),
  test_percentage: z.number().int(),
  success_metric: z.string(),
  status: z.string(),
  start_date: z.string(),
  end_date: z.string().nullable(),
});

const templateRef = z.object({ id: z.string(), name: z.string(), display_name: z.string().nullable() });
const armStats = z.object({ sent: z.number().int(), opened: z.number().int(), clicked: z.number().int(), open_rate: z.number(), click_rate: z.number() });
const results = z.object({
  base_stats: armStats,
  variant_stats: armStats,
  winner: z.enum(['base', 'variant']).nullable(),
  confidence: z.number(),
  is_significant: z.boolean(),
  improvement: z.string(),
  total_samples: z.number().int(),
});

const listQuery = z.object({
  status: z.enum(AB_TEST_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});

const security = [{ bearerAuth: [] }];
const tags = ['email-ab-tests'];

export const abTestsRoutes =
  ({ abTests, rateLimit, limit }: { abTests: AbTestsService; rateLimit: RateLimitHandle; limit: WindowLimitName }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route(limit) };

    app.post(
      '/ab-test',
      {
        config,
        schema: {
          operationId: 'createEmailAbTest',
          summary: 'Start an A/B test: creates the variant template from the base',
          tags,
          security,
          body: createBody,
          response: {
            201: z.object({ success: z.boolean(), ab_test: abTestSummary, base_template: templateView, variant_template: templateView, message: z.string() }),
            ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 409, 413, 415, 429] as const),
          },
        },
      },
      async (req, reply) => {
        const created = await abTests.create(req.body, templateActorOf(req));
        return reply.status(201).send({ success: true, ...created, message: `A/B test "${created.ab_test.name}" started` });
      },
    );

    app.get(
      '/ab-test',
      {
        config,
        schema: {
          operationId: 'listEmailAbTests',
          summary: 'A/B tests with their templates and live results',
          tags,
          security,
          querystring: listQuery,
          response: {
            200: z.object({
              success: z.boolean(),
              ab_tests: z.array(
                abTestSummary.extend({ test_duration_days: z.number().int().nullable(), created_at: z.string(), base_template: templateRef, variant_template: templateRef, results }),
              ),
              total: z.number().int(),
            }),
            ...errorResponses(emailErrorSchema, [400, 401, 403, 429] as const),
          },
        },
      },
      async (req) => ({ success: true, ...(await abTests.list(req.query)) }),
    );
  };
