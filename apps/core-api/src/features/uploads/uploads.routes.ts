// /api/uploads: presign and register (authenticated), and the local store's direct PUT route, which is
// authorised by its ticket alone (like an S3 presigned URL) and streams the body to storage unread.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { badRequest, coreErrorSchema, errorResponses, routeMedia, type RateLimitHandle } from '@story/http';
import { recordingView, toRecordingView } from '../recordings/recordings.schemas';
import { MULTIPART_MAX_BYTES, type UploadsService } from './uploads.service';

const tags = ['uploads'];
const security = [{ bearerAuth: [] }];

const presignBody = z.object({
  fileName: z.string().trim().min(1).max(255),
  contentType: z.string().trim().min(3).max(200),
  // No schema maximum: over MAX_STORED_FILE_BYTES is a 413 naming the limit, from the service.
  size: z.number().int().min(1),
  campaignId: z.uuid().optional(),
});

const registerBody = z.object({
  key: z.string().min(1).max(1024),
  ticket: z.string().min(1).max(4096),
  title: z.string().trim().min(1).max(200).optional(),
  campaignId: z.uuid().optional(),
  duration: z.number().finite().min(0).max(24 * 3600).optional(),
  transcript: z.string().max(200_000).optional(),
  mediaType: z.enum(['audio', 'video']).optional(),
});

export const uploadsRoutes =
  ({ uploads, uploadLimit }: { uploads: UploadsService; uploadLimit: ReturnType<RateLimitHandle['route']> }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/presign',
      {
        config: { rateLimit: uploadLimit },
        schema: {
          operationId: 'presignUpload',
          summary: `Authorise one direct upload (recordings over ${MULTIPART_MAX_BYTES / 1024 / 1024} MB): a signed ticket and where to PUT the bytes`,
          tags,
          security,
          body: presignBody,
          response: {
            200: z.object({ uploadUrl: z.string(), method: z.literal('PUT'), key: z.string(), ticket: z.string(), expiresAt: z.string(), headers: z.record(z.string(), z.string()) }),
            ...errorResponses(coreErrorSchema, [400, 401, 413, 429, 502, 503] as const),
          },
        },
      },
      async (req) => uploads.presign(callerOf(req).userId, req.body),
    );

    app.post(
      '/register',
      {
        schema: {
          operationId: 'registerUpload',
          summary: 'Register a directly uploaded object: the row is written only when storage holds it with the ticketed size',
          tags,
          security,
          body: registerBody,
          response: {
            200: z.object({ recording: recordingView }),
            201: z.object({ recording: recordingView }),
            ...errorResponses(coreErrorSchema, [400, 401, 403, 409, 413, 429, 502] as const),
          },
        },
      },
      async (req, reply) => {
        const { recording, created } = await uploads.register(callerOf(req).userId, req.body);
        return reply.status(created ? 201 : 200).send({ recording: toRecordingView(recording) });
      },
    );
  };

/** PUT /api/uploads/direct/<key>: public (the ticket in X-Upload-Ticket is the credential). */
export const directUploadRoutes =
  ({ uploads, maxStoredFileBytes }: { uploads: UploadsService; maxStoredFileBytes: number }): FastifyPluginAsyncZod =>
  async (app) => {
    // Any body type: the bytes are passed through as a stream, never parsed or buffered.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

    app.put(
      '/*',
      {
        // The service counts the bytes against the ticket and the stored-file limit and answers 413 naming it.
        bodyLimit: maxStoredFileBytes + 1,
        schema: {
          operationId: 'directUpload',
          summary: 'Local storage only: receive the bytes of a presigned direct upload',
          tags,
          headers: z.object({ 'x-upload-ticket': z.string().min(1).max(4096).optional() }).loose(),
          ...routeMedia({
            requestBody: {
              required: true,
              description: 'The file’s bytes as they are, in the content type given to presign (at most the presigned size and MAX_STORED_FILE_BYTES, else 413)',
              content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
            },
          }),
          response: {
            200: z.object({ key: z.string(), size: z.number().int() }),
            ...errorResponses(coreErrorSchema, [400, 403, 413, 502] as const),
          },
        },
      },
      async (req) => {
        // The router has already percent-decoded the key once; decoding again broke on `%25` (URIError).
        const key = (req.params as { '*': string })['*'];
        const length = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
        // No body (no Content-Type, Content-Length 0, or neither a length nor chunked framing): nothing is written.
        if (!req.body || length === 0 || (length === undefined && !req.headers['transfer-encoding'])) throw badRequest('The upload has no body: send the file bytes', { field: 'body' });
        return uploads.receiveDirect(req.headers['x-upload-ticket'] as string | undefined, key, req.body as NodeJS.ReadableStream as never, length);
      },
    );
  };
