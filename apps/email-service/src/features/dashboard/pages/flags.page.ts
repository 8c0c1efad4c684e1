// Feature flags (spec 001 dashboard feature-flags, CONTRACTS §7): every flag with its rollout, and one flag's
// form (switch, rollout percentage, per-user overrides, A/B variants) with a preview of who it reaches,
// computed by the evaluator itself over every account (flag-preview.ts). The save goes through the admin
// API's service: the whole flag, its audit row and the cache NOTIFY in one transaction.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '@story/http';
import { auditMeta } from '../../admin/request-meta';
import type { FlagInput, FlagView } from '../../admin/feature-flags/feature-flags.service';
import { badge, checkbox, field, fmtInt, fmtPct, formErrors, readOnlyNote, table, textarea, time, type FieldErrors } from '../components';
import { csrfTokenOf, isAdmin, noticeOf, pageRoute, requireAdmin, sendPage, str, type DashboardContext } from '../dashboard.context';
import type { FlagDraft } from '../flag-preview';
import { html, queryString } from '../html';
import { BASE, csrfField } from '../layout';

const KEY = /^[a-z][a-z0-9_.-]*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form's text fields, as typed (kept to show them again when something is wrong). */
export interface FlagForm {
  key: string;
  description: string;
  enabled: boolean;
  rolloutPercentage: string;
  /** One override per line: `<user id or email> on|off [reason]`. */
  overrides: string;
  /** One variant per line: `<name> <weight>`. */
  variants: string;
}

const formOfFlag = (f: FlagView): FlagForm => ({
  key: f.key,
  description: f.description ?? '',
  enabled: f.enabled,
  rolloutPercentage: String(f.rolloutPercentage),
  overrides: f.overrides.map((o) => `${o.userId} ${o.enabled ? 'on' : 'off'}${o.reason ? ` ${o.reason}` : ''}`).join('\n'),
  variants: (f.variants ?? []).map((v) => `${v.name} ${v.weight}`).join('\n'),
});

export function formOfBody(body: unknown): FlagForm {
  const enabled = str(body, 'enabled');
  return {
    key: (str(body, 'key') ?? '').trim(),
    description: str(body, 'description') ?? '',
    enabled: enabled === 'on' || enabled === 'true',
    rolloutPercentage: (str(body, 'rolloutPercentage') ?? '').trim(),
    overrides: str(body, 'overrides') ?? '',
    variants: str(body, 'variants') ?? '',
  };
}

const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);

/**
 * The flag a form describes, or what is wrong with it, field by field. Emails in override lines are looked up
 * (an unknown one is an error); the service checks the rest again (duplicates, unknown ids, weights).
 */
export async function parseFlagForm(ctx: DashboardContext, form: FlagForm): Promise<{ input: FlagInput | null; errors: FieldErrors }> {
  const errors: FieldErrors = {};
  if (!KEY.test(form.key) || form.key.length > 100) errors['key'] = 'lowercase letters, digits, _ . or -, starting with a letter (at most 100)';
  if (form.description.length > 1000) errors['description'] = 'at most 1000 characters';
  const rollout = Number(form.rolloutPercentage);
  if (form.rolloutPercentage === '' || !Number.isInteger(rollout) || rollout < 0 || rollout > 100) errors['rolloutPercentage'] = 'a whole number between 0 and 100';

  const overrideLines = lines(form.overrides);
  const parsedOverrides: { who: string; enabled: boolean; reason: string | null }[] = [];
  for (const [i, line] of overrideLines.entries()) {
    const m = /^(\S+)\s+(on|off|true|false)(?:\s+(.{1,500}))?$/i.exec(line);
    if (!m) {
      errors['overrides'] = `line ${i + 1}: write "<user id or email> on" or "<user id or email> off", then an optional reason`;
      break;
    }
    const [, who = '', state = '', reason] = m;
    parsedOverrides.push({ who: who.toLowerCase(), enabled: /^(on|true)$/i.test(state), reason: reason?.trim() || null });
  }
  if (overrideLines.length > 10_000) errors['overrides'] = 'at most 10,000 overrides';
  const emails = parsedOverrides.filter((o) => !UUID.test(o.who)).map((o) => o.who);
  const ids = await ctx.repo.accountIdsByEmails(emails);
  const unknown = emails.filter((e) => !ids.has(e));
  if (!errors['overrides'] && unknown.length) errors['overrides'] = `no account with the email ${unknown.slice(0, 3).join(', ')}`;

  const variantLines = lines(form.variants);
  const variants: { name: string; weight: number }[] = [];
  for (const [i, line] of variantLines.entries()) {
    const m = /^(\S{1,50})\s+(\d{1,5})$/.exec(line);
    if (!m || Number(m[2]) > 10_000) {
      errors['variants'] = `line ${i + 1}: write "<name> <weight>", the weight a whole number from 0 to 10000`;
      break;
    }
    const [, name = '', weight = '0'] = m;
    variants.push({ name, weight: Number(weight) });
  }
  if (variantLines.length > 20) errors['variants'] = 'at most 20 variants';
  if (Object.keys(errors).length) return { input: null, errors };
  return {
    input: {
      key: form.key,
      description: form.description.trim() || null,
      enabled: form.enabled,
      rolloutPercentage: rollout,
      // Every email was found above (an unknown one is an error), so each override has its id.
      overrides: parsedOverrides.map((o) => ({ userId: UUID.test(o.who) ? o.who : (ids.get(o.who) ?? o.who), enabled: o.enabled, reason: o.reason })),
      variants: variants.length ? variants : null,
    },
    errors,
  };
}

const draftOf = (input: FlagInput): FlagDraft => ({
  key: input.key,
  enabled: input.enabled,
  rolloutPercentage: input.rolloutPercentage,
  overrides: input.overrides.map((o) => ({ userId: o.userId, enabled: o.enabled })),
  variants: input.variants ?? null,
});

/** The preview of a draft with the sample's addresses, as the page and the JSON endpoint show it. */
async function previewOf(ctx: DashboardContext, draft: FlagDraft) {
  const p = await ctx.flagPreview.preview(draft);
  const people = await ctx.repo.accountsByIds(p.sample);
  return { ...p, percent: p.total ? p.reached / p.total : 0, sample: p.sample.map((id) => ({ id, email: people.get(id)?.email ?? id })) };
}

function previewSection(p: Awaited<ReturnType<typeof previewOf>>) {
  return html`<section class="card preview" aria-labelledby="preview-title" aria-live="polite" data-preview-root>
<h2 id="preview-title">Who it reaches</h2>
<p><strong data-preview="reached">${fmtInt(p.reached)}</strong> of <span data-preview="total">${fmtInt(p.total)}</span> accounts (<span data-preview="percent">${fmtPct(p.percent)}</span>), by the same stable hash of key and account id the services evaluate. Accounts listed ${time(p.populationAt)}.</p>
<div data-preview="variants">${p.variants ? html`<p>Per variant: ${Object.entries(p.variants).map(([n, c], i) => html`${i ? ', ' : ''}${n} ${fmtInt(c)}`)}</p>` : ''}</div>
<h3>Sample</h3>
<ul data-preview="sample">${p.sample.map((s) => html`<li><a href="${BASE}/users/${s.id}">${s.email}</a></li>`)}</ul>
<p data-preview="none"${p.sample.length ? html` hidden` : ''}>Nobody.</p>
</section>`;
}

export async function flagsPages(app: FastifyInstance, ctx: DashboardContext): Promise<void> {
  const { flags } = ctx.services;

  app.get('/feature-flags', pageRoute(ctx, 'dashboardFlags', 'Every feature flag with its rollout'), async (request, reply) => {
    const all = await flags.list();
    const body = html`${isAdmin(request) ? html`<p><a class="button" href="${BASE}/feature-flags/new">New flag</a></p>` : readOnlyNote('create or change flags')}
${table(
  'Feature flags',
  [
    { label: 'Key', cell: (f: FlagView) => html`<a href="${BASE}/feature-flags/${f.key}">${f.key}</a>` },
    { label: 'Description', cell: (f) => f.description ?? '—' },
    { label: 'Switch', cell: (f) => badge(f.enabled ? 'on' : 'off') },
    { label: 'Rollout', numeric: true, cell: (f) => `${f.rolloutPercentage}%` },
    { label: 'Overrides', numeric: true, cell: (f) => fmtInt(f.overrides.length) },
    { label: 'Variants', cell: (f) => (f.variants ? f.variants.map((v) => `${v.name} (${v.weight})`).join(', ') : '—') },
    { label: 'Updated', cell: (f) => time(f.updatedAt) },
  ],
  all,
  'No flags yet.',
)}`;
    return sendPage(ctx, request, reply, { title: 'Feature flags', section: '/feature-flags', body, flash: noticeOf(request.query) });
  });

  async function editPage(request: FastifyRequest, form: FlagForm, options: { creating: boolean; errors?: FieldErrors; message?: string; draft?: FlagDraft | null }) {
    const admin = isAdmin(request);
    const draft = options.draft;
    const preview = draft ? await previewOf(ctx, draft) : null;
    const title = options.creating ? 'New feature flag' : `Feature flag ${form.key}`;
    if (!admin) {
      const body = html`${readOnlyNote('change flags')}
<dl class="facts"><div><dt>Key</dt><dd>${form.key}</dd></div><div><dt>Description</dt><dd>${form.description || '—'}</dd></div>
<div><dt>Switch</dt><dd>${badge(form.enabled ? 'on' : 'off')}</dd></div><div><dt>Rollout</dt><dd>${form.rolloutPercentage}%</dd></div></dl>
${textarea({ label: 'Overrides', name: 'overrides', value: form.overrides, attrs: html` readonly` })}
${textarea({ label: 'Variants', name: 'variants', value: form.variants, attrs: html` readonly` })}
${preview ? previewSection(preview) : ''}`;
      return { title, body };
    }
    const token = csrfTokenOf(ctx, request);
    const body = html`${formErrors(options.errors, options.message)}
<div class="split">
<form method="post" action="${BASE}/feature-flags" class="card" data-flag-preview="${BASE}/feature-flags/preview.json">
${csrfField(token)}
${options.creating ? field({ label: 'Key', name: 'key', value: form.key, required: true, errors: options.errors, hint: 'lowercase letters, digits, _ . or -; services read the flag by this key' }) : html`<input type="hidden" name="key" value="${form.key}"><p>Key: <code>${form.key}</code></p>`}
${field({ label: 'Description', name: 'description', value: form.description, errors: options.errors })}
${checkbox({ label: 'Switched on', name: 'enabled', checked: form.enabled, hint: 'Off: false for everyone without an override.' })}
${field({ label: 'Rollout percentage', name: 'rolloutPercentage', type: 'number', value: form.rolloutPercentage, required: true, errors: options.errors, attrs: html` min="0" max="100" step="1" inputmode="numeric"`, hint: 'Raising it only adds accounts; lowering it only removes them.' })}
${textarea({ label: 'Overrides', name: 'overrides', value: form.overrides, rows: 5, errors: options.errors, hint: 'One per line: an account id or email, then on or off, then an optional reason. An override beats the rollout.' })}
${textarea({ label: 'A/B variants', name: 'variants', value: form.variants, rows: 3, errors: options.errors, hint: 'Optional. One per line: a name and a weight, e.g. "control 1". Accounts in the rollout get a variant by weight.' })}
<div class="actions">
<button type="submit">Save flag</button>
<button type="submit" class="secondary" formaction="${BASE}/feature-flags/preview" name="preview" value="1">Preview who it reaches</button>
</div>
</form>
${preview ? previewSection(preview) : html`<section class="card preview" data-preview-root aria-live="polite"><h2>Who it reaches</h2><p>Fix the form to see a preview.</p></section>`}
</div>`;
    return { title, body };
  }

  app.get('/feature-flags/new', pageRoute(ctx, 'dashboardNewFlag', 'Form for a new feature flag (admin)'), async (request, reply) => {
    requireAdmin(request);
    const form: FlagForm = { key: '', description: '', enabled: false, rolloutPercentage: '0', overrides: '', variants: '' };
    const page = await editPage(request, form, { creating: true, draft: { key: 'new', enabled: false, rolloutPercentage: 0, overrides: [], variants: null } });
    return sendPage(ctx, request, reply, { ...page, section: '/feature-flags' });
  });

  // JSON for the page's script: the preview of the form as it is being edited (a read; nothing is saved).
  app.get('/feature-flags/preview.json', pageRoute(ctx, 'dashboardFlagPreview', 'Who a flag draft reaches (JSON for the page script)'), async (request, reply) => {
    const { input, errors } = await parseFlagForm(ctx, formOfBody(request.query));
    if (!input) return reply.status(400).type('application/json; charset=utf-8').send(JSON.stringify({ error: 'Invalid flag', code: 'VALIDATION_ERROR', details: { invalid_fields: errors } }));
    const p = await previewOf(ctx, draftOf(input));
    return reply.type('application/json; charset=utf-8').send(JSON.stringify({ reached: p.reached, total: p.total, percent: p.percent, variants: p.variants, sample: p.sample }));
  });

  app.get('/feature-flags/:key', pageRoute(ctx, 'dashboardFlag', 'One feature flag with who it reaches'), async (request, reply) => {
    const { key } = request.params as { key: string };
    const flag = (await flags.list()).find((f) => f.key === key);
    if (!flag) throw new AppError('not_found', `No feature flag with the key ${key}`);
    const form = formOfFlag(flag);
    const page = await editPage(request, form, { creating: false, draft: draftOf({ ...flag, overrides: flag.overrides, variants: flag.variants ?? null }) });
    return sendPage(ctx, request, reply, { ...page, section: '/feature-flags', flash: noticeOf(request.query) });
  });

  // The no-script preview: the form posted back, shown with its preview; nothing is saved.
  app.post('/feature-flags/preview', pageRoute(ctx, 'dashboardFlagPreviewPage', 'Preview a flag draft without saving it (admin)'), async (request, reply) => {
    requireAdmin(request);
    const form = formOfBody(request.body);
    const creating = !(await flags.list()).some((f) => f.key === form.key);
    const { input, errors } = await parseFlagForm(ctx, form);
    const page = await editPage(request, form, { creating, errors, draft: input ? draftOf(input) : null, message: input ? 'Preview only: nothing is saved until you press Save flag.' : undefined });
    return sendPage(ctx, request, reply, { ...page, section: '/feature-flags', status: input ? 200 : 400 });
  });

  app.post('/feature-flags', pageRoute(ctx, 'dashboardSaveFlag', 'Create or update a feature flag (admin; audit-logged)'), async (request, reply) => {
    const actor = requireAdmin(request);
    const form = formOfBody(request.body);
    const creating = !(await flags.list()).some((f) => f.key === form.key);
    const { input, errors } = await parseFlagForm(ctx, form);
    const refuse = async (errs: FieldErrors, message?: string, status = 400) => {
      const page = await editPage(request, form, { creating, errors: errs, message, draft: null });
      return sendPage(ctx, request, reply, { ...page, section: '/feature-flags', status });
    };
    if (!input) return refuse(errors);
    try {
      await flags.save(actor.userId, input, auditMeta(request));
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        const fieldName = err.field?.split('.')[0] ?? 'key';
        return refuse({ [fieldName]: err.message }, `Nothing was saved: ${err.message}`, err.status);
      }
      throw err;
    }
    return reply.redirect(`${BASE}/feature-flags/${input.key}${queryString({ saved: 'flag' })}`, 303);
  });
}
