// File-based generation without HTTP: flashcards from a PDF's text or an image's OCR, a flipbook from a
// PDF kept in storage with its pages recorded, and the flipbook's stored PDF for the viewer. The routes
// read the multipart body and shape the answers; the page rows are in uploads.repository.ts.
import { z } from 'zod';
import { AppError, parseJsonField } from '@story/http';
import { isRangeNotSatisfiable, newObjectKey, type ObjectStorage } from '@story/providers';
import type { ToolsCaller } from '../../shared/caller';
import { toolsError } from '../../shared/errors';
import { canSee } from '../../shared/visibility';
import type { BrowseService } from '../browse/browse.service';
import { parseOptions, type GenerateService } from '../generate/generate.service';
import { producedFromFile } from '../generate/content-producer';
import { toolDefinition } from '../../tools';
import { extractPdf, ocrImage } from './extract';
import { createUploadsRepository } from './uploads.repository';

export const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/tiff', 'image/bmp', 'image/gif']);
const MAX_TEXT = 100_000;

export interface Upload {
  buffer: Buffer;
  fileName: string;
  mime: string;
  fields: Record<string, string>;
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

const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);

export function createUploadsService(deps: { generate: GenerateService; browse: BrowseService; storage: ObjectStorage; maxPdfBytes: number; maxImageBytes: number }) {
  const repo = createUploadsRepository();

  return {
    /** POST /api/flashcards/generate/upload: a PDF (text extracted) or an image (OCR) made into flashcards. */
    async flashcardsFromFile(upload: Upload, caller: ToolsCaller) {
      const isPdf = upload.mime === 'application/pdf';
      if (!isPdf && !IMAGE_TYPES.has(upload.mime)) throw toolsError.unsupportedMedia('Upload a PDF or an image (PNG, JPEG, WebP, TIFF, BMP, GIF)');
      if (upload.buffer.length > (isPdf ? deps.maxPdfBytes : deps.maxImageBytes)) throw toolsError.payloadTooLarge(`The file is larger than ${megabytes(isPdf ? deps.maxPdfBytes : deps.maxImageBytes)} MB`);
      const def = toolDefinition('flashcards');
      const raw = fieldOptions(upload.fields);
      // Options other than the text are checked before anything is counted or extracted.
      parseOptions(def.optionsSchema, { ...raw, text: 'placeholder text long enough to pass the check' });
      return deps.generate.run('flashcards', caller, async () => {
        const text = isPdf ? (await extractPdf(upload.buffer)).text : await ocrImage(upload.buffer);
        if (text.trim().length < 20) throw toolsError.invalidInput('file', 'Too little text was found in this file to make flashcards');
        const options = parseOptions(def.optionsSchema, { ...raw, text: text.slice(0, MAX_TEXT) });
        const produced = await deps.generate.produce('flashcards', options, caller.userId);
        const source = isPdf ? 'pdf' : 'image';
        produced.content = { ...produced.content, sourceType: source };
        // The extracted text is kept in generation_options (what the cards were made from), not the file.
        return { options: { ...options, sourceFile: upload.fileName.slice(0, 200), sourceType: source }, produced, store: { origin: 'upload' as const, metadata: { sourceType: source, fileSize: upload.buffer.length } } };
      });
    },

    /** POST /api/flipbook/create: the PDF is stored, its pages recorded with the content row. */
    async flipbookFromPdf(upload: Upload, caller: ToolsCaller) {
      if (upload.mime !== 'application/pdf') throw toolsError.unsupportedMedia('Upload a PDF file');
      if (upload.buffer.length > deps.maxPdfBytes) throw toolsError.payloadTooLarge(`The file is larger than ${megabytes(deps.maxPdfBytes)} MB`);
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
        return await deps.generate.run('flipbook', caller, async () => {
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
              extraWrites: (tx, contentId) =>
                repo.insertFlipbookPages(
                  tx,
                  contentId,
                  pdf.pages.map((p) => ({ pageNumber: p.pageNumber, storageKey: key, width: p.width ?? null, height: p.height ?? null, text: p.text })),
                ),
            },
          };
        });
      } catch (err) {
        // Nothing references the stored PDF when the row was not written.
        if (storedKey) await deps.storage.delete(storedKey).catch(() => undefined);
        throw err;
      }
    },

    /**
     * The storage key of a flipbook's PDF reached by its share code (the 'link' path of shared/visibility.ts):
     * a private flipbook's PDF only for its owner (X-Session-ID, ?sessionId or Bearer) and staff. `listed`
     * says whether a shared cache may keep it.
     */
    async flipbookPdfKey(shareCode: string, caller: ToolsCaller | null): Promise<{ key: string; listed: boolean }> {
      const row = await deps.browse.find('flipbook', shareCode);
      if (!row || shareCode !== row.share_code || !canSee(row, caller, 'link')) throw toolsError.notFound('Flipbook');
      const key = row.metadata['pdfKey'];
      if (typeof key !== 'string') throw toolsError.notFound('Flipbook PDF');
      return { key, listed: row.is_public && row.share_type !== 'private' };
    },

    /** The stored PDF (or the asked range of it); a range past its end is 416 with the real size. */
    async openFlipbookPdf(key: string, range: Parameters<ObjectStorage['get']>[1]) {
      try {
        return await deps.storage.get(key, range);
      } catch (err) {
        if (isRangeNotSatisfiable(err)) {
          const head = await deps.storage.head(key);
          throw new AppError('range_not_satisfiable', 'The requested range is not satisfiable', { headers: head.exists ? { 'Content-Range': `bytes */${head.size}` } : {} });
        }
        throw toolsError.notFound('Flipbook PDF');
      }
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
