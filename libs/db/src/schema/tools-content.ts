// The free tools of spec 002: one content table per tool, all built by one factory (the shared "Content
// record" columns), keyed by route name in TOOL_TABLES.
import { sql } from 'drizzle-orm';
import { boolean, check, customType, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
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
      // Browse of listed content, one index per sort (ORDER BY ... , id desc exactly), so page 1 reads ~limit rows.
      index(`${name}_listed_newest_idx`).on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_public AND deleted_at IS NULL`),
      index(`${name}_listed_popular_idx`).on(t.viewCount.desc().nullsFirst(), t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_public AND deleted_at IS NULL`),
      index(`${name}_listed_featured_idx`).on(t.isFeatured.desc().nullsFirst(), t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_public AND deleted_at IS NULL`),
      index(`${name}_listed_rating_idx`)
        .on(sql`((rating_sum)::double precision / (NULLIF(rating_count, 0))::double precision) DESC NULLS LAST`, t.ratingCount.desc().nullsFirst(), t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
        .where(sql`is_public AND deleted_at IS NULL`),
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
