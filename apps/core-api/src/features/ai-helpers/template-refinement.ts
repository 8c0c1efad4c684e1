// POST /api/ai/template-refinement: tidy a book or prompt template. Offline: placeholders written as
// {name}, { name }, [name] or <name> become {{name}} (listed), spacing and capitals are normalised, a
// sentence repeated word for word is kept once, and a prompt sentence that asks a question ends with a
// question mark; what cannot be fixed safely (unbalanced braces, an empty placeholder, a very long prompt)
// is reported in `issues`. With a model: a clearer rewording that keeps every placeholder.
import { z } from 'zod';
import type { TemplateRefinementAnswer } from './ai-helpers.schemas';
import { Edits, normalise } from './content-refinement';
import { sentencesOf, wordsOf } from './text-measures';

type Result = Pick<TemplateRefinementAnswer, 'refinedTemplate' | 'placeholders' | 'changes' | 'issues'>;

const QUESTION_START = /^(what|how|why|when|where|who|whom|which|do|did|does|can|could|would|will|have|has|had|is|are|was|were)\b/i;
/** A prompt longer than this many words is hard to answer in one go. */
const LONG_PROMPT_WORDS = 60;

export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(/\{\{([a-zA-Z_][\w.]*)\}\}/g)].map((m) => m[1] ?? ''))];
}

export function refineTemplateOffline(template: string, type: 'prompt' | 'book'): Result {
  const e = new Edits();
  const issues: string[] = [];
  let t = template;
  t = e.apply(t, /\{\{\s*([a-zA-Z_][\w.]*)\s*\}\}/g, 'placeholder', (_m, name) => `{{${name}}}`);
  t = e.apply(t, /(?<!\{)\{\s*([a-zA-Z_][\w.]*)\s*\}(?!\})/g, 'placeholder', (_m, name) => `{{${name}}}`);
  t = e.apply(t, /\[\s*([a-z_][a-z0-9_]*)\s*\]/g, 'placeholder', (_m, name) => `{{${name}}}`);
  t = e.apply(t, /<\s*([a-z_][a-z0-9_]*)\s*>/g, 'placeholder', (_m, name) => `{{${name}}}`);
  if (/\{\{\s*\}\}|\{\s*\}/.test(t)) issues.push('An empty placeholder ({{}}) has no name: fill it in or remove it.');
  const opens = (t.match(/\{/g) ?? []).length;
  const closes = (t.match(/\}/g) ?? []).length;
  if (opens !== closes) issues.push(`Braces are unbalanced (${opens} opening, ${closes} closing): a placeholder is cut short.`);
  t = normalise(t, e);

  // Repeated sentences, paragraph by paragraph (structure kept).
  const seen = new Set<string>();
  t = t
    .split(/\n\s*\n/)
    .map((para) =>
      sentencesOf(para)
        .filter((s) => {
          const key = s.toLowerCase();
          if (!seen.has(key)) return seen.add(key);
          e.changes.set(`duplicate:${key}`, { type: 'duplicate', from: s, to: '', count: 1 });
          return false;
        })
        .join(' '),
    )
    .filter(Boolean)
    .join('\n\n');

  if (type === 'prompt') {
    t = e.apply(t, /(^|[.!?]\s+|\n)([^.!?\n]+)\.(?=\s|$)/g, 'punctuation', (m, before, sentence) =>
      QUESTION_START.test(sentence.trim()) ? `${before}${sentence}?` : m,
    );
    const words = wordsOf(t).length;
    if (words > LONG_PROMPT_WORDS) issues.push(`The prompt has ${words} words: prompts under ${LONG_PROMPT_WORDS} words are easier to answer; consider splitting it.`);
  }
  return { refinedTemplate: t, placeholders: placeholdersOf(t), changes: [...e.changes.values()], issues };
}

export function templateSystem(type: 'prompt' | 'book'): string {
  return (
    (type === 'prompt'
      ? 'You improve a question template that invites an older person to tell a family memory: warm, clear, one question at a time. '
      : 'You improve the text of a memoir book template: clear, consistent and welcoming. ') +
    'Keep every {{placeholder}} exactly as written. Answer JSON {"refinedTemplate": string, "changes": [{"type": string, "from": string, "to": string}], "issues": [string]}.'
  );
}

export const templateModelSchema = z.object({
  refinedTemplate: z.string().min(1),
  changes: z.array(z.object({ type: z.string().default('edit'), from: z.string(), to: z.string() })).max(200).default([]),
  issues: z.array(z.string().max(500)).max(20).default([]),
});

/** The model's version, with a warning when it dropped a placeholder of the original. */
export function templateFromModel(original: string, data: z.infer<typeof templateModelSchema>): Result {
  const before = placeholdersOf(refineTemplateOffline(original, 'book').refinedTemplate);
  const after = placeholdersOf(data.refinedTemplate);
  const lost = before.filter((p) => !after.includes(p));
  const issues = [...data.issues, ...(lost.length ? [`The rewrite dropped the placeholders ${lost.map((p) => `{{${p}}}`).join(', ')}: check before using it.`] : [])];
  return { refinedTemplate: data.refinedTemplate, placeholders: after, changes: data.changes.map((c) => ({ ...c, count: 1 })), issues };
}
