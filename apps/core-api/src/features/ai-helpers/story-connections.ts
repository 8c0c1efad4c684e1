// POST /api/ai/story-connections: which of the caller's stories belong together. Offline: each story's
// people, places and years (the shared mentions reader), compared pair by pair; a pair is connected when it
// shares at least `minShared` of them, strongest first (a shared person weighs 3, a place 2, a year 1).
// With a model: it reads short summaries and explains the links; the shared names are still counted here.
import { z } from 'zod';
import { extractMentions, type NamedMentions } from '@story/providers';
import type { StoryConnectionsAnswer } from './ai-helpers.schemas';

type Connection = StoryConnectionsAnswer['connections'][number];
export interface StoryForLinks {
  id: string;
  title: string;
  text: string;
}

/** Connections returned at most (the strongest). */
export const MAX_CONNECTIONS = 100;

const lowerSet = (list: string[]) => new Map(list.map((x) => [x.toLowerCase(), x]));
const intersect = (a: string[], b: string[]) => {
  const right = lowerSet(b);
  return a.filter((x) => right.has(x.toLowerCase()));
};

export function sharedBetween(a: NamedMentions, b: NamedMentions): NamedMentions {
  return { people: intersect(a.people, b.people), places: intersect(a.places, b.places), years: intersect(a.years, b.years) };
}

const strengthOf = (s: NamedMentions) => s.people.length * 3 + s.places.length * 2 + s.years.length;

function explain(s: NamedMentions): string {
  const parts = [
    s.people.length ? `both name ${s.people.join(', ')}` : '',
    s.places.length ? `both are set in or mention ${s.places.join(', ')}` : '',
    s.years.length ? `both mention ${s.years.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? `The stories ${parts.join('; ')}.` : 'No shared names.';
}

export function connectionsOffline(stories: StoryForLinks[], minShared: number): Connection[] {
  const read = stories.map((s) => ({ ...s, mentions: extractMentions(`${s.title}. ${s.text}`) }));
  const out: Connection[] = [];
  for (const [i, a] of read.entries()) {
    for (const b of read.slice(i + 1)) {
      const shared = sharedBetween(a.mentions, b.mentions);
      const total = shared.people.length + shared.places.length + shared.years.length;
      if (total < minShared) continue;
      out.push({ storyIds: [a.id, b.id], titles: [a.title, b.title], shared, strength: strengthOf(shared), explanation: explain(shared) });
    }
  }
  return out.sort((a, b) => b.strength - a.strength).slice(0, MAX_CONNECTIONS);
}

export const CONNECTIONS_SYSTEM =
  'You find links between the stories of one family memoir: shared people, places, times and themes. Refer to stories by their number. Only state links the texts support. ' +
  'Answer JSON {"connections": [{"a": number, "b": number, "explanation": string}]}.';

export const connectionsModelSchema = z.object({
  connections: z.array(z.object({ a: z.number().int(), b: z.number().int(), explanation: z.string().max(1000) })).max(MAX_CONNECTIONS),
});

export function connectionsBrief(stories: StoryForLinks[]): string {
  return stories
    .slice(0, 50)
    .map((s, i) => `${i + 1}. ${s.title}: ${s.text.split(/\s+/).slice(0, 80).join(' ')}`)
    .join('\n');
}

/** The model's pairs mapped back to story ids (numbers out of range or self-links are dropped), shared names counted here. */
export function connectionsFromModel(stories: StoryForLinks[], data: z.infer<typeof connectionsModelSchema>): Connection[] {
  const seen = new Set<string>();
  const out: Connection[] = [];
  for (const c of data.connections) {
    const a = stories[c.a - 1];
    const b = stories[c.b - 1];
    if (!a || !b || a.id === b.id || c.a > 50 || c.b > 50) continue;
    const key = [a.id, b.id].sort().join(':');
    if (seen.has(key)) continue;
    seen.add(key);
    const shared = sharedBetween(extractMentions(`${a.title}. ${a.text}`), extractMentions(`${b.title}. ${b.text}`));
    out.push({ storyIds: [a.id, b.id], titles: [a.title, b.title], shared, strength: strengthOf(shared), explanation: c.explanation });
  }
  return out;
}
