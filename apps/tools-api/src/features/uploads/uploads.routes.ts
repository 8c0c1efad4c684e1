// File-based generation: POST /api/flashcards/generate/upload (a PDF or an image of study notes) and
// POST /api/flipbook/create (a PDF kept in storage, its pages recorded), plus the range-capable PDF stream
// the flipbook viewer frames: GET /api/flipbook/{shareCode}/pdf. Routes use the :tool parameter like the
// generic ones (so the router never has to choose between a static and a parameter branch) and check it.
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fromBuffer } from 'file-type';
import { toolsFlipbookPages, type ToolRoute } from '@story/db';
import { AppError, assertStorableFields, parseJsonField, parseRangeHeader, sendStoredObject } from '@story/http';
import { isRangeNotSatisfiable, newObjectKey, type ObjectStorage } from '@story/providers';
import { requireToolsSession, toolsCallerOf, type ToolsSessionDeps } from '../../shared/caller';
import { envelopeSchema, okEnvelope, toolsErrors } from '../../shared/envelope';
import { toolsError } from '../../shared/errors';
import type { BrowseService } from '../browse/browse.service';
import { generateResultSchema } from '../generate/generate.routes';
import { parseOptions, type GenerateService } from '../generate/generate.service';
import { producedFromFile } from '../generate/content-producer';
import { toolDefinition } from '../../tools';
import { extractPdf, ocrImage } from './extract';

/** Multipart framing (boundaries, part headers, small text fields) allowed on top of the file itself. */
const FRAMING_ALLOWANCE = 256 * 1024;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/tiff', 'image/bmp', 'image/gif']);
const MAX_TEXT = 100_000;

interface Upload {
  buffer: Buffer;
  fileName: string;
  mime: string;
  fields: Record<string, string>;
}

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

/** Options from a JSON `options` field and/or plain fields (numbers and booleans converted). */
function fieldOptions(fields: Record<string, string>): Record<string, unknown> {
  let options: Record<string, unknown> = {};
  if (fields['options']) {
    // Parsed with the same depth and text rules as a JSON body.
    const parsed = parseJsonField(fields['options'], 'options');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw toolsError.invalidInput('options', 'options must be a JSON object');
    options = parsed as Record<string, unknown>;
  }
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'options' || k === 'sessionId') continue;
    options[k] = /^\d+$/.test(v) ? Number(v) : v === 'true' ? true : v === 'false' ? false : v;
  }
  return options;
}

export const uploadsRoutes =
  (deps: ToolsSessionDeps & { generate: GenerateService; browse: BrowseService; storage: ObjectStorage; maxPdfBytes: number; maxImageBytes: number; publicBaseUrl: string }): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(multipart, { throwFileSizeLimit: true });
    const session = requireToolsSession(deps);
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
          consumes: ['multipart/form-data'],
          params: z.object({ tool: z.literal('flashcards') }),
          response,
        },
      },
      async (req, reply) => {
        const caller = toolsCallerOf(req);
        const upload = await readUpload(req, maxUpload);
        const isPdf = upload.mime === 'application/pdf';
        if (!isPdf && !IMAGE_TYPES.has(upload.mime)) throw toolsError.unsupportedMedia('Upload a PDF or an image (PNG, JPEG, WebP, TIFF, BMP, GIF)');
        if (upload.buffer.length > (isPdf ? deps.maxPdfBytes : deps.maxImageBytes)) throw toolsError.payloadTooLarge(`The file is larger than ${Math.round((isPdf ? deps.maxPdfBytes : deps.maxImageBytes) / 1024 / 1024)} MB`);
        const def = toolDefinition('flashcards');
        const raw = fieldOptions(upload.fields);
        // Options other than the text are checked before anything is counted or extracted.
        parseOptions(def.optionsSchema, { ...raw, text: 'placeholder text long enough to pass the check' });
        const { result, rateLimit, conversionOpportunity } = await deps.generate.run('flashcards', caller, async () => {
          const text = isPdf ? (await extractPdf(upload.buffer)).text : await ocrImage(upload.buffer);
          if (text.trim().length < 20) throw toolsError.invalidInput('file', 'Too little text was found in this file to make flashcards');
          const options = parseOptions(def.optionsSchema, { ...raw, text: text.slice(0, MAX_TEXT) });
          const produced = await deps.generate.produce('flashcards', options, caller.userId);
          const source = isPdf ? 'pdf' : 'image';
          produced.content = { ...produced.content, sourceType: source };
          // The extracted text is kept in generation_options (what the cards were made from), not the file.
          return { options: { ...options, sourceFile: upload.fileName.slice(0, 200), sourceType: source }, produced, store: { origin: 'upload', metadata: { sourceType: source, fileSize: upload.buffer.length } } };
        });
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
          consumes: ['multipart/form-data'],
          params: z.object({ tool: z.literal('flipbook') }),
          response,
        },
      },
      async (req, reply) => {
        const caller = toolsCallerOf(req);
        const upload = await readUpload(req, maxUpload);
        if (upload.mime !== 'application/pdf') throw toolsError.unsupportedMedia('Upload a PDF file');
        if (upload.buffer.length > deps.maxPdfBytes) throw toolsError.payloadTooLarge(`The file is larger than ${Math.round(deps.maxPdfBytes / 1024 / 1024)} MB`);
        const fields = fieldOptions(upload.fields);
        const meta = z
          .object({ title: z.string().trim().min(1).max(200).optional(), subtitle: z.string().trim().max(200).optional(), theme: z.enum(['classic', 'modern', 'dark']).default('classic') })
          .safeParse(fields);
        if (!meta.success) {
          const issue = meta.error.issues[0]!;
          throw toolsError.invalidInput(issue.path.map(String).join('.') || 'options', issue.message);
        }
        let storedKey: string | undefined;
        try {
          const out = await deps.generate.run('flipbook', caller, async () => {
            const started = performance.now();
            const pdf = await extractPdf(upload.buffer);
            const title = meta.data.title ?? pdf.title ?? upload.fileName.replace(/\.pdf$/i, '').slice(0, 200);
            storedKey = newObjectKey('tools/flipbooks', 'pdf');
            await deps.storage.put(storedKey, upload.buffer, { contentType: 'application/pdf', contentLength: upload.buffer.length });
            const options = { title, theme: meta.data.theme, ...(meta.data.subtitle ? { subtitle: meta.data.subtitle } : {}), sourceFile: upload.fileName.slice(0, 200) };
            const pages = pdf.pages.map((p) => ({ pageNumber: p.pageNumber, text: p.text }));
            // The PDF's own pages, split: no model and no generator made them, and the labels say so.
            const produced = producedFromFile(
              { title, ...(meta.data.subtitle ? { subtitle: meta.data.subtitle } : {}), theme: meta.data.theme, source: 'pdf' as const, pageCount: pdf.pageCount, pages },
              performance.now() - started,
            );
            const key = storedKey;
            return {
              options,
              produced,
              store: {
                origin: 'upload' as const,
                metadata: { pdfKey: key, fileSize: upload.buffer.length, fileName: upload.fileName.slice(0, 200) },
                // Page rows commit with the content row.
                extraWrites: async (tx, contentId) => {
                  if (!pdf.pages.length) return;
                  await tx.insert(toolsFlipbookPages).values(
                    pdf.pages.map((p) => ({ flipbookId: contentId, pageNumber: p.pageNumber, storageKey: key, width: p.width ?? null, height: p.height ?? null, text: p.text })),
                  );
                },
              },
            };
          });
          return reply.status(201).send(okEnvelope(req, { ...out.result, shareUrl: `${deps.publicBaseUrl}/flipbook/${out.result.shareCode}/` }, { rateLimit: out.rateLimit, conversionOpportunity: out.conversionOpportunity }));
        } catch (err) {
          // Nothing references the stored PDF when the row was not written.
          if (storedKey) await deps.storage.delete(storedKey).catch(() => undefined);
          throw err;
        }
      },
    );

    app.get(
      '/api/:tool/:shareCode/pdf',
      {
        schema: {
          operationId: 'getFlipbookPdf',
          summary: 'The PDF of a flipbook, range-capable, framable by this site’s viewer',
          tags: ['browse'],
          params: z.object({ tool: z.literal('flipbook'), shareCode: z.string().max(100) }),
          response: { 200: z.any(), 206: z.any(), ...toolsErrors([400, 404, 416] as const) },
        },
      },
      async (req, reply) => {
        const row = await deps.browse.find('flipbook', req.params.shareCode);
        if (!row || req.params.shareCode !== row.share_code || !deps.browse.canView(row, 'shareCode', null)) throw toolsError.notFound('Flipbook');
        const key = row.metadata['pdfKey'];
        if (typeof key !== 'string') throw toolsError.notFound('Flipbook PDF');
        const range = parseRangeHeader(req.headers.range);
        let object;
        try {
          object = await deps.storage.get(key, range);
        } catch (err) {
          if (isRangeNotSatisfiable(err)) {
            const head = await deps.storage.head(key);
            throw new AppError('range_not_satisfiable', 'The requested range is not satisfiable', { headers: head.exists ? { 'Content-Range': `bytes */${head.size}` } : {} });
          }
          throw toolsError.notFound('Flipbook PDF');
        }
        // The viewer on this site frames the PDF; other sites cannot.
        reply.header('X-Frame-Options', 'SAMEORIGIN');
        reply.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'self'");
        reply.header('Content-Disposition', 'inline; filename="flipbook.pdf"');
        return sendStoredObject(reply, object, { contentType: 'application/pdf', cacheControl: 'public, max-age=300' });
      },
    );
  };
