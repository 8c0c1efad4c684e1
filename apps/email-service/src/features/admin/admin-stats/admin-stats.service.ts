// Dashboard statistics in the shapes of CONTRACTS §7 (the metric names of spec 001 in camelCase).
// Rates are fractions 0-1 with four decimals: responseRate = campaign stories (storyteller responses) per
// prompt sent, capped at 1; conversionRate = waitlist signups that became accounts. monthlyRevenue is in
// currency units (paid invoices of the last 30 days); monthlyRevenueCents is the exact integer.
import type { AdminStatsRepository, ContentCounts, PlatformCounts, UserCounts } from './admin-stats.repository';

const rate = (part: number, whole: number) => (whole > 0 ? Math.round(Math.min(1, part / whole) * 10_000) / 10_000 : 0);

export const RECENT_ACTIVITY_LIMIT = 20;

export function usersSection(u: UserCounts) {
  return { users: { total: u.total, active7d: u.active7d, active30d: u.active30d, newToday: u.newToday } };
}

export function contentSection(c: ContentCounts) {
  return {
    content: { campaigns: c.campaigns, activeCampaigns: c.activeCampaigns, stories: c.stories, wordCount: c.wordCount },
    engagement: { conversations: c.conversations, responseRate: rate(c.campaignResponses, c.promptsSent), familyMembers: c.familyMembers, invitations: c.invitations },
    publishing: { books: c.books, booksInProgress: c.booksInProgress, images: c.images, audioRecordings: c.audioRecordings },
  };
}

export function platformSection(p: PlatformCounts) {
  return {
    business: { monthlyRevenue: p.revenueCents / 100, monthlyRevenueCents: p.revenueCents, tiers: p.tiers },
    waitlist: { signups: p.signups, verified: p.verified, conversionRate: rate(p.converted, p.signups), freeEligible: p.freeEligible },
  };
}

export function createAdminStatsService({ stats }: { stats: AdminStatsRepository }) {
  return {
    users: async () => usersSection(await stats.users()),
    content: async () => contentSection(await stats.content()),
    platform: async () => platformSection(await stats.platform()),

    /** Everything at once: the four statements run side by side on the pool. */
    async overview() {
      const [u, c, p, feed] = await Promise.all([stats.users(), stats.content(), stats.platform(), stats.recentActivity(RECENT_ACTIVITY_LIMIT)]);
      return {
        ...usersSection(u),
        ...contentSection(c),
        ...platformSection(p),
        recentActivity: feed.map((a) => ({ type: a.type, at: a.at.toISOString(), userId: a.userId, id: a.id, title: a.title })),
      };
    },
  };
}

export type AdminStatsService = ReturnType<typeof createAdminStatsService>;
