// A/B tests (spec 001 dashboard email/ab-test, "A/B test" resource): every test with its arms, winner,
// confidence and whether the difference is significant (the z-test of ab-tests.stats.ts), and the form that
// creates one: a variant template copied from a base and a running test, in one transaction.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AB_SUCCESS_METRICS, AB_TEST_STATUSES } from '@story/db';
import { AppError } from '@story/http';
import { createBody } from '../../ab-tests/ab-tests.routes';
import type { CreateAbTestInput } from '../../ab-tests/ab-tests.service';
import { badge, field, fmtInt, fmtPct, formErrors, pagination, readOnlyNote, select, table, textarea, time, type FieldErrors } from '../components';
import { actorOf, csrfTokenOf, isAdmin, noticeOf, offsetOf, pageRoute, requireAdmin, sendPage, str, type DashboardContext } from '../dashboard.context';
import { html, queryString } from '../html';
import { BASE, csrfField } from '../layout';

const PAGE = `${BASE}/email/ab-test`;
const PAGE_SIZE = 20;

type Form = Record<'base_template_id' | 'variant_name' | 'variant_display_name' | 'variant_subject' | 'variant_html' | 'variant_text' | 'test_percentage' | 'test_duration_days' | 'success_metric', string>;

const FIELDS = ['base_template_id', 'variant_name', 'variant_display_name', 'variant_subject', 'variant_html', 'variant_text', 'test_percentage', 'test_duration_days', 'success_metric'] as const;

function parse(form: Form): { input: CreateAbTestInput | null; errors: FieldErrors } {
  const number = (v: string) => (/^\d+$/.test(v.trim()) ? Number(v) : Number.NaN);
  const parsed = createBody.safeParse({
    base_template_id: form.base_template_id,
    variant_name: form.variant_name.trim(),
    variant_display_name: form.variant_display_name.trim() || null,
    variant_subject: form.variant_subject,
    variant_html: form.variant_html,
    variant_text: form.variant_text === '' ? null : form.variant_text,
    test_percentage: number(form.test_percentage),
    test_duration_days: number(form.test_duration_days),
    success_metric: form.success_metric,
  });
  if (parsed.success) return { input: parsed.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'base_template_id')] ??= issue.message;
  return { input: null, errors };
}

export async function abTestsPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  const { abTests, templates } = ctx.services;

  async function render(request: FastifyRequest, form: Form, extra: { errors?: FieldErrors; message?: string } = {}) {
    const statusRaw = str(request.query, 'status');
    const status = (AB_TEST_STATUSES as readonly string[]).includes(statusRaw ?? '') ? (statusRaw as (typeof AB_TEST_STATUSES)[number]) : undefined;
    const offset = offsetOf(request.query);
    const list = await abTests.list({ status, limit: PAGE_SIZE, offset });
    type Row = (typeof list.ab_tests)[number];
    const arm = (label: string, s: Row['results']['base_stats']) => html`<span class="arm">${label}: ${fmtInt(s.sent)} sent, ${fmtPct(s.open_rate)} opened, ${fmtPct(s.click_rate)} clicked</span>`;
    const listing = html`<form method="get" action="${PAGE}" class="filters">
${select({ label: 'Status', name: 'status', value: status ?? '', options: [{ value: '', label: 'Any status' }, ...AB_TEST_STATUSES] })}
<button type="submit">Filter</button></form>
${table(
  'A/B tests, newest first',
  [
    { label: 'Test', cell: (t: Row) => html`${t.name}<br><small>${t.base_template.name} vs <a href="${BASE}/email/templates/${t.variant_template.id}">${t.variant_template.name}</a></small>` },
    { label: 'Status', cell: (t) => badge(t.status) },
    { label: 'Split', numeric: true, cell: (t) => `${t.test_percentage}% variant` },
    { label: 'Metric', cell: (t) => t.success_metric },
    { label: 'Arms', cell: (t) => html`${arm('Base', t.results.base_stats)}<br>${arm('Variant', t.results.variant_stats)}` },
    {
      label: 'Result',
      cell: (t) =>
        html`${t.results.is_significant ? badge('significant') : badge('not significant', 'pending')} ${t.results.winner ? html`winner: <strong>${t.results.winner}</strong>, ` : ''}confidence ${fmtPct(t.results.confidence)}, change ${t.results.improvement}, ${fmtInt(t.results.total_samples)} samples`,
    },
    { label: 'Runs', cell: (t) => html`${time(t.start_date)} to ${time(t.end_date)}` },
  ],
  list.ab_tests,
  'No A/B test yet.',
)}
${pagination(PAGE, { status }, { total: list.total, limit: PAGE_SIZE, offset })}`;
    if (!isAdmin(request)) return html`${readOnlyNote('start A/B tests')}${listing}`;
    const bases = await templates.list({ status: 'active', limit: 100, offset: 0 });
    const create = html`<section aria-labelledby="new-test"><h2 id="new-test">Start a test</h2>
${formErrors(extra.errors, extra.message)}
<form method="post" action="${PAGE}" class="card">
${csrfField(csrfTokenOf(ctx, request))}
${select({ label: 'Base template', name: 'base_template_id', value: form.base_template_id, errors: extra.errors, options: [{ value: '', label: 'Choose a template' }, ...bases.templates.map((t) => ({ value: t.id, label: `${t.display_name ?? t.name} (${t.name})` }))] })}
${field({ label: 'Variant name', name: 'variant_name', value: form.variant_name, required: true, errors: extra.errors, hint: 'identifier-style, e.g. welcome_email_b; becomes a new template' })}
${field({ label: 'Variant display name', name: 'variant_display_name', value: form.variant_display_name, errors: extra.errors })}
${field({ label: 'Variant subject', name: 'variant_subject', value: form.variant_subject, required: true, errors: extra.errors })}
${textarea({ label: 'Variant HTML', name: 'variant_html', value: form.variant_html, required: true, rows: 8, errors: extra.errors, attrs: html` class="mono"` })}
${textarea({ label: 'Variant text', name: 'variant_text', value: form.variant_text, rows: 4, errors: extra.errors })}
${field({ label: 'Share of sends to the variant (%)', name: 'test_percentage', type: 'number', value: form.test_percentage, required: true, errors: extra.errors, attrs: html` min="1" max="99"` })}
${field({ label: 'Duration (days)', name: 'test_duration_days', type: 'number', value: form.test_duration_days, required: true, errors: extra.errors, attrs: html` min="1" max="90"` })}
${select({ label: 'Success metric', name: 'success_metric', value: form.success_metric, options: AB_SUCCESS_METRICS, errors: extra.errors })}
<button type="submit">Start test</button>
</form></section>`;
    return html`${listing}${create}`;
  }

  const emptyForm: Form = { base_template_id: '', variant_name: '', variant_display_name: '', variant_subject: '', variant_html: '', variant_text: '', test_percentage: '50', test_duration_days: '14', success_metric: 'open_rate' };

  app.get('/email/ab-test', pageRoute(ctx, 'dashboardAbTests', 'A/B tests with their results and significance'), async (request, reply) => {
    return sendPage(ctx, request, reply, { title: 'A/B tests', section: '/email/ab-test', body: await render(request, emptyForm), flash: noticeOf(request.query) });
  });

  app.post('/email/ab-test', pageRoute(ctx, 'dashboardCreateAbTest', 'Start an A/B test (admin)'), async (request, reply) => {
    requireAdmin(request);
    const form = Object.fromEntries(FIELDS.map((f) => [f, str(request.body, f) ?? ''])) as Form;
    const { input, errors } = parse(form);
    if (!input) return sendPage(ctx, request, reply, { title: 'A/B tests', section: '/email/ab-test', status: 400, body: await render(request, form, { errors }) });
    try {
      await abTests.create(input, actorOf(request));
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        const fieldName = (err.details as { field?: string } | undefined)?.field ?? (err.status === 404 || err.status === 409 ? 'base_template_id' : 'variant_name');
        return sendPage(ctx, request, reply, { title: 'A/B tests', section: '/email/ab-test', status: err.status, body: await render(request, form, { errors: { [fieldName]: err.message }, message: `Nothing was saved: ${err.message}` }) });
      }
      throw err;
    }
    return reply.redirect(`${PAGE}${queryString({ saved: 'abtest' })}`, 303);
  });
}
