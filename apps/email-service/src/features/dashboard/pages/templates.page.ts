// Email templates (spec 001 dashboard email/templates with new and [id]/edit): the list, a form checked by
// the admin API's own schema (templateBody), a live render of subject, HTML and text with sample values for
// each variable, and the version history with a line diff between any two versions and rollback.
//
// The render is a document of its own (GET/POST .../preview): email HTML carries inline styles, so it is
// shown in a sandboxed frame whose CSP allows inline style and nothing else (no script, no network), while
// every dashboard page keeps its strict CSP.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EMAIL_CATEGORIES } from '@story/db';
import { escapeHtml, renderTemplate } from '@story/email';
import { AppError } from '@story/http';
import { lineDiff, type DiffLine } from '../../admin-ai/line-diff';
import { removalsFirst } from '../diff-order';
import type { TemplateView, TemplateVersionView } from '../../templates/templates.service';
import { badge, checkbox, field, fmtInt, formErrors, pagination, readOnlyNote, select, table, textarea, time, type FieldErrors } from '../components';
import { actorOf, csrfTokenOf, isAdmin, noticeOf, offsetOf, pageRoute, requireAdmin, sendPage, str, type DashboardContext } from '../dashboard.context';
import { html, queryString, type Html } from '../html';
import { BASE, csrfField } from '../layout';
import { defaultsOf, formOfBody, formOfTemplate, parseTemplateForm, samplesOf, variablesOf, words, type TemplateForm } from './templates.form';

const PAGE_SIZE = 25;
const T = `${BASE}/email/templates`;

/** The CSP of the rendered email: inline style (emails need it), images only inline, no script, no network, sandboxed. */
export const PREVIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; sandbox; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

/**
 * The email as a recipient would see it, with the subject and text version above it. The HTML body is the
 * template's own markup with every variable escaped (libs/email renderTemplate); everything else is escaped.
 */
function sendPreview(reply: FastifyReply, form: TemplateForm, samples: Record<string, string>) {
  const merged: Record<string, unknown> = { ...defaultsOf(form), ...Object.fromEntries(Object.entries(samples).filter(([, v]) => v !== '')) };
  const missing = words(form.required_variables).filter((n) => merged[n] === undefined || String(merged[n]).trim() === '');
  const subject = renderTemplate(form.subject_template, merged, { escapeHtml: false }).replace(/[\r\n]+/g, ' ').trim();
  const body = renderTemplate(form.html_template, merged, { escapeHtml: true });
  const text = form.text_template ? renderTemplate(form.text_template, merged, { escapeHtml: false }) : null;
  const doc = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Preview: ${escapeHtml(subject)}</title>
<style>.pv-meta{font:14px/1.4 system-ui,sans-serif;background:#f3f4f6;border-bottom:1px solid #ccc;padding:8px 12px;margin:0 0 12px}.pv-meta p{margin:2px 0}.pv-warn{color:#8a1c1c}.pv-text{font:13px/1.4 ui-monospace,monospace;white-space:pre-wrap;border-top:1px solid #ccc;margin-top:16px;padding:8px 12px}</style>
</head><body><div class="pv-meta"><p><strong>Subject:</strong> ${escapeHtml(subject)}</p>${
    missing.length ? `<p class="pv-warn">Missing required variables: ${escapeHtml(missing.join(', '))}; a send would be refused.</p>` : ''
  }</div>${body}${text !== null ? `<div class="pv-text"><strong>Text version</strong>\n${escapeHtml(text)}</div>` : ''}</body></html>`;
  return reply
    .header('content-security-policy', PREVIEW_CSP)
    .header('x-frame-options', 'SAMEORIGIN')
    .type('text/html; charset=utf-8')
    .send(doc);
}

function previewFrame(src: string | null): Html {
  return html`<section class="card preview-pane" aria-labelledby="render-title"><h2 id="render-title">Live render</h2>
<iframe name="template-preview" title="Rendered email" sandbox ${src ? html`src="${src}"` : ''} class="render"></iframe></section>`;
}

function templateForm(request: FastifyRequest, ctx: DashboardContext, form: TemplateForm, options: { id?: string; errors?: FieldErrors; message?: string }): Html {
  const token = csrfTokenOf(ctx, request);
  const samples = defaultsOf(form);
  const vars = variablesOf(form);
  const action = options.id ? `${T}/${options.id}` : T;
  return html`${formErrors(options.errors, options.message)}
<div class="split">
<form method="post" action="${action}" class="card" data-live-preview>
${csrfField(token)}
${field({ label: 'Name', name: 'name', value: form.name, required: true, errors: options.errors, hint: 'identifier-style (welcome_email); automation sends by this name' })}
${field({ label: 'Display name', name: 'display_name', value: form.display_name, errors: options.errors })}
${field({ label: 'Description', name: 'description', value: form.description, errors: options.errors })}
${select({ label: 'Category', name: 'category', value: form.category || 'transactional', options: EMAIL_CATEGORIES, errors: options.errors })}
${field({ label: 'Subject', name: 'subject_template', value: form.subject_template, required: true, errors: options.errors, hint: 'May use {{variable}}' })}
${textarea({ label: 'HTML body', name: 'html_template', value: form.html_template, required: true, rows: 12, errors: options.errors, attrs: html` class="mono" spellcheck="false"` })}
${textarea({ label: 'Text body', name: 'text_template', value: form.text_template, rows: 6, errors: options.errors, attrs: html` class="mono"` })}
${textarea({ label: 'Available variables', name: 'available_variables', value: form.available_variables, rows: 3, errors: options.errors, hint: 'One per line: name: description' })}
${textarea({ label: 'Default values', name: 'default_variables', value: form.default_variables, rows: 3, errors: options.errors, hint: 'One per line: name = value (used when a trigger gives none)' })}
${field({ label: 'Required variables', name: 'required_variables', value: form.required_variables, errors: options.errors, hint: 'Names separated by commas; each must appear as {{name}}' })}
${field({ label: 'Trigger events', name: 'trigger_events', value: form.trigger_events, errors: options.errors, hint: 'e.g. story_created, story_reminder' })}
${field({ label: 'Send delay (hours)', name: 'send_delay_hours', type: 'number', value: form.send_delay_hours, errors: options.errors, attrs: html` min="0" max="8760"` })}
${field({ label: 'Most sends per user', name: 'max_sends_per_user', type: 'number', value: form.max_sends_per_user, errors: options.errors, hint: 'Empty: no cap', attrs: html` min="1"` })}
${checkbox({ label: 'Active', name: 'is_active', checked: form.is_active })}
<fieldset><legend>Sample values for the render</legend>
${vars.length ? vars.map((v) => field({ label: v, name: `var.${v}`, value: samples[v] ?? '' })) : html`<p class="hint">No {{variables}} yet.</p>`}
</fieldset>
<div class="actions">
<button type="submit">${options.id ? 'Save: new version' : 'Create template'}</button>
<button type="submit" class="secondary" formaction="${T}/preview" formtarget="template-preview" data-preview-button>Render preview</button>
</div>
</form>
${previewFrame(options.id ? `${T}/${options.id}/preview` : null)}
</div>`;
}

/** A line diff, unless the changed middle is too large to compare line by line in a request (then say so). */
function diffBlock(label: string, a: string, b: string): Html {
  const x = a.split('\n');
  const y = b.split('\n');
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  if ((x.length - head - tail) * (y.length - head - tail) > 1_000_000) return html`<h3>${label}</h3><p>Too many changed lines to compare line by line here.</p>`;
  const { lines: diff, added, removed } = lineDiff(a, b);
  if (added === 0 && removed === 0) return html`<h3>${label}</h3><p>No change.</p>`;
  const sign = (l: DiffLine) => (l.op === 'add' ? '+' : l.op === 'remove' ? '−' : ' ');
  return html`<h3>${label} <small>(+${added} −${removed})</small></h3>
<div class="table-wrap" tabindex="0" role="region" aria-label="${label} diff"><table class="diff"><caption class="visually-hidden">${label}: lines added and removed</caption>
<thead><tr><th scope="col">Old</th><th scope="col">New</th><th scope="col">Line</th></tr></thead>
<tbody>${removalsFirst(diff).map((l) => html`<tr class="diff-${l.op}"><td class="num">${l.oldLine ?? ''}</td><td class="num">${l.newLine ?? ''}</td><td><code><span class="visually-hidden">${l.op === 'add' ? 'added: ' : l.op === 'remove' ? 'removed: ' : ''}</span><span aria-hidden="true">${sign(l)} </span>${l.text}</code></td></tr>`)}</tbody>
</table></div>`;
}

export async function templatesPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  const { templates } = ctx.services;

  app.get('/email', pageRoute(ctx, 'dashboardTemplates', 'Email templates'), async (request, reply) => {
    const search = (str(request.query, 'search') ?? '').trim().slice(0, 200);
    const categoryRaw = str(request.query, 'category') ?? '';
    const category = (EMAIL_CATEGORIES as readonly string[]).includes(categoryRaw) ? categoryRaw : undefined;
    const statusRaw = str(request.query, 'status');
    const status = statusRaw === 'active' || statusRaw === 'inactive' ? statusRaw : 'all';
    const offset = offsetOf(request.query);
    const result = await templates.list({ search: search || undefined, category, status, limit: PAGE_SIZE, offset });
    const body = html`${isAdmin(request) ? html`<p><a class="button" href="${T}/new">New template</a></p>` : readOnlyNote('create or edit templates')}
<form method="get" action="${BASE}/email" class="filters" role="search">
${field({ label: 'Name or description', name: 'search', type: 'search', value: search })}
${select({ label: 'Category', name: 'category', value: category ?? '', options: [{ value: '', label: 'All categories' }, ...EMAIL_CATEGORIES] })}
${select({ label: 'Status', name: 'status', value: status, options: ['all', 'active', 'inactive'] })}
<button type="submit">Find</button>
</form>
${table(
  'Templates, newest first',
  [
    { label: 'Name', cell: (t: TemplateView) => html`<a href="${T}/${t.id}">${t.name}</a>` },
    { label: 'Display name', cell: (t) => t.display_name ?? '—' },
    { label: 'Category', cell: (t) => t.category },
    { label: 'State', cell: (t) => html`${badge(t.is_active ? 'active' : 'inactive')}${t.is_system ? html` ${badge('system')}` : ''}` },
    { label: 'Version', numeric: true, cell: (t) => t.current_version },
    { label: 'Sent', numeric: true, cell: (t) => fmtInt(t.total_sent) },
    { label: 'Opened', numeric: true, cell: (t) => fmtInt(t.total_opened) },
    { label: 'Updated', cell: (t) => time(t.updated_at) },
  ],
  result.templates,
  'No template matches.',
)}
${pagination(`${BASE}/email`, { search, category, status: status === 'all' ? undefined : status }, result.pagination)}`;
    return sendPage(ctx, request, reply, { title: 'Email templates', section: '/email', body, flash: noticeOf(request.query) });
  });

  app.get('/email/templates/new', pageRoute(ctx, 'dashboardNewTemplate', 'Form for a new email template (admin)'), async (request, reply) => {
    requireAdmin(request);
    const form: TemplateForm = { name: '', display_name: '', description: '', category: 'transactional', subject_template: '', html_template: '', text_template: '', available_variables: '', default_variables: '', required_variables: '', trigger_events: '', send_delay_hours: '0', max_sends_per_user: '', is_active: true };
    return sendPage(ctx, request, reply, { title: 'New email template', section: '/email', body: templateForm(request, ctx, form, {}) });
  });

  app.post('/email/templates', pageRoute(ctx, 'dashboardCreateTemplate', 'Create an email template (admin)'), async (request, reply) => {
    requireAdmin(request);
    const form = formOfBody(request.body);
    const { input, errors } = parseTemplateForm(form);
    const refuse = (errs: FieldErrors, message: string | undefined, status: number) =>
      sendPage(ctx, request, reply, { title: 'New email template', section: '/email', status, body: templateForm(request, ctx, form, { errors: errs, message }) });
    if (!input) return refuse(errors, undefined, 400);
    try {
      const created = await templates.create(input, actorOf(request));
      return reply.redirect(`${T}/${created.id}${queryString({ saved: 'template' })}`, 303);
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return refuse({ [(err.details as { field?: string } | undefined)?.field ?? err.field ?? 'name']: err.message }, `Nothing was saved: ${err.message}`, err.status);
      throw err;
    }
  });

  // The render of a form as it is being edited (posted into the preview frame); nothing is saved.
  app.post('/email/templates/preview', pageRoute(ctx, 'dashboardTemplatePreview', 'Render a template draft with sample values (nothing is saved)'), async (request, reply) => {
    return sendPreview(reply, formOfBody(request.body), samplesOf(request.body));
  });

  app.get('/email/templates/:id', pageRoute(ctx, 'dashboardTemplate', 'One email template: edit form and live render'), async (request, reply) => {
    const { id } = request.params as { id: string };
    const t = await templates.get(id);
    const form = formOfTemplate(t);
    const info = html`<p class="meta">Version ${t.current_version}, updated ${time(t.updated_at)}. <a href="${T}/${t.id}/history">Version history, diff and rollback</a></p>`;
    const body = isAdmin(request)
      ? html`${info}${templateForm(request, ctx, form, { id: t.id })}`
      : html`${info}${readOnlyNote('edit templates')}<div class="split"><dl class="facts">
<div><dt>Name</dt><dd>${t.name}</dd></div><div><dt>Category</dt><dd>${t.category}</dd></div><div><dt>Subject</dt><dd>${t.subject_template}</dd></div>
<div><dt>Required variables</dt><dd>${t.required_variables.join(', ') || '—'}</dd></div><div><dt>Trigger events</dt><dd>${t.trigger_events.join(', ') || '—'}</dd></div></dl>
${previewFrame(`${T}/${t.id}/preview`)}</div>`;
    return sendPage(ctx, request, reply, { title: `Template ${t.name}`, section: '/email', body, flash: noticeOf(request.query) });
  });

  app.get('/email/templates/:id/preview', pageRoute(ctx, 'dashboardSavedTemplatePreview', 'The saved template rendered with its default values'), async (request, reply) => {
    const { id } = request.params as { id: string };
    return sendPreview(reply, formOfTemplate(await templates.get(id)), {});
  });

  app.post('/email/templates/:id', pageRoute(ctx, 'dashboardUpdateTemplate', 'Save an email template as a new version (admin)'), async (request, reply) => {
    requireAdmin(request);
    const { id } = request.params as { id: string };
    const current = await templates.get(id);
    const form = formOfBody(request.body);
    const { input, errors } = parseTemplateForm(form);
    const refuse = (errs: FieldErrors, message: string | undefined, status: number) =>
      sendPage(ctx, request, reply, { title: `Template ${current.name}`, section: '/email', status, body: templateForm(request, ctx, form, { id, errors: errs, message }) });
    if (!input) return refuse(errors, undefined, 400);
    try {
      await templates.update(id, input, actorOf(request));
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return refuse({ [(err.details as { field?: string } | undefined)?.field ?? err.field ?? 'name']: err.message }, `Nothing was saved: ${err.message}`, err.status);
      throw err;
    }
    return reply.redirect(`${T}/${id}${queryString({ saved: 'template' })}`, 303);
  });

  app.get('/email/templates/:id/history', pageRoute(ctx, 'dashboardTemplateHistory', 'Version history of an email template, with diff'), async (request, reply) => {
    const { id } = request.params as { id: string };
    const { template: t, versions } = await templates.versions(id);
    const known = new Set(versions.map((v) => v.version));
    const pick = (name: string, fallback: number | undefined) => {
      const n = Number(str(request.query, name));
      return Number.isInteger(n) && known.has(n) ? n : fallback;
    };
    const to = pick('to', versions[0]?.version);
    const from = pick('from', versions[1]?.version ?? to);
    const a = versions.find((v) => v.version === from);
    const b = versions.find((v) => v.version === to);
    const admin = isAdmin(request);
    const token = admin ? csrfTokenOf(ctx, request) : '';
    const options = versions.map((v) => ({ value: String(v.version), label: `v${v.version}` }));
    const body = html`<p><a href="${T}/${t.id}">Back to the template</a></p>
${table(
  'Versions, newest first',
  [
    { label: 'Version', numeric: true, cell: (v: TemplateVersionView) => html`v${v.version}${v.version === t.current_version ? html` ${badge('current')}` : ''}` },
    { label: 'Saved', cell: (v) => time(v.created_at) },
    { label: 'Note', cell: (v) => v.change_note ?? '—' },
    { label: 'Subject', cell: (v) => v.subject_template },
    {
      label: 'Rollback',
      cell: (v) =>
        v.version === t.current_version
          ? '—'
          : admin
            ? html`<form method="post" action="${T}/${t.id}/rollback" class="inline">${csrfField(token)}<input type="hidden" name="version" value="${v.version}"><button type="submit" class="small" data-confirm="Make v${v.version}'s content current again (as a new version)?">Roll back to v${v.version}</button></form>`
            : 'admin only',
    },
  ],
  versions,
)}
<section aria-labelledby="diff"><h2 id="diff">Compare versions</h2>
<form method="get" action="${T}/${t.id}/history" class="filters">
${select({ label: 'From', name: 'from', value: String(from ?? ''), options })}
${select({ label: 'To', name: 'to', value: String(to ?? ''), options })}
<button type="submit">Compare</button>
</form>
${a && b ? html`<p>Changes from v${a.version} to v${b.version}:</p>${diffBlock('Subject', a.subject_template, b.subject_template)}${diffBlock('HTML body', a.html_template, b.html_template)}${diffBlock('Text body', a.text_template ?? '', b.text_template ?? '')}` : html`<p>Only one version so far.</p>`}
</section>`;
    return sendPage(ctx, request, reply, { title: `History of ${t.name}`, section: '/email', body });
  });

  app.post('/email/templates/:id/rollback', pageRoute(ctx, 'dashboardRollbackTemplate', 'Make an earlier version current again (admin)'), async (request, reply) => {
    requireAdmin(request);
    const { id } = request.params as { id: string };
    const version = Number(str(request.body, 'version'));
    if (!Number.isInteger(version) || version < 1) throw new AppError('validation', 'Choose a version to roll back to', { field: 'version' });
    await templates.rollback(id, version, actorOf(request));
    return reply.redirect(`${T}/${id}${queryString({ saved: 'rollback' })}`, 303);
  });
}
