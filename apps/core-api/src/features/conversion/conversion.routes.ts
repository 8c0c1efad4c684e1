// POST /api/stories/convert (authenticated scope, story creation rate).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses, type RateLimitHandle } from '@story/http';
import type { ConversionService } from './conversion.service';

const convertBody = z.object({
  sourceType: z.enum(['recording', 'conversation']),
  sourceId: z.uuid(),
  title: z.string().trim().min(1).max(200),
  bookId: z.uuid().optional(),
  acceptPartial: z.boolean().optional(),
});

const paragraphProvenance = z.object({
  paragraph: z.number().int(),
  sourceStart: z.number().int().nullable(),
  sourceEnd: z.number().int().nullable(),
  sourceExcerpt: z.string().nullable(),
  startSeconds: z.number().nullable(),
  endSeconds: z.number().nullable(),
  messageIds: z.array(z.string()),
  alignment: z.number(),
  faithful: z.boolean(),
  unsupportedClaims: z.array(z.string()),
});

const faithfulness = z.object({
  passed: z.boolean(),
  score: z.number(),
  unsupportedClaims: z.array(z.string()),
  checkedBy: z.array(z.string()),
  regenerated: z.boolean(),
});

const storyView = z.object({
  id: z.uuid(),
  title: z.string(),
  type: z.string(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  campaignId: z.uuid().nullable(),
  book_id: z.uuid().nullable(),
  ai_enhanced: z.boolean(),
  source_recording_ids: z.array(z.string()),
  source_conversation_ids: z.array(z.string()),
  word_count: z.number().int(),
  provenance: z.object({
    sourceType: z.string(),
    sourceIds: z.array(z.string()),
    model: z.string(),
    generatedAt: z.string(),
    faithfulness,
    paragraphs: z.array(paragraphProvenance),
  }),
  created_at: z.string(),
  updated_at: z.string(),
});

const refusal = z.object({
  error: z.string(),
  details: z.string().optional(),
  readiness: z.enum(['rejected', 'partial', 'ready']),
  wordCount: z.number().int().optional(),
  reasons: z.array(z.string()).optional(),
  unsupportedClaims: z.array(z.string()).optional(),
});

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(`${String(v).replace(' ', 'T')}Z`).toISOString());

export const conversionRoutes =
  ({ conversion, storyLimit }: { conversion: ConversionService; storyLimit: ReturnType<RateLimitHandle['limit']> }): FastifyPluginAsyncZod =>
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
        const result = await conversion.convert(callerOf(req).userId, req.body);
        const story = result.story as z.infer<typeof storyView> & { created_at: unknown; updated_at: unknown };
        return reply.status(201).send({ ...result, story: { ...story, created_at: iso(story.created_at), updated_at: iso(story.updated_at) } });
      },
    );
  };
