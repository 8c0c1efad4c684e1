// POST /api/ai/grammar and /api/ai/grammar-analysis. Offline: Harper's lints (harper-checker.ts), filtered
// by the suggestion level, with the first suggestion of each applied for the corrected text. With a model:
// the model's corrections, each located in the text by its quoted original (a quote the text does not
// contain is dropped).
import { z } from 'zod';
import type { GrammarChecker, HarperLint } from './harper-checker';
import type { GrammarAnalysisAnswer, GrammarAnswer, GRAMMAR_LEVELS } from './ai-helpers.schemas';
import { locate, readability, wordsOf } from './text-measures';

type Level = (typeof GRAMMAR_LEVELS)[number];

/** Lint kinds flagged at each level: light is mistakes only; moderate adds punctuation and usage; comprehensive is everything Harper finds. */
const LEVEL_KINDS: Record<Exclude<Level, 'comprehensive'>, ReadonlySet<string>> = {
  light: new Set(['Spelling', 'Typo', 'Grammar', 'Agreement', 'Repetition', 'BoundaryError', 'Malapropism', 'Eggcorn']),
  moderate: new Set([
    'Spelling', 'Typo', 'Grammar', 'Agreement', 'Repetition', 'BoundaryError', 'Malapropism', 'Eggcorn',
    'Punctuation', 'Capitalization', 'WordChoice', 'Usage', 'Nonstandard', 'Redundancy', 'Miscellaneous', 'Formatting',
  ]),
};

const atLevel = (lints: HarperLint[], level: Level) => (level === 'comprehensive' ? lints : lints.filter((l) => LEVEL_KINDS[level].has(l.kind)));

function replacementOf(lint: HarperLint): string | null {
  const s = lint.suggestions[0];
  if (!s) return null;
  if (s.kind === 'remove') return '';
  if (s.kind === 'insert_after') return lint.problem + s.text;
  return s.text;
}

/** The text with each correction applied, skipping any that overlaps one already applied. */
export function applyCorrections(text: string, corrections: { start: number; end: number; suggestion: string }[]): string {
  const sorted = [...corrections].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const c of sorted) {
    if (c.start < at) continue;
    out += text.slice(at, c.start) + c.suggestion;
    at = c.end;
  }
  return out + text.slice(at);
}

type GrammarResult = Omit<GrammarAnswer, 'success' | 'source' | 'offline' | 'aiGenerated' | 'model' | 'fallback' | 'appliedStyle'>;

/** Words in a free-text userStyle that name a level (spec 000 leaves userStyle open: any text is taken). */
const STYLE_WORDS: readonly [RegExp, Level][] = [
  [/\b(comprehensive|thorough|strict|full|detailed|formal|academic|professional)\b/i, 'comprehensive'],
  [/\b(moderate|medium|balanced|standard|normal|default)\b/i, 'moderate'],
  [/\b(light|minimal|gentle|casual|conversational|relaxed|informal|basic|keep (my|the) voice)\b/i, 'light'],
];

/**
 * The level a grammar request runs at: the first level a free-text userStyle names (its own name, or a
 * word that plainly means it), else the caller's stored suggestion_level, else moderate; `from` says which.
 */
export function styleLevel(userStyle: string | undefined, stored: Level | undefined): { level: Level; from: 'userStyle' | 'settings' | 'default' } {
  if (userStyle !== undefined) {
    for (const [pattern, level] of STYLE_WORDS) if (pattern.test(userStyle)) return { level, from: 'userStyle' };
  }
  if (stored) return { level: stored, from: 'settings' };
  return { level: 'moderate', from: 'default' };
}
type AnalysisResult = Omit<GrammarAnalysisAnswer, 'success' | 'source' | 'offline' | 'aiGenerated' | 'model' | 'fallback'>;

export async function grammarOffline(checker: GrammarChecker, text: string, level: Level): Promise<GrammarResult> {
  const lints = atLevel(await checker.check(text), level);
  const corrections = lints.flatMap((l) => {
    const suggestion = replacementOf(l);
    return suggestion === null ? [] : [{ start: l.start, end: l.end, original: text.slice(l.start, l.end), suggestion, type: l.kind, message: l.message }];
  });
  return { correctedText: applyCorrections(text, corrections), corrections, level };
}

/** 100 for no issues, five points off per issue per 100 words, never below 0. */
export function grammarScore(issues: number, words: number): number {
  if (words === 0) return issues === 0 ? 100 : 0;
  return Math.max(0, Math.min(100, Math.round(100 - (issues * 100 * 5) / Math.max(words, 20))));
}

function countByType(issues: { type: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const i of issues) counts[i.type] = (counts[i.type] ?? 0) + 1;
  return counts;
}

export async function grammarAnalysisOffline(checker: GrammarChecker, text: string, includeExplanations: boolean): Promise<AnalysisResult> {
  const lints = await checker.check(text);
  const issues = lints.map((l) => ({
    start: l.start,
    end: l.end,
    text: text.slice(l.start, l.end),
    type: l.kind,
    suggestions: l.suggestions.map((s) => (s.kind === 'remove' ? '' : s.kind === 'insert_after' ? l.problem + s.text : s.text)),
    ...(includeExplanations ? { explanation: l.message } : {}),
  }));
  return { score: grammarScore(issues.length, wordsOf(text).length), issues, counts: countByType(issues), readability: readability(text) };
}

// ---- with a model ----

export const GRAMMAR_SYSTEM =
  'You correct spelling, grammar and punctuation in a family memoir while keeping the writer’s words, voice and dialect. ' +
  'Change nothing that is not an error at the requested level (light: clear mistakes only; moderate: also punctuation and usage; comprehensive: also style and clarity). ' +
  'Answer JSON {"correctedText": string, "corrections": [{"original": exact text from the input, "suggestion": string, "type": string, "message": string}]}.';

export const grammarModelSchema = z.object({
  correctedText: z.string(),
  corrections: z.array(z.object({ original: z.string(), suggestion: z.string(), type: z.string().default('Grammar'), message: z.string().default('') })).max(500),
});

export function grammarFromModel(text: string, level: Level, data: z.infer<typeof grammarModelSchema>): GrammarResult {
  return { correctedText: data.correctedText, corrections: locate(text, data.corrections), level };
}

export const ANALYSIS_SYSTEM =
  'You review the grammar of a family memoir. List every spelling, grammar, punctuation and clarity issue, quoting the exact text. ' +
  'Answer JSON {"issues": [{"original": exact text from the input, "type": string, "suggestions": [string], "explanation": string}]}.';

export const analysisModelSchema = z.object({
  issues: z.array(z.object({ original: z.string(), type: z.string().default('Grammar'), suggestions: z.array(z.string()).max(5).default([]), explanation: z.string().default('') })).max(500),
});

export function analysisFromModel(text: string, includeExplanations: boolean, data: z.infer<typeof analysisModelSchema>): AnalysisResult {
  const issues = locate(text, data.issues).map((i) => ({
    start: i.start,
    end: i.end,
    text: i.original,
    type: i.type,
    suggestions: i.suggestions,
    ...(includeExplanations ? { explanation: i.explanation } : {}),
  }));
  return { score: grammarScore(issues.length, wordsOf(text).length), issues, counts: countByType(issues), readability: readability(text) };
}
