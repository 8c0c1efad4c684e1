// POST /api/ai/content-refinement. Offline: deterministic rewrites that keep the meaning exactly: spacing
// and punctuation, sentence capitals, contractions expanded (formal) or made (casual), paragraphs for a
// narrative; fillers and colloquial spellings only when the caller lets go of their voice
// (preserveVoice false). Every change is listed. Ambiguous forms ("I'd" = had or would; "'s" = is or has)
// are expanded only where the next word decides them, else left as written.
import { z } from 'zod';
import type { Change, ContentRefinementAnswer } from './ai-helpers.schemas';
import { sentencesOf } from './text-measures';

type Style = ContentRefinementAnswer['style'];
type Result = Pick<ContentRefinementAnswer, 'refinedContent' | 'style' | 'changes'>;

export class Edits {
  readonly changes = new Map<string, Change>();
  apply(text: string, re: RegExp, type: string, to: (m: string, ...groups: string[]) => string): string {
    return text.replace(re, (m: string, ...rest: unknown[]) => {
      const groups = rest.filter((g): g is string => typeof g === 'string');
      const out = to(m, ...groups);
      if (out !== m) {
        const key = `${type}\u0000${m.toLowerCase()}\u0000${out.toLowerCase()}`;
        const c = this.changes.get(key);
        if (c) c.count++;
        else this.changes.set(key, { type, from: m, to: out, count: 1 });
      }
      return out;
    });
  }
}

/** The replacement in the case of the original's first letter ("Do not" → "Don't"). */
const likeCase = (original: string, replacement: string) =>
  /^\p{Lu}/u.test(original) ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;

const NOT_FORMS: Record<string, string> = {
  "don't": 'do not', "doesn't": 'does not', "didn't": 'did not', "isn't": 'is not', "aren't": 'are not', "wasn't": 'was not',
  "weren't": 'were not', "haven't": 'have not', "hasn't": 'has not', "hadn't": 'had not', "wouldn't": 'would not',
  "couldn't": 'could not', "shouldn't": 'should not', "can't": 'cannot', "won't": 'will not', "mustn't": 'must not', "needn't": 'need not',
};
const PRONOUN_FORMS: Record<string, string> = {
  "i'm": 'I am', "you're": 'you are', "we're": 'we are', "they're": 'they are', "i've": 'I have', "you've": 'you have', "we've": 'we have',
  "they've": 'they have', "i'll": 'I will', "you'll": 'you will', "we'll": 'we will', "they'll": 'they will', "he'll": 'he will',
  "she'll": 'she will', "it'll": 'it will', "let's": 'let us',
};
const S_FORMS = ['it', 'that', 'there', 'he', 'she', 'what', 'who', 'here', 'where'];
const PARTICIPLES = /^(been|got|gotten|had|done|gone|seen|come|become|taken|made|said|known|left|lived|worked|grown)$/i;
const COLLOQUIAL: Record<string, string> = { gonna: 'going to', wanna: 'want to', gotta: 'got to', kinda: 'kind of', sorta: 'sort of', outta: 'out of', dunno: "don't know", "'cause": 'because', cuz: 'because' };

const APOS = /['’]/g;

/** Spacing, punctuation spacing, the pronoun I and sentence capitals. Nothing a reader could read differently. */
export function normalise(text: string, e: Edits): string {
  let t = text.replace(/\r\n?/g, '\n');
  t = e.apply(t, /[ \t]{2,}/g, 'spacing', () => ' ');
  t = e.apply(t, /[ \t]+$/gm, 'spacing', () => '');
  t = e.apply(t, /\n{3,}/g, 'spacing', () => '\n\n');
  t = e.apply(t, /(\p{L}) +([,;:!?.])(?=\s|$)/gu, 'punctuation', (_m, a, p) => `${a}${p}`);
  t = e.apply(t, /(\p{Ll}{2,}) +([,;:!?.])(\p{Ll}{2,})/gu, 'punctuation', (_m, a, p, b) => `${a}${p} ${b}`);
  t = e.apply(t, /(\p{Ll}{2,})([,;:!?])(\p{L})/gu, 'punctuation', (_m, a, p, b) => `${a}${p} ${b}`);
  t = e.apply(t, /(\p{Ll}{2,})\.(\p{Lu}\p{Ll})/gu, 'punctuation', (_m, a, b) => `${a}. ${b}`);
  t = e.apply(t, /(^|[^\p{L}'’])i(?!\.e\.)(?=$|[^\p{L}'’]|['’](?:m|ve|ll|d)\b)/gmu, 'capitalization', (_m, before) => `${before}I`);
  t = e.apply(t, /(^|[.!?]["”’)]?\s+|\n\s*)(\p{Ll})/gu, 'capitalization', (_m, before, letter) => `${before}${letter.toUpperCase()}`);
  return t.trim();
}

function expandContractions(text: string, e: Edits): string {
  // Not before a subject ("Won't you?", "Didn't they"): the expanded question would read wrongly.
  let t = e.apply(text, /\b[\p{L}]+n['’]t\b(?!\s+(?:i|you|we|they|he|she|it|there)\b)/giu, 'expansion', (m) => {
    const full = NOT_FORMS[m.toLowerCase().replace(APOS, "'")];
    return full ? likeCase(m, full) : m;
  });
  t = e.apply(t, /\b(?:i|you|we|they|he|she|it|let)['’](?:m|re|ve|ll|s)\b/giu, 'expansion', (m) => {
    const full = PRONOUN_FORMS[m.toLowerCase().replace(APOS, "'")];
    return full ? (m.toLowerCase().startsWith('i') ? full : likeCase(m, full)) : m;
  });
  // 's after it/that/there/...: "has" before a participle ("it's been"), else "is"; possessives of names are untouched.
  t = e.apply(t, new RegExp(`\\b(${S_FORMS.join('|')})['’]s\\s+(\\p{L}+)`, 'giu'), 'expansion', (_m, w, next) => `${w} ${PARTICIPLES.test(next) ? 'has' : 'is'} ${next}`);
  // 'd: "would" before a bare verb that only follows would; "had" before "better" or a participle; else unchanged.
  t = e.apply(t, /\b(i|you|we|they|he|she)['’]d\s+(\p{L}+)/giu, 'expansion', (m, w, next) => {
    const who = w.toLowerCase() === 'i' ? 'I' : w;
    if (/^(better)$/i.test(next) || PARTICIPLES.test(next)) return `${who} had ${next}`;
    if (/^(like|love|be|have|say|rather|go|come|want|prefer|never)$/i.test(next)) return `${who} would ${next}`;
    return m;
  });
  return t;
}

const CONTRACT: [RegExp, string][] = [
  [/\b(do|does|did|is|are|was|were|have|has|had|would|could|should|must) not\b(?!\s*[,;:])/giu, "$1n't"],
  [/\bcannot\b/giu, "can't"],
  [/\bwill not\b/giu, "won't"],
  [/\bI am\b(?!\s*[,;:.!?])/gu, "I'm"],
  [/\b(you|we|they) are\b(?!\s*[,;:.!?])/giu, "$1're"],
  [/\b(it|that|there|he|she|what) is\b(?!\s*[,;:.!?])/giu, "$1's"],
  [/\b(I|you|we|they|he|she|it) will\b(?!\s*[,;:.!?])/giu, "$1'll"],
];

function makeContractions(text: string, e: Edits): string {
  let t = text;
  for (const [re, pattern] of CONTRACT) {
    t = e.apply(t, re, 'contraction', (m, g1) => {
      const raw = g1 === undefined ? pattern : pattern.replace('$1', g1);
      return g1 === undefined ? likeCase(m, raw) : raw;
    });
  }
  return t;
}

function dropFillers(text: string, e: Edits): string {
  let t = e.apply(text, /(^|[\s,])(?:um+|uh+|erm+|er|hmm+)(?=[\s,.!?]|$)[,]?/giu, 'filler', (_m, before) => before);
  t = e.apply(t, new RegExp(`\\b(${Object.keys(COLLOQUIAL).map((k) => k.replace("'", "['’]")).join('|')})\\b`, 'giu'), 'colloquial', (m) => {
    const full = COLLOQUIAL[m.toLowerCase().replace(APOS, "'")];
    return full ? likeCase(m, full) : m;
  });
  return t.replace(/[ \t]{2,}/g, ' ').replace(/ ([,.!?])/g, '$1');
}

/** Paragraphs of about four sentences for a text told in one block (a narrative reads in paragraphs). */
function paragraphs(text: string, e: Edits): string {
  if (/\n\s*\n/.test(text)) return text;
  const sentences = sentencesOf(text);
  if (sentences.length <= 5) return text;
  const out: string[] = [];
  for (let i = 0; i < sentences.length; i += 4) out.push(sentences.slice(i, i + 4).join(' '));
  e.changes.set('paragraph', { type: 'paragraph', from: 'one block', to: `${out.length} paragraphs`, count: out.length - 1 });
  return out.join('\n\n');
}

export function refineOffline(content: string, style: Style, preserveVoice: boolean): Result {
  const e = new Edits();
  let t = content;
  if (!preserveVoice) t = dropFillers(t, e);
  t = normalise(t, e);
  if (style === 'formal') t = expandContractions(t, e);
  if (style === 'casual') t = makeContractions(t, e);
  if (style === 'narrative') t = paragraphs(t, e);
  return { refinedContent: t, style, changes: [...e.changes.values()] };
}

export function refinementSystem(style: Style, preserveVoice: boolean): string {
  const tone = { formal: 'a formal, polished register', casual: 'a relaxed, conversational register', narrative: 'a flowing first-person narrative in paragraphs' }[style];
  return (
    `You edit a family memory into ${tone}. Keep every fact, name, date and event exactly; add nothing. ` +
    (preserveVoice ? 'Keep the writer’s own expressions and voice; change only what the register needs. ' : 'You may replace colloquial expressions. ') +
    'Answer JSON {"refinedContent": string, "changes": [{"type": string, "from": string, "to": string}]}.'
  );
}

export const refinementModelSchema = z.object({
  refinedContent: z.string().min(1),
  changes: z.array(z.object({ type: z.string().default('edit'), from: z.string(), to: z.string() })).max(500).default([]),
});

export function refinementFromModel(style: Style, data: z.infer<typeof refinementModelSchema>): Result {
  return { refinedContent: data.refinedContent, style, changes: data.changes.map((c) => ({ ...c, count: 1 })) };
}
