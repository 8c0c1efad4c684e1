// GET/POST /api/feature-flags and POST /api/clear-cache (spec 001 "Admin application reference",
// CONTRACTS §7), inside the admin scope: support and admin read, only admin changes.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import type { CacheBus } from '@story/flags';
import { emailErrorSchema, errorResponses, type RateLimitHandle, type WindowLimitName } from '@story/http';
import { requireAdminWrite } from '../admin-access';
import type { AuditLog } from '../audit-log.repository';
import { auditMeta } from '../request-meta';
import type { FeatureFlagsService } from './feature-flags.service';

const variant = z.object({ name: z.string().trim().min(1).max(50), weight: z.number().int().min(0).max(10_000) });
const override = z.object({ userId: z.uuid(), enabled: z.boolean(), reason: z.string().max(500).nullish() });

const flagView = z.object({
  key: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  rolloutPercentage: z.number().int(),
  overrides: z.array(z.object({ userId: z.string(), enabled: z.boolean(), reason: z.string().nullable() })),
  variants: z.array(z.object({ name: z.string(), weight: z.number().int() })).optional(),
  updatedAt: z.string(),
});

/** The whole flag (CONTRACTS §7: a POST carries the whole flag; omitted overrides mean none). */
const flagBody = z.object({
  key: z
    .string()
    .max(100)
    .regex(/^[a-z][a-z0-9_.-]*$/, 'must be lowercase letters, digits, _ . or -, starting with a letter'),
  description: z.string().max(1000).nullish(),
  enabled: z.boolean(),
  rolloutPercentage: z.number().int('must be a whole number').min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100').default(100),
  overrides: z.array(override).max(10_000).default([]),
  variants: z.array(variant).max(20).nullish(),
});

const security = [{ bearerAuth: [] }];
const tags = ['admin-feature-flags'];

export const featureFlagsRoutes =
  ({ flags, cacheBus, audit, rateLimit, limit }: { flags: FeatureFlagsService; cacheBus: Pick<CacheBus, 'publish'>; audit: AuditLog; rateLimit: RateLimitHandle; limit: WindowLimitName }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route(limit) };

    app.get(
      '/api/feature-flags',
      {
        config,
        schema: {
          operationId: 'listFeatureFlags',
          summary: 'Every feature flag with its overrides, rollout and variants',
          tags,
          security,
          response: { 200: z.object({ success: z.boolean(), flags: z.array(flagView) }), ...errorResponses(emailErrorSchema, [401, 403, 429] as const) },
        },
      },
      async () => ({ success: true, flags: await flags.list() }),
    );

    app.post(
      '/api/feature-flags',
      {
        config,
        onRequest: requireAdminWrite,
        schema: {
          operationId: 'saveFeatureFlag',
          summary: 'Create or update one flag by key (admin only; audit-logged; seen by every service within a second)',
          tags,
          security,
          body: flagBody,
          response: {
            200: z.object({ success: z.boolean(), flag: flagView, created: z.boolean(), message: z.string() }),
            ...errorResponses(emailErrorSchema, [400, 401, 403, 413, 415, 429] as const),
          },
        },
      },
      async (req) => {
        const { flag, created } = await flags.save(callerOf(req).userId, req.body, auditMeta(req));
        return { success: true, flag, created, message: `Feature flag ${flag.key} ${created ? 'created' : 'updated'}` };
      },
    );

    app.post(
      '/api/clear-cache',
      {
        config,
        onRequest: requireAdminWrite,
        schema: {
          operationId: 'clearCaches',
          summary: 'Empty the in-process caches of every replica of every service (PostgreSQL NOTIFY; admin only)',
          tags,
          security,
          response: { 200: z.object({ success: z.boolean(), message: z.string() }), ...errorResponses(emailErrorSchema, [401, 403, 429] as const) },
        },
      },
      async (req) => {
        const meta = auditMeta(req);
        await audit.record({ actorId: callerOf(req).userId, action: 'cache.clear', targetType: 'cache', targetId: 'all', ipPrefix: meta.ipPrefix, requestId: meta.requestId });
        await cacheBus.publish();
        return { success: true, message: 'Caches cleared in every service' };
      },
    );
  };
