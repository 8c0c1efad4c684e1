// The three files a data export can be, each produced as a stream that storage.put consumes, so no file
// is ever whole in memory but the PDF (Typst lays a document out whole): json (owned-rows.ts), pdf (the
// stories as a readable document, through libs/pdf for every script), zip (the json plus the media files, one at a time; see export-zip.ts).
import { Readable } from 'node:stream';
import type { Sql } from 'postgres';
import { typesetDocument, type DocumentBlock, type DocumentResult } from '@story/pdf';
import type { ObjectStorage } from '@story/providers';
import { MEDIA_KINDS, ownedFiles, type OwnedFile } from '../privacy/owned-files';
import { contentBlocks, sanitizeContent } from '../stories/story-content';
import { mediaEntries, streamZip, type ZipOutcome } from './export-zip';
import { ownedRowsJson, type ExportType } from './owned-rows';

/** Pieces of the JSON text are joined to about this many characters before they become a chunk. */
const JSON_CHUNK_CHARS = 64 * 1024;

export function jsonExportStream(sql: Sql, userId: string, type: ExportType): Readable {
  return Readable.from(joined(ownedRowsJson(sql, userId, type), JSON_CHUNK_CHARS), { objectMode: false });
}

/**
 * The same text in fewer, larger pieces. ownedRowsJson yields a piece per row (thousands), and every chunk
 * costs its way through each stream after it: the zip's deflate is a threadpool round trip per chunk, which
 * made data.json in the zip more than twice as slow as writing it out. The bytes do not change.
 */
async function* joined(pieces: AsyncIterable<string>, min: number): AsyncGenerator<string> {
  let text = '';
  for await (const piece of pieces) {
    text += piece;
    if (text.length >= min) {
      yield text;
      text = '';
    }
  }
  if (text) yield text;
}

/** The zip: data.json, then the account's media (none for a profile export), then manifest.json. */
export async function zipExportStream(
  sql: Sql,
  storage: Pick<ObjectStorage, 'get'>,
  row: { id: string; user_id: string; export_type: ExportType },
  now = new Date(),
): Promise<{ stream: Readable; done: Promise<ZipOutcome> }> {
  // The file list is asked for first, then data.json's queries start at once instead of after it (PostgreSQL
  // works while this process waits). In that order: data.json may hold a pool connection with a cursor
  // until the zip reads it, and the file list must not wait behind it (with a pool of one, it never would get one).
  const listing = row.export_type === 'profile' ? Promise.resolve([]) : ownedFiles(sql, row.user_id);
  const json = jsonExportStream(sql, row.user_id, row.export_type);
  json.read(0);
  let files: OwnedFile[];
  try {
    files = (await listing).filter((f) => MEDIA_KINDS.includes(f.kind));
  } catch (err) {
    json.destroy();
    throw err;
  }
  return streamZip(
    [{ name: 'data.json', compress: true, open: async () => json }, ...mediaEntries(files, storage)],
    (outcome) => ({ exportId: row.id, exportType: row.export_type, createdAt: now.toISOString(), files: files.length, included: outcome.entries, missing: outcome.missing }),
  );
}

interface StoryRow {
  title: string | null;
  prompt: string | null;
  content: string | null;
  response_text: string | null;
  created_at: string;
}

/**
 * The caller's stories as an A4 PDF: a title page, then each story on a new page with its date and text,
 * oldest first. Typeset by @story/pdf (Typst, the book's fonts and checks); a character no bundled font
 * draws refuses the PDF with the characters named, instead of printing boxes.
 */
export async function storiesPdf(sql: Sql, user: { id: string; name: string }, now = new Date()): Promise<DocumentResult> {
  const blocks: DocumentBlock[] = [
    { type: 'heading', level: 1, text: `Stories of ${user.name}` },
    { type: 'paragraph', runs: [{ text: `Exported ${now.toISOString().slice(0, 10)}. Every story of this account, oldest first.`, bold: false, italic: false }] },
  ];
  let count = 0;
  for await (const batch of sql<StoryRow[]>`
    select title, prompt, content, response_text, created_at::text from stories where user_id = ${user.id} order by created_at, id`.cursor(100)) {
    for (const story of batch) {
      count += 1;
      blocks.push({ type: 'heading', level: 2, text: story.title?.trim() || story.prompt?.trim() || 'Untitled story', newPage: true });
      blocks.push({ type: 'meta', text: story.created_at.slice(0, 10) });
      const html = story.content ?? (story.response_text ? `<p>${escapeHtml(story.response_text)}</p>` : '');
      for (const block of contentBlocks(sanitizeContent(html))) {
        blocks.push(block.kind === 'item' ? { type: 'item', marker: block.marker, depth: block.depth, runs: block.runs } : { type: 'paragraph', runs: block.runs });
      }
    }
  }
  if (count === 0) blocks.push({ type: 'paragraph', runs: [{ text: 'This account has no stories yet.', bold: false, italic: false }] });
  return typesetDocument({
    title: `Stories of ${user.name}`,
    authors: [user.name],
    paper: 'a4',
    margin: 64,
    size: 12,
    style: 'serif',
    colors: { background: null, text: '#111111', muted: '#555555', accent: '#111111' },
    blocks,
  });
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
