// Family groups and everything hanging off them (spec 000 Family): members, invitations, relationships,
// shared memories, and the timeline with its reactions. Membership here is what lets a relative see a
// storyteller's memories.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, oneOf, updatedAt } from './_columns';

export const familyGroups = pgTable(
  'family_groups',
  {
    id: id(),
    /** The creator; the group goes with the creator's account (erasure removes what they own). */
    createdBy: uuid('created_by')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('family_groups_created_by_idx').on(t.createdBy)],
);

/** owner created the group; the other three are the permission roles of spec 000 Authentication 4. */
export const FAMILY_ROLES = ['owner', 'campaign_owner', 'family_contributor', 'family_viewer'] as const;
export type FamilyRole = (typeof FAMILY_ROLES)[number];
export const FAMILY_MEMBER_STATUSES = ['active', 'removed'] as const;
export type FamilyMemberStatus = (typeof FAMILY_MEMBER_STATUSES)[number];

export const familyMembers = pgTable(
  'family_members',
  {
    id: id(),
    familyGroupId: uuid('family_group_id')
      .notNull()
      .references(() => familyGroups.id, { onDelete: 'cascade' }),
    /** Null for placeholder members (a grandparent without an account); merge links them to a real one later. */
    userId: uuid('user_id').references(() => accounts.id, { onDelete: 'cascade' }),
    role: text('role').$type<FamilyRole>().notNull().default('family_viewer'),
    displayName: text('display_name'),
    /** Free text relationship to the group's creator (grandmother, cousin, ...). */
    relationship: text('relationship'),
    email: text('email'),
    avatarUrl: text('avatar_url'),
    status: text('status').$type<FamilyMemberStatus>().notNull().default('active'),
    /** Removal is soft and immediate: access checks read status, so revocation takes effect at once. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    /** Set when this (placeholder) member was merged into another member of the group. */
    mergedIntoId: uuid('merged_into_id').references((): AnyPgColumn => familyMembers.id, { onDelete: 'set null' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One membership row per account per group (placeholders, with null user_id, are not limited).
    uniqueIndex('family_members_group_user_key').on(t.familyGroupId, t.userId),
    // "Which groups does this account belong to" runs on every memories access check.
    index('family_members_user_id_idx').on(t.userId),
    index('family_members_merged_into_id_idx').on(t.mergedIntoId),
    check('family_members_role_check', oneOf('role', FAMILY_ROLES)),
    check('family_members_status_check', oneOf('status', FAMILY_MEMBER_STATUSES)),
    check('family_members_identity_check', sql`user_id IS NOT NULL OR display_name IS NOT NULL`),
    check('family_members_not_self_merge_check', sql`merged_into_id IS NULL OR merged_into_id <> id`),
  ],
);

/** An invitation grants one of the two invitee roles (CONTRACTS §6). */
export const INVITATION_ROLES = ['family_contributor', 'family_viewer'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];
export const INVITATION_STATUSES = ['pending', 'accepted', 'rejected', 'cancelled', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const familyInvitations = pgTable(
  'family_invitations',
  {
    id: id(),
    familyGroupId: uuid('family_group_id')
      .notNull()
      .references(() => familyGroups.id, { onDelete: 'cascade' }),
    invitedBy: uuid('invited_by').references(() => accounts.id, { onDelete: 'set null' }),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    role: text('role').$type<InvitationRole>().notNull(),
    relationship: text('relationship'),
    message: text('message'),
    /** sha256 of the token in the invite URL; the token itself is only ever in the email and the link. */
    tokenHash: text('token_hash').notNull(),
    status: text('status').$type<InvitationStatus>().notNull().default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedBy: uuid('accepted_by').references(() => accounts.id, { onDelete: 'set null' }),
    /**
     * An account made by signup-with-invitation for the invited address: the invitation is accepted for it
     * when that account first verifies the address through one of its own sessions (CONTRACTS §7: accepting
     * needs a verified address). Cleared when a verification ends the account's earlier ways in instead.
     */
    acceptOnVerifyBy: uuid('accept_on_verify_by').references(() => accounts.id, { onDelete: 'set null' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    /** When it was rejected, cancelled or expired. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    resentCount: integer('resent_count').notNull().default(0),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('family_invitations_token_hash_key').on(t.tokenHash),
    // One open invitation per address per group: inviting again resends instead of duplicating.
    uniqueIndex('family_invitations_group_email_pending_key').on(t.familyGroupId, t.email).where(sql`status = 'pending'`),
    index('family_invitations_group_status_idx').on(t.familyGroupId, t.status),
    // The first verification looks up the invitations kept for the account; erasure's set null scans it too.
    index('family_invitations_accept_on_verify_by_idx').on(t.acceptOnVerifyBy).where(sql`accept_on_verify_by is not null`),
    // "Invitations waiting for me" after sign-in, by address.
    index('family_invitations_email_idx').on(t.email),
    index('family_invitations_invited_by_idx').on(t.invitedBy),
    index('family_invitations_accepted_by_idx').on(t.acceptedBy),
    check('family_invitations_role_check', oneOf('role', INVITATION_ROLES)),
    check('family_invitations_status_check', oneOf('status', INVITATION_STATUSES)),
    check('family_invitations_resent_count_check', sql`resent_count >= 0`),
  ],
);

/** Directed edge between two members of one group: from is the <relationship_type> of to. */
export const familyRelationships = pgTable(
  'family_relationships',
  {
    id: id(),
    familyGroupId: uuid('family_group_id')
      .notNull()
      .references(() => familyGroups.id, { onDelete: 'cascade' }),
    fromMemberId: uuid('from_member_id')
      .notNull()
      .references(() => familyMembers.id, { onDelete: 'cascade' }),
    toMemberId: uuid('to_member_id')
      .notNull()
      .references(() => familyMembers.id, { onDelete: 'cascade' }),
    /** parent, child, spouse, sibling, ... (the relationship-types reference collection). */
    relationshipType: text('relationship_type').notNull(),
    createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('family_relationships_from_to_type_key').on(t.fromMemberId, t.toMemberId, t.relationshipType),
    index('family_relationships_group_id_idx').on(t.familyGroupId),
    index('family_relationships_to_member_id_idx').on(t.toMemberId),
    index('family_relationships_created_by_idx').on(t.createdBy),
    check('family_relationships_not_self_check', sql`from_member_id <> to_member_id`),
  ],
);

/** A media item attached to a family memory. */
export interface FamilyMemoryMedia {
  storageKey: string;
  mimeType: string;
  caption?: string;
  imageId?: string;
}

export const familyMemories = pgTable(
  'family_memories',
  {
    id: id(),
    familyGroupId: uuid('family_group_id')
      .notNull()
      .references(() => familyGroups.id, { onDelete: 'cascade' }),
    /** Set null, not cascade: a shared memory stays with the family when its author's account goes. */
    createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    content: text('content'),
    /** The calendar day the memory is about (often approximate), not when it was written down. */
    memoryDate: date('memory_date', { mode: 'string' }),
    media: jsonb('media').$type<FamilyMemoryMedia[]>().notNull().default([]),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('family_memories_group_created_idx').on(t.familyGroupId, t.createdAt.desc().nullsFirst()),
    index('family_memories_created_by_idx').on(t.createdBy),
  ],
);

/** What happened in a family, newest first on GET /api/family/timeline. */
export const timelineEvents = pgTable(
  'timeline_events',
  {
    id: id(),
    /** Null for an event of the actor alone (shown to the actor and to each group the actor is in). */
    familyGroupId: uuid('family_group_id').references(() => familyGroups.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'cascade' }),
    /** story_created, recording_added, member_joined, book_published, ... */
    eventType: text('event_type').notNull(),
    /** What the event is about (story, recording, book, member): a pointer, not a foreign key. */
    subjectType: text('subject_type'),
    subjectId: uuid('subject_id'),
    title: text('title'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('timeline_events_group_occurred_idx').on(t.familyGroupId, t.occurredAt.desc().nullsFirst()),
    index('timeline_events_actor_occurred_idx').on(t.actorId, t.occurredAt.desc().nullsFirst()),
    // No foreign key across subject types: the service deletes a removed subject's events through this index.
    index('timeline_events_subject_idx').on(t.subjectType, t.subjectId),
  ],
);

export const REACTION_TYPES = ['like', 'love', 'celebrate'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

export const timelineReactions = pgTable(
  'timeline_reactions',
  {
    id: id(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => timelineEvents.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').$type<ReactionType>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One reaction per person per event: reacting again changes the type (upsert).
    uniqueIndex('timeline_reactions_event_user_key').on(t.eventId, t.userId),
    index('timeline_reactions_user_id_idx').on(t.userId),
    check('timeline_reactions_type_check', oneOf('type', REACTION_TYPES)),
  ],
);
