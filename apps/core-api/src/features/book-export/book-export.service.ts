// Book export jobs (export_jobs: pending -> processing -> completed | failed). POST queues a row and
// wakes the in-process worker; the worker claims pending rows with FOR UPDATE SKIP LOCKED, so several
// replicas share the queue without rendering one job twice, renders the PDF and streams it into
// storage. Rows survive restarts: a replica picks up pending rows when it starts listening, and a
// processing row whose renderer died is put back after a lease.
import type { Sql } from 'postgres';
import { AppError, badRequest, notFound } from '@story/http';
import { newObjectKey, type ObjectStorage, type StoredObject } from '@story/providers';
import { one, type ExportKind } from '@story/db';
import type { AccessPolicy } from '../access/access.policy';
import { ISO_UTC } from '../stories/stories.service';
import { contentBlocks } from '../stories/story-content';
import { FONT_FAMILIES, headerFooterOf, typographyOf, typographySchema, type StandardFamily, type Typography } from '../stories/story-layout';
import type { TemplatesService } from '../templates/templates.service';
import { assertAllowance, tierOf, TIER_ALLOWANCES } from '../tiers/tier-allowances';
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

interface JobRow {
  id: string;
  book_id: string;
  user_id: string;
  kind: BookExportKind;
  status: ExportJobView['status'];
  storage_key: string | null;
  size_bytes: number | null;
  item_count: number | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

// Timestamps leave PostgreSQL as ISO 8601 UTC text (the shared client hands timestamps over unparsed).
const JOB_COLUMNS = `id, book_id, user_id, kind, status, storage_key, size_bytes, item_count, error, to_char(created_at, ${ISO_UTC}) as created_at,
  to_char(started_at, ${ISO_UTC}) as started_at, to_char(completed_at, ${ISO_UTC}) as completed_at`;
/** A processing row older than this belongs to a renderer that died (a 300-page book renders in seconds). */
const LEASE_MINUTES = 15;

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
}

export function createBookExportService({ sql, access, storage, templates, log }: BookExportDeps) {
  let draining: Promise<void> | null = null;
  let wakeAgain = false;
  let closed = false;

  async function bookOwner(bookId: string): Promise<{ userId: string; chapters: number; title: string }> {
    const [book] = await sql<{ userId: string; chapters: number; title: string }[]>`
      select user_id as "userId", cardinality(story_ids) as chapters, title from books where id = ${bookId}`;
    if (!book) throw notFound('Book');
    return book;
  }

  async function loadJob(bookId: string, jobId: string): Promise<JobRow> {
    const [row] = await sql.unsafe<JobRow[]>(`select ${JOB_COLUMNS} from export_jobs where id = $1 and book_id = $2 and kind in ('interior', 'cover')`, [jobId, bookId]);
    if (!row) throw notFound('Export');
    return row;
  }

  async function renderInterior(job: JobRow): Promise<{ key: string; size: number; pages: number }> {
    const [book] = await sql<
      { title: string; subtitle: string | null; author_name: string | null; trim_size: string; language: string; keywords: string[]; user_id: string; template: string | null }[]
    >`select title, subtitle, author_name, trim_size, language, keywords, user_id, coalesce(interior_template_id, template_id) as template from books where id = ${job.book_id}`;
    if (!book) throw notFound('Book');
    const settings = (await templates.settingsOf('book_templates', book.template)) ?? {};
    // A story without its own typography takes the template's, else the house default.
    const templateTypography = typographySchema.safeParse(settings);
    const fallback: Typography = templateTypography.success ? templateTypography.data : typographyOf(null);
    const rows = await sql<{ title: string; content: string; typography: unknown; header_footer: unknown }[]>`
      select coalesce(c.title, s.title, s.prompt, 'Untitled') as title, coalesce(s.content, s.response_text, '') as content, s.typography, s.header_footer
        from book_chapters c join stories s on s.id = c.story_id
       where c.book_id = ${job.book_id} order by c.chapter_number`;
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
    const [book] = await sql<{ title: string; subtitle: string | null; author_name: string | null; trim_size: string; language: string; keywords: string[]; template: string | null }[]>`
      select title, subtitle, author_name, trim_size, language, keywords, cover_template_id as template from books where id = ${job.book_id}`;
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

  /** Render one claimed job and record the outcome; never throws. */
  async function process(job: JobRow): Promise<void> {
    try {
      const out = job.kind === 'cover' ? await renderCover(job) : await renderInterior(job);
      const [updated] = await sql`
        update export_jobs set status = 'completed', storage_key = ${out.key}, size_bytes = ${out.size}, item_count = ${out.pages},
               error = null, completed_at = now(), updated_at = now()
         where id = ${job.id} and status = 'processing' returning id`;
      // The book (and with it the job) was deleted while rendering: the file has no owner left.
      if (!updated) await storage.delete(out.key);
    } catch (err) {
      const message = err instanceof AppError ? err.message : 'The PDF could not be rendered';
      if (!(err instanceof AppError)) log.error({ err, jobId: job.id }, 'book export failed');
      await sql`update export_jobs set status = 'failed', error = ${message}, completed_at = now(), updated_at = now() where id = ${job.id}`.catch((e: unknown) =>
        log.error({ err: e, jobId: job.id }, 'could not record the export failure'),
      );
    }
  }

  /** Claim the oldest pending book export (or the given one), skipping rows another worker holds. */
  async function claim(jobId?: string): Promise<JobRow | null> {
    const rows = await sql.unsafe<JobRow[]>(
      `update export_jobs set status = 'processing', started_at = now(), updated_at = now()
        where id = (select id from export_jobs
                     where status = 'pending' and kind in ('interior', 'cover') ${jobId ? 'and id = $1' : ''}
                     order by created_at limit 1 for update skip locked)
        returning ${JOB_COLUMNS}`,
      jobId ? [jobId] : [],
    );
    return rows[0] ?? null;
  }

  async function drain(): Promise<void> {
    // Put back rows whose renderer died mid-job (a crash or a killed replica).
    await sql`update export_jobs set status = 'pending', started_at = null, updated_at = now()
               where status = 'processing' and kind in ('interior', 'cover') and started_at < now() - make_interval(mins => ${LEASE_MINUTES})`;
    for (;;) {
      if (closed) return;
      const job = await claim();
      if (!job) return;
      await process(job);
    }
  }

  /** Wake the worker: one drain loop per process; a wake during a drain runs another pass after it. */
  function wake(): void {
    if (closed) return;
    if (draining) {
      wakeAgain = true;
      return;
    }
    draining = drain()
      .catch((err: unknown) => log.error({ err }, 'book export worker failed'))
      .finally(() => {
        draining = null;
        if (wakeAgain) {
          wakeAgain = false;
          wake();
        }
      });
  }

  return {
    wake,

    /** Render one job now if it is still pending (the worker's unit of work; tests call it directly). */
    async runExportJob(jobId: string): Promise<ExportJobView | null> {
      const job = await claim(jobId);
      if (job) await process(job);
      const [row] = await sql.unsafe<JobRow[]>(`select ${JOB_COLUMNS} from export_jobs where id = $1`, [jobId]);
      return row ? toView(row) : null;
    },

    /** Wait for the running drain (tests, shutdown). */
    async idle(): Promise<void> {
      while (draining) await draining;
    },

    async close(): Promise<void> {
      closed = true;
      while (draining) await draining;
    },

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
      const row = one(await sql.unsafe<JobRow[]>(`insert into export_jobs (user_id, book_id, kind) values ($1, $2, $3) returning ${JOB_COLUMNS}`, [callerId, bookId, kind]));
      wake();
      return toView(row);
    },

    async list(callerId: string, bookId: string): Promise<ExportJobView[]> {
      const book = await bookOwner(bookId);
      await access.require(callerId, book.userId, 'view_stories', 'Book');
      const rows = await sql.unsafe<JobRow[]>(
        `select ${JOB_COLUMNS} from export_jobs where book_id = $1 and kind in ('interior', 'cover') order by created_at desc limit 50`,
        [bookId],
      );
      return rows.map(toView);
    },

    async get(callerId: string, bookId: string, jobId: string): Promise<ExportJobView> {
      const book = await bookOwner(bookId);
      await access.require(callerId, book.userId, 'view_stories', 'Book');
      return toView(await loadJob(bookId, jobId));
    },

    /** The finished PDF, streamed from storage. */
    async download(callerId: string, bookId: string, jobId: string): Promise<{ object: StoredObject; fileName: string }> {
      const book = await bookOwner(bookId);
      await access.require(callerId, book.userId, 'view_stories', 'Book');
      const job = await loadJob(bookId, jobId);
      if (job.status !== 'completed' || !job.storage_key) throw new AppError('conflict', `This export is ${job.status}, not ready to download`);
      const object = await storage.get(job.storage_key);
      const safe = book.title.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim().slice(0, 80) || 'book';
      return { object, fileName: `${safe}-${job.kind}.pdf` };
    },
  };
}

export type BookExportService = ReturnType<typeof createBookExportService>;
