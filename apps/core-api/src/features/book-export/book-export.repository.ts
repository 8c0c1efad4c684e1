// The SQL of book exports (CONVENTIONS 7): export_jobs rows of kind interior or cover, and the book and
// chapter reads a render needs. Raw postgres.js throughout; column lists are fragments, not strings.
import type { Sql } from 'postgres';
import { one, type ExportKind, type ExportPaper, type ExportPreflight } from '@story/db';
import { isoUtc, type SqlOrTx } from '../sql-fragments';

/** The export jobs of a book (export_jobs.kind); archives are the memories feature's. */
export type BookExportKind = Extract<ExportKind, 'interior' | 'cover'>;

export interface JobRow {
  id: string;
  book_id: string;
  user_id: string;
  kind: BookExportKind;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  storage_key: string | null;
  size_bytes: number | null;
  item_count: number | null;
  paper: ExportPaper | null;
  preflight: ExportPreflight | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface BookForInterior {
  title: string;
  subtitle: string | null;
  author_name: string | null;
  trim_size: string;
  language: string;
  keywords: string[];
  user_id: string;
  template: string | null;
}

export type BookForCover = Omit<BookForInterior, 'user_id'>;

export function createBookExportRepository(sql: Sql) {
  // Timestamps leave PostgreSQL as ISO 8601 UTC text (the shared client hands timestamps over unparsed).
  const jobColumns = (q: SqlOrTx) => q`id, book_id, user_id, kind, status, storage_key, size_bytes, item_count, paper, preflight, error, ${isoUtc(q, 'created_at')} as created_at,
    ${isoUtc(q, 'started_at')} as started_at, ${isoUtc(q, 'completed_at')} as completed_at`;

  return {
    async bookSummary(bookId: string, tx: SqlOrTx = sql): Promise<{ userId: string; chapters: number; title: string; trimSize: string } | undefined> {
      const [book] = await tx<{ userId: string; chapters: number; title: string; trimSize: string }[]>`
        select user_id as "userId", cardinality(story_ids) as chapters, title, trim_size as "trimSize" from books where id = ${bookId}`;
      return book;
    },

    /** Characters of text in the book's chapters (markup included): a cheap lower bound of its pages before layout. */
    async textLength(bookId: string, tx: SqlOrTx = sql): Promise<number> {
      const [row] = await tx<{ chars: number }[]>`
        select coalesce(sum(length(coalesce(s.content, s.response_text, ''))), 0)::float8 as chars
          from book_chapters c join stories s on s.id = c.story_id where c.book_id = ${bookId}`;
      return Number(row?.chars ?? 0);
    },

    async bookForInterior(bookId: string, tx: SqlOrTx = sql): Promise<BookForInterior | undefined> {
      const [book] = await tx<BookForInterior[]>`
        select title, subtitle, author_name, trim_size, language, keywords, user_id, coalesce(interior_template_id, template_id) as template from books where id = ${bookId}`;
      return book;
    },

    async bookForCover(bookId: string, tx: SqlOrTx = sql): Promise<BookForCover | undefined> {
      const [book] = await tx<BookForCover[]>`
        select title, subtitle, author_name, trim_size, language, keywords, cover_template_id as template from books where id = ${bookId}`;
      return book;
    },

    /** The book's chapters in order, each with its story's text and layout settings. */
    chapters: (bookId: string, tx: SqlOrTx = sql) =>
      tx<{ title: string; content: string; typography: unknown; header_footer: unknown }[]>`
        select coalesce(c.title, s.title, s.prompt, 'Untitled') as title, coalesce(s.content, s.response_text, '') as content, s.typography, s.header_footer
          from book_chapters c join stories s on s.id = c.story_id
         where c.book_id = ${bookId} order by c.chapter_number`,

    async findJob(bookId: string, jobId: string, tx: SqlOrTx = sql): Promise<JobRow | undefined> {
      const [row] = await tx<JobRow[]>`select ${jobColumns(tx)} from export_jobs where id = ${jobId} and book_id = ${bookId} and kind in ('interior', 'cover')`;
      return row;
    },

    listJobs: (bookId: string, tx: SqlOrTx = sql) =>
      tx<JobRow[]>`select ${jobColumns(tx)} from export_jobs where book_id = ${bookId} and kind in ('interior', 'cover') order by created_at desc limit 50`,

    async insertJob(job: { userId: string; bookId: string; kind: BookExportKind; paper: ExportPaper }, tx: SqlOrTx = sql): Promise<JobRow> {
      return one(await tx<JobRow[]>`insert into export_jobs (user_id, book_id, kind, paper) values (${job.userId}, ${job.bookId}, ${job.kind}, ${job.paper}) returning ${jobColumns(tx)}`);
    },

    /** Take the row for rendering (a retry or a takeover finds it still processing); undefined when there is nothing to do. */
    async startJob(exportJobId: string, tx: SqlOrTx = sql): Promise<JobRow | undefined> {
      const [row] = await tx<JobRow[]>`
        update export_jobs set status = 'processing', started_at = coalesce(started_at, now()), updated_at = now()
         where id = ${exportJobId} and status in ('pending', 'processing') and kind in ('interior', 'cover')
        returning ${jobColumns(tx)}`;
      return row;
    },

    /** Record the stored file; false when the row is no longer processing (the book was deleted meanwhile). */
    async completeJob(jobId: string, out: { key: string; size: number; pages: number; preflight: ExportPreflight }, tx: SqlOrTx = sql): Promise<boolean> {
      const [updated] = await tx`
        update export_jobs set status = 'completed', storage_key = ${out.key}, size_bytes = ${out.size}, item_count = ${out.pages},
               preflight = ${JSON.stringify(out.preflight)}::jsonb, error = null, completed_at = now(), updated_at = now()
         where id = ${jobId} and status = 'processing' returning id`;
      return updated !== undefined;
    },

    /** Fail the row with its reason (and the preflight that found it, when there was one). */
    async failJob(exportJobId: string, message: string, preflight: ExportPreflight | null = null, tx: SqlOrTx = sql): Promise<void> {
      await tx`update export_jobs set status = 'failed', error = ${message}, preflight = coalesce(${preflight === null ? null : JSON.stringify(preflight)}::jsonb, preflight),
                      completed_at = now(), updated_at = now()
                where id = ${exportJobId} and status in ('pending', 'processing')`;
    },
  };
}
