// Waitlist routes. Public: POST /api/waitlist (signup) and POST /api/waitlist/verify {token}.
// Admin (admin or support read): GET /api/admin/waitlist (entries) and GET /api/admin/waitlist/stats.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { pageQuery, recordSchema, security } from '../admin/admin-views';
import type { WaitlistService } from './waitlist.service';

const tags = ['waitlist'];
const stats = z.object({ signups: z.number().int(), verified: z.number().int(), converted: z.number().int(), conversionRate: z.number(), freeEligible: z.number().int(), freePlaces: z.number().int() });

export const waitlistPublicRoutes =
  ({ waitlist, rateLimit }: { waitlist: WaitlistService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route('email.user') };
    app.post('/api/waitlist', {
      config,
      schema: {
        operationId: 'joinWaitlist', summary: 'Join the waitlist: a confirmation link is emailed (same answer whether or not the address was listed)', tags,
        body: z.object({ email: z.email().max(320), name: z.string().trim().max(200).nullish(), source: z.string().trim().max(100).nullish() }),
        response: { 202: z.object({ success: z.boolean(), message: z.string() }), ...errorResponses(emailErrorSchema, [400, 413, 429] as const) },
      },
    }, async (req, reply) => {
      await waitlist.signup(req.body);
      return reply.status(202).send({ success: true, message: 'Check your inbox for a link to confirm your place on the waitlist.' });
    });

    app.post('/api/waitlist/verify', {
      config,
      schema: {
        operationId: 'verifyWaitlistEmail', summary: 'Confirm a waitlist address with the emailed token (single use, 7 days)', tags,
        body: z.object({ token: z.string().min(20).max(200) }),
        response: { 200: z.object({ success: z.boolean(), email: z.string(), verified: z.boolean(), freeEligible: z.boolean() }), ...errorResponses(emailErrorSchema, [400, 429] as const) },
      },
    }, async (req) => ({ success: true, ...(await waitlist.verify(req.body.token)) }));
  };

export const waitlistAdminRoutes =
  ({ waitlist, rateLimit }: { waitlist: WaitlistService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route('email.admin') };
    app.get('/api/admin/waitlist', {
      config,
      schema: {
        operationId: 'listWaitlist', summary: 'Waitlist entries, newest first', tags, security,
        querystring: z.object({ ...pageQuery, verified: z.enum(['true', 'false']).transform((v) => v === 'true').optional(), search: z.string().trim().max(200).optional() }),
        response: { 200: z.object({ success: z.boolean(), items: z.array(recordSchema), pagination: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }) }), ...errorResponses(emailErrorSchema, [400, 401, 403, 429] as const) },
      },
    }, async (req) => ({ success: true, ...(await waitlist.list(req.query)) }));

    app.get('/api/admin/waitlist/stats', {
      config,
      schema: { operationId: 'getWaitlistStats', summary: 'Signups, verified, conversion rate (converted / signups) and free-eligible count', tags, security, response: { 200: z.object({ success: z.boolean(), waitlist: stats }), ...errorResponses(emailErrorSchema, [401, 403, 429] as const) } },
    }, async () => ({ success: true, waitlist: await waitlist.stats() }));
  };
