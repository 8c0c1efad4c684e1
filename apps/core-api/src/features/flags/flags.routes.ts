// GET /api/flags (CONTRACTS §7): the caller's evaluated feature flags, every flag listed (false ones
// too), from the libs/flags cache of this process (300 s at most, cleared by NOTIFY on every change).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import type { FlagStore } from '@story/flags';
import { coreErrorSchema, errorResponses } from '@story/http';

export const flagsRoutes =
  ({ flags }: { flags: Pick<FlagStore, 'evaluateAll'> }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/',
      {
        schema: {
          operationId: 'getMyFlags',
          summary: "The caller's feature flags: true, false or the A/B variant's name",
          tags: ['flags'],
          security: [{ bearerAuth: [] }],
          response: { 200: z.object({ flags: z.record(z.string(), z.union([z.boolean(), z.string()])) }), ...errorResponses(coreErrorSchema, [401, 429] as const) },
        },
      },
      async (req) => ({ flags: await flags.evaluateAll(callerOf(req).userId) }),
    );
  };
