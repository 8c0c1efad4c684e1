// Support pages of spec 001: user-support (the reported content of support_flags: latest reports by status
// and type, trends, where things stand) and support (who acted as whom, and the admin audit log of every
// change made through the admin API or this application).
import type { FastifyInstance } from 'fastify';
import { FLAG_CONTENT_TYPES, FLAG_STATUSES, type FlagContentType, type FlagStatus } from '@story/db';
import { lineChart } from '../charts';
import { badge, field, figures, fmtInt, pagination, select, table, time } from '../components';
import { csrfTokenOf, isAdmin, noticeOf, offsetOf, pageRoute, sendPage, str, type DashboardContext } from '../dashboard.context';
import { html } from '../html';
import { BASE, csrfField } from '../layout';

const oneOf = <T extends string>(values: readonly T[], v: string | undefined): T | undefined => (v && (values as readonly string[]).includes(v) ? (v as T) : undefined);
const AUDIT_PAGE = 50;

/** What an audit row's data says, short: the reason of an impersonation, or which fields changed. */
function auditSummary(data: Record<string, unknown>): string {
  const after = data['after'] as Record<string, unknown> | null | undefined;
  const before = data['before'] as Record<string, unknown> | null | undefined;
  if (after && typeof after['reason'] === 'string') return `reason: ${after['reason']}`;
  if (after && typeof after['endedBy'] === 'string') return `ended by ${after['endedBy']}`;
  if (before && after && typeof before === 'object' && typeof after === 'object') {
    const changed = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
    return changed.length ? `changed: ${changed.slice(0, 8).join(', ')}` : '';
  }
  return after ? 'created' : before ? 'removed' : '';
}

export async function supportPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  const { support, impersonation } = ctx.services;

  app.get('/user-support', pageRoute(ctx, 'dashboardUserSupport', 'Reported content: recent reports, trends and summaries'), async (request, reply) => {
    const status = oneOf(FLAG_STATUSES, str(request.query, 'status'));
    const contentType = oneOf(FLAG_CONTENT_TYPES, str(request.query, 'content_type'));
    const [recent, trends, summary] = await Promise.all([
      support.recentFlags({ status: status as FlagStatus | undefined, content_type: contentType as FlagContentType | undefined, limit: 50 }),
      support.trends(30),
      support.summaries(),
    ]);
    const s = summary as unknown as { by_status: Record<string, number>; total: number; oldest_open_hours: number | null; avg_resolution_hours: number | null; resolved_7d: number; opened_7d: number; most_reported: { content_type: string; content_id: string; reports: number; open_reports: number }[] };
    const body = html`${figures('Where support stands', [
      { label: 'Open', value: fmtInt(s.by_status['open']) },
      { label: 'Reviewing', value: fmtInt(s.by_status['reviewing']) },
      { label: 'Resolved', value: fmtInt(s.by_status['resolved']) },
      { label: 'Dismissed', value: fmtInt(s.by_status['dismissed']) },
      { label: 'Oldest open report', value: s.oldest_open_hours === null ? '—' : `${s.oldest_open_hours} h` },
      { label: 'Average time to resolve', value: s.avg_resolution_hours === null ? '—' : `${s.avg_resolution_hours} h` },
      { label: 'Opened, 7 days', value: fmtInt(s.opened_7d) },
      { label: 'Resolved, 7 days', value: fmtInt(s.resolved_7d) },
    ])}
${lineChart('Reports opened and resolved per day', trends.daily.map((d) => d.date), [
  { label: 'Opened', values: trends.daily.map((d) => d.opened) },
  { label: 'Resolved', values: trends.daily.map((d) => d.resolved) },
])}
<section aria-labelledby="recent"><h2 id="recent">Latest reports</h2>
<form method="get" action="${BASE}/user-support" class="filters">
${select({ label: 'Status', name: 'status', value: status ?? '', options: [{ value: '', label: 'Any status' }, ...FLAG_STATUSES] })}
${select({ label: 'Content type', name: 'content_type', value: contentType ?? '', options: [{ value: '', label: 'Any type' }, ...FLAG_CONTENT_TYPES] })}
<button type="submit">Filter</button>
</form>
${table(
  'Reported content, newest first',
  [
    { label: 'Reported', cell: (f: Record<string, unknown>) => time(f['created_at'] as string) },
    { label: 'Status', cell: (f) => badge(String(f['status'])) },
    { label: 'Type', cell: (f) => String(f['content_type']) },
    { label: 'Content id', cell: (f) => html`<code>${String(f['content_id'])}</code>` },
    { label: 'Reason', cell: (f) => String(f['reason']) },
    { label: 'Details', cell: (f) => (f['details'] as string | null) ?? '—' },
    { label: 'Reporter', cell: (f) => (f['user_id'] ? html`<a href="${BASE}/users/${String(f['user_id'])}">${(f['reporter_email'] as string | null) ?? String(f['user_id'])}</a>` : '—') },
  ],
  recent.flags as Record<string, unknown>[],
  'No reports match.',
)}</section>
${table(
  'Most-reported content',
  [
    { label: 'Type', cell: (m: (typeof s.most_reported)[number]) => m.content_type },
    { label: 'Content id', cell: (m) => html`<code>${m.content_id}</code>` },
    { label: 'Reports', numeric: true, cell: (m) => fmtInt(m.reports) },
    { label: 'Still open', numeric: true, cell: (m) => fmtInt(m.open_reports) },
  ],
  s.most_reported,
)}
${table('Reasons, last 30 days', [{ label: 'Reason', cell: (r: { reason: string; count: number }) => r.reason }, { label: 'Reports', numeric: true, cell: (r) => fmtInt(r.count) }], trends.by_reason)}`;
    return sendPage(ctx, request, reply, { title: 'User support', section: '/user-support', body });
  });

  app.get('/support', pageRoute(ctx, 'dashboardSupport', 'Impersonations and the admin audit log'), async (request, reply) => {
    const action = (str(request.query, 'action') ?? '').trim().slice(0, 100);
    const offset = offsetOf(request.query);
    const [imps, audit] = await Promise.all([impersonation.list({ active: false, limit: 25, offset: 0 }), ctx.repo.auditLog({ action: action || undefined, limit: AUDIT_PAGE, offset })]);
    const people = await ctx.repo.accountsByIds([...new Set(imps.flatMap((i) => [i.adminId, i.userId]))]);
    const admin = isAdmin(request);
    const token = csrfTokenOf(ctx, request);
    const body = html`<section aria-labelledby="imps"><h2 id="imps">Impersonations</h2>
<p>Every start and end is also in the audit log below. An impersonation ends by itself after 15 minutes.</p>
${table(
  'Latest impersonations',
  [
    { label: 'Started', cell: (i: (typeof imps)[number]) => time(i.startedAt) },
    { label: 'Admin', cell: (i) => people.get(i.adminId)?.email ?? i.adminId },
    { label: 'Acting as', cell: (i) => html`<a href="${BASE}/users/${i.userId}">${people.get(i.userId)?.email ?? i.userId}</a>` },
    { label: 'Reason', cell: (i) => i.reason },
    { label: 'Expires', cell: (i) => time(i.expiresAt) },
    {
      label: 'State',
      cell: (i) =>
        i.active
          ? html`${badge('active')} <span class="countdown" data-countdown-until="${i.expiresAt}"></span>${
              admin ? html`<form method="post" action="${BASE}/impersonations/${i.id}/end" class="inline">${csrfField(token)}<button type="submit" class="danger small">End now</button></form>` : ''
            }`
          : html`${badge('ended')} ${time(i.endedAt)}`,
    },
  ],
  imps,
  'No impersonation yet.',
)}</section>
<section aria-labelledby="audit"><h2 id="audit">Audit log</h2>
<form method="get" action="${BASE}/support" class="filters" role="search">
${field({ label: 'Action starts with', name: 'action', value: action, hint: 'e.g. user.impersonate, feature_flag, prompt_template' })}
<button type="submit">Filter</button>
</form>
${table(
  'Admin changes, newest first',
  [
    { label: 'When', cell: (r: (typeof audit.rows)[number]) => time(r.createdAt) },
    { label: 'Who', cell: (r) => r.actorEmail ?? r.actorId ?? '(deleted account)' },
    { label: 'Action', cell: (r) => html`<code>${r.action}</code>` },
    { label: 'Target', cell: (r) => (r.impersonatedUserId ? (r.impersonatedEmail ?? r.impersonatedUserId) : [r.targetType, r.targetId].filter(Boolean).join(' ') || '—') },
    { label: 'Detail', cell: (r) => auditSummary(r.data) },
    { label: 'Address', cell: (r) => r.ipPrefix ?? '—' },
  ],
  audit.rows,
  'No change recorded.',
)}
${pagination(`${BASE}/support`, { action }, { total: audit.total, limit: AUDIT_PAGE, offset })}
</section>`;
    return sendPage(ctx, request, reply, { title: 'Support: impersonations and audit log', section: '/support', body, flash: noticeOf(request.query) });
  });
}
