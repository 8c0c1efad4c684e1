// File-based generation: POST /api/flashcards/generate/upload (a PDF or an image of study notes) and
// POST /api/flipbook/create (a PDF kept in storage, its pages recorded), plus the range-capable PDF stream
// the flipbook viewer frames: GET /api/flipbook/{shareCode}/pdf. Routes use the :tool parameter like the
// generic ones (so the router never has to choose between a static and a parameter branch) and check it.
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromBuffer } from 'file-type';
import type { ToolRoute } from '@story/db';
import { assertStorableFields, multipartBody, parseRangeHeader, rangedMedia, routeMedia, sendStoredObject } from '@story/http';
import type { ObjectStorage } from '@story/providers';
import { optionalToolsSession, requireToolsSession, toolsCallerOf, type ToolsSessionDeps } from '../../shared/caller';
import { envelopeSchema, okEnvelope, toolsErrors } from '../../shared/envelope';
import { toolsError } from '../../shared/errors';
import type { BrowseService } from '../browse/browse.service';
import { generateResultSchema } from '../generate/generate.routes';
import type { GenerateService } from '../generate/generate.service';
import { createUploadsService, type Upload } from './uploads.service';

/** Multipart framing (boundaries, part headers, small text fields) allowed on top of the file itself. */
const FRAMING_ALLOWANCE = 256 * 1024;

/** Read the one file and the text fields; a file over `maxBytes` stops the read at the limit (413). */
async function readUpload(req: FastifyRequest, maxBytes: number): Promise<Upload> {
  if (!req.isMultipart()) throw toolsError.unsupportedMedia('Send the file as multipart/form-data in a field named "file"');
  const fields: Record<string, string> = {};
  let file: { buffer: Buffer; fileName: string } | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 64 * 1024 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          continue;
        }
        file = { buffer: await part.toBuffer(), fileName: part.filename || 'upload' };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw toolsError.payloadTooLarge(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    throw err;
  }
  assertStorableFields(fields);
  if (!file || file.buffer.length === 0) throw toolsError.invalidInput('file', 'A file is required (field "file")');
  // The bytes decide the type, not the client's declared Content-Type.
  const detected = await fromBuffer(file.buffer).catch(() => undefined);
  return { ...file, mime: detected?.mime ?? 'application/octet-stream', fields };
}

export const uploadsRoutes =
  (deps: ToolsSessionDeps & { generate: GenerateService; browse: BrowseService; storage: ObjectStorage; maxPdfBytes: number; maxImageBytes: number; publicBaseUrl: string }): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(multipart, { throwFileSizeLimit: true });
    const session = requireToolsSession(deps);
    const optionalSession = optionalToolsSession(deps);
    const service = createUploadsService(deps);
    const maxUpload = Math.max(deps.maxPdfBytes, deps.maxImageBytes);

    /** onRequest: the right tool for this route, a body that is not obviously too big (refused before reading), a session. */
    const guard = (tool: ToolRoute) => async (req: FastifyRequest) => {
      if ((req.params as { tool: string }).tool !== tool) throw toolsError.notFound('Route');
      const length = Number(req.headers['content-length']);
      if (Number.isFinite(length) && length > maxUpload + FRAMING_ALLOWANCE) throw toolsError.payloadTooLarge(`The file is larger than ${Math.round(maxUpload / 1024 / 1024)} MB`);
      await session(req);
    };
    const response = { 201: envelopeSchema(generateResultSchema.extend({ shareUrl: z.string() })), ...toolsErrors([400, 401, 404, 413, 415, 422, 429, 500] as const) };

    app.post(
      '/api/:tool/generate/upload',
      {
        onRequest: guard('flashcards'),
        bodyLimit: maxUpload + FRAMING_ALLOWANCE,
        schema: {
          operationId: 'generateFlashcardsFromFile',
          summary: 'Flashcards from a PDF (text extracted) or an image (OCR): multipart with "file" and optional "options" (JSON) or option fields',
          tags: ['generate'],
          ...routeMedia({
            requestBody: multipartBody({
              file: {
                names: ['file'],
                types: ['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'image/tiff', 'image/bmp', 'image/gif'],
                maxBytes: maxUpload,
                description: `A PDF (at most ${deps.maxPdfBytes} bytes) or an image (at most ${deps.maxImageBytes} bytes), judged from its bytes`,
              },
              fields: z.object({
                options: z.string().max(64 * 1024).optional().describe('The flashcard options as a JSON object; plain option fields are taken too'),
                sessionId: z.string().max(100).optional(),
              }),
            }),
          }),
          params: z.object({ tool: z.literal('flashcards') }),
          response,
        },
      },
      async (req, reply) => {
        const caller = toolsCallerOf(req);
        const upload = await readUpload(req, maxUpload);
        const { result, rateLimit, conversionOpportunity } = await service.flashcardsFromFile(upload, caller);
        return reply.status(201).send(okEnvelope(req, { ...result, shareUrl: `${deps.publicBaseUrl}/flashcards/${result.shareCode}/` }, { rateLimit, conversionOpportunity }));
      },
    );

    app.post(
      '/api/:tool/create',
      {
        onRequest: guard('flipbook'),
        bodyLimit: maxUpload + FRAMING_ALLOWANCE,
        schema: {
          operationId: 'createFlipbookFromPdf',
          summary: 'A flipbook from a PDF: multipart with "file" and optional title, subtitle, theme',
          tags: ['generate'],
          ...routeMedia({
            requestBody: multipartBody({
              file: { names: ['file'], types: ['application/pdf'], maxBytes: deps.maxPdfBytes, description: 'The PDF, judged from its bytes' },
              fields: z.object({
                title: z.string().max(200).optional(),
                subtitle: z.string().max(200).optional(),
                theme: z.enum(['classic', 'modern', 'dark']).optional().describe('Default classic'),
                sessionId: z.string().max(100).optional(),
              }),
            }),
          }),
          params: z.object({ tool: z.literal('flipbook') }),
          response,
        },
      },
      async (req, reply) => {
        const upload = await readUpload(req, maxUpload);
        const out = await service.flipbookFromPdf(upload, toolsCallerOf(req));
        return reply.status(201).send(okEnvelope(req, { ...out.result, shareUrl: `${deps.publicBaseUrl}/flipbook/${out.result.shareCode}/` }, { rateLimit: out.rateLimit, conversionOpportunity: out.conversionOpportunity }));
      },
    );

    app.get(
      '/api/:tool/:shareCode/pdf',
      {
        // The session is optional (a viewer's frame sends none); it only opens the caller's own private flipbook.
        onRequest: optionalSession,
        schema: {
          operationId: 'getFlipbookPdf',
          summary: 'The PDF of a flipbook, range-capable, framable by this site’s viewer',
          tags: ['browse'],
          params: z.object({ tool: z.literal('flipbook'), shareCode: z.string().max(100) }),
          ...routeMedia(rangedMedia(['application/pdf'], 'The flipbook’s PDF')),
          response: { 200: z.any(), 206: z.any(), ...toolsErrors([400, 404, 416] as const) },
        },
      },
      async (req, reply) => {
        const { key, listed } = await service.flipbookPdfKey(req.params.shareCode, toolsCallerOf(req));
        const object = await service.openFlipbookPdf(key, parseRangeHeader(req.headers.range));
        // The viewer on this site frames the PDF; other sites cannot.
        reply.header('X-Frame-Options', 'SAMEORIGIN');
        reply.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'self'");
        reply.header('Content-Disposition', 'inline; filename="flipbook.pdf"');
        // Only a listed flipbook may sit in a shared cache; an unlisted or private one is no one else's to keep.
        return sendStoredObject(reply, object, { contentType: 'application/pdf', cacheControl: listed ? 'public, max-age=300' : 'private, no-store' });
      },
    );
  };
