// /api/memories (authenticated scope): the merged list and each memory's media (spec 000 "Memories and
// archive"). Media answers 200 or 206 straight from storage, 416 for a range past the end.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses, parseRangeHeader, rangedMedia, routeMedia, sendStoredObject } from '@story/http';
import { contentDisposition } from './memory-files';
import { idParams, listAnswer, listQuery, mediaQuery } from './memories.schemas';
import type { MemoriesService } from './memories.service';

const security = [{ bearerAuth: [] }];
const tags = ['memories'];

export const memoriesRoutes =
  ({ memories }: { memories: MemoriesService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/',
      {
        schema: {
          operationId: 'listMemories',
          summary: "A storyteller's memories, newest first, 24 per page (page from 0, or the opaque cursor of the previous answer)",
          tags,
          security,
          querystring: listQuery,
          response: { 200: listAnswer, ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => memories.list(callerOf(req).userId, req.query),
    );

    app.get(
      '/:id/media',
      {
        schema: {
          operationId: 'streamMemoryMedia',
          summary: "One memory's file, streamed; honours Range (206, Content-Range; 416). download=true asks for an attachment (family: only while downloads are on)",
          tags,
          security,
          params: idParams,
          querystring: mediaQuery,
          ...routeMedia(rangedMedia(['audio/*', 'video/*', 'image/*', 'application/octet-stream', 'text/html'], 'The memory’s file (a story is its HTML page)')),
          response: {
            200: z.any().describe('The file, whole'),
            206: z.any().describe('The requested byte range'),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 416, 429, 502] as const),
          },
        },
      },
      async (req, reply) => {
        const range = parseRangeHeader(req.headers.range);
        const answer = await memories.media(callerOf(req).userId, req.params.id, req.query, range);
        reply.header('Content-Disposition', contentDisposition(answer.disposition, answer.filename));
        if (req.query.type === 'story') reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
        return sendStoredObject(reply, answer.object, { contentType: answer.contentType });
      },
    );
  };
