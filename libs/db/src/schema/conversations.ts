// AI-guided voice conversations (spec 000 Conversations) and their turns; a completed conversation
// is a source for story conversion, like a recording.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { campaigns } from './campaigns';
import { createdAt, id, oneOf, updatedAt } from './_columns';

export const CONVERSATION_STATUSES = ['active', 'completed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

export const conversations = pgTable(
  'conversations',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    campaignId: uuid('campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
    /** The chat's sessionId (POST /api/conversation/chat): turns of one session land in one conversation. */
    sessionId: text('session_id'),
    title: text('title'),
    /** Written by POST /api/conversations/[id]/summarize. */
    overview: text('overview'),
    /** Latest output of the analyze routes (themes, people, places), kept so the page need not re-run it. */
    analysis: jsonb('analysis').$type<Record<string, unknown>>(),
    status: text('status').$type<ConversationStatus>().notNull().default('active'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** Output of quality-assessment / analyze-quality. */
    qualityMetrics: jsonb('quality_metrics').$type<Record<string, unknown>>(),
    /** Denormalised count of messages, kept by the service in the same transaction as the insert. */
    turnCount: integer('turn_count').notNull().default(0),
    totalDurationSeconds: integer('total_duration_seconds').notNull().default(0),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('conversations_user_id_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    index('conversations_campaign_id_idx').on(t.campaignId),
    // Chat finds or creates the conversation of (caller, sessionId) in one upsert.
    uniqueIndex('conversations_user_session_key').on(t.userId, t.sessionId),
    index('conversations_tags_idx').using('gin', t.tags),
    check('conversations_status_check', oneOf('status', CONVERSATION_STATUSES)),
    check('conversations_counters_check', sql`turn_count >= 0 AND total_duration_seconds >= 0`),
    check('conversations_completed_check', sql`status <> 'completed' OR completed_at IS NOT NULL`),
  ],
);

export const MESSAGE_ROLES = ['user', 'assistant', 'system'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export const conversationMessages = pgTable(
  'conversation_messages',
  {
    id: id(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    role: text('role').$type<MessageRole>().notNull(),
    content: text('content').notNull(),
    /** Audio of the turn (POST /api/conversations/upload-audio), when it was spoken. */
    audioStorageKey: text('audio_storage_key'),
    durationSeconds: integer('duration_seconds'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    // Messages are always read in order within one conversation.
    index('conversation_messages_conversation_created_idx').on(t.conversationId, t.createdAt),
    // The admin dashboard's feed of conversation responses (the user's turns), newest first.
    index('conversation_messages_user_created_idx').on(t.createdAt.desc().nullsFirst()).where(sql`role = 'user'`),
    check('conversation_messages_role_check', oneOf('role', MESSAGE_ROLES)),
    // A turn is capped at 5 minutes (spec 000 Limits).
    check('conversation_messages_duration_check', sql`duration_seconds IS NULL OR duration_seconds BETWEEN 0 AND 300`),
  ],
);
