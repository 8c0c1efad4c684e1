// /api/audio/[fileId] (the recording's audio, streamed with Range) and /api/audio/[fileId]/share.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses, parseRangeHeader, rangedMedia, routeMedia, sendStoredObject } from '@story/http';
import type { AudioService } from './audio.service';

const tags = ['audio'];
const security = [{ bearerAuth: [] }];
const params = z.object({ fileId: z.uuid() });
const shareView = z.object({ id: z.uuid(), recordingId: z.uuid(), token: z.string(), url: z.string(), expiresAt: z.string().nullable(), createdAt: z.string() });

export const audioRoutes =
  ({ audio }: { audio: AudioService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/:fileId',
      {
        schema: {
          operationId: 'streamAudio',
          summary: "A recording's audio (fileId = recording id), streamed; honours Range (206; 416 for a bad range)",
          tags,
          security,
          params,
          ...routeMedia(rangedMedia(['audio/*', 'video/*'], 'The audio')),
          response: {
            200: z.any().describe('The audio, whole'),
            206: z.any().describe('A byte range of the audio'),
            ...errorResponses(coreErrorSchema, [400, 401, 404, 416, 429, 502] as const),
          },
        },
      },
      async (req, reply) => {
        const { object, contentType } = await audio.stream(callerOf(req).userId, req.params.fileId, parseRangeHeader(req.headers.range));
        return sendStoredObject(reply, object, { contentType });
      },
    );

    app.post(
      '/:fileId/share',
      {
        schema: {
          operationId: 'shareAudio',
          summary: 'A link that plays the recording without signing in (owner only), optionally expiring',
          tags,
          security,
          params,
          body: z.object({ expiresInDays: z.number().int().min(1).max(365).optional() }).nullish(),
          response: { 201: z.object({ share: shareView, shareUrl: z.string() }), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req, reply) => {
        const share = await audio.share(callerOf(req).userId, req.params.fileId, req.body ?? {});
        return reply.status(201).send({ share, shareUrl: share.url });
      },
    );
  };
