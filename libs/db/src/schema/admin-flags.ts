// Feature flags of the admin application (spec 001 "Admin resources", CONTRACTS §7): global toggles,
// per-user overrides, A/B variants and gradual rollout.
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, updatedAt } from './_columns';

const createdBy = () => uuid('created_by').references(() => accounts.id, { onDelete: 'set null' });

/** A/B configuration of a flag: variants with weights; users are bucketed by a hash of (key, user id). */
export interface FlagAbConfig {
  variants: { name: string; weight: number; payload?: unknown }[];
  [key: string]: unknown;
}

export const featureFlags = pgTable(
  'feature_flags',
  {
    id: id(),
    /** Stable name code checks, e.g. ai_story_conversion. */
    key: text('key').notNull(),
    description: text('description'),
    /** Global toggle; off means off for everyone without an override. */
    enabled: boolean('enabled').notNull().default(false),
    /** Gradual rollout: a user is in when hash(key, user id) mod 100 < rollout_percentage. */
    rolloutPercentage: integer('rollout_percentage').notNull().default(100),
    abConfig: jsonb('ab_config').$type<FlagAbConfig>(),
    updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('feature_flags_key_key').on(t.key),
    index('feature_flags_updated_by_idx').on(t.updatedBy),
    check('feature_flags_rollout_check', sql`rollout_percentage BETWEEN 0 AND 100`),
  ],
);

/** Per-user override that beats the global toggle and the rollout. */
export const featureFlagOverrides = pgTable(
  'feature_flag_overrides',
  {
    id: id(),
    flagId: uuid('flag_id')
      .notNull()
      .references(() => featureFlags.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull(),
    reason: text('reason'),
    createdBy: createdBy(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('feature_flag_overrides_flag_user_key').on(t.flagId, t.userId),
    index('feature_flag_overrides_user_id_idx').on(t.userId),
    index('feature_flag_overrides_created_by_idx').on(t.createdBy),
  ],
);
