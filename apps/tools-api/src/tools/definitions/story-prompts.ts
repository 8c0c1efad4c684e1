// Story prompts: a premise built from a character, a setting, a want and a complication of the genre.
import { z } from 'zod';
import { genreVocab, STORY_GENRES } from '../genres';
import { cap, fill, humanize, optionalText, titleCase } from '../text';
import { defineTool } from '../tool-definition';

const options = z.object({
  genre: z.enum(STORY_GENRES).default('literary'),
  promptType: z.enum(['scenario', 'character', 'dialogue', 'setting', 'what-if']).default('scenario'),
  difficulty: z.enum(['beginner', 'intermediate', 'advanced']).default('intermediate'),
  length: z.enum(['flash', 'short-story', 'novel']).default('short-story'),
  theme: optionalText(100),
});
type Options = z.infer<typeof options>;

const content = z.object({
  title: z.string().min(1),
  prompt: z.string().min(1),
  genre: z.string(),
  promptType: z.string(),
  character: z.string(),
  setting: z.string(),
  conflict: z.string(),
  wordCountTarget: z.number().int().positive(),
  tips: z.array(z.string()).min(1),
  theme: z.string().optional(),
});
type Content = z.infer<typeof content>;

const WANTS = ['to be forgiven', 'to leave for good', 'to prove they were right', 'to find out what really happened', 'to keep a promise made years ago', 'to win back what was taken', 'to be left alone', 'to protect someone who does not want protecting'];
const COMPLICATIONS = [
  'the only person who can help is the one they swore never to speak to again',
  'someone else wants exactly the same thing, for a better reason',
  'taking it means telling the truth about {object2}',
  'they have until the end of the night',
  '{force} will not allow it',
  'the evidence points at the person they love most',
];
const TEMPLATES: Record<Options['promptType'], readonly string[]> = {
  scenario: [
    'At {place}, {character} finds {object} and, with it, a way {want}. The catch: {complication}. Write what they do next.',
    '{Character} returns to {place} after ten years wanting {want}, but {complication}.',
  ],
  character: [
    'Write a portrait of {character}, who wants {want} more than anything, in the hour before they discover that {complication}.',
    '{Character} has kept {object} hidden for years. Tell the story of the day someone asks about it.',
  ],
  dialogue: [
    'Write a scene almost entirely in dialogue: {character} and a stranger at {place}. One of them wants {want}; the other knows {complication}.',
    'Two people argue about {object} at {place}. Neither says what they actually mean. Let the reader work it out.',
  ],
  setting: [
    'Describe {place} through the eyes of {character}, who wants {want}. Let the place itself reveal that {complication}.',
    'Open at {place} at dawn. Before any character speaks, the setting must tell us that something is wrong with {object}.',
  ],
  'what-if': [
    'What if {character} woke up at {place} and nobody remembered them, except the one person who should not?',
    'What if {object} could give {character} a way {want}, but {complication}?',
  ],
};
const TARGET: Record<Options['length'], number> = { flash: 750, 'short-story': 3000, novel: 80000 };
const TIPS: Record<Options['difficulty'], readonly string[]> = {
  beginner: ['Start as close to the moment of change as you can.', 'Give your character one concrete object to hold or lose.', 'End with a choice, not an explanation.'],
  intermediate: ['Let the setting push back against what the character wants.', 'Cut the first paragraph you write; the story usually starts in the second.', 'Give the secondary character a want of their own.'],
  advanced: ['Tell it out of order and make the structure carry meaning.', 'Use an unreliable point of view and leave one honest clue.', 'Resolve the plot but leave the theme open.'],
};

export const storyPrompts = defineTool<Options, Content>({
  route: 'story-prompts',
  cluster: 'core',
  title: 'Story Prompt Generator',
  description: 'Writing prompts by genre, type and difficulty, with a character, a setting, a conflict and craft tips.',
  sharePrefix: 'sp',
  optionsSchema: options,
  generateOffline(o, rng) {
    const v = genreVocab(o.genre);
    const [object, object2] = rng.sample(v.objects, 2) as [string, string];
    const values = { character: rng.pick(v.roles), place: rng.pick(v.places), object, object2, force: rng.pick(v.forces), want: rng.pick(WANTS), complication: '' };
    values.complication = fill(rng.pick(COMPLICATIONS), values);
    let prompt = fill(rng.pick(TEMPLATES[o.promptType]), values);
    if (o.theme) prompt += ` Let the story explore ${o.theme.toLowerCase()}.`;
    return {
      title: `${titleCase(humanize(o.genre))} ${titleCase(humanize(o.promptType))} Prompt: ${titleCase(values.place.replace(/^the /, ''))}`,
      prompt,
      genre: o.genre,
      promptType: o.promptType,
      character: cap(values.character),
      setting: cap(values.place),
      conflict: cap(values.complication),
      wordCountTarget: TARGET[o.length],
      tips: rng.sample(TIPS[o.difficulty], 2),
      ...(o.theme ? { theme: o.theme } : {}),
    };
  },
  llm: {
    system: 'You write original, specific creative writing prompts. Answer with JSON only.',
    user: (o) =>
      `Write one ${o.difficulty} ${humanize(o.promptType)} writing prompt in the ${humanize(o.genre)} genre for a ${humanize(o.length)}.` +
      (o.theme ? ` Theme: ${o.theme}.` : '') +
      ` Return {"title", "prompt", "genre", "promptType", "character", "setting", "conflict", "wordCountTarget": ${TARGET[o.length]}, "tips": [string]}.`,
    contentSchema: content,
  },
  seo: (c, o) => ({
    title: `${titleCase(humanize(o.genre))} writing prompt: ${c.setting}`,
    description: c.prompt,
    keywords: ['story prompts', `${humanize(o.genre)} writing prompts`, `${humanize(o.promptType)} prompt`, 'creative writing prompt', `${o.difficulty} writing exercise`, ...(o.theme ? [o.theme] : [])],
  }),
  exportRows: (c) => [
    ['Prompt', c.prompt],
    ['Character', c.character],
    ['Setting', c.setting],
    ['Conflict', c.conflict],
    ['Word count target', String(c.wordCountTarget)],
    ['Tips', c.tips.join(' | ')],
  ],
  category: (o) => o.genre,
  summary: (c) => c.prompt,
});
