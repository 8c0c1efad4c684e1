// /api/account/archive (authenticated scope): open an archive job, then download it part by part. The zip
// answers carry the exact Content-Length, a strong ETag, Accept-Ranges and 206 for a Range (If-Range honoured).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses, parseRangeHeader, rangedMedia, routeMedia } from '@story/http';
import { contentDisposition } from '../memories/memory-files';
import type { ArchiveService } from './archive.service';

const security = [{ bearerAuth: [] }];
const tags = ['memories'];

const openAnswer = z.object({
  job: z.object({ id: z.uuid(), kind: z.literal('archive'), status: z.string(), storytellerId: z.uuid(), createdAt: z.string() }),
  itemCount: z.number().int(),
  approximateBytes: z.number(),
  folders: z.array(z.object({ folder: z.string(), count: z.number().int(), approximateBytes: z.number() })),
  singleZip: z.boolean().describe('true when the estimate is at most the single-zip limit (1 GB) and part=all is offered'),
  partLimitBytes: z.number(),
  parts: z.array(z.object({ part: z.string(), folder: z.string(), count: z.number().int(), approximateBytes: z.number(), downloadUrl: z.string() })),
});

export const archiveRoutes =
  ({ archive }: { archive: ArchiveService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/',
      {
        schema: {
          operationId: 'openMemoriesArchive',
          summary: "Count and size a storyteller's memories and open an export job of kind archive (nothing is zipped yet)",
          tags,
          security,
          body: z.object({ storytellerId: z.uuid({ message: 'storytellerId must be a uuid' }) }),
          response: { 201: openAnswer, ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req, reply) => reply.status(201).send(await archive.open(callerOf(req).userId, req.body.storytellerId)),
    );

    app.get(
      '/:jobId/download',
      {
        schema: {
          operationId: 'downloadMemoriesArchive',
          summary: 'One part of the archive as a zip (part=all for the single zip, else a folder or a numbered folder part); Range resumes at any byte',
          tags,
          security,
          params: z.object({ jobId: z.uuid({ message: 'jobId must be a uuid' }) }),
          querystring: z.object({ part: z.string().trim().min(1).max(40).default('all') }),
          ...routeMedia(rangedMedia(['application/zip'], 'The zip')),
          response: {
            200: z.any().describe('The zip, whole'),
            206: z.any().describe('The requested byte range of the zip'),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 416, 429] as const),
          },
        },
      },
      async (req, reply) => {
        const range = parseRangeHeader(req.headers.range);
        const ifRange = typeof req.headers['if-range'] === 'string' ? req.headers['if-range'] : undefined;
        const zip = await archive.download(callerOf(req).userId, req.params.jobId, req.query.part, { range, ifRange });
        reply.header('Content-Type', 'application/zip');
        reply.header('Content-Length', String(zip.contentLength));
        reply.header('Accept-Ranges', 'bytes');
        reply.header('ETag', zip.etag);
        reply.header('Last-Modified', zip.lastModified);
        reply.header('Cache-Control', 'private, no-transform');
        reply.header('Content-Disposition', contentDisposition('attachment', zip.filename));
        if (zip.range) {
          reply.status(206);
          reply.header('Content-Range', `bytes ${zip.range.start}-${zip.range.end}/${zip.length}`);
        }
        reply.raw.once('finish', () => void zip.done().catch((err: unknown) => req.log.warn({ err }, 'archive part not recorded as done')));
        return reply.send(zip.body);
      },
    );
  };
