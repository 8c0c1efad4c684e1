// Editorial records of the admin application (spec 001 "Admin resources"): content blocks, editor
// templates, the story prompt library and collections, blurb samples and their queue, downloadable
// resources. Every one carries the moderation status draft, reviewed, approved or published.
import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';

/** Moderation status values of spec 001 "Admin resources", shared by every editorial record. */
export const CONTENT_STATUSES = ['draft', 'reviewed', 'approved', 'published'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

const createdBy = () => uuid('created_by').references(() => accounts.id, { onDelete: 'set null' });

/** Editable site copy (banners, help text, onboarding screens), keyed for the app to fetch. */
export const contentBlocks = pgTable(
  'content_blocks',
  {
    id: id(),
    key: text('key').notNull(),
    title: text('title'),
    body: text('body').notNull().default(''),
    locale: text('locale').notNull().default('en'),
    status: text('status').$type<ContentStatus>().notNull().default('draft'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdBy: createdBy(),
    updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('content_blocks_key_key').on(t.key),
    index('content_blocks_status_idx').on(t.status),
    index('content_blocks_created_by_idx').on(t.createdBy),
    index('content_blocks_updated_by_idx').on(t.updatedBy),
    check('content_blocks_status_check', oneOf('status', CONTENT_STATUSES)),
  ],
);

/** Starting documents for the story editor (dashboard editor/templates). */
export const editorTemplates = pgTable(
  'editor_templates',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    category: text('category'),
    /** Editor HTML the new story starts from. */
    content: text('content').notNull().default(''),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').$type<ContentStatus>().notNull().default('draft'),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('editor_templates_category_idx').on(t.category),
    index('editor_templates_created_by_idx').on(t.createdBy),
    check('editor_templates_status_check', oneOf('status', CONTENT_STATUSES)),
  ],
);

/** Curated story prompts (dashboard tools/story-prompts/library), used by campaigns and families. */
export const storyPromptLibrary = pgTable(
  'story_prompt_library',
  {
    id: id(),
    prompt: text('prompt').notNull(),
    category: text('category'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** Who the prompt suits (grandparent, parent, ...), null for any. */
    relationshipType: text('relationship_type'),
    status: text('status').$type<ContentStatus>().notNull().default('draft'),
    usageCount: integer('usage_count').notNull().default(0),
    /** Where it came from: manual, ai, tools (a promoted free-tool prompt). */
    source: text('source').notNull().default('manual'),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('story_prompt_library_status_category_idx').on(t.status, t.category),
    index('story_prompt_library_tags_idx').using('gin', t.tags),
    index('story_prompt_library_created_by_idx').on(t.createdBy),
    check('story_prompt_library_status_check', oneOf('status', CONTENT_STATUSES)),
    check('story_prompt_library_usage_check', sql`usage_count >= 0`),
  ],
);

export const storyPromptCollections = pgTable(
  'story_prompt_collections',
  {
    id: id(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    description: text('description'),
    isPublished: boolean('is_published').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('story_prompt_collections_slug_key').on(t.slug), index('story_prompt_collections_created_by_idx').on(t.createdBy)],
);

export const storyPromptCollectionItems = pgTable(
  'story_prompt_collection_items',
  {
    collectionId: uuid('collection_id').notNull(),
    promptId: uuid('prompt_id').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'story_prompt_collection_items_pkey', columns: [t.collectionId, t.promptId] }),
    foreignKey({ name: 'story_prompt_collection_items_collection_id_fk', columns: [t.collectionId], foreignColumns: [storyPromptCollections.id] })
      .onDelete('cascade'),
    foreignKey({ name: 'story_prompt_collection_items_prompt_id_fk', columns: [t.promptId], foreignColumns: [storyPromptLibrary.id] })
      .onDelete('cascade'),
    index('story_prompt_collection_items_prompt_id_idx').on(t.promptId),
  ],
);

/** Example blurbs the book-blurb tool is prompted with (dashboard tools/book-blurb/samples). */
export const blurbSamples = pgTable(
  'blurb_samples',
  {
    id: id(),
    bookTitle: text('book_title').notNull(),
    author: text('author'),
    genre: text('genre'),
    blurb: text('blurb').notNull(),
    /** Which of the three blurb styles it exemplifies: hook, character, situation. */
    style: text('style'),
    notes: text('notes'),
    status: text('status').$type<ContentStatus>().notNull().default('draft'),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('blurb_samples_genre_idx').on(t.genre),
    index('blurb_samples_created_by_idx').on(t.createdBy),
    check('blurb_samples_status_check', oneOf('status', CONTENT_STATUSES)),
  ],
);

export const BLURB_QUEUE_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type BlurbQueueStatus = (typeof BLURB_QUEUE_STATUSES)[number];

/** Blurbs waiting for review before they become samples (dashboard tools/book-blurb/queue and add). */
export const blurbQueue = pgTable(
  'blurb_queue',
  {
    id: id(),
    bookTitle: text('book_title').notNull(),
    author: text('author'),
    genre: text('genre'),
    blurb: text('blurb').notNull(),
    /** The free-tool content the blurb came from (tools_book_blurbs.id), when it was promoted from there. */
    sourceContentId: uuid('source_content_id'),
    status: text('status').$type<BlurbQueueStatus>().notNull().default('pending'),
    submittedBy: uuid('submitted_by').references(() => accounts.id, { onDelete: 'set null' }),
    reviewedBy: uuid('reviewed_by').references(() => accounts.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewNote: text('review_note'),
    /** The sample made when approved. */
    sampleId: uuid('sample_id').references(() => blurbSamples.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('blurb_queue_status_created_idx').on(t.status, t.createdAt),
    index('blurb_queue_submitted_by_idx').on(t.submittedBy),
    index('blurb_queue_reviewed_by_idx').on(t.reviewedBy),
    index('blurb_queue_sample_id_idx').on(t.sampleId),
    check('blurb_queue_status_check', oneOf('status', BLURB_QUEUE_STATUSES)),
  ],
);

/** Downloadable guides and worksheets; GET /api/resources/[id]/increment-download bumps the counter. */
export const resources = pgTable(
  'resources',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description'),
    category: text('category'),
    /** External link, or a stored file (storage_key), one of the two. */
    url: text('url'),
    storageKey: text('storage_key'),
    mimeType: text('mime_type'),
    status: text('status').$type<ContentStatus>().notNull().default('draft'),
    downloadCount: integer('download_count').notNull().default(0),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('resources_category_idx').on(t.category),
    index('resources_created_by_idx').on(t.createdBy),
    check('resources_location_check', sql`url IS NOT NULL OR storage_key IS NOT NULL`),
    check('resources_status_check', oneOf('status', CONTENT_STATUSES)),
    check('resources_download_count_check', sql`download_count >= 0`),
  ],
);
