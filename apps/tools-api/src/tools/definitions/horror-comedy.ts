// Horror and comedy cluster: horror premises with the rules of the threat, and comedy premises with a comic engine.
import { z } from 'zod';
import { cap, humanize, optionalText, titleCase } from '../text';
import { defineTool } from '../tool-definition';

const HORROR_SUBGENRES = ['gothic', 'psychological', 'supernatural', 'cosmic', 'folk', 'haunted-house'] as const;
type HorrorSubgenre = (typeof HORROR_SUBGENRES)[number];
const HORROR: Record<HorrorSubgenre, { settings: readonly string[]; premises: readonly string[]; rules: readonly string[] }> = {
  gothic: {
    settings: ['a crumbling clifftop abbey', 'a manor whose portraits are turned to the wall', 'a convent school in winter'],
    premises: ['A new governess finds that the children already know her name, and the date she will die.', 'An heir returns to the family house to find a place set for them at dinner every night for twenty years.'],
    rules: ['It can only enter rooms with mirrors.', 'Every generation, one child must stay.', 'Candles burn blue when it is near.'],
  },
  psychological: {
    settings: ['a flat with one more room than the floor plan shows', 'a night shift at a sleep clinic', 'a marriage that looks perfect from outside'],
    premises: ['A woman notices that her husband’s stories about his past change slightly every time he tells them.', 'A man starts receiving texts from his own number, describing what he will do tomorrow.'],
    rules: ['Nobody else ever sees it.', 'It only happens when they are alone.', 'Every time they write it down, the notes change.'],
  },
  supernatural: {
    settings: ['a motel off a highway that is not on any map', 'a lighthouse keeper’s cottage', 'a hospital’s closed maternity wing'],
    premises: ['A night nurse hears a lullaby from a ward that has been empty since 1974.', 'A family moves in and the previous owners’ dog keeps coming back, even though it died years ago.'],
    rules: ['It cannot cross running water.', 'It answers when called by its name, so never say its name.', 'It can only take what is offered.'],
  },
  cosmic: {
    settings: ['an observatory in the high desert', 'a research vessel above an ocean trench', 'a small town where the stars are wrong'],
    premises: ['An astronomer detects a signal that is a perfect recording of her own heartbeat.', 'A deep-sea crew maps a structure on the seabed that is slowly rising.'],
    rules: ['To understand it is to be changed by it.', 'Geometry stops working near it.', 'It is not hostile; it simply does not notice us.'],
  },
  folk: {
    settings: ['an island village with a summer festival', 'a farm where the harvest has never failed', 'a valley where the church bells ring at night'],
    premises: ['An outsider is welcomed to the village with unsettling warmth, three days before the festival.', 'The corn dolls appear on every doorstep except one.'],
    rules: ['The old bargain must be kept.', 'Nobody leaves the village after the bonfire.', 'The woods give back what they take, but changed.'],
  },
  'haunted-house': {
    settings: ['a new-build house on an old plague pit', 'a Victorian terrace with a bricked-up cellar', 'a lake house rented too cheaply'],
    premises: ['A family’s baby monitor picks up a second child’s breathing.', 'Every morning the furniture is arranged as it was in a photograph from 1912.'],
    rules: ['It is strongest at 3:07 a.m.', 'It wants someone to finish what was started.', 'It does not want them to leave. It wants them to stay.'],
  },
};
const ESCALATION = ['A small wrongness only the protagonist notices.', 'Proof, which disappears before anyone else can see it.', 'Someone who believed them is hurt.', 'The protagonist discovers they are part of the pattern.', 'No way out except through it.'];
const ENDINGS: Record<'eerie' | 'unsettling' | 'terrifying', readonly string[]> = {
  eerie: ['End on a quiet detail that tells the reader it is not over.', 'Let the protagonist leave, and the last line show what they took with them.'],
  unsettling: ['End with the protagonist accepting something they should not.', 'Reveal that the safe character was part of it all along.'],
  terrifying: ['Let the threat win, and make the reader understand why.', 'End at the moment the door opens.'],
};

const horrorOptions = z.object({
  subgenre: z.enum(HORROR_SUBGENRES).default('supernatural'),
  intensity: z.enum(['eerie', 'unsettling', 'terrifying']).default('unsettling'),
  setting: optionalText(200),
});
type HorrorOptions = z.infer<typeof horrorOptions>;
const horrorContent = z.object({
  title: z.string().min(1),
  subgenre: z.string(),
  intensity: z.string(),
  setting: z.string(),
  premise: z.string().min(1),
  rules: z.array(z.string()).min(1),
  escalation: z.array(z.string()).min(1),
  endingIdea: z.string(),
});
type HorrorContent = z.infer<typeof horrorContent>;

export const horrorStoryPrompts = defineTool<HorrorOptions, HorrorContent>({
  route: 'horror-story-prompts',
  cluster: 'horror-comedy',
  title: 'Horror Story Prompts',
  description: 'Horror story prompts with a premise, the rules of the threat, an escalation path and an ending.',
  sharePrefix: 'hp',
  optionsSchema: horrorOptions,
  generateOffline(o, rng) {
    const h = HORROR[o.subgenre];
    const setting = o.setting ?? rng.pick(h.settings);
    return {
      title: `${titleCase(humanize(o.subgenre))} Horror Prompt: ${titleCase(setting.replace(/^an? /, ''))}`,
      subgenre: o.subgenre,
      intensity: o.intensity,
      setting: cap(setting),
      premise: rng.pick(h.premises),
      rules: rng.sample(h.rules, 2),
      escalation: ESCALATION.slice(0, o.intensity === 'eerie' ? 3 : o.intensity === 'unsettling' ? 4 : 5),
      endingIdea: rng.pick(ENDINGS[o.intensity]),
    };
  },
  llm: {
    system: 'You write original horror story prompts built on dread, not gore. Answer with JSON only.',
    user: (o) => `Write an ${o.intensity} ${humanize(o.subgenre)} horror prompt${o.setting ? ` set at ${o.setting}` : ''}. Return {"title", "subgenre", "intensity", "setting", "premise", "rules": [string], "escalation": [string], "endingIdea"}.`,
    contentSchema: horrorContent,
  },
  seo: (c, o) => ({
    title: `${cap(humanize(o.subgenre))} horror story prompt`,
    description: `An ${o.intensity} ${humanize(o.subgenre)} horror writing prompt: ${c.premise}`,
    keywords: ['horror story prompts', `${humanize(o.subgenre)} horror`, 'scary story ideas', 'horror writing', `${o.intensity} horror`, 'story prompt'],
  }),
  exportRows: (c) => [
    ['Setting', c.setting],
    ['Premise', c.premise],
    ['Rules', c.rules.join(' | ')],
    ['Escalation', c.escalation.join(' | ')],
    ['Ending', c.endingIdea],
  ],
  category: (o) => o.subgenre,
  summary: (c) => c.premise,
});

const STYLES = ['situational', 'slapstick', 'satire', 'romantic-comedy', 'absurdist', 'dark-comedy'] as const;
type Style = (typeof STYLES)[number];
const COMEDY: Record<Style, { premises: readonly string[]; engines: readonly string[] }> = {
  situational: {
    premises: ['Two families book the same holiday cottage for the same week, and neither will leave.', 'A best man loses the rings, the groom and the best man’s speech, in that order.'],
    engines: ['A lie that needs a bigger lie every scene.', 'Two people who each think the other knows the plan.'],
  },
  slapstick: {
    premises: ['A nervous waiter must carry a six-tier cake across a wedding reception during an earthquake drill.', 'A man tries to return a rented tuxedo without anyone noticing he is still wearing it.'],
    engines: ['Every solution causes a bigger physical problem.', 'An object that refuses to stay where it is put.'],
  },
  satire: {
    premises: ['A town council votes to rebrand the weather.', 'A wellness start-up sells bottled silence, and it is going very well.'],
    engines: ['Taking an institution’s logic one step further than anyone dares.', 'A sincere outsider who takes every rule literally.'],
  },
  'romantic-comedy': {
    premises: ['Two rival florists are hired for the same wedding by two halves of the same family.', 'A woman hires a fake boyfriend who turns out to be her new boss’s brother.'],
    engines: ['Attraction neither will admit, forced into close quarters.', 'A misunderstanding kept alive by pride.'],
  },
  absurdist: {
    premises: ['A man wakes up to find he has been appointed Minister for Ducks.', 'The moon files a noise complaint.'],
    engines: ['Everyone treats the impossible as paperwork.', 'A single absurd rule followed with total seriousness.'],
  },
  'dark-comedy': {
    premises: ['Three siblings must scatter their mother’s ashes in the place she named in her will, which no longer exists.', 'An undertaker’s apprentice keeps accidentally reviving the clients.'],
    engines: ['Grief colliding with bureaucracy.', 'Characters behaving perfectly politely in a terrible situation.'],
  },
};
const COMIC_CHARACTERS = ['a know-it-all who is wrong about everything', 'an overprepared planner with a laminated schedule', 'a relentlessly positive intern', 'a grandmother who has seen it all and says so', 'a dog with a better plan than the humans', 'a nervous liar who cannot stop improvising'];
const BUTTONS = ['End on a callback to the very first line.', 'Reveal that the whole disaster was unnecessary.', 'Let the quietest character deliver the final line.', 'Reverse the opening: the problem solved, and the same problem returning.'];

const comedyOptions = z.object({
  style: z.enum(STYLES).default('situational'),
  format: z.enum(['scene', 'sketch', 'short-story']).default('scene'),
  setting: optionalText(200),
});
type ComedyOptions = z.infer<typeof comedyOptions>;
const comedyContent = z.object({
  title: z.string().min(1),
  style: z.string(),
  format: z.string(),
  premise: z.string().min(1),
  characters: z.array(z.string()).min(1),
  comicEngine: z.string(),
  escalation: z.array(z.string()).min(1),
  button: z.string(),
});
type ComedyContent = z.infer<typeof comedyContent>;

export const comedyPrompts = defineTool<ComedyOptions, ComedyContent>({
  route: 'comedy-prompts',
  cluster: 'horror-comedy',
  title: 'Comedy Writing Prompts',
  description: 'Comedy writing prompts: a funny premise, characters, the comic engine, escalation beats and a closing button.',
  sharePrefix: 'cp',
  optionsSchema: comedyOptions,
  generateOffline(o, rng) {
    const c = COMEDY[o.style];
    const premise = rng.pick(c.premises) + (o.setting ? ` It all happens at ${o.setting}.` : '');
    return {
      title: `${titleCase(humanize(o.style))} ${titleCase(humanize(o.format))} Prompt`,
      style: o.style,
      format: o.format,
      premise,
      characters: rng.sample(COMIC_CHARACTERS, 2).map(cap),
      comicEngine: rng.pick(c.engines),
      escalation: ['Establish the normal and the one small problem.', 'The first fix makes it worse.', 'A second character joins in with their own agenda.', 'Everything goes wrong at once, in public.'],
      button: rng.pick(BUTTONS),
    };
  },
  llm: {
    system: 'You write comedy prompts with a clear comic engine. Answer with JSON only.',
    user: (o) => `Write a ${humanize(o.style)} comedy prompt for a ${humanize(o.format)}${o.setting ? ` set at ${o.setting}` : ''}. Return {"title", "style", "format", "premise", "characters": [string], "comicEngine", "escalation": [string], "button"}.`,
    contentSchema: comedyContent,
  },
  seo: (c, o) => ({
    title: `${cap(humanize(o.style))} comedy writing prompt`,
    description: `A ${humanize(o.style)} comedy prompt for a ${humanize(o.format)}: ${c.premise}`,
    keywords: ['comedy writing prompts', `${humanize(o.style)} ideas`, 'funny story ideas', 'sketch prompt', 'humor writing', 'comedy premise'],
  }),
  exportRows: (c) => [
    ['Premise', c.premise],
    ['Characters', c.characters.join(' | ')],
    ['Comic engine', c.comicEngine],
    ['Escalation', c.escalation.join(' | ')],
    ['Button', c.button],
  ],
  category: (o) => o.style,
  summary: (c) => c.premise,
});
