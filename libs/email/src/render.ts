// Template rendering, kept apart from sending (CONVENTIONS 9): pure functions over strings, so the admin
// preview, the enqueue path and tests all render the same way.

/** A placeholder: `{{ name }}` with optional spaces; dotted names are looked up as one key, then as a path. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g;
/**
 * An optional block (Mustache's section syntax): `{{#name}}...{{/name}}` renders its inside only when
 * `name` has a value (not empty, not only spaces), e.g. the inviter's personal message with its frame.
 */
const SECTION = /\{\{#\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}([\s\S]*?)\{\{\/\s*\1\s*\}\}/g;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

function lookup(variables: Record<string, unknown>, name: string): unknown {
  if (Object.prototype.hasOwnProperty.call(variables, name)) return variables[name];
  if (!name.includes('.')) return undefined;
  let current: unknown = variables;
  for (const part of name.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Replace every `{{name}}` (and `{{#name}}...{{/name}}` blocks); unknown or null values render as ''. HTML bodies pass escapeHtml: true. */
export function renderTemplate(text: string, variables: Record<string, unknown>, options: { escapeHtml: boolean }): string {
  const withSections = text.replace(SECTION, (_match, name: string, inside: string) => (isEmpty(lookup(variables, name)) ? '' : inside));
  return withSections.replace(PLACEHOLDER, (_match, name: string) => {
    const value = lookup(variables, name);
    if (value === undefined || value === null) return '';
    const str = typeof value === 'object' ? JSON.stringify(value) : String(value);
    return options.escapeHtml ? escapeHtml(str) : str;
  });
}

/** The distinct placeholder names in a text (sections included), in order of first appearance. */
export function placeholdersIn(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/\{\{\s*[#/]?\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g)) names.add(m[1] as string);
  return [...names];
}

/** Thrown when a template's required variables are absent or empty: a bug in the caller, not a user error. */
export class MissingVariablesError extends Error {
  constructor(
    readonly missing: string[],
    readonly templateName?: string,
  ) {
    super(`Missing required template variables${templateName ? ` for ${templateName}` : ''}: ${missing.join(', ')}`);
    this.name = 'MissingVariablesError';
  }
}

export interface RenderableTemplate {
  name?: string;
  subjectTemplate: string;
  htmlTemplate: string;
  textTemplate: string | null;
  defaultVariables: Record<string, unknown>;
  requiredVariables: string[];
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string | null;
  /** defaultVariables overlaid with the caller's: what the queue row stores. */
  variables: Record<string, unknown>;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Render subject, HTML and text. Only the HTML is escaped: subject and text are not HTML, and escaping
 * there would show `&amp;` to the reader. Throws MissingVariablesError before rendering anything.
 */
export function renderEmail(template: RenderableTemplate, variables: Record<string, unknown>): RenderedEmail {
  const merged: Record<string, unknown> = { ...(template.defaultVariables ?? {}) };
  for (const [k, v] of Object.entries(variables)) if (v !== undefined) merged[k] = v;
  const missing = (template.requiredVariables ?? []).filter((name) => isEmpty(lookup(merged, name)));
  if (missing.length > 0) throw new MissingVariablesError(missing, template.name);
  return {
    subject: renderTemplate(template.subjectTemplate, merged, { escapeHtml: false }).replace(/[\r\n]+/g, ' ').trim(),
    html: renderTemplate(template.htmlTemplate, merged, { escapeHtml: true }),
    text: template.textTemplate == null ? null : renderTemplate(template.textTemplate, merged, { escapeHtml: false }),
    variables: merged,
  };
}
