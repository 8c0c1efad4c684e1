// Delivery analytics and queue health (spec 001 "Admin: analytics" and Limits): the send queue now (pending,
// processing, stuck for over an hour, the backlog alert when more than 100 emails stay pending for 5
// minutes), and over a period the rates, daily trends, per-template and per-category figures and the latest
// sends. A delivery rate under 95 percent is flagged as unhealthy, the spec's threshold.
import type { FastifyInstance } from 'fastify';
import { lineChart } from '../charts';
import { badge, figures, fmtInt, select, table, time } from '../components';
import { pageRoute, sendPage, str, type DashboardContext } from '../dashboard.context';
import { html } from '../html';
import { BASE } from '../layout';

const PERIODS = ['7', '30', '90', '365'];

/** An address shown with its local part cut (the page names the recipient's domain, not the person). */
export const maskEmail = (email: string): string => {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email.slice(0, 1)}…@${email.slice(at + 1)}` : '…';
};

export async function analyticsPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  app.get('/analytics', pageRoute(ctx, 'dashboardAnalytics', 'Delivery analytics and send-queue health'), async (request, reply) => {
    const periodRaw = str(request.query, 'period') ?? '30';
    const period = PERIODS.includes(periodRaw) ? Number(periodRaw) : 30;
    const a = await ctx.services.analytics.get({ period });
    const o = a.overall_stats;
    const healthy = o.total_sent === 0 || Number(o.delivery_rate) > 95;
    const body = html`<section aria-labelledby="queue"><h2 id="queue">Send queue now</h2>
${a.alerts.backlog ? html`<p class="flash flash-error" role="alert">Backlog: more than 100 emails have been waiting over 5 minutes.</p>` : html`<p class="flash flash-ok">No backlog (alert when more than 100 emails wait over 5 minutes).</p>`}
${a.alerts.stuck > 0 ? html`<p class="flash flash-error" role="alert">${fmtInt(a.alerts.stuck)} pending emails have been due for more than an hour (stuck).</p>` : ''}
<dl class="facts">
<div><dt>Pending</dt><dd>${fmtInt(a.queue_status.pending)}</dd></div>
<div><dt>Processing</dt><dd>${fmtInt(a.queue_status.processing)}</dd></div>
<div><dt>Stuck (due over 1 h)</dt><dd>${fmtInt(a.alerts.stuck)}</dd></div>
<div><dt>Backlog alert</dt><dd>${a.alerts.backlog ? badge('firing', 'failed') : badge('clear', 'active')}</dd></div>
</dl></section>
<form method="get" action="${BASE}/analytics" class="filters">
${select({ label: 'Period (days)', name: 'period', value: String(period), options: PERIODS })}
<button type="submit">Show</button>
</form>
${figures(`Delivery, last ${period} days`, [
  { label: 'Sent', value: fmtInt(o.total_sent) },
  { label: 'Delivered', value: fmtInt(o.total_delivered) },
  { label: 'Opened', value: fmtInt(o.total_opened) },
  { label: 'Clicked', value: fmtInt(o.total_clicked) },
  { label: 'Failed', value: fmtInt(o.total_failed) },
  { label: 'Delivery rate', value: html`${o.delivery_rate}% ${healthy ? '' : badge('below 95%', 'failed')}` },
  { label: 'Open rate', value: `${o.open_rate}%` },
  { label: 'Click rate', value: `${o.click_rate}%` },
  { label: 'Failure rate', value: `${o.failure_rate}%` },
])}
${lineChart('Emails per day', a.daily_trends.map((d) => d.date), [
  { label: 'Sent', values: a.daily_trends.map((d) => d.sent) },
  { label: 'Delivered', values: a.daily_trends.map((d) => d.delivered) },
  { label: 'Opened', values: a.daily_trends.map((d) => d.opened) },
  { label: 'Clicked', values: a.daily_trends.map((d) => d.clicked) },
])}
${table(
  'By template',
  [
    { label: 'Template', cell: (t: (typeof a.template_performance)[number]) => html`<a href="${BASE}/email/templates/${t.id}">${t.display_name ?? t.name}</a>` },
    { label: 'Category', cell: (t) => t.category },
    { label: 'Sent', numeric: true, cell: (t) => fmtInt(t.total_sent) },
    { label: 'Delivery', numeric: true, cell: (t) => `${t.delivery_rate}%` },
    { label: 'Open', numeric: true, cell: (t) => `${t.open_rate}%` },
    { label: 'Click', numeric: true, cell: (t) => `${t.click_rate}%` },
  ],
  a.template_performance,
)}
${table(
  'By category',
  [
    { label: 'Category', cell: (c: (typeof a.category_breakdown)[number]) => c.category },
    { label: 'Templates', numeric: true, cell: (c) => fmtInt(c.template_count) },
    { label: 'Sent', numeric: true, cell: (c) => fmtInt(c.total_sent) },
    { label: 'Delivery', numeric: true, cell: (c) => `${c.delivery_rate}%` },
    { label: 'Open', numeric: true, cell: (c) => `${c.open_rate}%` },
    { label: 'Click', numeric: true, cell: (c) => `${c.click_rate}%` },
  ],
  a.category_breakdown,
)}
${table(
  'Latest sends',
  [
    { label: 'Queued', cell: (r: (typeof a.recent_activity)[number]) => time(r.created_at) },
    { label: 'Status', cell: (r) => badge(r.status) },
    { label: 'Template', cell: (r) => r.email_templates?.display_name ?? r.email_templates?.name ?? '—' },
    { label: 'Subject', cell: (r) => r.subject },
    { label: 'To', cell: (r) => maskEmail(r.to_email) },
  ],
  a.recent_activity,
  'Nothing sent in this period.',
)}`;
    return sendPage(ctx, request, reply, { title: 'Delivery and queue', section: '/analytics', body });
  });
}
