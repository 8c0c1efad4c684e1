// Content imports (spec 000 Imports, CONTRACTS §9): a file (PDF, DOCX, TXT judged from its bytes), pasted
// text or a web page becomes an import job; reading the file or fetching the page runs as the
// `import.extract` job on the core queue; process splits the text into candidate stories (story-split.ts);
// convert writes those stories in one transaction, their content sanitised as the stories feature does.
// Imports are private: anyone but their owner gets 404.
import type { Sql } from 'postgres';
import { AppError, badRequest, checkUrl, conflict, notFound, safeFetch, SafeFetchError, UnsafeUrlError, type SafeFetchOptions } from '@story/http';
import type { JobRunner } from '@story/jobs';
import { isStorageNotConfigured, newObjectKey, type ObjectStorage } from '@story/providers';
import { createStoriesRepository } from '../stories/stories.repository';
import { toStoryView } from '../stories/stories.service';
import { countWords, MAX_CONTENT, sanitizeContent } from '../stories/story-content';
import { assertStorageQuota, storedBytes, quotaFor } from '../upload-url/storage-quota';
import { createImportsRepository, type ImportRow } from './imports.repository';
import { candidateHtml, splitIntoStories, SPLIT_METHOD, type Candidate } from './story-split';
import { detectImportType, extractDocument, extractPage, IMPORT_TYPES, UnreadableDocumentError, type Extracted } from './text-extract';

export const EXTRACT_JOB = 'import.extract';
/** Imported text kept at most (characters): about 150,000 words, far more than any family memoir. */
export const MAX_IMPORT_TEXT = 1_000_000;
/** A fetched page: body cap and deadline. */
export const PAGE_MAX_BYTES = 3 * 1024 * 1024;
export const PAGE_TIMEOUT_MS = 15_000;

export type UrlFetchOptions = Pick<SafeFetchOptions, 'resolve' | 'allowPrivate' | 'onConnect'>;

export interface ImportsDeps {
  sql: Sql;
  storage: Pick<ObjectStorage, 'put' | 'get' | 'delete'>;
  jobs: Pick<JobRunner, 'enqueue' | 'wake'>;
  /** Test-only address allowances and resolver for URL imports; nothing in production sets them. */
  urlFetch?: UrlFetchOptions;
}

const words = (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length);
const baseName = (file: string) => file.replace(/\.[a-z0-9]{1,5}$/i, '').replace(/[_-]+/g, ' ').trim();

/** Words the user sees about a failed extraction: our own sentences, never a library's raw error. */
export function failureMessage(err: unknown): string {
  if (err instanceof UnreadableDocumentError || err instanceof UnsafeUrlError || err instanceof SafeFetchError) return err.message;
  if (err instanceof AppError) return err.message;
  return 'The import could not be read';
}

/** Worth another attempt: a page that timed out, could not be reached or answered 5xx/429. */
export function retryableFailure(err: unknown): boolean {
  if (!(err instanceof SafeFetchError)) return !(err instanceof UnreadableDocumentError || err instanceof UnsafeUrlError || err instanceof AppError);
  if (err.reason === 'timeout' || err.reason === 'network') return true;
  return err.reason === 'http_status' && (err.status === 429 || (err.status ?? 0) >= 500);
}

export function createImportsService(deps: ImportsDeps) {
  const { sql, storage, jobs } = deps;
  const repo = createImportsRepository(sql);
  const stories = createStoriesRepository(sql);

  async function owned(userId: string, id: string): Promise<ImportRow> {
    const row = await repo.findOwned(userId, id);
    if (!row) throw notFound('Import');
    return row;
  }

  /** Insert the row and queue its extraction in one transaction; the worker is woken at once. */
  async function insertQueued(row: Parameters<typeof repo.insert>[0], quotaBytes = 0): Promise<ImportRow> {
    const created = await repo.transaction(async (tx) => {
      if (quotaBytes > 0) await assertStorageQuota(tx, row.userId, quotaBytes);
      const inserted = await repo.insert(row, tx);
      await jobs.enqueue(EXTRACT_JOB, { importId: inserted.id }, {}, tx);
      return inserted;
    });
    jobs.wake();
    return created;
  }

  function candidatesOf(row: ImportRow, text: string): Candidate[] {
    return row.candidates ?? splitIntoStories(text, row.title ?? 'Imported story');
  }

  return {
    async createPaste(userId: string, input: { content: string; title?: string }): Promise<ImportRow> {
      const text = input.content.replace(/\r\n?/g, '\n');
      const count = words(text);
      if (count === 0) throw badRequest('content is empty: paste the text to import', { field: 'content' });
      const title = input.title?.trim() || (splitIntoStories(text, 'Pasted text')[0]?.title ?? 'Pasted text');
      return repo.insert({ userId, sourceType: 'paste', title, extractedText: text, wordCount: count });
    },

    async createUpload(userId: string, file: { bytes: Buffer; fileName: string }, title?: string): Promise<ImportRow> {
      if (file.bytes.length === 0) throw badRequest('file is empty', { field: 'file' });
      const type = await detectImportType(file.bytes);
      if (!type) throw badRequest('file must be a PDF, a Word document (.docx) or plain text, judged from its contents', { field: 'file' });
      // A cheap look before writing anything; the locked check in the transaction decides.
      const { tier, used } = await storedBytes(sql, userId);
      if (used + file.bytes.length > quotaFor(tier)) await assertStorageQuota(sql, userId, file.bytes.length);
      const key = newObjectKey(`imports/${userId}`, type);
      await storage.put(key, file.bytes, { contentType: IMPORT_TYPES[type], contentLength: file.bytes.length }).catch((err: unknown) => {
        if (isStorageNotConfigured(err)) throw new AppError('unavailable', 'Storage is not configured, so files cannot be imported', { extra: { status: 'upload_failed' } });
        throw new AppError('bad_gateway', 'The file could not be written to storage', { cause: err });
      });
      try {
        return await insertQueued(
          { userId, sourceType: 'file', title: title?.trim() || null, fileName: file.fileName.slice(0, 255), mimeType: IMPORT_TYPES[type], fileSizeBytes: file.bytes.length, storageKey: key },
          file.bytes.length,
        );
      } catch (err) {
        // No row, no object: a refused or failed insert leaves nothing stored.
        await storage.delete(key).catch(() => undefined);
        throw err;
      }
    },

    async createUrl(userId: string, input: { url: string; title?: string }): Promise<ImportRow> {
      // Checked before anything is stored or queued; the job checks again, hop by hop, when it fetches.
      try {
        await checkUrl(input.url, deps.urlFetch);
      } catch (err) {
        if (err instanceof UnsafeUrlError) throw badRequest(`url refused: ${err.message}`, { field: 'url', code: `url_${err.reason}` });
        throw err;
      }
      return insertQueued({ userId, sourceType: 'url', title: input.title?.trim() || null, sourceUrl: new URL(input.url).href });
    },

    list: (userId: string, limit: number) => repo.list(userId, limit),
    get: owned,

    /** POST /process: split the extracted text into candidate stories and keep them on the import. */
    /**
     * POST /process. While the text is still being read the request is taken, not refused: `accepted` is
     * false and the candidates land with the text (the extract job splits it as it completes). A failed
     * import stays a 409.
     */
    async process(userId: string, id: string): Promise<{ row: ImportRow; accepted: boolean }> {
      const row = await owned(userId, id);
      if (row.status === 'pending' || row.status === 'processing') return { row, accepted: true };
      if (row.status !== 'completed') throw conflict(`The import is ${row.status}: it has no text to split`, { code: 'import_not_ready' });
      const candidates = splitIntoStories(await repo.extractedText(id), row.title ?? 'Imported story');
      if (!candidates.length) throw new AppError('unprocessable', 'No text was found in this import to make stories from');
      await repo.setCandidates(id, candidates);
      return { row: await owned(userId, id), accepted: false };
    },

    /** POST /convert: one story per chosen candidate (all by default), in one transaction. */
    async convert(userId: string, id: string, input: { title?: string; candidates?: number[]; campaignId?: string }) {
      const result = await repo.transaction(async (tx) => {
        const row = await repo.findOwned(userId, id, { lock: true }, tx);
        if (!row) throw notFound('Import');
        if (row.status !== 'completed') throw conflict(`The import is ${row.status}: its text is not ready to convert yet`, { code: 'import_not_ready' });
        if (row.storyId) throw conflict('This import has already been converted into stories', { code: 'already_converted', extra: { storyId: row.storyId } });
        if (input.campaignId && (await repo.campaignOwner(input.campaignId, tx)) !== userId) throw notFound('Campaign', { field: 'campaignId' });
        const all = candidatesOf(row, await repo.extractedText(id, tx));
        const chosen = input.candidates ? [...new Set(input.candidates)].map((i) => all.find((c) => c.index === i)) : all;
        if (chosen.some((c) => !c)) throw badRequest(`candidates must be indexes of this import's candidates (0 to ${all.length - 1})`, { field: 'candidates' });
        if (!chosen.length) throw new AppError('unprocessable', 'No text was found in this import to make stories from');
        const created: string[] = [];
        for (const candidate of chosen as Candidate[]) {
          const content = sanitizeContent(candidateHtml(candidate.content));
          if (content.length > MAX_CONTENT) throw badRequest(`A candidate is over ${MAX_CONTENT} characters`, { field: 'candidates' });
          const title = (chosen.length === 1 && input.title?.trim()) || candidate.title;
          created.push(
            await stories.insert(
              {
                ownerId: userId,
                campaignId: input.campaignId ?? null,
                title: title.slice(0, 200),
                type: 'story',
                content,
                wordCount: countWords(content),
                metadata: { authorId: userId, source: 'import', importId: id, importSourceType: row.sourceType, candidateIndex: candidate.index, splitMethod: SPLIT_METHOD },
                aiEnhanced: false,
                sourceRecordingIds: [],
                sourceConversationIds: [],
              },
              tx,
            ),
          );
        }
        await repo.setStory(id, created[0]!, tx);
        return { storyIds: created, import: (await repo.findOwned(userId, id, {}, tx))! };
      });
      const views = await Promise.all(result.storyIds.map(async (storyId) => toStoryView((await stories.findById(storyId))!)));
      return { stories: views, import: result.import };
    },

    /** The `import.extract` job: read the stored file or fetch the page, keep its text. */
    async extract(importId: string, signal?: AbortSignal): Promise<{ wordCount: number } | undefined> {
      const row = await repo.find(importId);
      if (!row || row.status === 'completed') return undefined;
      await repo.markProcessing(importId);
      let extracted: Extracted;
      if (row.sourceType === 'url') {
        const page = await safeFetch(row.sourceUrl!, { ...deps.urlFetch, maxBytes: PAGE_MAX_BYTES, timeoutMs: PAGE_TIMEOUT_MS, signal });
        extracted = extractPage(page.contentType, page.body);
      } else {
        const object = await storage.get(row.storageKey!);
        const chunks: Buffer[] = [];
        // At most the 8 MB the upload route took: PDF.js and mammoth need the whole document in memory.
        for await (const chunk of object.body) chunks.push(chunk as Buffer);
        const bytes = Buffer.concat(chunks);
        const type = await detectImportType(bytes);
        if (!type) throw new UnreadableDocumentError('The stored file is not a PDF, DOCX or text file');
        extracted = await extractDocument(type, bytes);
      }
      const text = extracted.text.trim();
      if (!text) throw new UnreadableDocumentError('No text was found in this import (a scanned PDF has only pictures of text)');
      if (text.length > MAX_IMPORT_TEXT) throw new UnreadableDocumentError(`The text is longer than ${MAX_IMPORT_TEXT.toLocaleString('en')} characters`);
      const fallback = extracted.title ?? (row.fileName ? baseName(row.fileName) : row.sourceUrl ? new URL(row.sourceUrl).hostname : 'Imported story');
      const wordCount = words(text);
      const title = fallback.slice(0, 200);
      // The candidates come with the text, so a process request taken while it was read is done now.
      const candidates = splitIntoStories(text, row.title ?? title);
      await repo.transaction(async (tx) => {
        await repo.complete(importId, { text, wordCount, title }, tx);
        if (candidates.length) await repo.setCandidates(importId, candidates, tx);
      });
      return { wordCount };
    },

    markRetrying: (importId: string, err: unknown) => repo.setFailure(importId, 'pending', failureMessage(err)),
    markFailed: (importId: string, err: unknown) => repo.setFailure(importId, 'failed', failureMessage(err)),
    /** Its worker died mid-read: waiting again (only if it was left processing). */
    markInterrupted: (importId: string) => repo.setFailure(importId, 'pending', 'Reading was interrupted and will be tried again', 'processing'),
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
