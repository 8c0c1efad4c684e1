// POST /api/upload-url, GET /api/upload/files/[fileId] (the fileUrl) and DELETE /api/upload/delete.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses, parseRangeHeader, rangedMedia, routeMedia, sendStoredObject, type RateLimitHandle } from '@story/http';
import type { UploadUrlService } from './upload-url.service';

const tags = ['uploads'];
const security = [{ bearerAuth: [] }];

const presignBody = z.object({
  fileName: z.string().trim().min(1).max(255),
  fileType: z.string().trim().min(3).max(200),
  folder: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'folder must be 1-40 lowercase letters, digits, - or _'),
  // Optional beyond the spec's three fields: the quota reserves the 50 MB maximum when it is missing.
  fileSize: z.number().int().min(1).optional(),
});

export const uploadUrlRoutes =
  ({ uploads, uploadLimit }: { uploads: UploadUrlService; uploadLimit: ReturnType<RateLimitHandle['route']> }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/upload-url',
      {
        config: { rateLimit: uploadLimit },
        schema: {
          operationId: 'createUploadUrl',
          summary: 'A presigned URL to PUT one file to storage ({uploadUrl, fileUrl}); the stored-file quota of the tier is checked first',
          tags,
          security,
          body: presignBody,
          response: {
            200: z.object({
              uploadUrl: z.string(),
              fileUrl: z.string(),
              id: z.uuid(),
              key: z.string(),
              method: z.literal('PUT'),
              headers: z.record(z.string(), z.string()),
              expiresAt: z.string(),
              maxBytes: z.number().int(),
            }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 413, 429, 502, 503] as const),
          },
        },
      },
      async (req) => uploads.presign(callerOf(req).userId, req.body),
    );

    app.get(
      '/upload/files/:fileId',
      {
        schema: {
          operationId: 'getUploadedFile',
          summary: 'A file uploaded through /api/upload-url (owner only), streamed; honours Range',
          tags,
          security,
          params: z.object({ fileId: z.uuid() }),
          ...routeMedia(rangedMedia(['*/*'], 'The file, in the content type it was uploaded with')),
          response: {
            200: z.any().describe('The file'),
            206: z.any().describe('A byte range of the file'),
            ...errorResponses(coreErrorSchema, [400, 401, 404, 416, 429, 502] as const),
          },
        },
      },
      async (req, reply) => {
        const { row, object } = await uploads.read(callerOf(req).userId, req.params.fileId, parseRangeHeader(req.headers.range));
        return sendStoredObject(reply, object, { contentType: row.contentType });
      },
    );

    app.delete(
      '/upload/delete',
      {
        schema: {
          operationId: 'deleteUpload',
          summary: 'Delete a file uploaded through /api/upload-url, named by id, key or fileUrl (only the caller\u2019s own)',
          tags,
          security,
          body: z
            .object({ id: z.string().max(64).optional(), key: z.string().max(1024).optional(), fileUrl: z.string().max(2048).optional() })
            .refine((b) => b.id || b.key || b.fileUrl, { message: 'send id, key or fileUrl', path: ['key'] }),
          response: { 200: z.object({ success: z.literal(true), id: z.uuid(), key: z.string() }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, ...(await uploads.remove(callerOf(req).userId, req.body)) }),
    );
  };
