// GET /dashboard: the dashboard metrics of spec 001 (CONTRACTS §7 names), the recent-activity feed and the
// daily trends as charts. The figures come from a snapshot at most a minute old (overview.ts), and the page
// says when they were read.
import type { FastifyInstance } from 'fastify';
import { lineChart } from '../charts';
import { figures, fmtInt, fmtMoney, fmtPct, table, time } from '../components';
import { pageRoute, sendPage, type DashboardContext } from '../dashboard.context';
import { html } from '../html';
import { BASE } from '../layout';
import { OVERVIEW_TTL_MS, TREND_DAYS } from '../overview';

const ACTIVITY_LABEL: Record<string, string> = {
  signup: 'Signed up',
  campaign_created: 'Campaign created',
  story_created: 'Story created',
  conversation_response: 'Conversation response',
  book_published: 'Book published',
};

export async function overviewPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  app.get('/', pageRoute(ctx, 'dashboardOverview', 'Dashboard metrics, recent activity and daily trends'), async (request, reply) => {
    const { value: o, at } = await ctx.overview.get();
    const people = await ctx.repo.accountsByIds([...new Set(o.recentActivity.map((a) => a.userId).filter((id): id is string => !!id))]);
    const dates = o.trends.map((t) => t.date);
    const body = html`<p class="meta">Figures as of ${time(at)} (read at most every ${OVERVIEW_TTL_MS / 1000} seconds). Rates are fractions of their base shown as percentages.</p>
<div class="grid">
${figures('Users', [
  { label: 'Total', value: fmtInt(o.users.total) },
  { label: 'Active, 7 days', value: fmtInt(o.users.active7d) },
  { label: 'Active, 30 days', value: fmtInt(o.users.active30d) },
  { label: 'New today', value: fmtInt(o.users.newToday) },
])}
${figures('Content', [
  { label: 'Campaigns', value: fmtInt(o.content.campaigns) },
  { label: 'Active campaigns', value: fmtInt(o.content.activeCampaigns) },
  { label: 'Stories', value: fmtInt(o.content.stories) },
  { label: 'Words', value: fmtInt(o.content.wordCount) },
])}
${figures('Engagement', [
  { label: 'Conversations', value: fmtInt(o.engagement.conversations) },
  { label: 'Response rate', value: fmtPct(o.engagement.responseRate), hint: 'campaign stories per prompt sent' },
  { label: 'Family members', value: fmtInt(o.engagement.familyMembers) },
  { label: 'Invitations', value: fmtInt(o.engagement.invitations) },
])}
${figures('Publishing and media', [
  { label: 'Books', value: fmtInt(o.publishing.books) },
  { label: 'Books in progress', value: fmtInt(o.publishing.booksInProgress) },
  { label: 'Images', value: fmtInt(o.publishing.images) },
  { label: 'Audio recordings', value: fmtInt(o.publishing.audioRecordings) },
])}
${figures('Business', [
  { label: 'Monthly revenue', value: fmtMoney(o.business.monthlyRevenue), hint: 'paid invoices, last 30 days' },
  { label: 'Starter', value: fmtInt(o.business.tiers.starter) },
  { label: 'Family', value: fmtInt(o.business.tiers.family) },
  { label: 'Premium', value: fmtInt(o.business.tiers.premium) },
  { label: 'Free', value: fmtInt(o.business.tiers.free) },
])}
${figures('Waitlist', [
  { label: 'Signups', value: fmtInt(o.waitlist.signups) },
  { label: 'Verified', value: fmtInt(o.waitlist.verified) },
  { label: 'Conversion rate', value: fmtPct(o.waitlist.conversionRate) },
  { label: 'Free-eligible', value: fmtInt(o.waitlist.freeEligible) },
])}
</div>
<section aria-labelledby="trends"><h2 id="trends">Daily trends, last ${TREND_DAYS} days (UTC)</h2>
<div class="charts">
${lineChart('Signups and stories per day', dates, [
  { label: 'Signups', values: o.trends.map((t) => t.signups) },
  { label: 'Stories', values: o.trends.map((t) => t.stories) },
])}
${lineChart('Campaigns and conversation responses per day', dates, [
  { label: 'Campaigns', values: o.trends.map((t) => t.campaigns) },
  { label: 'Responses', values: o.trends.map((t) => t.responses) },
])}
</div></section>
<section aria-labelledby="activity"><h2 id="activity">Recent activity</h2>
${table(
  'Newest signups, campaigns, stories, conversation responses and published books',
  [
    { label: 'When', cell: (a) => time(a.at) },
    { label: 'What', cell: (a) => ACTIVITY_LABEL[a.type] ?? a.type },
    { label: 'Title', cell: (a) => a.title ?? '—' },
    { label: 'Account', cell: (a) => (a.userId ? html`<a href="${BASE}/users/${a.userId}">${people.get(a.userId)?.email ?? a.userId}</a>` : '—') },
  ],
  o.recentActivity,
  'No activity yet.',
)}
</section>`;
    return sendPage(ctx, request, reply, { title: 'Overview', section: '', body });
  });
}
