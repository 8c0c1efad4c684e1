// /api/books/[bookId]/export and /exports (authenticated scope): queue a PDF, follow it, download it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses, routeMedia } from '@story/http';
import type { BookExportService } from './book-export.service';

const tags = ['books'];
const security = [{ bearerAuth: [] }];
const jobView = z.object({
  id: z.uuid(),
  bookId: z.uuid(),
  kind: z.enum(['interior', 'cover']),
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  pages: z.number().int().nullable(),
  sizeBytes: z.number().int().nullable(),
  paper: z.enum(['white', 'cream']).nullable().describe('the paper the spine width is computed for (CONTRACTS §11)'),
  preflight: z
    .object({ passed: z.boolean(), problems: z.array(z.string()) })
    .catchall(z.unknown())
    .nullable()
    .describe('the print check (CONTRACTS §11): fonts embedded and subset, page boxes, characters without a glyph, page count; null until it ran'),
  error: z.string().nullable(),
  downloadUrl: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});
const jobParams = z.object({ bookId: z.uuid(), jobId: z.uuid() });

export const bookExportRoutes =
  ({ exports }: { exports: BookExportService }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/:bookId/export',
      {
        schema: {
          operationId: 'exportBook',
          summary: 'Typeset a print-ready PDF (interior, or the cover spread with spine and bleed) at the book trim size, in the background; preflighted before it completes',
          tags,
          security,
          params: z.object({ bookId: z.uuid() }),
          body: z.strictObject({
            kind: z.enum(['interior', 'cover']),
            paper: z.enum(['white', 'cream']).default('white').describe('interior paper: sets the cover spine width (CONTRACTS §11)'),
          }),
          response: { 202: z.object({ job: jobView }), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 415, 422, 429] as const) },
        },
      },
      async (req, reply) => reply.status(202).send({ job: await exports.request(callerOf(req).userId, req.params.bookId, req.body.kind, req.body.paper) }),
    );

    app.get(
      '/:bookId/exports',
      {
        schema: {
          operationId: 'listBookExports',
          summary: "A book's export jobs, newest first",
          tags,
          security,
          params: z.object({ bookId: z.uuid() }),
          response: { 200: z.object({ jobs: z.array(jobView) }), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ jobs: await exports.list(callerOf(req).userId, req.params.bookId) }),
    );

    app.get(
      '/:bookId/exports/:jobId',
      {
        schema: {
          operationId: 'getBookExport',
          summary: 'One export job (poll until completed or failed)',
          tags,
          security,
          params: jobParams,
          response: { 200: z.object({ job: jobView }), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 429] as const) },
        },
      },
      async (req) => ({ job: await exports.get(callerOf(req).userId, req.params.bookId, req.params.jobId) }),
    );

    app.get(
      '/:bookId/exports/:jobId/download',
      {
        schema: {
          operationId: 'downloadBookExport',
          summary: 'The finished PDF, streamed',
          tags,
          security,
          params: jobParams,
          ...routeMedia({
            answers: { 200: { types: ['application/pdf'], description: 'The print-ready PDF (Content-Disposition attachment)' } },
            headers: { 200: { 'Content-Disposition': { description: 'attachment; filename of the book', schema: { type: 'string' } } } },
          }),
          response: { 200: z.any().describe('application/pdf'), ...errorResponses(coreErrorSchema, [400, 401, 403, 404, 409, 429] as const) },
        },
      },
      async (req, reply) => {
        const { object, fileName } = await exports.download(callerOf(req).userId, req.params.bookId, req.params.jobId);
        reply
          .header('content-type', 'application/pdf')
          .header('content-length', String(object.contentLength))
          .header('content-disposition', `attachment; filename="${fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`);
        return reply.send(object.body);
      },
    );
  };
