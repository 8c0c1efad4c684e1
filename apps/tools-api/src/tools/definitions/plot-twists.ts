// Plot twists: the options are exactly spec 002's (genre, storyType, intensity, plotElements, customContext).
import { z } from 'zod';
import { genreVocab } from '../genres';
import { cap, fill, humanize, listOf, optionalText, stringList, titleCase } from '../text';
import { defineTool } from '../tool-definition';

const options = z.object({
  genre: z.string().trim().min(1).max(60),
  storyType: z.enum(['novel', 'short-story', 'screenplay']).default('novel'),
  intensity: z.enum(['subtle', 'dramatic', 'mind-blowing']).default('dramatic'),
  plotElements: stringList(10, 100).optional(),
  customContext: optionalText(2000),
});
type Options = z.infer<typeof options>;

const twist = z.object({ twist: z.string().min(1), setup: z.string().min(1), foreshadowing: z.array(z.string().min(1)).min(1), impact: z.string().min(1), element: z.string().optional() });
const content = z.object({
  title: z.string().min(1),
  genre: z.string(),
  storyType: z.string(),
  intensity: z.string(),
  twists: z.array(twist).min(1),
  context: z.string().optional(),
});
type Content = z.infer<typeof content>;

const TWISTS: Record<Options['intensity'], readonly string[]> = {
  subtle: [
    '{Role} has been quietly protecting the protagonist all along: every obstacle they caused was meant to keep them away from {place}.',
    'The {object} the protagonist is chasing was never lost. {Role} hid it, and has been leaving small clues in the hope of being found out.',
    "The protagonist's memory of the night at {place} is wrong in one small detail, and that detail changes who is to blame.",
    '{Role} and the protagonist are related, and {role} has known since the first chapter.',
    'What looked like bad luck is a pattern: every setback follows a visit from {role}.',
  ],
  dramatic: [
    '{Role} is working for {force}, and has been passing them the protagonist’s plans from the start.',
    'The person everyone is searching for never left {place}; they have been hiding in plain sight as {role}.',
    "The {object} is a forgery. The real one was destroyed years ago, by the protagonist's own mentor.",
    'The protagonist was the target all along; the first victim was a mistake.',
    '{Role} and {role2} are the same person, living two lives in two halves of the story.',
  ],
  'mind-blowing': [
    'The protagonist is the one {force} has been hunting: they caused the disaster at {place} and erased their own memory of it.',
    'The story is being told by {role}, who died in the first act; every chapter since is what they wish had happened.',
    "There were never two timelines: the 'past' chapters at {place} happen after the ending.",
    'The antagonist is the protagonist’s future self, trying to stop them from ever finding {object}.',
    'Everyone at {place} has been playing a part to deceive the protagonist, including the narrator the reader trusted.',
  ],
};

const SETUPS: Record<Options['intensity'], readonly string[]> = {
  subtle: ['Plant it in small kindnesses that only make sense on a second reading.', 'Let it hide inside routine: the reader should see it and not notice it.'],
  dramatic: ['Build trust first, so the reveal costs the protagonist something real.', 'Give the reader every fact they need, in the wrong order.'],
  'mind-blowing': ['Play fair: every earlier scene must survive a rereading with the new meaning.', 'Anchor the story in one detail the reader never questions, then pull it away.'],
};

const CLUES = [
  'Let {role} know a detail they could not have known.',
  'Show {object} early, in an ordinary scene, and let no one remark on it.',
  'Give {role} an unexplained absence on the night that matters.',
  'Mention {place} in passing in the opening chapter.',
  'Have a minor character contradict the official version once, and be ignored.',
  'Repeat one phrase in two different mouths.',
];

const IMPACT: Record<Options['storyType'], string> = {
  novel: 'Lands best at the end of the second act, recasting everything the reader has seen so far.',
  'short-story': 'Save it for the last page, so the reader turns straight back to the opening.',
  screenplay: 'Reveal it visually at the midpoint and replay two earlier scenes with their new meaning.',
};

export const plotTwists = defineTool<Options, Content>({
  route: 'plot-twists',
  cluster: 'core',
  title: 'Plot Twist Generator',
  description: 'Plot twists for any genre, tuned from subtle to mind-blowing, with setup and foreshadowing notes.',
  sharePrefix: 'pt',
  optionsSchema: options,
  generateOffline(o, rng) {
    const v = genreVocab(o.genre);
    const templates = rng.sample(TWISTS[o.intensity], 3);
    const twists = templates.map((template, i) => {
      const [role, role2] = rng.sample(v.roles, 2) as [string, string];
      const values = { role, role2, place: rng.pick(v.places), object: o.plotElements?.[i] ?? rng.pick(v.objects), force: rng.pick(v.forces) };
      return {
        twist: fill(template, values),
        setup: rng.pick(SETUPS[o.intensity]),
        foreshadowing: rng.sample(CLUES, 3).map((c) => fill(c, values)),
        impact: IMPACT[o.storyType],
        ...(o.plotElements?.[i] ? { element: o.plotElements[i] } : {}),
      };
    });
    return {
      title: `${titleCase(o.intensity.replace('-', ' '))} ${titleCase(v.label)} Plot Twists for a ${titleCase(humanize(o.storyType))}`,
      genre: o.genre,
      storyType: o.storyType,
      intensity: o.intensity,
      twists,
      ...(o.customContext ? { context: o.customContext } : {}),
    };
  },
  llm: {
    system: 'You are a story editor who designs fair, surprising plot twists. Answer with JSON only.',
    user: (o) =>
      `Write 3 ${o.intensity} plot twists for a ${humanize(o.storyType)} in the ${o.genre} genre.` +
      (o.plotElements?.length ? ` Use these plot elements: ${listOf(o.plotElements)}.` : '') +
      (o.customContext ? ` Story context: ${o.customContext}` : '') +
      ' Return {"title", "genre", "storyType", "intensity", "twists": [{"twist", "setup", "foreshadowing": [string], "impact"}]}.',
    contentSchema: content,
  },
  seo: (c, o) => ({
    title: `${cap(o.intensity.replace('-', ' '))} ${o.genre} plot twist ideas`,
    description: `${c.twists.length} ${o.intensity.replace('-', ' ')} plot twists for a ${o.genre} ${humanize(o.storyType)}: ${c.twists[0]?.twist ?? ''}`,
    keywords: ['plot twist generator', `${o.genre} plot twists`, `${humanize(o.storyType)} ideas`, `${o.intensity} twist`, 'story twists', 'writing ideas'],
  }),
  exportRows: (c) => c.twists.flatMap((t, i) => [[`Twist ${i + 1}`, t.twist], [`Twist ${i + 1} setup`, t.setup], [`Twist ${i + 1} foreshadowing`, t.foreshadowing.join(' | ')]] as [string, string][]),
  category: (o) => o.genre.toLowerCase(),
  summary: (c) => c.twists[0]?.twist ?? c.title,
});
