// Admin users (spec 001 "Admin application reference": dashboard users and impersonate; CONTRACTS §7).
// Registered inside the admin scope (requireAdminRead); changing routes add requireAdminWrite.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { ACCOUNT_ROLES, SUBSCRIPTION_TIERS } from '@story/db';
import { emailErrorSchema, errorResponses, type RateLimitHandle, type WindowLimitName } from '@story/http';
import { requireAdminWrite } from '../admin-access';
import { auditMeta } from '../request-meta';
import type { AdminUsersService } from './admin-users.service';
import type { ImpersonationService } from './impersonation.service';

const userView = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ACCOUNT_ROLES),
  email_verified: z.boolean(),
  full_name: z.string().nullable(),
  subscription_tier: z.enum(SUBSCRIPTION_TIERS),
  subscription_status: z.string().nullable(),
  created_at: z.string(),
  last_sign_in_at: z.string().nullable(),
});

const userDetail = userView.extend({
  activity: z.object({
    campaigns: z.number().int(),
    stories: z.number().int(),
    wordCount: z.number().int(),
    recordings: z.number().int(),
    books: z.number().int(),
    conversations: z.number().int(),
    activeSessions: z.number().int(),
  }),
  flags: z.record(z.string(), z.union([z.boolean(), z.string()])),
});

const impersonationView = z.object({
  id: z.string(),
  adminId: z.string(),
  userId: z.string(),
  reason: z.string(),
  startedAt: z.string(),
  expiresAt: z.string(),
  endedAt: z.string().nullable(),
  active: z.boolean(),
});

const listQuery = z.object({
  search: z.string().trim().max(200).optional(),
  role: z.enum(ACCOUNT_ROLES).optional(),
  tier: z.enum(SUBSCRIPTION_TIERS).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const idParams = z.object({ id: z.string().max(100) });
const updateBody = z.strictObject({ subscription_tier: z.enum(SUBSCRIPTION_TIERS).optional(), role: z.enum(ACCOUNT_ROLES).optional() });
const impersonateBody = z.object({ reason: z.string().trim().min(3, 'give the reason (at least 3 characters)').max(500) });
const security = [{ bearerAuth: [] }];
const tags = ['admin-users'];

export const adminUsersRoutes =
  ({
    users,
    impersonation,
    evaluateFlags,
    rateLimit,
    limit,
  }: {
    users: AdminUsersService;
    impersonation: ImpersonationService;
    /** The user's evaluated flags (libs/flags), shown on the detail page. */
    evaluateFlags: (userId: string) => Promise<Record<string, boolean | string>>;
    rateLimit: RateLimitHandle;
    limit: WindowLimitName;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route(limit) };

    app.get(
      '/api/admin/users',
      {
        config,
        schema: {
          operationId: 'adminListUsers',
          summary: 'List and search accounts (email or name), newest first',
          tags,
          security,
          querystring: listQuery,
          response: {
            200: z.object({
              success: z.boolean(),
              users: z.array(userView),
              pagination: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }),
            }),
            ...errorResponses(emailErrorSchema, [400, 401, 403, 429] as const),
          },
        },
      },
      async (req) => ({ success: true, ...(await users.list(req.query)) }),
    );

    app.get(
      '/api/admin/users/:id',
      {
        config,
        schema: {
          operationId: 'adminGetUser',
          summary: 'One account with its activity counts and evaluated feature flags',
          tags,
          security,
          params: idParams,
          response: { 200: z.object({ success: z.boolean(), user: userDetail }), ...errorResponses(emailErrorSchema, [401, 403, 404, 429] as const) },
        },
      },
      async (req) => {
        const user = await users.get(req.params.id);
        return { success: true, user: { ...user, flags: await evaluateFlags(user.id) } };
      },
    );

    app.patch(
      '/api/admin/users/:id',
      {
        config,
        onRequest: requireAdminWrite,
        schema: {
          operationId: 'adminUpdateUser',
          summary: 'Change an account’s subscription tier or role (admin only; audit-logged)',
          tags,
          security,
          params: idParams,
          body: updateBody,
          response: {
            200: z.object({ success: z.boolean(), user: userView, message: z.string() }),
            ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 409, 413, 415, 429] as const),
          },
        },
      },
      async (req) => {
        const user = await users.update(callerOf(req).userId, req.params.id, req.body, auditMeta(req));
        return { success: true, user, message: `User ${user.email} updated` };
      },
    );

    app.post(
      '/api/admin/users/:id/impersonate',
      {
        config,
        onRequest: requireAdminWrite,
        schema: {
          operationId: 'adminImpersonateUser',
          summary: 'Act as a user for at most 15 minutes (admin only; no refresh token; audit-logged)',
          tags,
          security,
          params: idParams,
          body: impersonateBody,
          response: {
            201: z.object({
              success: z.boolean(),
              session: z.object({
                access_token: z.string(),
                token_type: z.literal('bearer'),
                expires_in: z.number().int(),
                expires_at: z.number().int(),
                refresh_token: z.null(),
              }),
              impersonation: impersonationView,
            }),
            ...errorResponses(emailErrorSchema, [400, 401, 403, 404, 413, 415, 429] as const),
          },
        },
      },
      async (req, reply) => {
        const started = await impersonation.start(callerOf(req).userId, req.params.id, req.body.reason, auditMeta(req));
        return reply.status(201).send({ success: true, ...started });
      },
    );

    app.get(
      '/api/admin/impersonations',
      {
        config,
        schema: {
          operationId: 'adminListImpersonations',
          summary: 'Impersonations, newest first (active=true: only those not ended)',
          tags,
          security,
          querystring: z.object({
            active: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
            limit: z.coerce.number().int().min(1).max(100).default(20),
            offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
          }),
          response: { 200: z.object({ success: z.boolean(), impersonations: z.array(impersonationView) }), ...errorResponses(emailErrorSchema, [400, 401, 403, 429] as const) },
        },
      },
      async (req) => ({ success: true, impersonations: await impersonation.list(req.query) }),
    );

    app.post(
      '/api/admin/impersonations/:id/end',
      {
        config,
        onRequest: requireAdminWrite,
        schema: {
          operationId: 'adminEndImpersonation',
          summary: 'End an impersonation now: its token stops working on every service (audit-logged)',
          tags,
          security,
          params: idParams,
          response: { 200: z.object({ success: z.boolean(), impersonation: impersonationView }), ...errorResponses(emailErrorSchema, [401, 403, 404, 409, 429] as const) },
        },
      },
      async (req) => ({ success: true, impersonation: await impersonation.end(callerOf(req).userId, req.params.id, auditMeta(req)) }),
    );
  };
