// GET /api/share/[token] and its audio stream (spec 000 misc): public, since a share link is for people
// without an account; limited per address like the other public lookups.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { coreErrorSchema, errorResponses, parseRangeHeader, rangedMedia, routeMedia, sendStoredObject, type RateLimitHandle } from '@story/http';
import type { ShareService } from './share.service';

const params = z.object({ token: z.string().max(300) });
const audioView = z.object({
  kind: z.literal('audio'),
  share: z.object({ expiresAt: z.string().nullable(), playCount: z.number().int() }),
  recording: z.object({ id: z.uuid(), title: z.string(), duration_seconds: z.number().nullable(), media_type: z.string(), audio_url: z.string(), createdAt: z.string() }),
});
const storyView = z.object({
  kind: z.literal('story'),
  share: z.object({ expiresAt: z.string().nullable(), viewCount: z.number().int() }),
  story: z.object({
    id: z.uuid(),
    title: z.string(),
    content: z.string(),
    wordCount: z.number().int(),
    createdAt: z.string(),
    lang: z.string().describe("BCP 47 language of the story's text ('und' when it cannot tell): the page sets <html lang>"),
    dir: z.enum(['ltr', 'rtl']).describe("the direction most of the story's letters read in: the page sets dir"),
  }),
});

export const shareRoutes =
  ({ share, rateLimit }: { share: ShareService; rateLimit: RateLimitHandle }): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { rateLimit: rateLimit.route('core.share') };
    app.get(
      '/api/share/:token',
      {
        config,
        schema: {
          operationId: 'getSharedItem',
          summary: 'What a public share link shows: a recording (audio streamed from audio_url) or a story; unknown, revoked or expired → 404',
          tags: ['share'],
          security: [],
          params,
          response: { 200: z.discriminatedUnion('kind', [audioView, storyView]), ...errorResponses(coreErrorSchema, [404, 429] as const) },
        },
      },
      async (req, reply) => {
        reply.header('Cache-Control', 'no-store');
        reply.header('X-Robots-Tag', 'noindex');
        return share.view(req.params.token);
      },
    );

    app.get(
      '/api/share/:token/audio',
      {
        config,
        schema: {
          operationId: 'streamSharedAudio',
          summary: "A shared recording's media, streamed; honours Range (206, 416)",
          tags: ['share'],
          security: [],
          params,
          ...routeMedia(rangedMedia(['audio/*', 'video/*'], 'The shared recording')),
          response: {
            200: z.any().describe('The stored media, whole'),
            206: z.any().describe('The requested byte range'),
            ...errorResponses(coreErrorSchema, [404, 416, 429, 502] as const),
          },
        },
      },
      async (req, reply) => {
        const { object, contentType } = await share.audio(req.params.token, parseRangeHeader(req.headers.range));
        return sendStoredObject(reply, object, { contentType, cacheControl: 'no-store' });
      },
    );
  };
