// The figures of the dashboard's first page (spec 001 "Admin application reference": users, content,
// engagement, publishing and media, business, waitlist, the recent-activity feed) and its daily trends,
// read together and served from a snapshot (snapshot-cache.ts) so the page does not wait for them.
import type { AdminStatsService } from '../admin/admin-stats/admin-stats.service';
import type { DailyTrend, DashboardRepository } from './dashboard.repository';

export const TREND_DAYS = 30;

/** How long the dashboard's figures are served before one refresh (spec 001 Limits: cache at most 300 s). */
export const OVERVIEW_TTL_MS = 60_000;

export type Overview = Awaited<ReturnType<AdminStatsService['overview']>> & { trends: DailyTrend[] };

export async function loadOverview(stats: Pick<AdminStatsService, 'overview'>, repo: Pick<DashboardRepository, 'dailyTrends'>): Promise<Overview> {
  const [overview, trends] = await Promise.all([stats.overview(), repo.dailyTrends(TREND_DAYS)]);
  return { ...overview, trends };
}
