// Achievements (spec 000): the catalogue of definitions, seeded with slug ids, and each user's
// progress toward them. POST /api/achievements/check recomputes progress and stamps unlocked_at.
import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, updatedAt } from './_columns';

/** How progress is measured, e.g. {metric: 'stories_created', target: 10}. */
export interface AchievementCriteria {
  metric: string;
  target: number;
  [key: string]: unknown;
}

export const achievementDefinitions = pgTable(
  'achievement_definitions',
  {
    /** Slug such as 'first-story', stable across environments. */
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    icon: text('icon'),
    points: integer('points').notNull().default(0),
    category: text('category'),
    criteria: jsonb('criteria').$type<AchievementCriteria>().notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  () => [check('achievement_definitions_points_check', sql`points >= 0`)],
);

export const achievementProgress = pgTable(
  'achievement_progress',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    achievementId: text('achievement_id').notNull(),
    progress: integer('progress').notNull().default(0),
    /** Copied from the definition's criteria when the row is made, so a later change does not revoke an unlock. */
    target: integer('target').notNull(),
    unlockedAt: timestamp('unlocked_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Named by hand: the generated name passes PostgreSQL's 63-character limit and would be truncated.
    foreignKey({ name: 'achievement_progress_achievement_id_fk', columns: [t.achievementId], foreignColumns: [achievementDefinitions.id] })
      .onDelete('cascade'),
    uniqueIndex('achievement_progress_user_achievement_key').on(t.userId, t.achievementId),
    index('achievement_progress_achievement_id_idx').on(t.achievementId),
    check('achievement_progress_values_check', sql`progress >= 0 AND target > 0`),
  ],
);
