// /api/family/[familyId]/leaderboard: contributions per member of a group.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import type { FamilyService } from '../family.service';
import { leaderboardEntry } from './groups.schemas';
import { e, familyParams, security, tags } from './shared.schemas';

export const leaderboardRoutes =
  ({ family }: { family: FamilyService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/family/:familyId/leaderboard',
      {
        schema: {
          operationId: 'getFamilyLeaderboard',
          summary: 'Contributions per member, counted from stories, recordings and memories',
          tags,
          security,
          params: familyParams,
          response: { 200: z.object({ success: z.literal(true), data: z.array(leaderboardEntry) }), ...e([400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, data: await family.leaderboard(callerOf(req).userId, req.params.familyId) }),
    );
  };
