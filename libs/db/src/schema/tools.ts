// The free tools of spec 002: one content table per tool built by one factory (the shared "Content
// record" columns), and the tables beside them: responses, collections, saved prompts, sessions, rate
// limits, analytics, AI usage, rate-limit hits, admin bulk jobs and flipbook pages.
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { jobs } from './jobs';
import { createdAt, id, oneOf, updatedAt } from './_columns';

/** PostgreSQL full-text vector; only ever written by the database (generated columns below). */
export const tsvector = customType<{ data: string }>({
  dataType() {
    return 'tsvector';
  },
});

/** Route names of the sixteen tools (the {tool} path segment), in the order of spec 002's clusters. */
export const TOOL_ROUTES = [
  'flashcards',
  'story-prompts',
  'book-blurb',
  'romance-writing-prompts',
  'flipbook',
  'plot-twists',
  'meet-cute-generator',
  'family-interview-questions',
  'memory-prompts',
  'adventure-prompts',
  'mystery-plot-generator',
  'horror-story-prompts',
  'comedy-prompts',
  'first-line-generator',
  'character-name-generator',
  'story-title-generator',
] as const;
export type ToolRoute = (typeof TOOL_ROUTES)[number];

export const SHARE_TYPES = ['public', 'private', 'expiring'] as const;
export type ShareType = (typeof SHARE_TYPES)[number];

/**
 * One content table for one tool: the "Content record" columns of spec 002 exactly, plus title and
 * category (browse and search), ratings (averageRating = rating_sum / rating_count), the share link
 * type, a soft-delete stamp and a generated search vector. Index and check names carry the table name
 * because PostgreSQL names share one namespace per schema.
 */
export const createToolContentTable = <TName extends string>(name: TName) =>
  pgTable(
    name,
    {
      id: id(),
      /** Short tool-prefixed code (e.g. pt_7Kq2xZ) used in public URLs. */
      shareCode: text('share_code').notNull(),
      /** Null for anonymous content; set null when the account goes so shared pages keep working. */
      userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
      /** The X-Session-ID that generated it (tools_sessions.id, not a foreign key: sessions are pruned). */
      sessionId: text('session_id').notNull(),
      isPublic: boolean('is_public').notNull().default(false),
      isFeatured: boolean('is_featured').notNull().default(false),
      isReviewed: boolean('is_reviewed').notNull().default(false),
      viewCount: integer('view_count').notNull().default(0),
      shareCount: integer('share_count').notNull().default(0),
      exportCount: integer('export_count').notNull().default(0),
      seoTitle: text('seo_title'),
      seoDescription: text('seo_description'),
      keywords: text('keywords').array(),
      isAiGenerated: boolean('is_ai_generated').notNull().default(true),
      aiGenerationPrompt: text('ai_generation_prompt'),
      aiConfidence: numeric('ai_confidence', { precision: 3, scale: 2, mode: 'number' }).default(0.8),
      aiTokensUsed: integer('ai_tokens_used'),
      aiCostUsd: numeric('ai_cost_usd', { precision: 10, scale: 4, mode: 'number' }),
      aiModel: text('ai_model'),
      generationTimeMs: integer('generation_time_ms'),
      /** Tool-specific generated content. */
      content: jsonb('content').$type<Record<string, unknown>>().notNull(),
      /** The options the visitor generated with (genre, intensity, ...). */
      generationOptions: jsonb('generation_options').$type<Record<string, unknown>>(),
      metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
      createdAt: createdAt(),
      updatedAt: updatedAt(),
      /** Anonymous content expires (24 hours for the tools application); admins can change it. */
      expiresAt: timestamp('expires_at', { withTimezone: true }),
      title: text('title'),
      category: text('category'),
      ratingSum: integer('rating_sum').notNull().default(0),
      ratingCount: integer('rating_count').notNull().default(0),
      shareType: text('share_type').$type<ShareType>().notNull().default('private'),
      shareExpiresAt: timestamp('share_expires_at', { withTimezone: true }),
      deletedAt: timestamp('deleted_at', { withTimezone: true }),
      /** Kept by PostgreSQL from title, SEO description and content: GET /api/search ranks on it. */
      searchVector: tsvector('search_vector').generatedAlwaysAs(
        sql`to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(seo_description, '') || ' ' || coalesce(content::text, ''))`,
      ),
    },
    (t) => [
      uniqueIndex(`${name}_share_code_key`).on(t.shareCode),
      // Browse of public content, newest first.
      index(`${name}_public_created_idx`).on(t.isPublic, t.createdAt.desc().nullsFirst()),
      // Browse with sessionId (the session's own content).
      index(`${name}_session_created_idx`).on(t.sessionId, t.createdAt.desc().nullsFirst()),
      index(`${name}_user_id_idx`).on(t.userId),
      index(`${name}_featured_idx`).on(t.isFeatured),
      index(`${name}_category_idx`).on(t.category),
      // The expiry sweep of anonymous content.
      index(`${name}_expires_at_idx`).on(t.expiresAt),
      index(`${name}_search_idx`).using('gin', t.searchVector),
      check(`${name}_share_type_check`, oneOf('share_type', SHARE_TYPES)),
      check(`${name}_ai_confidence_check`, sql`ai_confidence IS NULL OR ai_confidence BETWEEN 0 AND 1`),
      check(
        `${name}_counters_check`,
        sql`view_count >= 0 AND share_count >= 0 AND export_count >= 0 AND rating_sum >= 0 AND rating_count >= 0`,
      ),
      check(`${name}_share_expiry_check`, sql`share_type <> 'expiring' OR share_expires_at IS NOT NULL`),
    ],
  );

export type ToolContentTable = ReturnType<typeof createToolContentTable<string>>;

export const toolsFlashcards = createToolContentTable('tools_flashcards');
export const toolsStoryPrompts = createToolContentTable('tools_story_prompts');
export const toolsBookBlurbs = createToolContentTable('tools_book_blurbs');
export const toolsRomanceWritingPrompts = createToolContentTable('tools_romance_writing_prompts');
export const toolsFlipbooks = createToolContentTable('tools_flipbooks');
export const toolsPlotTwists = createToolContentTable('tools_plot_twists');
export const toolsMeetCutes = createToolContentTable('tools_meet_cutes');
export const toolsFamilyInterviewQuestions = createToolContentTable('tools_family_interview_questions');
export const toolsMemoryPrompts = createToolContentTable('tools_memory_prompts');
export const toolsAdventurePrompts = createToolContentTable('tools_adventure_prompts');
export const toolsMysteryPlots = createToolContentTable('tools_mystery_plots');
export const toolsHorrorStoryPrompts = createToolContentTable('tools_horror_story_prompts');
export const toolsComedyPrompts = createToolContentTable('tools_comedy_prompts');
export const toolsFirstLines = createToolContentTable('tools_first_lines');
export const toolsCharacterNames = createToolContentTable('tools_character_names');
export const toolsStoryTitles = createToolContentTable('tools_story_titles');

/** Content table of each tool, keyed by its route name. */
export const TOOL_TABLES: { readonly [K in ToolRoute]: ToolContentTable } = {
  flashcards: toolsFlashcards,
  'story-prompts': toolsStoryPrompts,
  'book-blurb': toolsBookBlurbs,
  'romance-writing-prompts': toolsRomanceWritingPrompts,
  flipbook: toolsFlipbooks,
  'plot-twists': toolsPlotTwists,
  'meet-cute-generator': toolsMeetCutes,
  'family-interview-questions': toolsFamilyInterviewQuestions,
  'memory-prompts': toolsMemoryPrompts,
  'adventure-prompts': toolsAdventurePrompts,
  'mystery-plot-generator': toolsMysteryPlots,
  'horror-story-prompts': toolsHorrorStoryPrompts,
  'comedy-prompts': toolsComedyPrompts,
  'first-line-generator': toolsFirstLines,
  'character-name-generator': toolsCharacterNames,
  'story-title-generator': toolsStoryTitles,
};

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

/** Visitor sessions keyed by the X-Session-ID value (CONTRACTS §6 format), upserted on each request. */
export const toolsSessions = pgTable(
  'tools_sessions',
  {
    id: text('id').primaryKey(),
    /** Set when a valid Bearer token came with the session; X-User-ID alone is never trusted. */
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    isAnonymous: boolean('is_anonymous').notNull().default(true),
    /** Client IP with the last octet removed. */
    ipPrefix: text('ip_prefix'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** 24 hours for anonymous sessions; pushed on with activity for signed-in ones (30 days idle). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('tools_sessions_user_id_idx').on(t.userId),
    index('tools_sessions_expires_at_idx').on(t.expiresAt),
    check('tools_sessions_id_check', sql`id ~ '^sess_[0-9]{10,13}_[A-Za-z0-9]{6,64}$'`),
  ],
);

/** hourly: the generic generate limit; daily: per-tool generation; responses: per-tool responses per day. */
export const RATE_LIMIT_SCOPES = ['hourly', 'daily', 'responses'] as const;
export type RateLimitScope = (typeof RATE_LIMIT_SCOPES)[number];

/**
 * Fixed-window counters kept in PostgreSQL so limits hold across replicas without Redis:
 * `INSERT ... ON CONFLICT (key, scope, tool, window_start) DO UPDATE SET count = count + 1 RETURNING count`.
 * key is 'ip:<prefix>', 'sess:<id>' or 'user:<uuid>'; tool is '*' for limits across all tools.
 */
export const toolsRateLimits = pgTable(
  'tools_rate_limits',
  {
    key: text('key').notNull(),
    scope: text('scope').$type<RateLimitScope>().notNull(),
    tool: text('tool').notNull().default('*'),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: 'tools_rate_limits_pkey', columns: [t.key, t.scope, t.tool, t.windowStart] }),
    // Pruning of past windows.
    index('tools_rate_limits_window_start_idx').on(t.windowStart),
    check('tools_rate_limits_scope_check', oneOf('scope', RATE_LIMIT_SCOPES)),
    check('tools_rate_limits_tool_check', sql`tool = '*' OR ${oneOf('tool', TOOL_ROUTES)}`),
    check('tools_rate_limits_count_check', sql`count >= 0`),
  ],
);

/** Event types of POST /api/{tool}/{id}/analytics, plus generate, recorded by the generate route itself. */
export const TOOL_EVENT_TYPES = ['view', 'share', 'export', 'response_created', 'generate'] as const;
export type ToolEventType = (typeof TOOL_EVENT_TYPES)[number];

export const toolsAnalytics = pgTable(
  'tools_analytics',
  {
    id: id(),
    tool: text('tool').$type<ToolRoute>().notNull(),
    /** Content id in the tool's table (no foreign key: events outlive expired content). */
    contentId: uuid('content_id'),
    eventType: text('event_type').$type<ToolEventType>().notNull(),
    /** Export format, share platform, time on page, ... */
    eventData: jsonb('event_data').$type<Record<string, unknown>>().notNull().default({}),
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    sessionId: text('session_id'),
    /** Stored with the last octet removed (spec 000 Authentication 10). */
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    // Per-content analytics (admin GET /api/{tool}/{id}/analytics): views, unique sessions, trend by day.
    index('tools_analytics_content_created_idx').on(t.tool, t.contentId, t.createdAt),
    index('tools_analytics_created_at_idx').on(t.createdAt),
    index('tools_analytics_user_id_idx').on(t.userId),
    check('tools_analytics_tool_check', oneOf('tool', TOOL_ROUTES)),
    check('tools_analytics_event_type_check', oneOf('event_type', TOOL_EVENT_TYPES)),
  ],
);

/** One row per AI generation call of the tools service, successful or not. */
export const toolsAiUsage = pgTable(
  'tools_ai_usage',
  {
    id: id(),
    tool: text('tool').$type<ToolRoute>().notNull(),
    /** The content made, when the call succeeded. */
    contentId: uuid('content_id'),
    sessionId: text('session_id'),
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    provider: text('provider'),
    model: text('model'),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    tokensUsed: integer('tokens_used').notNull().default(0),
    costUsd: numeric('cost_usd', { precision: 12, scale: 6, mode: 'number' }).notNull().default(0),
    generationTimeMs: integer('generation_time_ms'),
    success: boolean('success').notNull().default(true),
    errorCode: text('error_code'),
    createdAt: createdAt(),
  },
  (t) => [
    index('tools_ai_usage_tool_created_idx').on(t.tool, t.createdAt),
    index('tools_ai_usage_created_at_idx').on(t.createdAt),
    index('tools_ai_usage_user_id_idx').on(t.userId),
    check('tools_ai_usage_tool_check', oneOf('tool', TOOL_ROUTES)),
    check('tools_ai_usage_values_check', sql`tokens_used >= 0 AND cost_usd >= 0`),
  ],
);

/** Each refused request (429), for the admin view of who hits limits and where conversion prompts show. */
export const toolsRateLimitHits = pgTable(
  'tools_rate_limit_hits',
  {
    id: id(),
    tool: text('tool').notNull().default('*'),
    scope: text('scope').$type<RateLimitScope>().notNull(),
    key: text('key').notNull(),
    sessionId: text('session_id'),
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'set null' }),
    ipPrefix: text('ip_prefix'),
    limitValue: integer('limit_value').notNull(),
    currentUsage: integer('current_usage').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('tools_rate_limit_hits_tool_created_idx').on(t.tool, t.createdAt),
    index('tools_rate_limit_hits_created_at_idx').on(t.createdAt),
    index('tools_rate_limit_hits_user_id_idx').on(t.userId),
    check('tools_rate_limit_hits_scope_check', oneOf('scope', RATE_LIMIT_SCOPES)),
  ],
);

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
