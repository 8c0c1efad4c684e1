// /api/imports (authenticated scope): create from a file, pasted text or a URL; poll the job; split into
// candidate stories; convert them into stories. Answers are the import record (CONTRACTS §9: {id, status, ...}).
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '@story/auth';
import { badRequest, coreErrorSchema, errorResponses, multipartBody, routeMedia, type RateLimitHandle } from '@story/http';
import { MULTIPART_BUFFERS, readMultipartFile } from '../multipart-file';
import { storyView } from '../stories/stories.schemas';
import type { ImportRow } from './imports.repository';
import type { ImportsService } from './imports.service';

/** The multipart upload route's cap (spec 000 Limits: files at or below 8 MB go through multipart). */
export const IMPORT_MAX_BYTES = 8 * 1024 * 1024;
const TOO_LARGE = `file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB, the most an import can be`;

const tags = ['imports'];
const security = [{ bearerAuth: [] }];
const idParams = z.object({ importId: z.uuid() });

const candidateView = z.object({ index: z.number().int(), title: z.string(), content: z.string(), wordCount: z.number().int() });
const importView = z.object({
  id: z.uuid(),
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  sourceType: z.enum(['file', 'paste', 'url']),
  title: z.string().nullable(),
  fileName: z.string().nullable(),
  mimeType: z.string().nullable(),
  fileSizeBytes: z.number().nullable(),
  sourceUrl: z.string().nullable(),
  wordCount: z.number().int(),
  error: z.string().nullable(),
  storyId: z.uuid().nullable(),
  candidates: z.array(candidateView).nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const toView = (r: ImportRow): z.infer<typeof importView> => ({
  id: r.id,
  status: r.status,
  sourceType: r.sourceType,
  title: r.title,
  fileName: r.fileName,
  mimeType: r.mimeType,
  fileSizeBytes: r.fileSizeBytes,
  sourceUrl: r.sourceUrl,
  wordCount: r.wordCount,
  error: r.error,
  storyId: r.storyId,
  candidates: r.candidates,
  completedAt: r.completedAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

const pasteBody = z.object({ content: z.string().min(1).max(500_000), title: z.string().trim().max(200).optional() });
const urlBody = z.object({ url: z.string().trim().min(1).max(2048), title: z.string().trim().max(200).optional() });
const createBody = z.discriminatedUnion('sourceType', [pasteBody.extend({ sourceType: z.literal('paste') }), urlBody.extend({ sourceType: z.literal('url') })]);
const convertBody = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    candidates: z.array(z.number().int().min(0)).min(1).max(500).optional(),
    campaignId: z.uuid().optional(),
  })
  .optional();

export const importsRoutes =
  ({ imports, uploadLimit, storyLimit }: { imports: ImportsService; uploadLimit: ReturnType<RateLimitHandle['route']>; storyLimit: ReturnType<RateLimitHandle['route']> }): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, fieldSize: 4096 }, throwFileSizeLimit: true, ...MULTIPART_BUFFERS });
    const created = { 201: importView, ...errorResponses(coreErrorSchema, [400, 401, 403, 413, 415, 429, 502, 503] as const) };

    app.get(
      '/',
      {
        schema: {
          operationId: 'listImports',
          summary: "The caller's imports, newest first",
          tags,
          security,
          querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) }),
          response: { 200: z.object({ imports: z.array(importView) }), ...errorResponses(coreErrorSchema, [400, 401, 429] as const) },
        },
      },
      async (req) => ({ imports: (await imports.list(callerOf(req).userId, req.query.limit)).map(toView) }),
    );

    app.post(
      '/',
      {
        config: { rateLimit: uploadLimit },
        schema: { operationId: 'createImport', summary: 'Start an import from pasted text or a URL (sourceType paste or url)', tags, security, body: createBody, response: created },
      },
      async (req, reply) => {
        const userId = callerOf(req).userId;
        const body = req.body;
        const row = body.sourceType === 'paste' ? await imports.createPaste(userId, body) : await imports.createUrl(userId, body);
        return reply.status(201).send(toView(row));
      },
    );

    app.post(
      '/paste',
      { config: { rateLimit: uploadLimit }, schema: { operationId: 'importPaste', summary: 'Import pasted text (completed at once)', tags, security, body: pasteBody, response: created } },
      async (req, reply) => reply.status(201).send(toView(await imports.createPaste(callerOf(req).userId, req.body))),
    );

    app.post(
      '/url',
      {
        config: { rateLimit: uploadLimit },
        schema: {
          operationId: 'importUrl',
          summary: 'Import a web page: http(s) only; private, loopback, link-local and reserved addresses refused with 400; fetched by a job',
          tags,
          security,
          body: urlBody,
          response: created,
        },
      },
      async (req, reply) => reply.status(201).send(toView(await imports.createUrl(callerOf(req).userId, req.body))),
    );

    app.post(
      '/upload',
      {
        config: { rateLimit: uploadLimit },
        bodyLimit: IMPORT_MAX_BYTES + 256 * 1024,
        schema: {
          operationId: 'importUpload',
          summary: `Import a file (multipart field file: PDF, DOCX or TXT judged from its bytes, at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB); read by a job`,
          tags,
          security,
          ...routeMedia({
            requestBody: multipartBody({
              file: {
                names: ['file'],
                types: ['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'text/plain'],
                maxBytes: IMPORT_MAX_BYTES,
                description: 'The document, judged from its bytes',
              },
              fields: z.object({ title: z.string().max(200).optional() }),
            }),
          }),
          response: created,
        },
      },
      async (req, reply) => {
        const { file, fields } = await readMultipartFile(req, 'document', TOO_LARGE);
        if (!file) throw badRequest('file is required: send the document in the multipart field file', { field: 'file' });
        const title = fields['title']?.trim().slice(0, 200);
        return reply.status(201).send(toView(await imports.createUpload(callerOf(req).userId, file, title)));
      },
    );

    app.get(
      '/:importId',
      {
        schema: {
          operationId: 'getImport',
          summary: 'One import and its job status (pending, processing, completed, failed with error)',
          tags,
          security,
          params: idParams,
          response: { 200: importView, ...errorResponses(coreErrorSchema, [400, 401, 404, 429] as const) },
        },
      },
      async (req) => toView(await imports.get(callerOf(req).userId, req.params.importId)),
    );

    app.post(
      '/:importId/process',
      {
        schema: {
          operationId: 'processImport',
          summary: 'Split the imported text into candidate stories (local: chapter markers, headings, scene breaks, paragraph groups)',
          description:
            'With the text read: 200 with the candidates. While it is still being read (pending, processing): 202, the request is taken and ' +
            'the candidates land with the text; poll GET /api/imports/{importId} (Location, Retry-After). A failed import: 409.',
          tags,
          security,
          params: idParams,
          ...routeMedia({
            headers: {
              202: {
                Location: { description: 'The import to poll', schema: { type: 'string' } },
                'Retry-After': { description: 'Seconds to wait before polling', schema: { type: 'integer' } },
              },
            },
          }),
          response: { 200: importView, 202: importView, ...errorResponses(coreErrorSchema, [400, 401, 404, 409, 422, 429] as const) },
        },
      },
      async (req, reply) => {
        const { row, accepted } = await imports.process(callerOf(req).userId, req.params.importId);
        if (!accepted) return reply.status(200).send(toView(row));
        return reply.status(202).header('Location', `/api/imports/${row.id}`).header('Retry-After', '2').send(toView(row));
      },
    );

    app.post(
      '/:importId/convert',
      {
        config: { rateLimit: storyLimit },
        schema: {
          operationId: 'convertImport',
          summary: 'Create stories from the candidates (all, or the chosen indexes) in one transaction; title renames a single story',
          tags,
          security,
          params: idParams,
          body: convertBody,
          response: {
            201: z.object({ story: storyView, stories: z.array(storyView), import: importView }),
            ...errorResponses(coreErrorSchema, [400, 401, 404, 409, 422, 429] as const),
          },
        },
      },
      async (req, reply) => {
        const result = await imports.convert(callerOf(req).userId, req.params.importId, req.body ?? {});
        return reply.status(201).send({ story: result.stories[0]!, stories: result.stories, import: toView(result.import) });
      },
    );
  };
