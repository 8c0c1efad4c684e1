// Usage and activity figures: the admin view of one account's AI usage (GET /api/user/usage), the caller's
// writing activity and content counts, and the caller's own usage analytics over a date range. Figures are
// computed from the rows themselves on each call, so they never drift from what is stored.
//
// Decisions the spec leaves open:
// - /api/user/usage without userId reports the calling admin's own account; daily and monthly are the
//   current UTC day and month, as the usage limits count them.
// - Analytics days and writing-activity days are the caller's calendar days in profiles.timezone.
// - /api/analytics/config says whether client analytics may run for the caller: both the privacy setting
//   analytics_enabled and the analytics consent must be on (no consent given yet means off).
import { AppError, badRequest, notFound } from '@story/http';
import { METRICS, type AnalyticsRepository, type Metric } from './analytics.repository';

export const MAX_RANGE_DAYS = 366;
export const DEFAULT_RANGE_DAYS = 30;

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);

/** Longest and current runs of consecutive days (current counts back from today or yesterday). */
export function streaks(activeDaysDesc: readonly string[], today: string): { current: number; longest: number } {
  let longest = 0;
  let run = 0;
  let prev: string | null = null;
  for (const day of activeDaysDesc) {
    run = prev !== null && daysBetween(day, prev) === 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
    prev = day;
  }
  let current = 0;
  let last = today;
  for (const [i, day] of activeDaysDesc.entries()) {
    // The first active day may be today or yesterday; after it, each must be the day before the last.
    const gap = daysBetween(day, last);
    if (i === 0 ? gap > 1 : gap !== 1) break;
    current++;
    last = day;
  }
  return { current, longest };
}

export interface ConfigDeps {
  /** The caller's privacy setting and analytics consent, read through their own features. */
  analyticsSetting(userId: string): Promise<boolean>;
  analyticsConsent(userId: string): Promise<boolean>;
}

export function createAnalyticsService({ repo, config }: { repo: AnalyticsRepository; config: ConfigDeps }) {
  return {
    async userUsage(callerId: string, userId: string | undefined) {
      const target = userId ?? callerId;
      if (!(await repo.accountExists(target))) throw notFound('Account');
      return { success: true as const, usage: await repo.aiUsage(target), userId: target };
    },

    async writingActivity(userId: string, days: number) {
      const tz = await repo.timezoneOf(userId);
      const today = await repo.today(tz);
      const start = addDays(today, -(days - 1));
      const [stories, words, recordings, active] = await Promise.all([
        repo.dailySeries(userId, 'stories', start, today, tz),
        repo.dailySeries(userId, 'words', start, today, tz),
        repo.dailySeries(userId, 'recordings', start, today, tz),
        repo.activeDays(userId, tz),
      ]);
      const activity = stories.map((s, i) => ({ date: s.date, stories: s.value, words: words[i]?.value ?? 0, recordings: recordings[i]?.value ?? 0 }));
      const sum = (k: 'stories' | 'words' | 'recordings') => activity.reduce((n, d) => n + d[k], 0);
      return {
        success: true as const,
        timezone: tz,
        startDate: start,
        endDate: today,
        activity,
        totals: { stories: sum('stories'), words: sum('words'), recordings: sum('recordings'), activeDays: activity.filter((d) => d.stories + d.recordings > 0).length },
        streak: streaks(active, today),
      };
    },

    async contentStats(userId: string) {
      return { success: true as const, stats: await repo.contentStats(userId) };
    },

    async usage(userId: string, query: { startDate?: string; endDate?: string; metric?: Metric }) {
      const tz = await repo.timezoneOf(userId);
      const endDate = query.endDate ?? (await repo.today(tz));
      const startDate = query.startDate ?? addDays(endDate, -(DEFAULT_RANGE_DAYS - 1));
      if (startDate > endDate) throw badRequest('Invalid endDate: must not be before startDate', { field: 'endDate' });
      if (daysBetween(startDate, endDate) + 1 > MAX_RANGE_DAYS) throw badRequest(`Invalid startDate: the range may cover at most ${MAX_RANGE_DAYS} days`, { field: 'startDate' });
      const names = query.metric ? [query.metric] : [...METRICS];
      const metrics: Record<string, { total: number; series: { date: string; value: number }[] }> = {};
      for (const name of names) {
        const series = await repo.dailySeries(userId, name, startDate, endDate, tz);
        metrics[name] = { total: Math.round(series.reduce((n, p) => n + p.value, 0) * 1e6) / 1e6, series };
      }
      return { success: true as const, startDate, endDate, timezone: tz, metric: query.metric ?? null, metrics };
    },

    async config(userId: string) {
      const [setting, consent] = await Promise.all([config.analyticsSetting(userId), config.analyticsConsent(userId)]);
      return {
        success: true as const,
        config: {
          enabled: setting && consent,
          analyticsSetting: setting,
          analyticsConsent: consent,
          metrics: [...METRICS],
          defaultRangeDays: DEFAULT_RANGE_DAYS,
          maxRangeDays: MAX_RANGE_DAYS,
          timezone: await repo.timezoneOf(userId),
        },
      };
    },

    async health() {
      const started = Date.now();
      try {
        const { latestUsageAt } = await repo.probe();
        return { status: 'ok' as const, checks: { database: { ok: true, latencyMs: Date.now() - started }, usageLog: { ok: true, latestEventAt: latestUsageAt } } };
      } catch (err) {
        throw new AppError('unavailable', 'Analytics data cannot be read right now', { cause: err, extra: { status: 'unavailable' } });
      }
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
