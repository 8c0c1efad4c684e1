// POST /api/support/flag (spec 000 misc), authenticated scope.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { FLAG_CONTENT_TYPES, FLAG_STATUSES } from '@story/db';
import { coreErrorSchema, errorResponses } from '@story/http';
import type { SupportService } from './support.service';

const flagView = z.object({
  id: z.uuid(),
  contentType: z.enum(FLAG_CONTENT_TYPES),
  contentId: z.uuid(),
  reason: z.string(),
  details: z.string().nullable(),
  status: z.enum(FLAG_STATUSES),
  createdAt: z.string(),
});
const answer = z.object({ success: z.literal(true), flag: flagView, alreadyReported: z.boolean() });

export const supportRoutes =
  ({ support }: { support: SupportService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/support/flag',
      {
        schema: {
          operationId: 'flagContent',
          summary: 'Report a story, recording or conversation the caller can see, for review by support',
          description: 'Content the caller cannot see answers 404. Reporting the same item again while the first report is open answers 200 with that report (alreadyReported true).',
          tags: ['support'],
          security: [{ bearerAuth: [] }],
          body: z.strictObject({
            contentType: z.enum(FLAG_CONTENT_TYPES),
            contentId: z.uuid(),
            reason: z.string().trim().min(1, 'is required').max(200, 'at most 200 characters'),
            details: z.string().trim().max(5000, 'at most 5000 characters').optional(),
          }),
          response: { 201: answer, 200: answer, ...errorResponses(coreErrorSchema, [400, 401, 404, 413, 415, 429] as const) },
        },
      },
      async (req, reply) => {
        const { created, flag } = await support.flag(callerOf(req).userId, req.body);
        return reply.status(created ? 201 : 200).send({ success: true as const, flag, alreadyReported: !created });
      },
    );
  };
