// Data export routes (authenticated scope): POST /api/user/export-data, GET /api/user/data-export?format=,
// GET and POST /api/settings/data-export, and one export by id with its download. Files stream from storage.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { coreErrorSchema, errorResponses, routeMedia, type HeaderDoc } from '@story/http';
import type { DataExportService, Download } from './data-export.service';

const tags = ['privacy'];
const security = [{ bearerAuth: [] }];
const exportType = z.enum(['stories', 'profile', 'all']);
const format = z.enum(['json', 'pdf', 'zip']);
const exportView = z.object({
  id: z.uuid(),
  export_type: exportType,
  format,
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  file_url: z.string().nullable(),
  file_size_bytes: z.number().int().nullable(),
  expires_at: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
const created = exportView.extend({ success: z.literal(true), export: exportView });
const requestBody = z
  .strictObject({ format: format.optional(), exportType: exportType.optional(), export_type: exportType.optional() })
  .optional();
const fileResponse = z.any().describe('the export file (application/json, application/pdf or application/zip), streamed');
const pending = z.object({ success: z.literal(true), message: z.string(), export: exportView });

const DOWNLOAD_RULE =
  'A completed, unexpired export answers 200 with the file streamed (Content-Disposition attachment); one still pending or ' +
  'processing answers 202 with the export to poll; a failed one 409; an expired one 410. Exports expire 7 days after completion.';

/** Seconds a client should wait before polling an export that is still being made. */
export const EXPORT_RETRY_AFTER_SECONDS = 5;

/** A 202 says where to poll and when (RFC 9110 §10.2.3, §15.3.3): Location is the export record. */
function pollHeaders(reply: FastifyReply, exportId: string): FastifyReply {
  return reply.header('Retry-After', String(EXPORT_RETRY_AFTER_SECONDS)).header('Location', `/api/user/data-exports/${exportId}`);
}

const POLL_HEADERS: Record<string, HeaderDoc> = {
  'Retry-After': { description: 'Seconds to wait before polling again', schema: { type: 'integer' } },
  Location: { description: 'The export record to poll: /api/user/data-exports/{id}', schema: { type: 'string' } },
};
const EXPORT_TYPES = ['application/json', 'application/pdf', 'application/zip'];
const downloadMedia = routeMedia({
  answers: { 200: { types: EXPORT_TYPES, description: 'The export file, streamed (Content-Disposition attachment)' } },
  headers: { 202: POLL_HEADERS },
});

function sendDownload(reply: FastifyReply, result: Download) {
  if (!result.ready) {
    return pollHeaders(reply, result.export.id)
      .status(202)
      .send({ success: true as const, message: `The export is ${result.export.status}; try again shortly.`, export: result.export });
  }
  const { object, fileName, contentType } = result;
  return reply
    .status(200)
    .header('content-type', contentType)
    .header('content-length', String(object.contentLength))
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(object.body);
}

export const dataExportRoutes =
  ({ exports }: { exports: DataExportService }): FastifyPluginAsyncZod =>
  async (app) => {
    const requestExport = (userId: string, body: z.infer<typeof requestBody>) =>
      exports.request(userId, body?.exportType ?? body?.export_type ?? 'all', body?.format ?? 'zip');

    app.post(
      '/api/user/export-data',
      {
        schema: {
          operationId: 'requestUserDataExport',
          summary: 'Start an export of the caller’s data (default: everything, as a zip of data.json plus the media files)',
          description: 'Body {format?: json|pdf|zip (default zip), exportType?: stories|profile|all (default all)}. Answers 202 with the export record; poll GET /api/user/data-exports/{id}.',
          tags,
          security,
          body: requestBody,
          ...routeMedia({ headers: { 202: POLL_HEADERS } }),
          response: { 202: created, ...errorResponses(coreErrorSchema, [400, 401, 429] as const) },
        },
      },
      async (req, reply) => {
        const view = await requestExport(callerOf(req).userId, req.body);
        return pollHeaders(reply, view.id).status(202).send({ success: true as const, ...view, export: view });
      },
    );

    app.get(
      '/api/user/data-export',
      {
        schema: {
          operationId: 'downloadUserDataExport',
          summary: 'The caller’s newest export of everything in a format, streamed; queued when there is none',
          description: `format is json (every row the account owns), pdf (its stories as a document) or zip (data.json plus media); default json. The newest completed, unexpired export of type all in that format is streamed; when none is finished the one being made (or a newly queued one) answers 202. ${DOWNLOAD_RULE}`,
          tags,
          security,
          querystring: z.object({ format: format.default('json') }),
          ...downloadMedia,
          response: { 200: fileResponse, 202: pending, ...errorResponses(coreErrorSchema, [400, 401, 409, 410, 429] as const) },
        },
      },
      async (req, reply) => sendDownload(reply, await exports.current(callerOf(req).userId, req.query.format)),
    );

    app.get(
      '/api/user/data-exports/:id',
      {
        schema: {
          operationId: 'getUserDataExport',
          summary: 'One of the caller’s exports (poll until completed or failed)',
          tags,
          security,
          params: z.object({ id: z.uuid() }),
          response: { 200: z.object({ export: exportView }), ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => ({ export: await exports.get(callerOf(req).userId, req.params.id) }),
    );

    app.get(
      '/api/user/data-exports/:id/download',
      {
        schema: {
          operationId: 'downloadUserDataExportById',
          summary: 'The file of one of the caller’s exports, streamed',
          description: `${DOWNLOAD_RULE} Another account's export is 404.`,
          tags,
          security,
          params: z.object({ id: z.uuid() }),
          ...downloadMedia,
          response: { 200: fileResponse, 202: pending, ...errorResponses(coreErrorSchema, [400, 401, 404, 409, 410, 429] as const) },
        },
      },
      async (req, reply) => sendDownload(reply, await exports.download(callerOf(req).userId, req.params.id)),
    );

    app.get(
      '/api/settings/data-export',
      {
        schema: {
          operationId: 'listDataExports',
          summary: 'The caller’s data exports, newest first (user_data_exports)',
          tags: ['settings'],
          security,
          response: { 200: z.object({ success: z.literal(true), exports: z.array(exportView) }), ...errorResponses(coreErrorSchema, [401, 429] as const) },
        },
      },
      async (req) => ({ success: true as const, exports: await exports.list(callerOf(req).userId) }),
    );

    app.post(
      '/api/settings/data-export',
      {
        schema: {
          operationId: 'requestDataExportFromSettings',
          summary: 'Start a data export (same as POST /api/user/export-data)',
          description: 'Body {export_type?: stories|profile|all (default all), format?: json|pdf|zip (default zip)}. Answers 202 with the export.',
          tags: ['settings'],
          security,
          body: requestBody,
          ...routeMedia({ headers: { 202: POLL_HEADERS } }),
          response: { 202: created, ...errorResponses(coreErrorSchema, [400, 401, 429] as const) },
        },
      },
      async (req, reply) => {
        const view = await requestExport(callerOf(req).userId, req.body);
        return pollHeaders(reply, view.id).status(202).send({ success: true as const, ...view, export: view });
      },
    );
  };
