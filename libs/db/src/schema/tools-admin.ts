// Admin work of the free tools (spec 002 admin routes): bulk generation jobs and the rendered pages of PDF
// flipbooks.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { jobs } from './jobs';
import { createdAt, id, oneOf, updatedAt } from './_columns';
import { TOOL_ROUTES, toolsFlipbooks, type ToolRoute } from './tools-content';
import { toolsCollections } from './tools-engagement';

export const BULK_JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type BulkJobStatus = (typeof BULK_JOB_STATUSES)[number];

/**
 * Admin bulk generation (POST /api/admin/{tool}/bulk-generate and collections/[id]/generate-prompts).
 * The work runs as a durable job; this row carries the progress the admin page polls, and the counts
 * are its checkpoint, so a restarted job continues instead of generating everything again.
 */
export const toolsBulkJobs = pgTable(
  'tools_bulk_jobs',
  {
    id: id(),
    tool: text('tool').$type<ToolRoute>().notNull(),
    requestedBy: uuid('requested_by').references(() => accounts.id, { onDelete: 'set null' }),
    /** Generation options applied to every item, plus per-item variations. */
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    requestedCount: integer('requested_count').notNull(),
    completedCount: integer('completed_count').notNull().default(0),
    failedCount: integer('failed_count').notNull().default(0),
    /** Generated items go into this collection when set. */
    collectionId: uuid('collection_id').references(() => toolsCollections.id, { onDelete: 'set null' }),
    jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    status: text('status').$type<BulkJobStatus>().notNull().default('queued'),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('tools_bulk_jobs_tool_created_idx').on(t.tool, t.createdAt.desc().nullsFirst()),
    index('tools_bulk_jobs_requested_by_idx').on(t.requestedBy),
    index('tools_bulk_jobs_collection_id_idx').on(t.collectionId),
    index('tools_bulk_jobs_job_id_idx').on(t.jobId),
    check('tools_bulk_jobs_tool_check', oneOf('tool', TOOL_ROUTES)),
    check('tools_bulk_jobs_status_check', oneOf('status', BULK_JOB_STATUSES)),
    check(
      'tools_bulk_jobs_counts_check',
      sql`requested_count > 0 AND completed_count >= 0 AND failed_count >= 0 AND completed_count + failed_count <= requested_count`,
    ),
  ],
);

/** Rendered page images of a PDF flipbook, one row per page. */
export const toolsFlipbookPages = pgTable(
  'tools_flipbook_pages',
  {
    id: id(),
    flipbookId: uuid('flipbook_id')
      .notNull()
      .references(() => toolsFlipbooks.id, { onDelete: 'cascade' }),
    pageNumber: integer('page_number').notNull(),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    width: integer('width'),
    height: integer('height'),
    /** Text extracted from the page, for accessibility and search. */
    text: text('text'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tools_flipbook_pages_flipbook_page_key').on(t.flipbookId, t.pageNumber),
    check('tools_flipbook_pages_page_check', sql`page_number > 0`),
  ],
);
