// Readers for export tests: the files are opened the way their users' programs would open them.
import { inflateSync } from 'node:zlib';
import yauzl from 'yauzl';
import { readPdfWithMupdf, type Rect } from '@story/testing';

/** RFC 4180 reader (quoted fields, doubled quotes, CRLF records), strict enough to catch bad quoting. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') {
        quoted = false;
        i += 1;
        if (i < text.length && text[i] !== ',' && text[i] !== '\r') throw new Error(`text after closing quote at ${i}`);
        continue;
      }
      field += c;
      i += 1;
      continue;
    }
    if (c === '"') {
      if (field !== '') throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
      i += 1;
    } else if (c === ',') {
      row.push(field);
      field = '';
      i += 1;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else if (c === '\n' || c === '\r') {
      throw new Error(`bare line break at ${i}`);
    } else {
      field += c;
      i += 1;
    }
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (field !== '' || row.length > 0) throw new Error('last record not terminated by CRLF');
  return rows;
}

/** One entry of a zip (a .docx is one), as text. */
export function readZipEntry(buffer: Buffer, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip'));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (streamErr, stream) => {
          if (streamErr || !stream) return reject(streamErr ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
          stream.on('error', reject);
        });
      });
      zip.on('end', () => reject(new Error(`${name} not in the zip`)));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/**
 * Text, page count, first page size, title and per-page ink of a PDF, read by MuPDF (its WebAssembly
 * build, in a child process: @story/testing). MuPDF honours the ActualText spans Typst writes where one
 * glyph stands for different text (pdf.js ignores them), so it reads back what a person wrote.
 */
export async function readPdf(buffer: Buffer): Promise<{ text: string; pages: number; width: number; height: number; title: unknown; ink: (Rect | null)[] }> {
  const doc = await readPdfWithMupdf(buffer, { glyphs: false });
  const first = doc.pages[0];
  return {
    text: doc.pages.map((p) => p.text).join('\n'),
    pages: doc.pages.length,
    width: first ? first.mediaBox[2] - first.mediaBox[0] : 0,
    height: first ? first.mediaBox[3] - first.mediaBox[1] : 0,
    title: doc.title,
    ink: doc.pages.map((p) => p.ink),
  };
}

/** The decompressed content streams of a PDF (the drawing operators of its pages). */
export function pdfStreams(buffer: Buffer): string[] {
  const text = buffer.toString('latin1');
  const out: string[] = [];
  const re = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = re.exec(text))) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    try {
      out.push(inflateSync(buffer.subarray(start, end)).toString('latin1'));
    } catch {
      // not a Flate stream (fonts may be stored otherwise)
    }
    re.lastIndex = end + 'endstream'.length;
  }
  return out;
}
