// Text out of uploaded files, offline: PDFs with pdf-parse (PDF.js), images with tesseract.js and the bundled
// English model. Both run in-process without network; a file they cannot read is refused with a clear message.
import { dirname } from 'node:path';
import { AppError } from '@story/http';
import { toolsError } from '../../shared/errors';

export interface PdfText {
  pageCount: number;
  pages: { pageNumber: number; text: string; width?: number; height?: number }[];
  text: string;
  title?: string;
}

/** Text of every page of a PDF (400 naming `file` when it is not a readable PDF: damaged, encrypted, ...). */
export async function extractPdf(buffer: Buffer): Promise<PdfText> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PDFParse } = require('pdf-parse') as typeof import('pdf-parse');
  const parser = new PDFParse({ data: new Uint8Array(buffer) });
  try {
    const info = await parser.getInfo({ parsePageInfo: true });
    const text = await parser.getText();
    const sizes = new Map(info.pages.map((p) => [p.pageNumber, p]));
    const pages = text.pages.map((p) => {
      const size = sizes.get(p.num);
      return { pageNumber: p.num, text: p.text.trim(), ...(size ? { width: Math.round(size.width), height: Math.round(size.height) } : {}) };
    });
    const title = (info.info as Record<string, unknown> | undefined)?.['Title'];
    return { pageCount: info.total, pages, text: text.text, ...(typeof title === 'string' && title.trim() ? { title: title.trim() } : {}) };
  } catch (err) {
    throw toolsError.invalidInput('file', 'This PDF could not be read (it may be damaged or password-protected)', { reason: (err as Error).name });
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

/** Text of an image by OCR. 422 with a plain sentence when the engine cannot start or finds no text. */
export async function ocrImage(buffer: Buffer): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createWorker } = require('tesseract.js') as typeof import('tesseract.js');
  const langPath = `${dirname(require.resolve('@tesseract.js-data/eng/package.json'))}/4.0.0_best_int`;
  let worker: Awaited<ReturnType<typeof createWorker>> | undefined;
  try {
    worker = await createWorker('eng', 1, { langPath, cacheMethod: 'none', gzip: true });
    const { data } = await worker.recognize(buffer);
    const text = data.text.replace(/[ \t]+/g, ' ').trim();
    // Tesseract returns scattered symbols for photos without text: require some real words.
    if ((text.match(/[A-Za-z]{3,}/g) ?? []).length < 3) throw new Error('no text');
    return text;
  } catch {
    throw new AppError('unprocessable', 'No readable text was found in this image. Try a sharper, well-lit photo of printed text, or paste the text instead.', {
      code: 'INVALID_INPUT',
      field: 'file',
    });
  } finally {
    await worker?.terminate().catch(() => undefined);
  }
}
