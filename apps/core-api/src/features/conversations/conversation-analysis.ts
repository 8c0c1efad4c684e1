// Themes, people, places and years of a storyteller's answers: the offline reading (always computed),
// and a model's reading grounded in the text when a real model is configured.
import { z } from 'zod';
import { extractMentions, ProviderError, providerForFeature, type LanguageModel } from '@story/providers';
import { findThemes, wordCount } from './conversation-insights';

export interface Tally {
  name: string;
  mentions: number;
  conversations: number;
}

export interface ConversationAnalysis {
  source: 'offline' | 'llm';
  model: string;
  conversationCount: number;
  answerCount: number;
  wordCount: number;
  themes: Tally[];
  people: Tally[];
  places: Tally[];
  years: Tally[];
  analyzedAt: string;
}

const analysisSchema = z.object({
  themes: z.array(z.string()).max(30),
  people: z.array(z.string()).max(100),
  places: z.array(z.string()).max(100),
  years: z.array(z.union([z.string(), z.number()])).max(100),
});

const ANALYSIS_SYSTEM_PROMPT =
  'You read a storyteller\'s spoken memories. Answer JSON {"themes": string[], "people": string[], "places": string[], "years": string[]}: the life themes (short lower-case phrases), and the people, places and years exactly as the storyteller named them. List only what is in the text.';

function tally(texts: string[], pick: (text: string) => string[]): Tally[] {
  const counts = new Map<string, Tally>();
  for (const text of texts) {
    const lower = text.toLowerCase();
    for (const name of pick(text)) {
      const key = name.toLowerCase();
      const mentions = lower.split(key).length - 1 || 1;
      const entry = counts.get(key) ?? { name, mentions: 0, conversations: 0 };
      entry.mentions += mentions;
      entry.conversations += 1;
      counts.set(key, entry);
    }
  }
  return [...counts.values()].sort((a, b) => b.mentions - a.mentions || b.conversations - a.conversations || a.name.localeCompare(b.name));
}

function offlineAnalysis(texts: string[], now: Date): ConversationAnalysis {
  const themes = new Map<string, Tally>();
  for (const text of texts) {
    for (const { theme, mentions } of findThemes(text)) {
      const entry = themes.get(theme) ?? { name: theme, mentions: 0, conversations: 0 };
      entry.mentions += mentions;
      entry.conversations += 1;
      themes.set(theme, entry);
    }
  }
  return {
    source: 'offline',
    model: 'local-extraction',
    conversationCount: texts.length,
    answerCount: 0,
    wordCount: texts.reduce((n, t) => n + wordCount(t), 0),
    themes: [...themes.values()].sort((a, b) => b.mentions - a.mentions || a.name.localeCompare(b.name)),
    people: tally(texts, (t) => extractMentions(t).people),
    places: tally(texts, (t) => extractMentions(t).places),
    years: tally(texts, (t) => extractMentions(t).years),
    analyzedAt: now.toISOString(),
  };
}

/** Analysis of each conversation's answers (one text per conversation). */
export async function analyzeTexts(llm: LanguageModel, userId: string, texts: string[]): Promise<ConversationAnalysis> {
  const now = new Date();
  const offline = offlineAnalysis(texts, now);
  if ((await providerForFeature(llm, 'conversation:analyze')) === 'local' || texts.every((t) => !t.trim())) return offline;
  try {
    const joined = texts.map((t, i) => `Conversation ${i + 1}:\n${t}`).join('\n\n').slice(0, 60_000);
    const { data, model } = await llm.completeJson(
      { task: 'conversation-analysis', input: { text: joined }, system: ANALYSIS_SYSTEM_PROMPT, messages: [{ role: 'user', content: joined }], maxTokens: 800, temperature: 0 },
      analysisSchema,
      { userId, feature: 'conversation:analyze' },
    );
    const all = texts.join('\n').toLowerCase();
    // Grounding: a person, place or year the text does not contain is dropped, whatever the model said.
    const grounded = (list: (string | number)[]) => [...new Set(list.map((x) => String(x).trim()).filter((x) => x && all.includes(x.toLowerCase())))];
    const named = (list: string[]) => (t: string) => list.filter((x) => t.toLowerCase().includes(x.toLowerCase()));
    const people = grounded(data.people);
    const places = grounded(data.places);
    const years = grounded(data.years);
    const themes = [...new Set(data.themes.map((t) => t.trim().toLowerCase()).filter((t) => t.length > 0 && t.length <= 60))].slice(0, 15);
    return {
      ...offline,
      source: 'llm',
      model,
      // Themes are the model's reading; each is counted once per conversation the model was shown.
      themes: themes.map((name) => ({ name, mentions: 1, conversations: texts.length })),
      people: tally(texts, named(people)),
      places: tally(texts, named(places)),
      years: tally(texts, named(years)),
    };
  } catch (err) {
    // The offline reading is a real analysis too: a failing model falls back to it rather than failing the page.
    if (err instanceof ProviderError) return offline;
    throw err;
  }
}
