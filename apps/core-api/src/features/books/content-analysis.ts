// POST /api/books/content-analysis: an honest offline reading of a book's chapters (word counts,
// reading time, the years each chapter mentions, an order by those years, decades nobody wrote about),
// plus a language model's suggestions and themes when a real one is configured. The offline part is
// always computed; the model only adds to it, and a failed model call leaves the offline answer.
import { z } from 'zod';
import { providerForFeature, type LanguageModel } from '@story/providers';
import { plainText } from '../stories/story-content';
import type { ContentAnalysis } from './books.schemas';

export interface ChapterText {
  id: string;
  title: string;
  content: string;
  wordCount: number;
}

const WORDS_PER_MINUTE = 200;
/** About what a 6x9 page holds in 11 pt type. */
const WORDS_PER_PAGE = 300;
const SHORT_CHAPTER = 150;
const LONG_CHAPTER = 8000;
const GAP_YEARS = 10;

/** Four-digit years from 1850 to this year, in the order of first mention. */
export function yearsIn(text: string, now = new Date()): number[] {
  const thisYear = now.getUTCFullYear();
  const found: number[] = [];
  for (const m of text.matchAll(/\b(1[89]\d\d|20\d\d)s?\b/g)) {
    const year = Number(m[1]);
    if (year >= 1850 && year <= thisYear && !found.includes(year)) found.push(year);
  }
  return found;
}

export function analyseOffline(chapters: readonly ChapterText[], now = new Date()): ContentAnalysis {
  const rows = chapters.map((c) => {
    const years = yearsIn(`${c.title}\n${plainText(c.content)}`, now);
    return {
      id: c.id,
      title: c.title,
      wordCount: c.wordCount,
      readingMinutes: Math.max(c.wordCount > 0 ? 1 : 0, Math.round(c.wordCount / WORDS_PER_MINUTE)),
      years,
      earliestYear: years.length > 0 ? Math.min(...years) : null,
    };
  });
  // Dated chapters by their earliest year (stable), undated ones after them in their current order.
  const dated = rows.filter((r) => r.earliestYear !== null).sort((a, b) => (a.earliestYear ?? 0) - (b.earliestYear ?? 0));
  const undated = rows.filter((r) => r.earliestYear === null);
  const suggestedOrder = [...dated, ...undated].map((r) => r.id);

  const allYears = [...new Set(rows.flatMap((r) => r.years))].sort((a, b) => a - b);
  const gaps: ContentAnalysis['gaps'] = [];
  for (let i = 1; i < allYears.length; i++) {
    const from = allYears[i - 1] ?? 0;
    const to = allYears[i] ?? 0;
    if (to - from >= GAP_YEARS) gaps.push({ from, to, years: to - from });
  }

  const wordCount = rows.reduce((sum, r) => sum + r.wordCount, 0);
  const suggestions: string[] = [];
  for (const r of rows) {
    if (r.wordCount < SHORT_CHAPTER) suggestions.push(`"${r.title}" has ${r.wordCount} words: a few more memories would make it a full chapter.`);
    if (r.wordCount > LONG_CHAPTER) suggestions.push(`"${r.title}" has ${r.wordCount} words: consider splitting it into two chapters.`);
  }
  for (const g of gaps) suggestions.push(`No chapter covers ${g.from} to ${g.to} (${g.years} years): a story from those years would fill the gap.`);
  if (rows.length > 0 && dated.length === 0) suggestions.push('No chapter mentions a year: adding dates lets readers follow the timeline.');
  const orderChanged = suggestedOrder.some((id, i) => id !== rows[i]?.id);
  if (orderChanged) suggestions.push('Ordering the chapters by the years they mention would read chronologically.');

  return {
    source: 'offline',
    totals: {
      chapters: rows.length,
      wordCount,
      readingMinutes: Math.round(wordCount / WORDS_PER_MINUTE),
      // Title page, contents, and each chapter opening on a new page.
      estimatedPages: 2 + rows.length + Math.ceil(wordCount / WORDS_PER_PAGE),
    },
    chapters: rows,
    suggestedOrder,
    orderChanged,
    gaps,
    suggestions,
    themes: [],
  };
}

const llmAnswer = z.object({ suggestions: z.array(z.string().max(500)).max(10), themes: z.array(z.string().max(80)).max(10) });

/** The offline analysis, enriched by a configured model (never by the offline `local` adapter, which has no such generator). */
export async function analyseContent(chapters: readonly ChapterText[], deps: { llm: LanguageModel; userId: string; log?: (err: unknown) => void }): Promise<ContentAnalysis> {
  const offline = analyseOffline(chapters);
  if ((await providerForFeature(deps.llm, 'books:content-analysis')) === 'local' || chapters.length === 0) return offline;
  try {
    // Titles and the first words of each chapter keep the prompt small whatever the book's length.
    const outline = chapters.map((c, i) => `${i + 1}. ${c.title}: ${plainText(c.content).split(/\s+/).slice(0, 120).join(' ')}`).join('\n');
    const { data, model } = await deps.llm.completeJson(
      {
        task: 'book-content-analysis',
        system:
          'You help a family assemble a memoir. Reply with JSON {"suggestions": [string], "themes": [string]}: at most 5 concrete editing suggestions about content, gaps and order, and at most 5 recurring themes. Use only what the chapters say.',
        messages: [{ role: 'user', content: outline }],
        maxTokens: 600,
      },
      llmAnswer,
      { userId: deps.userId, feature: 'books:content-analysis' },
    );
    return { ...offline, source: `offline+${model}`, suggestions: [...offline.suggestions, ...data.suggestions], themes: data.themes };
  } catch (err) {
    deps.log?.(err);
    return offline;
  }
}
