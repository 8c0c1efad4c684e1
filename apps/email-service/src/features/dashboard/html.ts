// HTML of the admin application, built only through the `html` tagged template: every interpolated value
// is escaped (libs/email escapeHtml: & < > " ') unless it is itself an `Html` made by this module, so user
// data can never become markup by accident: there is no way to pass a raw string. Attribute values are
// always quoted in the templates.
import { escapeHtml } from '@story/email';

/** Markup that is already safe: the result of `html`, or an escaped value. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What may be interpolated: text (escaped), numbers, markup, lists of them; null, undefined and false render nothing. */
export type HtmlValue = Html | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** The tagged template: `html\`<td>${user.email}</td>\`` escapes the email. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

/** Join fragments with a separator (both escaped unless markup). */
export const joinHtml = (items: readonly HtmlValue[], separator: HtmlValue = ''): Html => new Html(items.map(render).join(render(separator)));

/**
 * A link target from data (a resource's url, a preview url): only http(s) and same-site paths are kept, so a
 * `javascript:` or `data:` URL in a record never becomes a live link.
 */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** A query string from parameters, dropping empty ones (values are URL-encoded; the result is escaped where used). */
export function queryString(params: Record<string, string | number | boolean | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '' && v !== false) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
