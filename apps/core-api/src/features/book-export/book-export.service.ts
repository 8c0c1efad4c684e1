// Book export jobs. export_jobs holds what a user sees (pending -> processing -> completed | failed); a
// `book.export` job of the one runner (libs/jobs), queued in the same transaction as the row, renders the
// PDF and streams it into storage. The runner's claim (FOR UPDATE SKIP LOCKED) lets replicas share the
// work without rendering one export twice; a renderer that dies is taken over when its lease passes.
import type { Sql, TransactionSql } from 'postgres';
import { z } from 'zod';
import { defineJob } from '@story/jobs';
import { AppError, badRequest, notFound } from '@story/http';
import { newObjectKey, type ObjectStorage, type StoredObject } from '@story/providers';
import type { ExportKind } from '@story/db';
import type { AccessPolicy } from '../access/access.policy';
import { createFamilyDownloadGate } from '../access/family-download';
import { contentBlocks } from '../stories/story-content';
import { FONT_FAMILIES, headerFooterOf, typographyOf, typographySchema, type StandardFamily, type Typography } from '../stories/story-layout';
import type { TemplatesService } from '../templates/templates.service';
import { assertAllowance, tierOf, TIER_ALLOWANCES } from '../tiers/tier-allowances';
import { createBookExportRepository, type JobRow } from './book-export.repository';
import { streamCover, streamInterior, type BookForPrint, type RenderChapter } from './pdf-render';

export type BookExportKind = Extract<ExportKind, 'interior' | 'cover'>;

export interface ExportJobView {
  id: string;
  bookId: string;
  kind: BookExportKind;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  pages: number | null;
  sizeBytes: number | null;
  error: string | null;
  downloadUrl: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

/** The runner's job kind that renders one export_jobs row. */
export const BOOK_EXPORT_JOB = 'book.export';

const toView = (r: JobRow): ExportJobView => ({
  id: r.id,
  bookId: r.book_id,
  kind: r.kind,
  status: r.status,
  pages: r.item_count,
  sizeBytes: r.size_bytes === null ? null : Number(r.size_bytes),
  error: r.error,
  downloadUrl: r.status === 'completed' ? `/api/books/${r.book_id}/exports/${r.id}/download` : null,
  createdAt: r.created_at,
  startedAt: r.started_at,
  completedAt: r.completed_at,
});

export interface BookExportDeps {
  sql: Sql;
  access: AccessPolicy;
  storage: Pick<ObjectStorage, 'put' | 'get' | 'delete'>;
  templates: Pick<TemplatesService, 'settingsOf'>;
  log: { error(obj: unknown, msg: string): void };
  /** Queue the render of an export row, in the transaction that inserts it. */
  queueRender(exportJobId: string, tx: TransactionSql): Promise<void>;
  /** Wake this process's job runner (it would find the job at its next poll anyway). */
  wakeRunner?: () => void;
}

export function createBookExportService({ sql, access, storage, templates, log, queueRender, wakeRunner }: BookExportDeps) {
  const repo = createBookExportRepository(sql);
  const downloads = createFamilyDownloadGate({ sql });

  async function bookOwner(bookId: string): Promise<{ userId: string; chapters: number; title: string }> {
    const book = await repo.bookSummary(bookId);
    if (!book) throw notFound('Book');
    return book;
  }

  async function loadJob(bookId: string, jobId: string): Promise<JobRow> {
    const row = await repo.findJob(bookId, jobId);
    if (!row) throw notFound('Export');
    return row;
  }

  async function renderInterior(job: JobRow): Promise<{ key: string; size: number; pages: number }> {
    const book = await repo.bookForInterior(job.book_id);
    if (!book) throw notFound('Book');
    const settings = (await templates.settingsOf('book_templates', book.template)) ?? {};
    // A story without its own typography takes the template's, else the house default.
    const templateTypography = typographySchema.safeParse(settings);
    const fallback: Typography = templateTypography.success ? templateTypography.data : typographyOf(null);
    const rows = await repo.chapters(job.book_id);
    if (rows.length === 0) throw badRequest('The book has no chapters to print');
    const chapters: RenderChapter[] = rows.map((r) => ({
      title: r.title,
      blocks: contentBlocks(r.content),
      typography: r.typography ? typographyOf(r.typography) : fallback,
      headerFooter: headerFooterOf(r.header_footer),
    }));
    const print: BookForPrint = {
      title: book.title,
      subtitle: book.subtitle,
      author: book.author_name,
      trimSize: book.trim_size,
      language: book.language,
      keywords: book.keywords,
      margins: (settings['margins'] as BookForPrint['margins']) ?? undefined,
    };
    const key = newObjectKey(`exports/books/${job.book_id}`, 'pdf');
    const { stream, done } = streamInterior(print, chapters);
    const [stored, layout] = await Promise.all([storage.put(key, stream, { contentType: 'application/pdf' }), done]);
    // The tier's book pages allowance counts the pages really laid out: over it, the file is not kept.
    const tier = await tierOf(sql, book.user_id);
    try {
      assertAllowance(tier, 'bookPages', 0, layout.pages);
    } catch (err) {
      await storage.delete(key);
      if (err instanceof AppError) throw new AppError(err.kind, `The interior has ${layout.pages} pages. ${err.message}`, { details: String(err.details ?? '') });
      throw err;
    }
    return { key, size: stored.size, pages: layout.pages };
  }

  async function renderCover(job: JobRow): Promise<{ key: string; size: number; pages: number }> {
    const book = await repo.bookForCover(job.book_id);
    if (!book) throw notFound('Book');
    const settings = (await templates.settingsOf('cover_templates', book.template)) ?? {};
    const color = (v: unknown, d: string) => (typeof v === 'string' && /^#[0-9a-f]{6}$/i.test(v) ? v : d);
    const family: StandardFamily = FONT_FAMILIES[settings['fontFamily'] as keyof typeof FONT_FAMILIES] ?? 'Times';
    const { stream, pages } = streamCover(
      { title: book.title, subtitle: book.subtitle, author: book.author_name, trimSize: book.trim_size, language: book.language, keywords: book.keywords },
      { background: color(settings['background'], '#1f2a44'), textColor: color(settings['textColor'], '#f4ecd8'), fontFamily: family },
    );
    const key = newObjectKey(`exports/books/${job.book_id}`, 'pdf');
    const stored = await storage.put(key, stream, { contentType: 'application/pdf' });
    return { key, size: stored.size, pages };
  }

  /** Render one claimed row and record the outcome; only an unexpected failure throws (the runner retries it). */
  async function render(job: JobRow): Promise<void> {
    try {
      const out = job.kind === 'cover' ? await renderCover(job) : await renderInterior(job);
      // The book (and with it the job) was deleted while rendering: the file has no owner left.
      if (!(await repo.completeJob(job.id, out))) await storage.delete(out.key);
    } catch (err) {
      // A refusal the user can act on (too many pages, no chapters) is final; anything else is retried.
      if (!(err instanceof AppError)) throw err;
      await markFailed(job.id, err.message);
    }
  }

  async function markFailed(exportJobId: string, message: string): Promise<void> {
    await repo.failJob(exportJobId, message);
  }

  /** Take the row for rendering (a retry or a takeover finds it still processing); null when there is nothing to do. */
  async function start(exportJobId: string): Promise<JobRow | null> {
    return (await repo.startJob(exportJobId)) ?? null;
  }

  /** The runner's job kind: render one export row. */
  const job = defineJob({
    kind: BOOK_EXPORT_JOB,
    parse: (p) => z.object({ exportJobId: z.uuid() }).parse(p),
    // A 300-page book renders in seconds; a renderer silent for this long has died.
    leaseSeconds: 15 * 60,
    maxAttempts: 3,
    async run({ payload }) {
      const row = await start(payload.exportJobId);
      if (row) await render(row);
    },
    async onRetry({ exportJobId }, err) {
      log.error({ err, jobId: exportJobId }, 'book export failed; retrying');
    },
    async onGiveUp({ exportJobId }) {
      await markFailed(exportJobId, 'The PDF could not be rendered');
    },
  });

  return {
    job,

    async request(callerId: string, bookId: string, kind: BookExportKind): Promise<ExportJobView> {
      const book = await bookOwner(bookId);
      await access.require(callerId, book.userId, 'create_books', 'Book');
      if (kind === 'interior') {
        if (book.chapters === 0) throw badRequest('The book has no chapters to print yet', { field: 'kind' });
        // Title page, contents and one page per chapter is a floor no layout goes under: refuse at once
        // what cannot fit; the exact count is checked again after layout.
        const tier = await tierOf(sql, book.userId);
        const allowed = TIER_ALLOWANCES[tier].bookPages;
        if (allowed !== null) assertAllowance(tier, 'bookPages', 0, 2 + book.chapters);
      }
      // The row and its render job in one transaction: neither exists without the other.
      const row = await sql.begin(async (tx) => {
        const inserted = await repo.insertJob({ userId: callerId, bookId, kind }, tx);
        await queueRender(inserted.id, tx);
        return inserted;
      });
      wakeRunner?.();
      return toView(row);
    },

    async list(callerId: string, bookId: string): Promise<ExportJobView[]> {
      const book = await bookOwner(bookId);
      await access.require(callerId, book.userId, 'view_stories', 'Book');
      return (await repo.listJobs(bookId)).map(toView);
    },

    async get(callerId: string, bookId: string, jobId: string): Promise<ExportJobView> {
      const book = await bookOwner(bookId);
      await access.require(callerId, book.userId, 'view_stories', 'Book');
      return toView(await loadJob(bookId, jobId));
    },

    /** The finished PDF, streamed from storage: a download, so family members need the switch on (spec 000). */
    async download(callerId: string, bookId: string, jobId: string): Promise<{ object: StoredObject; fileName: string }> {
      const book = await bookOwner(bookId);
      await access.require(callerId, book.userId, 'view_stories', 'Book');
      // Before the job is looked up: the refusal is the same whether or not that export exists.
      await downloads.require(callerId, book.userId);
      const job = await loadJob(bookId, jobId);
      if (job.status !== 'completed' || !job.storage_key) throw new AppError('conflict', `This export is ${job.status}, not ready to download`);
      const object = await storage.get(job.storage_key);
      const safe = book.title.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim().slice(0, 80) || 'book';
      return { object, fileName: `${safe}-${job.kind}.pdf` };
    },
  };
}

export type BookExportService = ReturnType<typeof createBookExportService>;
