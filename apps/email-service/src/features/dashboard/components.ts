// Building blocks of the admin pages: tables, figures, pagination, labelled form fields with their error
// messages, and the formatting every page shares (UTC dates, counts, percentages).
import { html, queryString, type Html, type HtmlValue } from './html';

export const fmtInt = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : Math.round(n).toLocaleString('en-US'));
export const fmtPct = (fraction: number | null | undefined, digits = 1): string => (fraction === null || fraction === undefined ? '—' : `${(fraction * 100).toFixed(digits)}%`);
export const fmtMoney = (n: number | null | undefined, currency = 'USD'): string =>
  n === null || n === undefined ? '—' : n.toLocaleString('en-US', { style: 'currency', currency });

/** A timestamp as `2026-11-30 14:05 UTC` (the dashboard speaks UTC, as the stored data does). */
export function fmtDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '—';
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A <time> element with the machine-readable instant. */
export const time = (value: string | Date | null | undefined): Html => {
  if (!value) return html`—`;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? html`—` : html`<time datetime="${d.toISOString()}">${fmtDate(d)}</time>`;
};

export interface Column<T> {
  label: string;
  cell: (row: T) => HtmlValue;
  /** Right-aligned numbers. */
  numeric?: boolean;
}

/** A table with a caption; an empty list says so instead of drawing an empty grid. */
export function table<T>(caption: string, columns: Column<T>[], rows: readonly T[], empty = 'Nothing here yet.'): Html {
  if (rows.length === 0) return html`<p class="empty"><strong>${caption}:</strong> ${empty}</p>`;
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${caption}"><table>
<caption>${caption}</caption>
<thead><tr>${columns.map((c) => html`<th scope="col"${c.numeric ? html` class="num"` : ''}>${c.label}</th>`)}</tr></thead>
<tbody>${rows.map((r) => html`<tr>${columns.map((c) => html`<td${c.numeric ? html` class="num"` : ''}>${c.cell(r)}</td>`)}</tr>`)}</tbody>
</table></div>`;
}

/** A row of headline figures. */
export function figures(title: string, items: { label: string; value: HtmlValue; hint?: string }[]): Html {
  return html`<section class="figures" aria-labelledby="${slug(title)}">
<h2 id="${slug(title)}">${title}</h2>
<dl>${items.map((i) => html`<div class="figure"><dt>${i.label}</dt><dd>${i.value}</dd>${i.hint ? html`<dd class="hint">${i.hint}</dd>` : ''}</div>`)}</dl>
</section>`;
}

export const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** Previous / next links keeping the other query parameters; a page without a total says only where it is. */
export function pagination(path: string, params: Record<string, string | number | undefined>, p: { total: number | null; limit: number; offset: number; hasMore?: boolean }): Html {
  const more = p.total === null ? !!p.hasMore : p.offset + p.limit < p.total;
  const prev = p.offset > 0 ? Math.max(0, p.offset - p.limit) : null;
  const next = more ? p.offset + p.limit : null;
  const from = p.total === 0 ? 0 : p.offset + 1;
  const where = p.total === null ? html`From number ${fmtInt(from)}` : html`${fmtInt(from)}–${fmtInt(Math.min(p.total, p.offset + p.limit))} of ${fmtInt(p.total)}`;
  return html`<nav class="pager" aria-label="Pages"><span>${where}</span>
${prev !== null ? html`<a href="${path + queryString({ ...params, offset: prev || undefined })}" rel="prev">Previous</a>` : ''}
${next !== null ? html`<a href="${path + queryString({ ...params, offset: next })}" rel="next">Next</a>` : ''}</nav>`;
}

/** Field-level messages of a refused form: field name → message. */
export type FieldErrors = Record<string, string>;

const errorId = (name: string) => `err-${slug(name)}`;

function describedBy(name: string, errors?: FieldErrors, hint?: string): Html {
  const ids = [errors?.[name] ? errorId(name) : '', hint ? `hint-${slug(name)}` : ''].filter(Boolean).join(' ');
  return ids ? html` aria-describedby="${ids}"` : html``;
}

function fieldNote(name: string, errors?: FieldErrors, hint?: string): Html {
  return html`${hint ? html`<small id="hint-${slug(name)}" class="hint">${hint}</small>` : ''}${errors?.[name] ? html`<small id="${errorId(name)}" class="field-error">${errors[name]}</small>` : ''}`;
}

export interface FieldOptions {
  label: string;
  name: string;
  value?: string | number | null;
  type?: string;
  required?: boolean;
  hint?: string;
  errors?: FieldErrors;
  attrs?: Html;
}

/** A labelled input with its hint and error, linked by aria-describedby. */
export function field({ label, name, value, type = 'text', required, hint, errors, attrs }: FieldOptions): Html {
  const id = `f-${slug(name)}`;
  return html`<div class="field${errors?.[name] ? ' has-error' : ''}"><label for="${id}">${label}${required ? html` <span aria-hidden="true">*</span>` : ''}</label>
<input id="${id}" name="${name}" type="${type}" value="${value ?? ''}"${required ? html` required` : ''}${errors?.[name] ? html` aria-invalid="true"` : ''}${describedBy(name, errors, hint)}${attrs ?? ''}>
${fieldNote(name, errors, hint)}</div>`;
}

export function textarea({ label, name, value, required, hint, errors, attrs, rows = 6 }: FieldOptions & { rows?: number }): Html {
  const id = `f-${slug(name)}`;
  return html`<div class="field${errors?.[name] ? ' has-error' : ''}"><label for="${id}">${label}${required ? html` <span aria-hidden="true">*</span>` : ''}</label>
<textarea id="${id}" name="${name}" rows="${rows}"${required ? html` required` : ''}${errors?.[name] ? html` aria-invalid="true"` : ''}${describedBy(name, errors, hint)}${attrs ?? ''}>${value ?? ''}</textarea>
${fieldNote(name, errors, hint)}</div>`;
}

export function select({ label, name, value, options, hint, errors, attrs }: Omit<FieldOptions, 'type'> & { options: readonly (string | { value: string; label: string })[] }): Html {
  const id = `f-${slug(name)}`;
  return html`<div class="field${errors?.[name] ? ' has-error' : ''}"><label for="${id}">${label}</label>
<select id="${id}" name="${name}"${errors?.[name] ? html` aria-invalid="true"` : ''}${describedBy(name, errors, hint)}${attrs ?? ''}>${options.map((o) => {
    const opt = typeof o === 'string' ? { value: o, label: o } : o;
    return html`<option value="${opt.value}"${String(value ?? '') === opt.value ? html` selected` : ''}>${opt.label}</option>`;
  })}</select>
${fieldNote(name, errors, hint)}</div>`;
}

export function checkbox({ label, name, checked, hint, attrs }: { label: string; name: string; checked: boolean; hint?: string; attrs?: Html }): Html {
  const id = `f-${slug(name)}`;
  return html`<div class="field check"><input id="${id}" type="checkbox" name="${name}" value="on"${checked ? html` checked` : ''}${hint ? html` aria-describedby="hint-${slug(name)}"` : ''}${attrs ?? ''}><label for="${id}">${label}</label>${hint ? html`<small id="hint-${slug(name)}" class="hint">${hint}</small>` : ''}</div>`;
}

/** A summary of a refused form at its top, listing each field's message. */
export function formErrors(errors: FieldErrors | undefined, message?: string): Html {
  if (!errors || (Object.keys(errors).length === 0 && !message)) return html``;
  return html`<div class="form-errors" role="alert"><p>${message ?? 'Nothing was saved. Please correct:'}</p>${
    Object.keys(errors).length ? html`<ul>${Object.entries(errors).map(([k, v]) => html`<li><a href="#f-${slug(k)}">${k}</a>: ${v}</li>`)}</ul>` : ''
  }</div>`;
}

/** A status word with a class for its colour. */
export const badge = (text: string, kind = text): Html => html`<span class="badge badge-${slug(kind)}">${text}</span>`;

/** A note shown to support accounts where an admin would see a control. */
export const readOnlyNote = (what: string): Html => html`<p class="readonly-note">Read-only: only an admin can ${what}.</p>`;
