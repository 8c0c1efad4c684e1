// The SQL of achievements (Drizzle): the catalogue, the caller's progress rows, and the measures of real
// activity that progress is computed from.
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { achievementDefinitions, achievementProgress, type Database, type DbOrTx } from '@story/db';

export type DefinitionRow = typeof achievementDefinitions.$inferSelect;
export type ProgressRow = typeof achievementProgress.$inferSelect;

/** The measures a definition's criteria.metric may name. */
export const METRICS = ['stories_created', 'words_written', 'recordings_created', 'recording_minutes', 'books_created', 'family_groups', 'family_members'] as const;
export type Metric = (typeof METRICS)[number];
export type Metrics = Record<Metric, number>;

export function createAchievementsRepository(db: Database) {
  return {
    transaction: <T>(fn: (tx: DbOrTx) => Promise<T>) => db.transaction(fn),

    async definitions(tx: DbOrTx = db): Promise<DefinitionRow[]> {
      return tx.select().from(achievementDefinitions).where(eq(achievementDefinitions.isActive, true)).orderBy(asc(achievementDefinitions.sortOrder), asc(achievementDefinitions.id));
    },

    async progressRows(userId: string, tx: DbOrTx = db): Promise<ProgressRow[]> {
      return tx.select().from(achievementProgress).where(eq(achievementProgress.userId, userId));
    },

    async unlockedRows(userId: string, tx: DbOrTx = db): Promise<ProgressRow[]> {
      return tx
        .select()
        .from(achievementProgress)
        .where(and(eq(achievementProgress.userId, userId), isNotNull(achievementProgress.unlockedAt)))
        .orderBy(asc(achievementProgress.unlockedAt), asc(achievementProgress.achievementId));
    },

    /**
     * Every measure in one round trip. Stories and recordings count the caller's own rows (failed uploads
     * left out); family_groups counts active memberships (creating a group makes one); family_members
     * counts the other active members of the groups the caller created.
     */
    async metrics(userId: string, tx: DbOrTx = db): Promise<Metrics> {
      const rows = await tx.execute<Record<Metric, number>>(sql`
        select
          (select count(*)::int from stories s where s.user_id = ${userId}) as stories_created,
          (select coalesce(sum(s.word_count), 0)::int from stories s where s.user_id = ${userId}) as words_written,
          (select count(*)::int from recordings r where r.user_id = ${userId} and r.status = 'completed') as recordings_created,
          (select (coalesce(sum(r.duration_seconds), 0) / 60)::int from recordings r where r.user_id = ${userId} and r.status = 'completed') as recording_minutes,
          (select count(*)::int from books b where b.user_id = ${userId}) as books_created,
          (select count(*)::int from family_members m where m.user_id = ${userId} and m.status = 'active') as family_groups,
          (select count(*)::int from family_members m join family_groups g on g.id = m.family_group_id
             where g.created_by = ${userId} and m.status = 'active' and m.merged_into_id is null
               and (m.user_id is null or m.user_id <> ${userId})) as family_members`);
      const row: Partial<Record<Metric, number>> = rows[0] ?? {};
      return Object.fromEntries(METRICS.map((m) => [m, Number(row[m] ?? 0)])) as Metrics;
    },

    /**
     * Record current progress. The unique (user_id, achievement_id) index makes this one row per pair
     * however many checks run at once; a concurrent check waits here on the row until the first commits.
     */
    async upsertProgress(userId: string, rows: { achievementId: string; progress: number; target: number }[], tx: DbOrTx): Promise<void> {
      if (rows.length === 0) return;
      // Sorted, so concurrent checks lock the rows in one order and cannot deadlock.
      const values = [...rows].sort((a, b) => a.achievementId.localeCompare(b.achievementId)).map((r) => ({ userId, ...r }));
      await tx
        .insert(achievementProgress)
        .values(values)
        .onConflictDoUpdate({ target: [achievementProgress.userId, achievementProgress.achievementId], set: { progress: sql`excluded.progress`, updatedAt: new Date() } });
    },

    /**
     * Stamp unlocked_at on rows that reached their target and were not unlocked yet. `unlocked_at is null`
     * is re-checked after the row lock, so of two concurrent checks exactly one gets each row back: an
     * achievement is awarded once.
     */
    async unlockReached(userId: string, tx: DbOrTx): Promise<string[]> {
      const rows = await tx
        .update(achievementProgress)
        .set({ unlockedAt: new Date() })
        .where(and(eq(achievementProgress.userId, userId), sql`${achievementProgress.unlockedAt} is null`, sql`${achievementProgress.progress} >= ${achievementProgress.target}`))
        .returning({ id: achievementProgress.achievementId });
      return rows.map((r) => r.id);
    },
  };
}
