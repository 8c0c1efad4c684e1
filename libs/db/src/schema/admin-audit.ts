// The waitlist, time-limited impersonation and the audit log of the admin application (spec 001
// "Admin resources", Authentication 5; CONTRACTS §7).
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts, authSessions } from './accounts';
import { createdAt, id } from './_columns';

export const waitlist = pgTable(
  'waitlist',
  {
    id: id(),
    /** Stored lower-cased. */
    email: text('email').notNull(),
    name: text('name'),
    verified: boolean('verified').notNull().default(false),
    /** sha256 of the token in the verification link. */
    verificationTokenHash: text('verification_token_hash'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** Where the signup came from (landing page, tool, referral). */
    source: text('source'),
    /** Early signups promised a free plan (dashboard free-eligible count). */
    freeEligible: boolean('free_eligible').notNull().default(false),
    convertedAt: timestamp('converted_at', { withTimezone: true }),
    convertedUserId: uuid('converted_user_id').references(() => accounts.id, { onDelete: 'set null' }),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('waitlist_email_key').on(t.email),
    uniqueIndex('waitlist_verification_token_hash_key').on(t.verificationTokenHash),
    index('waitlist_converted_user_id_idx').on(t.convertedUserId),
    index('waitlist_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Time-limited impersonation (spec 001 Authentication 5): an admin acts as a user through a dedicated
 * session that ends at expires_at; every action in it is audit-logged with impersonated_user_id. The
 * admin and the user are kept as id and email snapshot without a foreign key (CONTRACTS §7), so the
 * record outlives the deletion of either account.
 */
export const adminImpersonations = pgTable(
  'admin_impersonations',
  {
    id: id(),
    adminId: uuid('admin_id').notNull(),
    /** Filled from accounts by the insert trigger (migration 0024) when the writer leaves it out. */
    adminEmail: text('admin_email'),
    userId: uuid('user_id').notNull(),
    userEmail: text('user_email'),
    /** The auth session issued for the impersonation; revoking it ends the impersonation. */
    sessionId: uuid('session_id').references(() => authSessions.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('admin_impersonations_admin_id_idx').on(t.adminId, t.startedAt.desc().nullsFirst()),
    index('admin_impersonations_user_id_idx').on(t.userId),
    index('admin_impersonations_session_id_idx').on(t.sessionId),
    check('admin_impersonations_expiry_check', sql`expires_at > started_at`),
  ],
);

/**
 * Append-only record of every admin and support action (and of account erasures). Who acted and on whom
 * are stored ids with an email snapshot and no foreign key (CONTRACTS §7): the trail survives the deletion
 * of either account. The insert trigger of migration 0024 fills the snapshots from accounts when the writer
 * leaves them out (target_email when target_type is 'account').
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: id(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    /** Verb-style name: user.impersonate, feature_flag.update, gift.delete, ... */
    action: text('action').notNull(),
    targetType: text('target_type'),
    /** Text, since targets include slug-keyed records as well as uuids. */
    targetId: text('target_id'),
    /** The account's email when target_type is 'account'. */
    targetEmail: text('target_email'),
    impersonatedUserId: uuid('impersonated_user_id'),
    impersonatedUserEmail: text('impersonated_user_email'),
    /** Client IP with the last octet removed (spec 000 Authentication 10). */
    ipPrefix: text('ip_prefix'),
    /** Before and after values, request id. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('admin_audit_log_actor_created_idx').on(t.actorId, t.createdAt.desc().nullsFirst()),
    index('admin_audit_log_target_idx').on(t.targetType, t.targetId),
    index('admin_audit_log_impersonated_user_id_idx').on(t.impersonatedUserId),
    index('admin_audit_log_created_at_idx').on(t.createdAt),
  ],
);
