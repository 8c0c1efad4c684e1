// What visitors add around generated tools content (spec 002): responses, collections and their items,
// saved prompts.
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, numeric, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';
import { tsvector, TOOL_ROUTES, type ToolRoute } from './tools-content';

export const MODERATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ModerationStatus = (typeof MODERATION_STATUSES)[number];

/**
 * Visitors' written responses to generated prompts, for every tool in one table. prompt_id points into
 * the content table named by tool, which no single foreign key can express: the service deletes a
 * content row's responses in the same transaction as the content (spec 002: "deleted with it").
 */
export const toolsResponses = pgTable(
  'tools_responses',
  {
    id: id(),
    tool: text('tool').$type<ToolRoute>().notNull(),
    promptId: uuid('prompt_id').notNull(),
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** Ownership: PATCH and DELETE must present the same sessionId. */
    sessionId: text('session_id').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    wordCount: integer('word_count').notNull().default(0),
    characterCount: integer('character_count').notNull().default(0),
    isPublic: boolean('is_public').notNull().default(false),
    isFeatured: boolean('is_featured').notNull().default(false),
    viewCount: integer('view_count').notNull().default(0),
    likeCount: integer('like_count').notNull().default(0),
    shareCount: integer('share_count').notNull().default(0),
    moderationStatus: text('moderation_status').$type<ModerationStatus>().notNull().default('pending'),
    /** Score from POST /api/story-prompts/analyze-response, 0 to 100. */
    qualityScore: numeric('quality_score', { precision: 5, scale: 2, mode: 'number' }),
    /** Soft delete (DELETE with an optional reason). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deleteReason: text('delete_reason'),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(content, ''))`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // GET /api/{tool}/{id}/responses, newest first; also the cascade-by-service delete.
    index('tools_responses_tool_prompt_created_idx').on(t.tool, t.promptId, t.createdAt.desc().nullsFirst()),
    index('tools_responses_session_created_idx').on(t.sessionId, t.createdAt.desc().nullsFirst()),
    index('tools_responses_user_id_idx').on(t.userId),
    // Admin moderation queue.
    index('tools_responses_moderation_created_idx').on(t.moderationStatus, t.createdAt),
    index('tools_responses_search_idx').using('gin', t.searchVector),
    check('tools_responses_tool_check', oneOf('tool', TOOL_ROUTES)),
    check('tools_responses_moderation_check', oneOf('moderation_status', MODERATION_STATUSES)),
    check('tools_responses_title_check', sql`char_length(title) BETWEEN 1 AND 200`),
    check('tools_responses_content_check', sql`char_length(content) BETWEEN 1 AND 50000`),
    check(
      'tools_responses_counters_check',
      sql`word_count >= 0 AND character_count >= 0 AND view_count >= 0 AND like_count >= 0 AND share_count >= 0`,
    ),
  ],
);

/** Curated sets of generated content (spec 002 "Collection"), per tool or across tools. */
export const toolsCollections = pgTable(
  'tools_collections',
  {
    id: id(),
    /** The tool the collection belongs to (admin /api/admin/{tool}/collections); null for cross-tool sets. */
    tool: text('tool').$type<ToolRoute>(),
    title: text('title').notNull(),
    description: text('description'),
    slug: text('slug').notNull(),
    isFeatured: boolean('is_featured').notNull().default(false),
    isPublished: boolean('is_published').notNull().default(true),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    keywords: text('keywords').array(),
    createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('tools_collections_slug_key').on(t.slug),
    index('tools_collections_tool_idx').on(t.tool),
    index('tools_collections_created_by_idx').on(t.createdBy),
    check('tools_collections_tool_check', sql`tool IS NULL OR ${oneOf('tool', TOOL_ROUTES)}`),
  ],
);

/** Members of a collection; content_id points into the table named by tool (no foreign key possible). */
export const toolsCollectionItems = pgTable(
  'tools_collection_items',
  {
    collectionId: uuid('collection_id')
      .notNull()
      .references(() => toolsCollections.id, { onDelete: 'cascade' }),
    tool: text('tool').$type<ToolRoute>().notNull(),
    contentId: uuid('content_id').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'tools_collection_items_pkey', columns: [t.collectionId, t.tool, t.contentId] }),
    // Removing content removes it from every collection (done by the service, like responses).
    index('tools_collection_items_content_idx').on(t.tool, t.contentId),
    check('tools_collection_items_tool_check', oneOf('tool', TOOL_ROUTES)),
  ],
);

/** Prompts a visitor saved for later (POST /api/story-prompts/save), by session or account. */
export const toolsSavedPrompts = pgTable(
  'tools_saved_prompts',
  {
    id: id(),
    tool: text('tool').$type<ToolRoute>().notNull().default('story-prompts'),
    contentId: uuid('content_id').notNull(),
    sessionId: text('session_id').notNull(),
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'cascade' }),
    notes: text('notes'),
    createdAt: createdAt(),
  },
  (t) => [
    // Saving twice is a no-op.
    uniqueIndex('tools_saved_prompts_session_content_key').on(t.sessionId, t.tool, t.contentId),
    index('tools_saved_prompts_user_id_idx').on(t.userId),
    index('tools_saved_prompts_content_idx').on(t.tool, t.contentId),
    check('tools_saved_prompts_tool_check', oneOf('tool', TOOL_ROUTES)),
  ],
);
