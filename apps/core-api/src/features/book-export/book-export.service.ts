// Book export jobs. export_jobs holds what a user sees (pending -> processing -> completed | failed); a
// `book.export` job of the one runner (libs/jobs), queued in the same transaction as the row, typesets the
// PDF with @story/pdf (Typst), preflights it (CONTRACTS §11) and stores it. The runner's claim (FOR UPDATE
// SKIP LOCKED) lets replicas share the work without rendering one export twice; a renderer that dies is
// taken over when its lease passes. A PDF that fails its preflight is never stored: the job fails with the
// preflight's reasons, and the report is kept on the row either way.
import type { Sql, TransactionSql } from 'postgres';
import { z } from 'zod';
import { defineJob } from '@story/jobs';
import { AppError, badRequest, notFound } from '@story/http';
import { newObjectKey, type ObjectStorage, type StoredObject } from '@story/providers';
import type { ExportPaper, ExportPreflight } from '@story/db';
import {
  isTrimSize,
  MAX_INTERIOR_PAGES,
  trimSizePoints,
  typesetCover,
  typesetInterior,
  type PageAllowance,
  type PrintBook,
  type PrintChapter,
  type TextStyle,
} from '@story/pdf';
import type { AccessPolicy } from '../access/access.policy';
import { createFamilyDownloadGate } from '../access/family-download';
import { contentBlocks } from '../stories/story-content';
import { FONT_FAMILIES, headerFooterOf, typographyOf, typographySchema, type StandardFamily, type Typography } from '../stories/story-layout';
import type { TemplatesService } from '../templates/templates.service';
import { assertAllowance, tierOf, TIER_ALLOWANCES, type Tier } from '../tiers/tier-allowances';
import { createBookExportRepository, type BookExportKind, type JobRow } from './book-export.repository';

export interface ExportJobView {
  id: string;
  bookId: string;
  kind: BookExportKind;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  pages: number | null;
  sizeBytes: number | null;
  paper: ExportPaper | null;
  /** The print check of CONTRACTS §11, once run (null before). */
  preflight: ExportPreflight | null;
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
  paper: r.paper,
  preflight: r.preflight,
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

  async function bookOwner(bookId: string): Promise<{ userId: string; chapters: number; title: string; trimSize: string }> {
    const book = await repo.bookSummary(bookId);
    if (!book) throw notFound('Book');
    return book;
  }

  async function loadJob(bookId: string, jobId: string): Promise<JobRow> {
    const row = await repo.findJob(bookId, jobId);
    if (!row) throw notFound('Export');
    return row;
  }

  /** The book and its chapters as the typesetter takes them. */
  async function printable(bookId: string): Promise<{ book: PrintBook; chapters: PrintChapter[]; userId: string }> {
    const book = await repo.bookForInterior(bookId);
    if (!book) throw notFound('Book');
    if (!isTrimSize(book.trim_size)) throw badRequest(`The book's trim size ${book.trim_size} is not one a printer takes`, { field: 'trim_size' });
    const settings = (await templates.settingsOf('book_templates', book.template)) ?? {};
    // A story without its own typography takes the template's, else the house default.
    const templateTypography = typographySchema.safeParse(settings);
    const fallback: Typography = templateTypography.success ? templateTypography.data : typographyOf(null);
    const rows = await repo.chapters(bookId);
    if (rows.length === 0) throw badRequest('The book has no chapters to print');
    const chapters: PrintChapter[] = rows.map((r) => {
      const typography = r.typography ? typographyOf(r.typography) : fallback;
      const hf = headerFooterOf(r.header_footer);
      return {
        title: r.title,
        blocks: contentBlocks(r.content),
        style: styleOf(typography.fontFamily),
        size: typography.fontSize,
        lineHeight: typography.lineHeight,
        header: { show: hf.showHeader, text: hf.headerText || null, align: hf.headerAlign },
        footer: { show: hf.showFooter, text: hf.footerText || null, align: hf.footerAlign, numbers: hf.showPageNumbers, position: hf.pageNumberPosition },
      };
    });
    const margins = settings['margins'] as { inner?: number; outer?: number; top?: number; bottom?: number } | undefined;
    return {
      book: {
        title: book.title,
        subtitle: book.subtitle,
        author: book.author_name,
        language: book.language,
        keywords: book.keywords,
        trimSize: book.trim_size,
        margins: margins ? { inside: margins.inner, outside: margins.outer, top: margins.top, bottom: margins.bottom } : undefined,
      },
      chapters,
      userId: book.user_id,
    };
  }

  type Rendered = { ok: true; key: string; size: number; pages: number; preflight: ExportPreflight } | { ok: false; reason: string; preflight: ExportPreflight };

  async function renderInterior(job: JobRow): Promise<Rendered> {
    const { book, chapters, userId } = await printable(job.book_id);
    const result = await typesetInterior(book, chapters, { maxPages: pageAllowance(await tierOf(sql, userId)) });
    if (!result.ok) return { ok: false, reason: result.reason, preflight: { ...result.preflight } };
    const key = newObjectKey(`exports/books/${job.book_id}`, 'pdf');
    const stored = await storage.put(key, result.pdf, { contentType: 'application/pdf' });
    return { ok: true, key, size: stored.size, pages: result.pages, preflight: { ...result.preflight, gutterInches: result.margins.inside } };
  }

  async function renderCover(job: JobRow): Promise<Rendered> {
    const cover = await repo.bookForCover(job.book_id);
    if (!cover) throw notFound('Book');
    // The spine is as wide as the interior is thick: the interior is laid out (not stored) to count its pages.
    const { book, chapters } = await printable(job.book_id);
    const interior = await typesetInterior(book, chapters);
    if (!interior.ok) return { ok: false, reason: `The cover needs the interior's page count, and the interior cannot be printed: ${interior.reason}`, preflight: { ...interior.preflight } };
    const settings = (await templates.settingsOf('cover_templates', cover.template)) ?? {};
    const color = (v: unknown, d: string) => (typeof v === 'string' && /^#[0-9a-f]{6}$/i.test(v) ? v : d);
    const family: StandardFamily = FONT_FAMILIES[settings['fontFamily'] as keyof typeof FONT_FAMILIES] ?? 'Times';
    const paper = job.paper ?? 'white';
    const result = await typesetCover(book, { background: color(settings['background'], '#1f2a44'), textColor: color(settings['textColor'], '#f4ecd8'), style: styleOf(family) }, interior.pages, paper);
    if (!result.ok) return { ok: false, reason: result.reason, preflight: { ...result.preflight } };
    const g = result.geometry;
    const key = newObjectKey(`exports/books/${job.book_id}`, 'pdf');
    const stored = await storage.put(key, result.pdf, { contentType: 'application/pdf' });
    const geometry = { trimSize: book.trimSize, interiorPages: g.interiorPages, paper: g.paper, spineWidthInches: g.spineWidth / 72, spineText: g.spineText, bleedInches: g.bleed / 72 };
    return { ok: true, key, size: stored.size, pages: 1, preflight: { ...result.preflight, geometry } };
  }

  /** Render one claimed row and record the outcome; only an unexpected failure throws (the runner retries it). */
  async function render(job: JobRow): Promise<void> {
    try {
      const out = job.kind === 'cover' ? await renderCover(job) : await renderInterior(job);
      if (!out.ok) return await repo.failJob(job.id, out.reason, out.preflight);
      // The book (and with it the job) was deleted while rendering: the file has no owner left.
      if (!(await repo.completeJob(job.id, out))) await storage.delete(out.key);
    } catch (err) {
      // A refusal the user can act on (no chapters) is final; anything else is retried.
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

    async request(callerId: string, bookId: string, kind: BookExportKind, paper: ExportPaper = 'white'): Promise<ExportJobView> {
      const book = await bookOwner(bookId);
      await access.require(callerId, book.userId, 'create_books', 'Book');
      if (!isTrimSize(book.trimSize)) throw badRequest(`The book's trim size ${book.trimSize} is not one a printer takes; choose 5x8, 5.5x8.5, 6x9, 7x10 or 8.5x11`, { field: 'trim_size' });
      if (book.chapters === 0) throw badRequest('The book has no chapters to print yet', { field: 'kind' });
      // A floor no layout goes under: title, copyright and contents pages and one page per chapter, or the
      // text at far more words a page than any layout sets. What cannot fit is refused at once; the exact
      // count is checked again by the preflight after layout.
      const floor = Math.max(3 + book.chapters, minimumPages(book.trimSize, await repo.textLength(bookId)));
      if (floor > MAX_INTERIOR_PAGES) {
        throw new AppError('unprocessable', `This book would have at least ${floor} pages; a printed book may have at most ${MAX_INTERIOR_PAGES}. Split it into volumes (two books) and export each.`, {
          details: `print limit: ${MAX_INTERIOR_PAGES} pages`,
        });
      }
      if (kind === 'interior') {
        const tier = await tierOf(sql, book.userId);
        if (TIER_ALLOWANCES[tier].bookPages !== null) assertAllowance(tier, 'bookPages', 0, floor);
      }
      // The row and its render job in one transaction: neither exists without the other.
      const row = await sql.begin(async (tx) => {
        const inserted = await repo.insertJob({ userId: callerId, bookId, kind, paper }, tx);
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

/** The story's typeface family drawn with the bundled family of the same kind. */
function styleOf(family: string): TextStyle {
  const standard: StandardFamily = FONT_FAMILIES[family as keyof typeof FONT_FAMILIES] ?? 'Times';
  return standard === 'Helvetica' ? 'sans' : standard === 'Courier' ? 'mono' : 'serif';
}

/**
 * The fewest pages `chars` characters of story text can take at a trim size: 4,000 characters a page at
 * 6x9 (about twice what the densest template sets), scaled by the page area.
 */
export function minimumPages(trimSize: string, chars: number): number {
  const [w, h] = trimSizePoints(trimSize);
  return Math.floor(chars / (4000 * ((w * h) / (432 * 648))));
}

/** The tier's book pages allowance as the preflight checks it, with the 403's sentence for the count found. */
function pageAllowance(tier: Tier): PageAllowance | null {
  const allowed = TIER_ALLOWANCES[tier].bookPages;
  if (allowed === null) return null;
  return {
    pages: allowed,
    reason: (pages) => {
      try {
        assertAllowance(tier, 'bookPages', 0, pages);
        return '';
      } catch (err) {
        return err instanceof Error ? err.message : String(err);
      }
    },
  };
}
