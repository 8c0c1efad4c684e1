// Billing and waitlist (spec 001 dashboard billing, waitlist): accounts and paying subscriptions per tier,
// monthly recurring revenue at the spec 000 prices, paid invoices per month; the waitlist's numbers and its
// entries (never their confirmation tokens).
import type { FastifyInstance } from 'fastify';
import { SUBSCRIPTION_TIERS } from '@story/db';
import { barChart } from '../charts';
import { badge, field, figures, fmtInt, fmtMoney, fmtPct, pagination, select, table, time } from '../components';
import { offsetOf, pageRoute, sendPage, str, type DashboardContext } from '../dashboard.context';
import { html } from '../html';
import { BASE } from '../layout';
import { OVERVIEW_TTL_MS } from '../overview';

export async function businessPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  app.get('/billing', pageRoute(ctx, 'dashboardBilling', 'Subscriptions per tier, monthly revenue and invoices'), async (request, reply) => {
    const { value: b, at } = await ctx.billing.get();
    const unpriced = Object.entries(b.unpriced).filter(([, n]) => n > 0);
    const body = html`<p class="meta">Figures as of ${time(at)} (read at most every ${OVERVIEW_TTL_MS / 1000} seconds).</p>
${figures('Monthly recurring revenue', [
      { label: 'At list prices', value: fmtMoney(b.monthlyRevenue), hint: unpriced.length ? `${unpriced.map(([t, n]) => `${n} ${t}`).join(', ')} paying without a listed price, not counted` : 'paying subscriptions × tier price' },
    ])}
${table(
  'Accounts per tier',
  [
    { label: 'Tier', cell: (t: (typeof SUBSCRIPTION_TIERS)[number]) => t },
    { label: 'Price per month', numeric: true, cell: (t) => (b.prices[t] === null ? 'not listed' : fmtMoney(b.prices[t])) },
    { label: 'Accounts', numeric: true, cell: (t) => fmtInt(b.tiers[t]) },
    { label: 'Paying', numeric: true, cell: (t) => fmtInt(b.paying[t]) },
    { label: 'Trial', numeric: true, cell: (t) => fmtInt(b.trial[t]) },
    { label: 'Cancelled', numeric: true, cell: (t) => fmtInt(b.cancelled[t]) },
  ],
  SUBSCRIPTION_TIERS,
)}
${b.invoicedByMonth.length ? barChart('Paid invoices per month (USD)', b.invoicedByMonth.map((m) => m.month), b.invoicedByMonth.map((m) => m.paid), (v) => fmtMoney(v)) : html`<p class="empty">No paid invoice in the last 12 months.</p>`}`;
    return sendPage(ctx, request, reply, { title: 'Billing', section: '/billing', body });
  });

  app.get('/waitlist', pageRoute(ctx, 'dashboardWaitlist', 'Waitlist numbers and entries'), async (request, reply) => {
    const search = (str(request.query, 'search') ?? '').trim().slice(0, 200);
    const v = str(request.query, 'verified');
    const verified = v === 'yes' ? true : v === 'no' ? false : undefined;
    const offset = offsetOf(request.query);
    const [s, list] = await Promise.all([ctx.services.waitlist.stats(), ctx.services.waitlist.list({ search: search || undefined, verified, limit: 25, offset })]);
    const body = html`${figures('Waitlist', [
      { label: 'Signups', value: fmtInt(s.signups) },
      { label: 'Verified', value: fmtInt(s.verified) },
      { label: 'Became accounts', value: fmtInt(s.converted) },
      { label: 'Conversion rate', value: fmtPct(s.conversionRate) },
      { label: 'Free-eligible', value: `${fmtInt(s.freeEligible)} of ${fmtInt(s.freePlaces)} places` },
    ])}
<form method="get" action="${BASE}/waitlist" class="filters" role="search">
${field({ label: 'Email or name', name: 'search', type: 'search', value: search })}
${select({ label: 'Verified', name: 'verified', value: v ?? '', options: [{ value: '', label: 'Any' }, { value: 'yes', label: 'Verified' }, { value: 'no', label: 'Not verified' }] })}
<button type="submit">Find</button></form>
${table(
  'Waitlist entries, newest first',
  [
    { label: 'Email', cell: (e: Record<string, unknown>) => String(e['email']) },
    { label: 'Name', cell: (e) => String(e['name'] ?? '—') },
    { label: 'Source', cell: (e) => String(e['source'] ?? '—') },
    { label: 'Verified', cell: (e) => (e['verified'] ? badge('verified') : e['pending_verification'] ? badge('link sent', 'pending') : badge('no', 'draft')) },
    { label: 'Free place', cell: (e) => (e['free_eligible'] ? 'yes' : 'no') },
    { label: 'Joined', cell: (e) => time(e['created_at'] as string) },
  ],
  list.items as Record<string, unknown>[],
  'No entry matches.',
)}
${pagination(`${BASE}/waitlist`, { search, verified: v }, list.pagination)}`;
    return sendPage(ctx, request, reply, { title: 'Waitlist', section: '/waitlist', body });
  });
}
