// POST /api/ai/content-analysis: what a memory holds and what would make it fuller. The measures (words,
// sentences, the people, places and years it names) are always computed here; recommendations come from
// rules over what is missing (offline) or from the model, which gets the measures as context.
import { z } from 'zod';
import { extractMentions } from '@story/providers';
import type { ContentAnalysisAnswer } from './ai-helpers.schemas';
import { readability, sentencesOf, wordsOf } from './text-measures';

type Result = Omit<ContentAnalysisAnswer, 'success' | 'source' | 'offline' | 'aiGenerated' | 'model' | 'fallback' | 'sessionId'>;
type Analysis = Result['analysis'];

/** Themes by the words that signal them (whole words, lower case). */
const THEMES: Record<string, string[]> = {
  childhood: ['child', 'childhood', 'kid', 'kids', 'boy', 'girl', 'toys', 'played', 'playing', 'games'],
  school: ['school', 'teacher', 'class', 'classroom', 'lessons', 'exam', 'exams', 'college', 'university'],
  work: ['work', 'worked', 'job', 'jobs', 'boss', 'factory', 'mill', 'office', 'shift', 'wages', 'career'],
  family: ['mother', 'father', 'mum', 'mom', 'dad', 'brother', 'sister', 'grandmother', 'grandfather', 'grandma', 'grandpa', 'aunt', 'uncle', 'cousin', 'family'],
  'love and marriage': ['married', 'marriage', 'wedding', 'husband', 'wife', 'courting', 'sweetheart', 'love', 'engaged'],
  war: ['war', 'army', 'navy', 'soldier', 'soldiers', 'bombs', 'evacuated', 'rationing', 'service'],
  home: ['home', 'house', 'kitchen', 'garden', 'farm', 'cottage', 'flat', 'moved'],
  travel: ['travel', 'trip', 'journey', 'abroad', 'ship', 'train', 'holiday', 'vacation', 'emigrated'],
  food: ['food', 'cooking', 'cooked', 'baking', 'bread', 'dinner', 'supper', 'recipe', 'meal'],
  faith: ['church', 'chapel', 'prayer', 'prayed', 'faith', 'mass', 'synagogue', 'mosque', 'temple'],
  celebrations: ['christmas', 'birthday', 'easter', 'party', 'celebrate', 'celebrated', 'festival', 'holidays'],
  loss: ['died', 'death', 'funeral', 'passed', 'lost', 'grief', 'missed'],
};
const SENSES: Record<string, string[]> = {
  sight: ['saw', 'see', 'seen', 'looked', 'bright', 'dark', 'colour', 'color', 'red', 'blue', 'green'],
  sound: ['heard', 'hear', 'sound', 'noise', 'loud', 'quiet', 'sang', 'singing', 'music'],
  smell: ['smell', 'smelled', 'smelt', 'scent'],
  taste: ['taste', 'tasted', 'sweet', 'bitter', 'delicious'],
  touch: ['cold', 'warm', 'hot', 'soft', 'rough', 'felt'],
};
const FEELINGS = ['happy', 'sad', 'afraid', 'scared', 'proud', 'angry', 'excited', 'lonely', 'glad', 'worried', 'loved', 'laughed', 'cried', 'felt', 'miss', 'joy'];

const hits = (wordSet: Set<string>, list: string[]) => list.filter((w) => wordSet.has(w));

/** Themes a text touches, most signalled first. */
export function themesOf(text: string): string[] {
  const lower = new Set(wordsOf(text).map((w) => w.toLowerCase()));
  return Object.entries(THEMES)
    .map(([theme, list]) => [theme, hits(lower, list).length] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([theme]) => theme);
}

export function measure(text: string, depth: 'basic' | 'detailed'): Analysis {
  const words = wordsOf(text);
  const lower = new Set(words.map((w) => w.toLowerCase()));
  const sentences = sentencesOf(text);
  const mentions = extractMentions(text);
  const themes = themesOf(text);
  const analysis: Analysis = { wordCount: words.length, sentenceCount: sentences.length, readingMinutes: Math.max(1, Math.round(words.length / 200)), mentions, themes };
  const senses = Object.fromEntries(Object.entries(SENSES).map(([sense, list]) => [sense, hits(lower, list).length]));
  const feelings = hits(lower, FEELINGS);
  const dialogue = (text.match(/["“][^"”]{2,}["”]/g) ?? []).length;
  Object.assign(analysis, { senses, feelings, dialogue });
  if (depth === 'detailed') {
    const counts = new Map<string, number>();
    for (const w of words) if (w.length > 4) counts.set(w.toLowerCase(), (counts.get(w.toLowerCase()) ?? 0) + 1);
    const topWords = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10).map(([word, count]) => ({ word, count }));
    const longest = sentences.reduce((m, s) => Math.max(m, wordsOf(s).length), 0);
    Object.assign(analysis, { readability: readability(text), topWords, longestSentenceWords: longest });
  }
  return analysis;
}

/** Recommendations from what the text lacks, most useful first. */
export function recommend(text: string, a: Analysis, depth: 'basic' | 'detailed'): string[] {
  const extra = a as Analysis & { senses: Record<string, number>; feelings: string[]; dialogue: number };
  const recs: string[] = [];
  if (a.wordCount < 150) recs.push(`This memory is short (${a.wordCount} words): say what happened next, or what led up to it.`);
  if (a.mentions.years.length === 0) recs.push('Say when this happened: a year, or how old you were, helps readers place it.');
  if (a.mentions.people.length === 0) recs.push('Name the people who were there, so family reading it knows who you mean.');
  if (a.mentions.places.length === 0) recs.push('Say where it happened: the town, the street or the house.');
  if (Object.values(extra.senses).every((n) => n === 0)) recs.push('Add what you saw, heard or smelled: one sensory detail brings a scene back.');
  if (extra.feelings.length === 0) recs.push('Say how you felt at the time, and how you feel about it now.');
  if (extra.dialogue === 0) recs.push('If you remember something someone said, put their words in quotation marks.');
  const sentences = sentencesOf(text);
  const avg = sentences.length ? a.wordCount / sentences.length : 0;
  if (avg > 25) recs.push(`Sentences average ${Math.round(avg)} words: splitting the longest ones makes it easier to read aloud.`);
  for (const person of a.mentions.people.slice(0, 3)) recs.push(`Tell more about ${person}: what were they like, and what did they mean to you?`);
  for (const place of a.mentions.places.slice(0, 2)) recs.push(`Describe ${place} as it was then: what would a visitor have noticed?`);
  if (depth === 'detailed') for (const theme of a.themes.slice(0, 3)) recs.push(`This memory touches on ${theme}: another story about it could make a chapter.`);
  return recs;
}

export function contentAnalysisOffline(text: string, depth: 'basic' | 'detailed', max: number): Result {
  const analysis = measure(text, depth);
  return { analysis, recommendations: recommend(text, analysis, depth).slice(0, max) };
}

export const CONTENT_SYSTEM =
  'You help an older person write down a family memory. Read it and suggest how to make it fuller and clearer, using only what it says; never invent facts. ' +
  'Answer JSON {"themes": [string], "recommendations": [string], "summary": string}.';

export const contentModelSchema = z.object({
  themes: z.array(z.string().max(80)).max(10).default([]),
  recommendations: z.array(z.string().max(500)).max(20),
  summary: z.string().max(2000).default(''),
});

export function contentFromModel(text: string, depth: 'basic' | 'detailed', max: number, data: z.infer<typeof contentModelSchema>): Result {
  const analysis = measure(text, depth);
  return { analysis: { ...analysis, themes: data.themes.length ? data.themes : analysis.themes, summary: data.summary }, recommendations: data.recommendations.slice(0, max) };
}
