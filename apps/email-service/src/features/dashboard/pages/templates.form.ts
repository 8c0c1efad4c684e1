// The email template form of the admin application (pages/templates.page.ts): what an operator types (the
// JSON-ish fields as lines, never raw JSON), read back into the admin API's body and checked by the API's
// own schema (templateBody), and the variables and sample values of its live render.
import { placeholdersIn } from '@story/email';
import { templateBody } from '../../templates/templates.routes';
import type { TemplateInput, TemplateView } from '../../templates/templates.service';
import type { FieldErrors } from '../components';
import { str } from '../dashboard.context';

/** The form as typed: JSON-ish fields are lines, so an operator never edits raw JSON. */
export interface TemplateForm {
  name: string;
  display_name: string;
  description: string;
  category: string;
  subject_template: string;
  html_template: string;
  text_template: string;
  /** `name: description` per line. */
  available_variables: string;
  /** `name = value` per line. */
  default_variables: string;
  /** Names separated by commas or spaces. */
  required_variables: string;
  trigger_events: string;
  send_delay_hours: string;
  max_sends_per_user: string;
  is_active: boolean;
}

const lines = (text: string) => text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
export const words = (text: string) => text.split(/[\s,]+/).map((w) => w.trim()).filter(Boolean);

export function formOfTemplate(t: TemplateView): TemplateForm {
  return {
    name: t.name,
    display_name: t.display_name ?? '',
    description: t.description ?? '',
    category: t.category,
    subject_template: t.subject_template,
    html_template: t.html_template,
    text_template: t.text_template ?? '',
    available_variables: Object.entries(t.available_variables).map(([k, v]) => `${k}: ${v}`).join('\n'),
    default_variables: Object.entries(t.default_variables).map(([k, v]) => `${k} = ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n'),
    required_variables: t.required_variables.join(', '),
    trigger_events: t.trigger_events.join(', '),
    send_delay_hours: String(t.send_delay_hours),
    max_sends_per_user: t.max_sends_per_user === null ? '' : String(t.max_sends_per_user),
    is_active: t.is_active,
  };
}

export function formOfBody(body: unknown): TemplateForm {
  const s = (name: string) => str(body, name) ?? '';
  const active = str(body, 'is_active');
  return {
    name: s('name').trim(),
    display_name: s('display_name'),
    description: s('description'),
    category: s('category'),
    subject_template: s('subject_template'),
    html_template: s('html_template'),
    text_template: s('text_template'),
    available_variables: s('available_variables'),
    default_variables: s('default_variables'),
    required_variables: s('required_variables'),
    trigger_events: s('trigger_events'),
    send_delay_hours: s('send_delay_hours').trim(),
    max_sends_per_user: s('max_sends_per_user').trim(),
    is_active: active === 'on' || active === 'true',
  };
}

/** The API body a form describes, checked by the API's schema; or the messages, field by field. */
export function parseTemplateForm(form: TemplateForm): { input: TemplateInput | null; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const available: Record<string, string> = {};
  for (const [i, line] of lines(form.available_variables).entries()) {
    const [, name, description = ''] = /^([A-Za-z_][A-Za-z0-9_.]*)\s*:\s*(.*)$/.exec(line) ?? [];
    if (!name) errors['available_variables'] ??= `line ${i + 1}: write "name: description"`;
    else available[name] = description;
  }
  const defaults: Record<string, unknown> = {};
  for (const [i, line] of lines(form.default_variables).entries()) {
    const [, name, value = ''] = /^([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/.exec(line) ?? [];
    if (!name) errors['default_variables'] ??= `line ${i + 1}: write "name = value"`;
    else defaults[name] = value;
  }
  const number = (name: 'send_delay_hours' | 'max_sends_per_user', text: string): number | null | undefined => {
    if (text === '') return name === 'send_delay_hours' ? 0 : null;
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) {
      errors[name] = 'a whole number';
      return undefined;
    }
    return n;
  };
  const candidate = {
    name: form.name,
    display_name: form.display_name.trim() || null,
    description: form.description.trim() || null,
    category: form.category || undefined,
    subject_template: form.subject_template,
    html_template: form.html_template,
    text_template: form.text_template === '' ? null : form.text_template,
    available_variables: available,
    default_variables: defaults,
    required_variables: words(form.required_variables),
    trigger_events: words(form.trigger_events),
    send_delay_hours: number('send_delay_hours', form.send_delay_hours),
    max_sends_per_user: number('max_sends_per_user', form.max_sends_per_user),
    is_active: form.is_active,
  };
  const parsed = templateBody.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? 'name');
      errors[key] ??= issue.message;
    }
  }
  if (Object.keys(errors).length || !parsed.success) return { input: null, errors };
  return { input: parsed.data as TemplateInput, errors };
}

/** Every variable a template mentions or declares, in order of appearance. */
export function variablesOf(form: TemplateForm): string[] {
  const names = [form.subject_template, form.html_template, form.text_template].flatMap(placeholdersIn);
  for (const line of lines(form.available_variables)) {
    const [, name] = /^([A-Za-z_][A-Za-z0-9_.]*)/.exec(line) ?? [];
    if (name) names.push(name);
  }
  return [...new Set(names)];
}

export function defaultsOf(form: TemplateForm): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines(form.default_variables)) {
    const [, name, value = ''] = /^([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/.exec(line) ?? [];
    if (name) out[name] = value;
  }
  return out;
}

/** The sample values posted with a preview: fields named `var.<name>`. */
export function samplesOf(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (k.startsWith('var.') && typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_.]*$/.test(k.slice(4))) out[k.slice(4)] = v;
  }
  return out;
}

