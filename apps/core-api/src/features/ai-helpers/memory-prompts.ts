// POST /api/ai/memory-prompts: questions to ask a storyteller next, drawn from what they have already told.
// Offline: the people, places and years their stories and recordings name (the shared mentions reader),
// the decades nobody has told about, and the life themes not yet covered for this relationship, each
// prompt with the reason it was chosen. With a model: the same material summarised in the prompt.
import { z } from 'zod';
import { extractMentions } from '@story/providers';
import type { MemoryPromptsAnswer } from './ai-helpers.schemas';
import { themesOf } from './content-analysis';

type Prompt = MemoryPromptsAnswer['prompts'][number];
export interface PromptSources {
  texts: { title: string; text: string }[];
  relationship: string | null;
  storytellerName: string | null;
  topic?: string;
}

/** Themes worth asking about, per storyteller relationship (campaign relationship values). */
const THEMES_FOR: Record<string, string[]> = {
  grandparent: ['childhood', 'school', 'work', 'love and marriage', 'home', 'celebrations', 'food', 'war', 'family'],
  parent: ['childhood', 'school', 'love and marriage', 'work', 'family', 'home', 'travel', 'celebrations'],
  partner: ['love and marriage', 'travel', 'home', 'work', 'childhood', 'celebrations', 'family'],
  other: ['childhood', 'work', 'home', 'travel', 'family', 'celebrations'],
};
const THEME_QUESTIONS: Record<string, string> = {
  childhood: 'What games did you play as a child, and who did you play them with?',
  school: 'What do you remember about your first school and your teachers there?',
  work: 'What was your first job, and how did you get it?',
  'love and marriage': 'How did you meet the person you married or loved most?',
  home: 'Describe the home you grew up in, room by room.',
  celebrations: 'How did your family celebrate birthdays or holidays when you were young?',
  food: 'Which meal from your childhood can you still taste, and who cooked it?',
  war: 'How did the war years touch your family?',
  family: 'What were your parents like when you were small?',
  travel: 'What was the first long journey you made, and why?',
  faith: 'What part did faith or church play in your family?',
  loss: 'Who do you miss most, and what would you tell them today?',
};

const count = (list: string[]) => {
  const m = new Map<string, number>();
  for (const x of list) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
};

export function memoryPromptsOffline(src: PromptSources, howMany: number): Prompt[] {
  const byCategory: Prompt[][] = [];
  if (src.topic) {
    const t = src.topic;
    byCategory.push([
      { prompt: `What is your earliest memory of ${t}?`, reason: `You asked about ${t}.`, category: 'topic' },
      { prompt: `Who else was part of ${t}, and what were they like?`, reason: `You asked about ${t}.`, category: 'topic' },
      { prompt: `What about ${t} do you wish your family knew?`, reason: `You asked about ${t}.`, category: 'topic' },
    ]);
  }
  const perText = src.texts.map((t) => extractMentions(`${t.title}. ${t.text}`));
  const people = count(perText.flatMap((m) => m.people));
  const places = count(perText.flatMap((m) => m.places));
  byCategory.push(
    people.map(([p, n]) => ({ prompt: `What is your favourite memory of ${p}?`, reason: `${p} is named in ${n} of the stories told so far.`, category: 'people' })),
  );
  byCategory.push(
    places.map(([p, n]) => ({
      prompt: `What did ${p} look, sound and smell like when you were there?`,
      reason: `${p} comes up in ${n} of the stories told so far.`,
      category: 'places',
    })),
  );
  const years = [...new Set(perText.flatMap((m) => m.years).map(Number))].sort((a, b) => a - b);
  const timeline: Prompt[] = [];
  for (const [i, b] of years.entries()) {
    const a = years[i - 1];
    if (a === undefined) continue;
    if (b - a >= 10) timeline.push({ prompt: `What was happening in your life between ${a} and ${b}?`, reason: `No story covers the ${b - a} years from ${a} to ${b}.`, category: 'timeline' });
  }
  if (years.length > 0) timeline.push({ prompt: `What do you remember from the years before ${years[0]}?`, reason: `The earliest year in the stories so far is ${years[0]}.`, category: 'timeline' });
  byCategory.push(timeline);
  const covered = new Set(themesOf(src.texts.map((t) => `${t.title} ${t.text}`).join('\n')));
  const wanted = THEMES_FOR[src.relationship ?? 'other'] ?? THEMES_FOR['other'] ?? [];
  byCategory.push(
    wanted
      .filter((theme) => !covered.has(theme))
      .map((theme) => ({
        prompt: THEME_QUESTIONS[theme] ?? `Tell me about ${theme} in your life.`,
        reason: src.texts.length ? `None of the stories so far is about ${theme}.` : `A good first story for a ${src.relationship ?? 'storyteller'}: ${theme}.`,
        category: 'themes',
      })),
  );
  // Round-robin across categories so a few prompts already mix people, places, gaps and themes.
  const out: Prompt[] = [];
  const seen = new Set<string>();
  for (let i = 0; out.length < howMany && byCategory.some((c) => c.length > i); i++) {
    for (const c of byCategory) {
      const p = c[i];
      if (p && !seen.has(p.prompt) && out.length < howMany) {
        seen.add(p.prompt);
        out.push(p);
      }
    }
  }
  return out;
}

export const PROMPTS_SYSTEM =
  'You suggest the next questions to ask an older storyteller for a family memoir. Build on what they have already told (people, places, years) and on themes not yet covered; never assume facts. ' +
  'Answer JSON {"prompts": [{"prompt": string, "reason": string, "category": string}]}.';

export const promptsModelSchema = z.object({
  prompts: z.array(z.object({ prompt: z.string().min(1).max(500), reason: z.string().max(500).default(''), category: z.string().max(40).default('general') })).min(1).max(20),
});

/** The storyteller's material in a few lines per story, so the prompt stays small. */
export function promptsBrief(src: PromptSources, howMany: number): string {
  const lines = src.texts.slice(0, 30).map((t, i) => `${i + 1}. ${t.title}: ${t.text.split(/\s+/).slice(0, 60).join(' ')}`);
  return [
    `Storyteller: ${src.storytellerName ?? 'unknown'}; relationship to the family: ${src.relationship ?? 'unknown'}.`,
    src.topic ? `Topic wanted: ${src.topic}.` : '',
    `Write ${howMany} prompts.`,
    lines.length ? `Stories told so far:\n${lines.join('\n')}` : 'No stories told yet.',
  ]
    .filter(Boolean)
    .join('\n');
}
