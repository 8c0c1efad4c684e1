// GET /api/admin/billing (dashboard billing): per-tier counts and monthly revenue from subscription rows.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { security } from '../admin/admin-views';
import type { BillingService } from './billing.service';

const tiers = z.object({ free: z.number().int(), starter: z.number().int(), family: z.number().int(), premium: z.number().int() });

export const billingRoutes =
  ({ billing, rateLimit }: { billing: BillingService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get('/api/admin/billing', {
      config: { rateLimit: rateLimit.route('email.admin') },
      schema: {
        operationId: 'getBillingOverview', summary: 'Accounts and paying subscriptions per tier, monthly recurring revenue (spec 000 prices), paid invoices per month', tags: ['admin-billing'], security,
        response: {
          200: z.object({
            success: z.boolean(), monthlyRevenue: z.number(), currency: z.string(), tiers, paying: tiers, trial: tiers, cancelled: tiers,
            prices: z.record(z.string(), z.number().nullable()), unpriced: z.record(z.string(), z.number().int()),
            invoicedByMonth: z.array(z.object({ month: z.string(), paid: z.number(), invoices: z.number().int() })),
          }),
          ...errorResponses(emailErrorSchema, [401, 403, 429] as const),
        },
      },
    }, async () => ({ success: true, ...(await billing.overview()) }));
  };
