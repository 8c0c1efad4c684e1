// Achievements (spec 000): the seeded catalogue (migration 0010), the caller's unlocked ones, progress
// computed live from real activity (stories, recordings, books, family), and POST /check, which records
// progress and awards what was newly earned, exactly once even when checks run concurrently.
import type { Database } from '@story/db';
import { createAchievementsRepository, METRICS, type DefinitionRow, type Metric, type Metrics } from './achievements.repository';

const definitionView = (d: DefinitionRow) => ({ id: d.id, name: d.name, description: d.description, icon: d.icon, points: d.points, category: d.category });
export type DefinitionView = ReturnType<typeof definitionView>;

const metricOf = (d: DefinitionRow): Metric | null => ((METRICS as readonly string[]).includes(d.criteria.metric) ? (d.criteria.metric as Metric) : null);
const targetOf = (d: DefinitionRow) => Math.max(1, Math.floor(Number(d.criteria.target) || 1));

export function createAchievementsService({ db }: { db: Database }) {
  const repo = createAchievementsRepository(db);

  function progressOf(d: DefinitionRow, metrics: Metrics) {
    const metric = metricOf(d);
    const target = targetOf(d);
    const current = metric ? metrics[metric] : 0;
    return { metric, target, current, capped: Math.min(current, target) };
  }

  async function unlocked(userId: string) {
    const [defs, rows] = await Promise.all([repo.definitions(), repo.unlockedRows(userId)]);
    const byId = new Map(defs.map((d) => [d.id, d]));
    const achievements = rows.flatMap((r) => {
      const d = byId.get(r.achievementId);
      return d && r.unlockedAt ? [{ ...definitionView(d), unlocked_at: r.unlockedAt.toISOString() }] : [];
    });
    return { achievements, totalPoints: achievements.reduce((sum, a) => sum + a.points, 0) };
  }

  return {
    async definitions(): Promise<{ achievements: DefinitionView[] }> {
      return { achievements: (await repo.definitions()).map(definitionView) };
    },

    /** The caller's unlocked achievements, oldest first, with their points total. */
    unlocked,

    /** Progress toward every achievement, from the caller's activity now (read-only). */
    async progress(userId: string) {
      const [defs, metrics, rows] = await Promise.all([repo.definitions(), repo.metrics(userId), repo.progressRows(userId)]);
      const unlockedAt = new Map(rows.flatMap((r) => (r.unlockedAt ? [[r.achievementId, r.unlockedAt.toISOString()] as const] : [])));
      const progress = defs.map((d) => {
        const p = progressOf(d, metrics);
        return {
          achievement_id: d.id,
          name: d.name,
          icon: d.icon,
          points: d.points,
          metric: p.metric,
          current: p.current,
          target: p.target,
          percent: Math.round((p.capped / p.target) * 100),
          earned: p.current >= p.target,
          unlocked: unlockedAt.has(d.id),
          unlocked_at: unlockedAt.get(d.id) ?? null,
        };
      });
      return { progress, metrics };
    },

    /** Record progress and award what is newly earned; `newlyUnlocked` lists only this call's awards. */
    async check(userId: string) {
      const newly = await repo.transaction(async (tx) => {
        const [defs, metrics] = await Promise.all([repo.definitions(tx), repo.metrics(userId, tx)]);
        await repo.upsertProgress(
          userId,
          defs.map((d) => {
            const p = progressOf(d, metrics);
            return { achievementId: d.id, progress: p.capped, target: p.target };
          }),
          tx,
        );
        return repo.unlockReached(userId, tx);
      });
      const all = await unlocked(userId);
      return { success: true as const, newlyUnlocked: all.achievements.filter((a) => newly.includes(a.id)), ...all };
    },
  };
}

export type AchievementsService = ReturnType<typeof createAchievementsService>;
