// Export jobs (spec 000): rendered book PDFs (interior, cover) that the memories page lists, and
// memories archives whose POST counts and prices the contents before anything is zipped.
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { books } from './books';
import { createdAt, id, oneOf, updatedAt } from './_columns';

export const EXPORT_KINDS = ['interior', 'cover', 'archive'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export const EXPORT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** Paper of a printed book: it sets the spine width (CONTRACTS §11). */
export const EXPORT_PAPERS = ['white', 'cream'] as const;
export type ExportPaper = (typeof EXPORT_PAPERS)[number];

/** The preflight of a book export (CONTRACTS §11), stored as the check wrote it. */
export interface ExportPreflight {
  passed: boolean;
  problems: string[];
  [key: string]: unknown;
}

/** What POST /api/account/archive measured: the page shows it, and the download decides single zip or parts from it. */
export interface ArchiveEstimate {
  itemCount: number;
  totalBytes: number;
  byFolder?: Record<string, { count: number; bytes: number }>;
  singleZip?: boolean;
  [key: string]: unknown;
}

export const exportJobs = pgTable(
  'export_jobs',
  {
    id: id(),
    /** Who asked for it (the storyteller or a family member). */
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** archive: whose memories it holds; the download re-checks access to this storyteller every time. */
    storytellerId: uuid('storyteller_id').references(() => accounts.id, { onDelete: 'cascade' }),
    /** interior and cover: the book rendered (required for those kinds). */
    bookId: uuid('book_id').references(() => books.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ExportKind>().notNull(),
    status: text('status').$type<ExportStatus>().notNull().default('pending'),
    /** The rendered PDF; null for archives, which are streamed and never stored. */
    storageKey: text('storage_key'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    itemCount: integer('item_count'),
    estimate: jsonb('estimate').$type<ArchiveEstimate>(),
    /** cover: the paper the spine width is computed for (interior: the paper asked for, kept for the cover). */
    paper: text('paper').$type<ExportPaper>(),
    /** interior and cover: the preflight's report, written before the job completes or fails. */
    preflight: jsonb('preflight').$type<ExportPreflight>(),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // "Newest completed interior/cover per book" (memories): one index range per book and kind.
    index('export_jobs_book_kind_status_completed_idx').on(t.bookId, t.kind, t.status, t.completedAt.desc().nullsFirst()),
    index('export_jobs_user_id_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    index('export_jobs_storyteller_id_idx').on(t.storytellerId),
    check('export_jobs_kind_check', oneOf('kind', EXPORT_KINDS)),
    check('export_jobs_status_check', oneOf('status', EXPORT_STATUSES)),
    check('export_jobs_book_check', sql`kind = 'archive' OR book_id IS NOT NULL`),
    check('export_jobs_storyteller_check', sql`kind <> 'archive' OR storyteller_id IS NOT NULL`),
    check('export_jobs_paper_check', sql`paper IS NULL OR paper IN ('white', 'cream')`),
    check('export_jobs_sizes_check', sql`(size_bytes IS NULL OR size_bytes >= 0) AND (item_count IS NULL OR item_count >= 0)`),
  ],
);

/**
 * CRC-32 of stored objects as a memories archive streamed them (spec 000 Archive 2). A zip's central directory
 * needs every entry's CRC; knowing it lets a download resumed at byte N skip the files before N instead of
 * reading them again. Objects are never rewritten under a key, so a key and size name the bytes.
 */
export const archiveChecksums = pgTable(
  'archive_checksums',
  {
    storageKey: text('storage_key').primaryKey(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    crc32: bigint('crc32', { mode: 'number' }).notNull(),
    /** SHA-256 of the bytes (hex), learned as the archive streamed them: manifest.json lists it (spec 000 Archive 3). */
    sha256: text('sha256'),
    createdAt: createdAt(),
  },
  () => [
    check('archive_checksums_crc32_check', sql`crc32 BETWEEN 0 AND 4294967295 AND size_bytes >= 0`),
    check('archive_checksums_sha256_check', sql`sha256 IS NULL OR sha256 ~ '^[0-9a-f]{64}$'`),
  ],
);
