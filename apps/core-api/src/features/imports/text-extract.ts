// Text out of what an import brings, offline: the file's type judged from its bytes (file-type), PDF with
// pdf-parse (PDF.js), DOCX with mammoth (through HTML, so headings survive as heading lines), plain text
// as UTF-8 (Windows-1252 when it is not), and web pages reduced to text with html-to-text. Libraries load
// at first use, not at start.
import type { HtmlToTextOptions } from 'html-to-text';

export const IMPORT_TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
} as const;
export type ImportFileType = keyof typeof IMPORT_TYPES;

/** Thrown when the bytes are not a readable document of an accepted type (the caller names the field). */
export class UnreadableDocumentError extends Error {
  override name = 'UnreadableDocumentError';
}

/** The document type of these bytes, or null when they are none of PDF, DOCX or text. */
export async function detectImportType(bytes: Buffer): Promise<ImportFileType | null> {
  const { fromBuffer } = require('file-type') as typeof import('file-type');
  const found = await fromBuffer(bytes);
  if (found?.mime === IMPORT_TYPES.pdf) return 'pdf';
  if (found?.mime === IMPORT_TYPES.docx) return 'docx';
  if (found) return null;
  return decodeText(bytes) === null ? null : 'txt';
}

/** Bytes as text, or null when they look binary (NUL or other control bytes). */
export function decodeText(bytes: Buffer): string | null {
  if (bytes.length === 0) return null;
  // Control characters other than tab, line feed, form feed and carriage return mean binary data.
  for (const b of bytes) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

export interface Extracted {
  text: string;
  /** A title the document carries (PDF info, HTML <title>), when it has one. */
  title?: string;
}

async function pdfText(bytes: Buffer): Promise<Extracted> {
  const { PDFParse } = require('pdf-parse') as typeof import('pdf-parse');
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const info = await parser.getInfo();
    const result = await parser.getText({ pageJoiner: '' });
    const title = (info.info as Record<string, unknown> | undefined)?.['Title'];
    return { text: result.pages.map((p) => p.text).join('\n\n'), ...(typeof title === 'string' && title.trim() ? { title: title.trim() } : {}) };
  } catch {
    throw new UnreadableDocumentError('This PDF could not be read (it may be damaged or password-protected)');
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

/** A DOCX is a zip: more than this once unpacked is refused before mammoth (which unpacks in memory) sees it. */
export const DOCX_MAX_UNPACKED = 64 * 1024 * 1024;

/**
 * Unpack every entry once, counting real bytes (yauzl also refuses an entry whose data disagrees with its
 * declared size), and stop at the cap: a zip bomb dressed as a Word document never reaches mammoth.
 */
function assertUnpackedSize(bytes: Buffer): Promise<void> {
  const yauzl = require('yauzl') as typeof import('yauzl');
  return new Promise((resolve, reject) => {
    const refuse = () => reject(new UnreadableDocumentError(`This Word document unpacks to more than ${DOCX_MAX_UNPACKED / 1024 / 1024} MB`));
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return reject(new UnreadableDocumentError('This Word document could not be read (it may be damaged)'));
      let total = 0;
      let entries = 0;
      zip.on('error', () => reject(new UnreadableDocumentError('This Word document could not be read (it may be damaged)')));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: import('yauzl').Entry) => {
        entries += 1;
        if (entries > 10_000 || total + entry.uncompressedSize > DOCX_MAX_UNPACKED) {
          zip.close();
          return refuse();
        }
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return reject(new UnreadableDocumentError('This Word document could not be read (it may be damaged)'));
          stream.on('data', (chunk: Buffer) => {
            total += chunk.length;
            if (total > DOCX_MAX_UNPACKED) {
              stream.destroy();
              zip.close();
              refuse();
            }
          });
          stream.on('error', () => reject(new UnreadableDocumentError('This Word document could not be read (it may be damaged)')));
          stream.on('end', () => zip.readEntry());
        });
      });
      zip.readEntry();
    });
  });
}

async function docxText(bytes: Buffer): Promise<Extracted> {
  const mammoth = require('mammoth') as typeof import('mammoth');
  await assertUnpackedSize(bytes);
  try {
    const { value } = await mammoth.convertToHtml({ buffer: bytes });
    return { text: htmlText(value) };
  } catch {
    throw new UnreadableDocumentError('This Word document could not be read (it may be damaged)');
  }
}

const HTML_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'nav', format: 'skip' },
    { selector: 'header', format: 'skip' },
    { selector: 'footer', format: 'skip' },
    { selector: 'aside', format: 'skip' },
    { selector: 'form', format: 'skip' },
    { selector: 'button', format: 'skip' },
    { selector: 'table', format: 'dataTable' },
  ],
};

/** HTML to plain text; headings come out as standalone capitalised lines, which the splitter reads as titles. */
export function htmlText(html: string): string {
  const { convert } = require('html-to-text') as typeof import('html-to-text');
  return convert(html, HTML_OPTIONS);
}

export function htmlTitle(html: string): string | undefined {
  const match = /<title[^>]*>([^<]{1,300})<\/title>/i.exec(html);
  if (!match) return undefined;
  const title = htmlText(match[1]!).replace(/\s+/g, ' ').trim();
  return title || undefined;
}

/** Text of an uploaded document of a known type. */
export async function extractDocument(type: ImportFileType, bytes: Buffer): Promise<Extracted> {
  if (type === 'pdf') return pdfText(bytes);
  if (type === 'docx') return docxText(bytes);
  const text = decodeText(bytes);
  if (text === null) throw new UnreadableDocumentError('This file is not plain text');
  return { text };
}

/** Text of a fetched web page (HTML or plain text); other content types are refused. */
export function extractPage(contentType: string, body: Buffer): Extracted {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1]?.toLowerCase();
  let decoded: string;
  try {
    decoded = new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    decoded = new TextDecoder('utf-8').decode(body);
  }
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    const title = htmlTitle(decoded);
    return { text: htmlText(decoded), ...(title ? { title } : {}) };
  }
  if (type === 'text/plain' || type === '') {
    const text = decodeText(body);
    if (text === null) throw new UnreadableDocumentError('The page is not text');
    return { text: charset ? decoded : text };
  }
  throw new UnreadableDocumentError(`The page is ${type}, not a web page or text`);
}
