// Stories in one table for both shapes of spec 000 (campaign responses and stories made through the
// stories API or conversion), plus the conversion audit rows and public share links.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { books } from './books';
import { campaigns } from './campaigns';
import { createdAt, createdAtNoTz, id, oneOf, updatedAtNoTz } from './_columns';

export const STORY_RESPONSE_TYPES = ['text', 'voice'] as const;
export type StoryResponseType = (typeof STORY_RESPONSE_TYPES)[number];

/** Where each paragraph of a converted story came from, so the reader can show its sources. */
export interface StoryProvenance {
  sourceType?: string;
  sourceIds?: string[];
  model?: string;
  generatedAt?: string;
  [key: string]: unknown;
}

export interface StoryTypography {
  fontFamily: string;
  fontSize: number;
  lineHeight: number;
}

export const stories = pgTable(
  'stories',
  {
    id: id(),
    /**
     * Owner. For campaign responses (whose stored shape has no owner) this is the campaign's owner,
     * so "an account reads only its own stories" is one predicate for both shapes.
     */
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Required for campaign responses (checked below), optional for API stories; deleted with its campaign. */
    campaignId: uuid('campaign_id').references(() => campaigns.id, { onDelete: 'cascade' }),
    // Campaign-response shape.
    prompt: text('prompt'),
    responseText: text('response_text'),
    responseAudioUrl: text('response_audio_url'),
    /** Set only on campaign responses; null marks an API story. */
    responseType: text('response_type').$type<StoryResponseType>(),
    // API shape.
    title: text('title'),
    type: text('type').notNull().default('story'),
    /** HTML limited to p, br, strong, em, ul, ol, li (sanitised by the service). */
    content: text('content'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** The book this story is a chapter of (story = chapter model); book_chapters holds the order. */
    bookId: uuid('book_id').references((): AnyPgColumn => books.id, { onDelete: 'set null' }),
    aiEnhanced: boolean('ai_enhanced').notNull().default(false),
    /** Plain id lists, not foreign keys: a story keeps its history when a source is deleted. */
    sourceRecordingIds: uuid('source_recording_ids').array().notNull().default(sql`'{}'::uuid[]`),
    sourceConversationIds: uuid('source_conversation_ids').array().notNull().default(sql`'{}'::uuid[]`),
    wordCount: integer('word_count').notNull().default(0),
    provenance: jsonb('provenance').$type<StoryProvenance>(),
    typography: jsonb('typography').$type<StoryTypography>(),
    headerFooter: jsonb('header_footer').$type<Record<string, unknown>>(),
    createdAt: createdAtNoTz(),
    updatedAt: updatedAtNoTz(),
  },
  (t) => [
    // GET /api/stories: the caller's stories in the list's exact order (created_at, id tie-break), so a
    // page, a keyset page and a deep offset page are ordered index-only range reads with no sort.
    index('stories_user_id_created_id_idx').on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The admin dashboard's recent-activity feed: without it, a sort of every story (1M rows: ~0.8 s).
    index('stories_created_at_idx').on(t.createdAt.desc().nullsFirst()),
    // A campaign's stories, newest first (also serves the campaign_id foreign key).
    index('stories_campaign_id_created_idx').on(t.campaignId, t.createdAt.desc().nullsFirst()),
    // Memories merge and cursor: zone-less created_at read as UTC (Memories rule 2), id as tie-break.
    // created_at last: lets deep pages be index-only scans (see recordings_memories_idx).
    index('stories_memories_idx').on(t.userId, sql`(created_at AT TIME ZONE 'UTC') DESC`, sql`id DESC`, t.createdAt),
    index('stories_book_id_idx').on(t.bookId),
    check('stories_response_type_check', sql`response_type IS NULL OR ${oneOf('response_type', STORY_RESPONSE_TYPES)}`),
    // A campaign response needs its campaign and prompt; an API story needs a title.
    check('stories_response_shape_check', sql`response_type IS NULL OR (campaign_id IS NOT NULL AND prompt IS NOT NULL)`),
    check('stories_api_shape_check', sql`response_type IS NOT NULL OR title IS NOT NULL`),
    check('stories_title_length_check', sql`title IS NULL OR char_length(title) <= 200`),
    check('stories_content_length_check', sql`content IS NULL OR char_length(content) <= 50000`),
    check('stories_word_count_check', sql`word_count >= 0`),
  ],
);

export const CONVERSION_SOURCE_TYPES = ['recording', 'conversation'] as const;
export type ConversionSourceType = (typeof CONVERSION_SOURCE_TYPES)[number];
/** Only converted outcomes are stored; a rejected source never produces a row. */
export const CONVERSION_READINESS = ['ready', 'partial'] as const;
export type ConversionReadiness = (typeof CONVERSION_READINESS)[number];

/** Result of the faithfulness check run on the generated story. */
export interface FaithfulnessReport {
  passed: boolean;
  score?: number;
  unsupportedClaims?: string[];
  [key: string]: unknown;
}

/** One row per conversion (spec 000 Recording to story, step 7). */
export const storyConversions = pgTable(
  'story_conversions',
  {
    id: id(),
    storyId: uuid('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    sourceType: text('source_type').$type<ConversionSourceType>().notNull(),
    /** recordings.id or conversations.id depending on source_type, so no foreign key. */
    sourceId: uuid('source_id').notNull(),
    readiness: text('readiness').$type<ConversionReadiness>().notNull(),
    /** Word count of the source transcript the gate measured. */
    sourceWordCount: integer('source_word_count'),
    /** Output of the gate's AI assessment layer. */
    assessment: jsonb('assessment').$type<Record<string, unknown>>(),
    faithfulness: jsonb('faithfulness').$type<FaithfulnessReport>(),
    aiModel: text('ai_model'),
    createdAt: createdAt(),
  },
  (t) => [
    // A source converts once; deleting the story (cascade) frees the source to convert again.
    uniqueIndex('story_conversions_source_key').on(t.sourceType, t.sourceId),
    index('story_conversions_story_id_idx').on(t.storyId),
    index('story_conversions_user_id_idx').on(t.userId),
    check('story_conversions_source_type_check', oneOf('source_type', CONVERSION_SOURCE_TYPES)),
    check('story_conversions_readiness_check', oneOf('readiness', CONVERSION_READINESS)),
  ],
);

/** Public read-only links to one story (POST /api/stories/[storyId]/share). */
export const storyShares = pgTable(
  'story_shares',
  {
    id: id(),
    storyId: uuid('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    /** The shareId path segment: random and unguessable (at least 128 bits), stored as is so the owner can copy it again. */
    shareId: text('share_id').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    viewCount: integer('view_count').notNull().default(0),
    lastViewedAt: timestamp('last_viewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('story_shares_share_id_key').on(t.shareId),
    index('story_shares_story_id_idx').on(t.storyId),
    index('story_shares_created_by_idx').on(t.createdBy),
    check('story_shares_view_count_check', sql`view_count >= 0`),
  ],
);
