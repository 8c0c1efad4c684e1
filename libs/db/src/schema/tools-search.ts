// One search table over the sixteen tool content tables and tools_responses (spec 002 Endpoints, GET
// /api/search): GET /api/search reads one GIN index instead of seventeen. Rows are written only by triggers
// on the source tables (the migration tools_search defines them), in the same transaction as the write, so
// the table never drifts. tools_search_changes is the outbox of an external engine (Meilisearch): the
// triggers add the ids they touch while tools_search_state.external is on, and the tools job runner pushes
// and deletes them.
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { oneOf } from './_columns';
import { tsvector, type ToolRoute } from './tools-content';

export const SEARCH_KINDS = ['content', 'responses'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** A mirror of the columns search filters, ranks and shows; id is the source row's id (uuids do not collide). */
export const toolsSearch = pgTable(
  'tools_search',
  {
    id: uuid('id').primaryKey(),
    tool: text('tool').$type<ToolRoute>().notNull(),
    kind: text('kind').$type<SearchKind>().notNull(),
    title: text('title'),
    shareCode: text('share_code'),
    /** Responses: the content row they answer. */
    promptId: uuid('prompt_id'),
    sessionId: text('session_id').notNull(),
    userId: uuid('user_id'),
    isPublic: boolean('is_public').notNull(),
    /** Content only (responses: 'public'). */
    shareType: text('share_type').notNull(),
    shareExpiresAt: timestamp('share_expires_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Responses only (content: 'approved'). */
    moderationStatus: text('moderation_status').notNull(),
    viewCount: integer('view_count').notNull().default(0),
    keywords: text('keywords').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** Copied from the source row's generated search_vector. */
    searchVector: tsvector('search_vector').notNull(),
  },
  (t) => [
    index('tools_search_vector_idx').using('gin', t.searchVector),
    // Common words: walk newest first and stop after the sample (see search.repository.ts).
    index('tools_search_created_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The same for anonymous visitors: only rows anyone may list (the rest of the rule is the query's filter).
    index('tools_search_listed_idx').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`is_public AND deleted_at IS NULL`),
    index('tools_search_session_idx').on(t.sessionId),
    index('tools_search_user_idx').on(t.userId),
    check('tools_search_kind_check', oneOf('kind', SEARCH_KINDS)),
  ],
);

/** Ids whose search document changed since the external engine last saw them. */
export const toolsSearchChanges = pgTable('tools_search_changes', {
  id: uuid('id').primaryKey(),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row: whether an external engine is fed (set by tools-api at start from SEARCH_PROVIDER). */
export const toolsSearchState = pgTable(
  'tools_search_state',
  {
    singleton: boolean('singleton').primaryKey().default(true),
    external: boolean('external').notNull().default(false),
  },
  () => [check('tools_search_state_singleton_check', sql`singleton`)],
);
