// AI management (spec 001 dashboard ai-management: prompts with history, voices, features, analytics),
// conversation-testing (results, analytics, debug) and conversations (the test conversations run against
// the interviewer prompt). Reads through the admin API's services; a prompt's versions are compared with
// the same line diff as the API's /diff.
import type { FastifyInstance } from 'fastify';
import { AppError } from '@story/http';
import { lineDiff } from '../../admin-ai/line-diff';
import { removalsFirst } from '../diff-order';
import { lineChart } from '../charts';
import { badge, figures, fmtInt, fmtPct, select, table, time } from '../components';
import { pageRoute, sendPage, str, type DashboardContext } from '../dashboard.context';
import { html } from '../html';
import { BASE } from '../layout';

type Row = Record<string, unknown>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const usd = (n: unknown) => `$${Number(n ?? 0).toFixed(4)}`;

export async function aiPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  const { prompts, aiDebug, conversationTests } = ctx.services;

  app.get('/ai-management', pageRoute(ctx, 'dashboardAi', 'AI prompts, features and usage'), async (request, reply) => {
    const [list, debug, usage] = await Promise.all([prompts.list(), aiDebug.debugAi(), aiDebug.debugUsage(30)]);
    const t = usage.totals as Row;
    const body = html`<p>Prompt changes and provider choices reach every service within a second. <a href="${BASE}/voice-settings">Voices</a> · <a href="${BASE}/ai-providers">Providers</a></p>
${table(
  'Prompt templates',
  [
    { label: 'Key', cell: (p: Row) => html`<a href="${BASE}/ai-management/prompts/${String(p['id'])}">${String(p['key'])}</a>` },
    { label: 'Name', cell: (p) => String(p['name'] ?? '—') },
    { label: 'Version', numeric: true, cell: (p) => `v${String(p['current_version'])}` },
    { label: 'Active', cell: (p) => (p['is_active'] ? 'yes' : 'no') },
    { label: 'Updated', cell: (p) => time(p['updated_at'] as string) },
  ],
  list.templates as Row[],
  'No prompt template yet: every feature uses its built-in text.',
)}
${table(
  'Features and the prompt each one reads',
  [
    { label: 'Prompt key', cell: (m: (typeof list.managed_keys)[number]) => html`<code>${m.key}</code>` },
    { label: 'Used by', cell: (m) => m.used_by },
    { label: 'Source', cell: (m) => (m.has_template ? badge('template', 'active') : badge('built-in', 'draft')) },
  ],
  list.managed_keys,
)}
${table(
  'Which model serves each feature now',
  [
    { label: 'Feature', cell: (f: (typeof debug.feature_routing)[number]) => f.feature },
    { label: 'Provider', cell: (f) => f.provider },
    { label: 'Model', cell: (f) => f.model },
  ],
  debug.feature_routing,
  `No feature has called a model in 30 days. Default: ${debug.llm.provider} ${debug.llm.model}.`,
)}
${figures('Usage, last 30 days', [
  { label: 'Calls', value: fmtInt(Number(t['calls'])) },
  { label: 'Failures', value: fmtInt(Number(t['failures'])) },
  { label: 'Cost', value: usd(t['cost_usd']) },
  { label: 'Input tokens', value: fmtInt(Number(t['input_tokens'])) },
  { label: 'Output tokens', value: fmtInt(Number(t['output_tokens'])) },
])}
${lineChart('AI calls per day', usage.daily.map((d) => d.date), [{ label: 'Calls', values: usage.daily.map((d) => Number(d.calls)) }])}
${table(
  'By feature',
  [
    { label: 'Feature', cell: (f: (typeof usage.by_feature)[number]) => f.feature },
    { label: 'Calls', numeric: true, cell: (f) => fmtInt(Number(f.calls)) },
    { label: 'Failures', numeric: true, cell: (f) => fmtInt(Number(f.failures)) },
    { label: 'Cost', numeric: true, cell: (f) => usd(f.cost_usd) },
  ],
  usage.by_feature,
)}
${table(
  'Recent errors',
  [
    { label: 'When', cell: (e: Row) => time(e['created_at'] as string) },
    { label: 'Feature', cell: (e) => String(e['feature'] ?? '—') },
    { label: 'Provider', cell: (e) => String(e['provider'] ?? '—') },
    { label: 'Error', cell: (e) => String(e['error_code'] ?? '—') },
  ],
  debug.recent_errors,
  'No failed call.',
)}`;
    return sendPage(ctx, request, reply, { title: 'AI management', section: '/ai-management', body });
  });

  app.get('/ai-management/prompts/:id', pageRoute(ctx, 'dashboardAiPrompt', 'A prompt template with its version history and diff'), async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!UUID.test(id)) throw new AppError('not_found', 'Prompt template not found');
    const [promptView, history] = await Promise.all([prompts.get(id), prompts.versions(id)]);
    const prompt = promptView as Row;
    const versions = history.versions as Row[];
    const numbers = versions.map((v) => Number(v['version']));
    const pick = (name: string, fallback: number | undefined) => {
      const n = Number(str(request.query, name));
      return numbers.includes(n) ? n : fallback;
    };
    const to = pick('to', numbers[0]);
    const from = pick('from', numbers[1] ?? to);
    const a = versions.find((v) => Number(v['version']) === from);
    const b = versions.find((v) => Number(v['version']) === to);
    const diff = a && b ? lineDiff(String(a['content'] ?? ''), String(b['content'] ?? '')) : null;
    const options = numbers.map((n) => ({ value: String(n), label: `v${n}` }));
    const body = html`<p><a href="${BASE}/ai-management">All prompts</a></p>
<dl class="facts"><div><dt>Key</dt><dd><code>${String(prompt['key'])}</code></dd></div><div><dt>Current version</dt><dd>v${String(prompt['current_version'])}</dd></div>
<div><dt>Description</dt><dd>${String(prompt['description'] ?? '—')}</dd></div></dl>
<h2>Current text</h2><pre class="mono box">${String(prompt['content'] ?? '')}</pre>
${table(
  'Versions, newest first',
  [
    { label: 'Version', numeric: true, cell: (v: Row) => html`v${String(v['version'])}${v['is_current'] ? html` ${badge('current')}` : ''}` },
    { label: 'Saved', cell: (v) => time(v['created_at'] as string) },
    { label: 'Note', cell: (v) => String(v['change_note'] ?? '—') },
  ],
  versions,
)}
<form method="get" action="${BASE}/ai-management/prompts/${id}" class="filters">
${select({ label: 'From', name: 'from', value: String(from ?? ''), options })}
${select({ label: 'To', name: 'to', value: String(to ?? ''), options })}
<button type="submit">Compare</button></form>
${diff ? html`<p>+${diff.added} −${diff.removed} lines</p><pre class="mono box diff-text">${removalsFirst(diff.lines).map((l) => html`<span class="diff-${l.op}">${l.op === 'add' ? '+ ' : l.op === 'remove' ? '- ' : '  '}${l.text}
</span>`)}</pre>` : ''}`;
    return sendPage(ctx, request, reply, { title: `Prompt ${String(prompt['key'])}`, section: '/ai-management', body });
  });

  app.get('/conversation-testing', pageRoute(ctx, 'dashboardConversationTesting', 'Conversation test results, analytics and debug data'), async (request, reply) => {
    const [results, analytics, debug] = await Promise.all([conversationTests.results({ limit: 10 }), conversationTests.analytics(30), conversationTests.debugData(5)]);
    const body = html`${figures('Last 30 days', [
      { label: 'Runs', value: fmtInt(analytics.totals.runs) },
      { label: 'Passed', value: fmtInt(analytics.totals.passed_runs) },
      { label: 'Errors', value: fmtInt(analytics.totals.error_runs) },
      { label: 'Checks passed', value: fmtPct(analytics.totals.check_pass_rate) },
    ])}
${table(
  'By prompt version and provider',
  [
    { label: 'Prompt', cell: (g: (typeof analytics.by_prompt_version)[number]) => `${g.prompt_key} v${g.prompt_version ?? '?'}` },
    { label: 'Provider', cell: (g) => g.provider ?? '—' },
    { label: 'Runs', numeric: true, cell: (g) => fmtInt(g.runs) },
    { label: 'Check pass rate', numeric: true, cell: (g) => fmtPct(g.check_pass_rate) },
    { label: 'Average turn', numeric: true, cell: (g) => `${fmtInt(g.avg_latency_ms)} ms` },
  ],
  analytics.by_prompt_version,
)}
${table(
  'Latest results',
  [
    { label: 'Run', cell: (r: Row) => time(r['created_at'] as string) },
    { label: 'Prompt', cell: (r) => `${String(r['prompt_key'])} v${String(r['prompt_version'] ?? '?')}` },
    { label: 'Status', cell: (r) => badge(String(r['status'])) },
    { label: 'Checks', numeric: true, cell: (r) => `${String(r['checks_passed'])}/${String(r['checks_total'])}` },
    { label: 'Turns', cell: (r) => html`<ol>${((r['turns'] as Row[]) ?? []).map((turn) => html`<li>${String(turn['question'] ?? turn['error'] ?? '')}</li>`)}</ol>` },
  ],
  results.results as Row[],
  'No test run yet.',
)}
<section aria-labelledby="debug"><h2 id="debug">Debug</h2><p>The interviewer feature <code>${debug.interviewer.feature}</code> is served by <strong>${debug.interviewer.provider}</strong>. ${fmtInt(debug.usage_logs.length)} usage rows from test runs shown below.</p>
${table('Usage rows of test runs', [{ label: 'When', cell: (u: Row) => time(u['created_at'] as string) }, { label: 'Feature', cell: (u) => String(u['feature']) }, { label: 'Provider', cell: (u) => String(u['provider'] ?? '—') }, { label: 'Latency', numeric: true, cell: (u) => `${fmtInt(Number(u['latency_ms'] ?? 0))} ms` }, { label: 'OK', cell: (u) => (u['success'] ? 'yes' : 'no') }], debug.usage_logs as Row[], 'None.')}
</section>`;
    return sendPage(ctx, request, reply, { title: 'Conversation testing', section: '/conversation-testing', body });
  });

  app.get('/conversations', pageRoute(ctx, 'dashboardConversations', 'Test conversations run against the interviewer'), async (request, reply) => {
    const list = await conversationTests.list({ limit: 50, offset: 0 });
    const body = html`<p>Scripted conversations run against the interviewer prompt (POST /api/admin/test-conversations). ${fmtInt(list.total)} in all.</p>
${table(
  'Test conversations, newest first',
  [
    { label: 'Run', cell: (r: Row) => time(r['created_at'] as string) },
    { label: 'Name', cell: (r) => String(r['name'] ?? '—') },
    { label: 'Prompt', cell: (r) => `${String(r['prompt_key'])} v${String(r['prompt_version'] ?? '?')}` },
    { label: 'Model', cell: (r) => `${String(r['provider'] ?? '—')} ${String(r['model'] ?? '')}` },
    { label: 'Status', cell: (r) => badge(String(r['status'])) },
    { label: 'Turns', numeric: true, cell: (r) => fmtInt(Number(r['turn_count'] ?? 0)) },
    { label: 'Pass rate', numeric: true, cell: (r) => fmtPct(Number(r['pass_rate'] ?? 0)) },
  ],
  list.tests as Row[],
  'No test conversation yet.',
)}`;
    return sendPage(ctx, request, reply, { title: 'Conversations', section: '/conversations', body });
  });
}
