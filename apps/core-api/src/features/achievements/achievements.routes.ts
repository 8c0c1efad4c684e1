// /api/achievements (spec 000): definitions, the caller's achievements, progress, and the award check.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses } from '@story/http';
import { METRICS } from './achievements.repository';
import type { AchievementsService } from './achievements.service';

const security = [{ bearerAuth: [] }];
const tags = ['achievements'];

const definition = z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), icon: z.string().nullable(), points: z.number().int(), category: z.string().nullable() });
const unlocked = definition.extend({ unlocked_at: z.string() });
const userAchievements = z.object({ achievements: z.array(unlocked), totalPoints: z.number().int() });
const errors = errorResponses(coreErrorSchema, [401, 429] as const);

export const achievementsRoutes =
  ({ achievements }: { achievements: AchievementsService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/achievements/definitions',
      {
        schema: {
          operationId: 'listAchievementDefinitions',
          summary: 'Every achievement that can be earned',
          tags,
          security,
          response: { 200: z.object({ achievements: z.array(definition) }), ...errors },
        },
      },
      async () => achievements.definitions(),
    );

    app.get(
      '/api/achievements/user',
      {
        schema: { operationId: 'listUserAchievements', summary: "The caller's unlocked achievements and points", tags, security, response: { 200: userAchievements, ...errors } },
      },
      async (req) => achievements.unlocked(callerOf(req).userId),
    );

    app.get(
      '/api/achievements/progress',
      {
        schema: {
          operationId: 'getAchievementProgress',
          summary: "Progress toward each achievement, computed from the caller's stories, recordings, books and family",
          tags,
          security,
          response: {
            200: z.object({
              progress: z.array(
                z.object({
                  achievement_id: z.string(),
                  name: z.string(),
                  icon: z.string().nullable(),
                  points: z.number().int(),
                  metric: z.string().nullable(),
                  current: z.number().int(),
                  target: z.number().int(),
                  percent: z.number().int(),
                  earned: z.boolean(),
                  unlocked: z.boolean(),
                  unlocked_at: z.string().nullable(),
                }),
              ),
              metrics: z.object(Object.fromEntries(METRICS.map((m) => [m, z.number().int()])) as Record<(typeof METRICS)[number], z.ZodNumber>),
            }),
            ...errors,
          },
        },
      },
      async (req) => achievements.progress(callerOf(req).userId),
    );

    app.post(
      '/api/achievements/check',
      {
        schema: {
          operationId: 'checkAchievements',
          summary: 'Award every achievement newly earned (each at most once); lists the new ones',
          tags,
          security,
          response: { 200: userAchievements.extend({ success: z.literal(true), newlyUnlocked: z.array(unlocked) }), ...errors },
        },
      },
      async (req) => achievements.check(callerOf(req).userId),
    );
  };
