// POST /api/stories/convert (authenticated scope, story creation rate).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import { storyView } from '../stories/stories.schemas';
import type { StoryView } from '../stories/stories.service';
import type { ConversionService } from './conversion.service';

const convertBody = z.object({
  sourceType: z.enum(['recording', 'conversation']),
  sourceId: z.uuid(),
  title: z.string().trim().min(1).max(200),
  bookId: z.uuid().optional(),
  acceptPartial: z.boolean().optional(),
});

const faithfulness = z.object({
  passed: z.boolean(),
  score: z.number(),
  unsupportedClaims: z.array(z.string()),
  checkedBy: z.array(z.string()),
  regenerated: z.boolean(),
});

const refusal = z.object({
  error: z.string(),
  details: z.string().optional(),
  readiness: z.enum(['rejected', 'partial', 'ready']),
  wordCount: z.number().int().optional(),
  reasons: z.array(z.string()).optional(),
  unsupportedClaims: z.array(z.string()).optional(),
});

export const conversionRoutes =
  ({
    conversion,
    loadStory,
    storyLimit,
  }: {
    conversion: ConversionService;
    /** The stories API's own view of a story (provenance included), so both routes answer one shape. */
    loadStory: (callerId: string, storyId: string) => Promise<StoryView>;
    storyLimit: ReturnType<RateLimitHandle['route']>;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/convert',
      {
        config: { rateLimit: storyLimit },
        schema: {
          operationId: 'convertToStory',
          summary: 'Turn a recording or a conversation into a faithful written story',
          description:
            'Readiness gate (fewer than 60 words rejected; 60-149 partial, converted only with acceptPartial; 150+ ready, then one AI assessment), ' +
            'a story grounded in the source, a faithfulness check (one rewrite, then refusal listing what is not in the source), and a provenance map ' +
            'linking each paragraph to its span of the source (and seconds in the recording when word timings exist).',
          tags: ['stories'],
          security: [{ bearerAuth: [] }],
          body: convertBody,
          response: {
            201: z.object({ story: storyView, readiness: z.enum(['ready', 'partial']), faithfulness }),
            422: refusal,
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 429, 502] as const),
          },
        },
      },
      async (req, reply) => {
        const userId = callerOf(req).userId;
        const result = await conversion.convert(userId, req.body);
        return reply.status(201).send({ ...result, story: await loadStory(userId, result.storyId) });
      },
    );
  };
