// Content imports (spec 000 Imports): a file, pasted text or a web page turned into text, then
// converted into a story. One row per import job, polled by GET /api/imports/[importId].
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { stories } from './stories';
import { createdAt, id, oneOf, updatedAt } from './_columns';

export const IMPORT_SOURCE_TYPES = ['file', 'paste', 'url'] as const;
export type ImportSourceType = (typeof IMPORT_SOURCE_TYPES)[number];
export const IMPORT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** One story found in an import's text: its title, plain-text content (paragraphs split by blank lines). */
export interface ImportCandidate {
  index: number;
  title: string;
  content: string;
  wordCount: number;
}

export const imports = pgTable(
  'imports',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    sourceType: text('source_type').$type<ImportSourceType>().notNull(),
    /** file: the uploaded PDF, DOCX or TXT. */
    fileName: text('file_name'),
    mimeType: text('mime_type'),
    fileSizeBytes: bigint('file_size_bytes', { mode: 'number' }),
    storageKey: text('storage_key'),
    /** url: the page fetched (server-side, with the private-address guard). */
    sourceUrl: text('source_url'),
    title: text('title'),
    status: text('status').$type<ImportStatus>().notNull().default('pending'),
    /** Plain text extracted from the source (paste: the pasted content itself). */
    extractedText: text('extracted_text'),
    wordCount: integer('word_count').notNull().default(0),
    error: text('error'),
    /** POST /api/imports/[importId]/process: the candidate stories found in extracted_text. */
    candidates: jsonb('candidates').$type<ImportCandidate[]>(),
    /** The story made by POST /api/imports/[importId]/convert. */
    storyId: uuid('story_id').references(() => stories.id, { onDelete: 'set null' }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('imports_user_id_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    index('imports_story_id_idx').on(t.storyId),
    check('imports_source_type_check', oneOf('source_type', IMPORT_SOURCE_TYPES)),
    check('imports_status_check', oneOf('status', IMPORT_STATUSES)),
    check('imports_url_check', sql`source_type <> 'url' OR source_url IS NOT NULL`),
    check('imports_file_check', sql`source_type <> 'file' OR storage_key IS NOT NULL`),
    check('imports_word_count_check', sql`word_count >= 0`),
  ],
);
