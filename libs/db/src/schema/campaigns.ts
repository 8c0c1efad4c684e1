// Campaigns: one story-collection effort for one storyteller (spec 000 "Campaign"), and the
// server-side state of the multi-step create flow so it resumes on another device.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';

export const CAMPAIGN_RELATIONSHIPS = ['grandparent', 'parent', 'partner', 'other'] as const;
export const CAMPAIGN_STATUSES = ['active', 'paused', 'completed'] as const;

export const campaigns = pgTable(
  'campaigns',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** API-shape title and description (spec 000 "API shape"), kept beside the stored shape. */
    title: text('title').notNull(),
    description: text('description'),
    storytellerName: text('storyteller_name').notNull(),
    storytellerEmail: text('storyteller_email'),
    storytellerPhone: text('storyteller_phone'),
    relationship: text('relationship').notNull(),
    status: text('status').notNull().default('active'),
    promptsSent: integer('prompts_sent').notNull().default(0),
    storiesCollected: integer('stories_collected').notNull().default(0),
    /** Recordings and conversations naming this campaign, kept by triggers on those tables (migration 0023). */
    recordingCount: integer('recording_count').notNull().default(0),
    conversationCount: integer('conversation_count').notNull().default(0),
    /**
     * This campaign as one item of GET /api/campaigns (JSON text), written by a BEFORE trigger from the row
     * itself (migration 0023): the list then concatenates stored texts instead of building 20 objects and
     * counting two tables per request, which was three quarters of its database time. Never set by hand.
     */
    listItemJson: text('list_item_json'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The campaign list is "the caller's, newest first": one index serves filter and sort.
    index('campaigns_user_id_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    // The admin dashboard's recent-activity feed reads the newest campaigns of everyone.
    index('campaigns_created_at_idx').on(t.createdAt.desc().nullsFirst()),
    check('campaigns_relationship_check', oneOf('relationship', CAMPAIGN_RELATIONSHIPS)),
    check('campaigns_status_check', oneOf('status', CAMPAIGN_STATUSES)),
    check('campaigns_counters_check', sql`prompts_sent >= 0 AND stories_collected >= 0`),
  ],
);

export const CREATE_FLOW_STATUSES = ['in_progress', 'completed', 'abandoned'] as const;

/** Create-flow state: one row per campaign being set up; steps hold what each step submitted. */
export const campaignCreateFlows = pgTable(
  'campaign_create_flows',
  {
    campaignId: uuid('campaign_id')
      .primaryKey()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    currentStep: integer('current_step').notNull().default(1),
    steps: jsonb('steps').$type<Record<string, unknown>>().notNull().default({}),
    familyMembers: jsonb('family_members').$type<unknown[]>().notNull().default([]),
    giftAddress: jsonb('gift_address').$type<Record<string, unknown> | null>(),
    status: text('status').notNull().default('in_progress'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('campaign_create_flows_user_id_idx').on(t.userId), check('campaign_create_flows_status_check', oneOf('status', CREATE_FLOW_STATUSES))],
);
