// Book blurbs: three versions (hook-focused, character-driven, situation-based) and a performance analysis
// scoring each on hook, clarity and emotional pull from measurable features of the text.
import { z } from 'zod';
import { genreVocab, STORY_GENRES } from '../genres';
import { cap, humanize, optionalText, titleCase, wordCount } from '../text';
import { defineTool } from '../tool-definition';

/** The book's title arrives as `bookTitle` or, as a client writes it from the Book, `title`: both are taken. */
const titleAlias = (raw: unknown) => {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    if (o['bookTitle'] === undefined && o['title'] !== undefined) {
      const { title, ...rest } = o;
      return { ...rest, bookTitle: title };
    }
  }
  return raw;
};

const optionFields = z.object({
  bookTitle: z.string().trim().min(1).max(200),
  genre: z.enum(STORY_GENRES).default('literary'),
  protagonist: optionalText(100),
  setting: optionalText(200),
  conflict: optionalText(500),
  stakes: optionalText(300),
  tone: z.enum(['dramatic', 'lighthearted', 'dark', 'romantic', 'suspenseful']).default('dramatic'),
  audience: z.enum(['adult', 'young-adult', 'middle-grade']).default('adult'),
  length: z.enum(['short', 'medium', 'long']).default('medium'),
});
const options = z.preprocess(titleAlias, optionFields);
type Options = z.infer<typeof optionFields>;

const VERSION_TYPES = ['hook-focused', 'character-driven', 'situation-based'] as const;
const version = z.object({ type: z.enum(VERSION_TYPES), blurb: z.string().min(1), wordCount: z.number().int().nonnegative() });
const score = z.object({ type: z.enum(VERSION_TYPES), hookStrength: z.number(), clarity: z.number(), emotionalPull: z.number(), overall: z.number() });
const content = z.object({
  title: z.string().min(1),
  bookTitle: z.string(),
  genre: z.string(),
  versions: z.array(version).length(3),
  performanceAnalysis: z.object({ recommended: z.enum(VERSION_TYPES), scores: z.array(score).length(3), notes: z.array(z.string()) }),
});
type Content = z.infer<typeof content>;

const NAMES = ['Mara Quill', 'Elias Thorne', 'Juniper Hale', 'Theo Marsh', 'Noor Haddad', 'Callum Reyes', 'Isla Brennan', 'Ravi Sen', 'Wren Calloway', 'Jonah Ashby'];
const FLAWS = ['who has never once asked for help', 'who left home swearing never to return', 'who trusts no one, with good reason', 'who has spent years pretending to be ordinary', 'who made one mistake that everyone remembers'];
const HOOKS: Record<Options['tone'], readonly string[]> = {
  dramatic: ['Some promises are made to be broken. This one could break everything.', 'Everything {name} built is about to fall. The only question is who pushes first.'],
  lighthearted: ['{Name} had a plan. The plan did not survive breakfast.', 'It was supposed to be a quiet week. It was never going to be a quiet week.'],
  dark: ['The dead do not stay buried in {place}. Neither do secrets.', 'Nobody leaves {place} unchanged. Most people do not leave at all.'],
  romantic: ['{Name} did not come to {place} to fall in love. Unfortunately, {place} had other ideas.', 'The wrong person, the right time, and one summer that changes everything.'],
  suspenseful: ['Three days. One lie. No way back.', 'Someone in {place} knows what happened that night, and they are running out of reasons to stay quiet.'],
};
const CLOSERS: Record<Options['tone'], readonly string[]> = {
  dramatic: ['What will it cost to finally tell the truth?', 'Some debts can only be paid in full.'],
  lighthearted: ['What could possibly go wrong? Everything, obviously.', 'It is going to be a very long week.'],
  dark: ['Some doors should stay closed.', 'By the time they understand, it will be too late to run.'],
  romantic: ['Some risks are worth taking twice.', 'Love was never part of the plan.'],
  suspenseful: ['The clock is already running.', 'Trust no one. Especially not yourself.'],
};
const AUDIENCE_NOTE: Record<Options['audience'], string> = {
  adult: 'Adult readers respond to stakes that are personal and adult: careers, marriages, reputations.',
  'young-adult': 'Young adult blurbs work best in a close, urgent voice with identity at the centre of the stakes.',
  'middle-grade': 'Middle-grade blurbs should promise adventure and friendship, and keep danger exciting rather than grim.',
};
const TARGET_WORDS: Record<Options['length'], number> = { short: 60, medium: 120, long: 180 };

const clamp = (n: number) => Math.max(1, Math.min(10, Math.round(n * 10) / 10));

/** Scores from the text itself: an opening question or short first line, named protagonist, stakes, length fit. */
export function analyseBlurb(type: (typeof VERSION_TYPES)[number], blurb: string, name: string, target: number) {
  const sentences = blurb.split(/(?<=[.!?])\s+/).filter(Boolean);
  const first = sentences[0] ?? '';
  const words = wordCount(blurb);
  const hookStrength = clamp(5 + (wordCount(first) <= 12 ? 2 : 0) + (/\?/.test(blurb) ? 1.5 : 0) + (/!|never|only|everything|nobody|no way/i.test(first) ? 1 : 0));
  const avgSentence = words / Math.max(1, sentences.length);
  const clarity = clamp(9 - Math.abs(words - target) / target * 4 - (avgSentence > 22 ? 1.5 : 0));
  const emotionalPull = clamp(5 + (blurb.includes(name.split(' ')[0]!) ? 1.5 : 0) + (/lose|love|truth|cost|fear|home|family|alone|trust/i.test(blurb) ? 2 : 0) + (type === 'character-driven' ? 1 : 0));
  return { type, hookStrength, clarity, emotionalPull, overall: clamp((hookStrength + clarity + emotionalPull) / 3) };
}

function pad(text: string, target: number, extras: readonly string[]): string {
  let out = text;
  for (const extra of extras) if (wordCount(out) < target * 0.8) out += ` ${extra}`;
  return out;
}

export const bookBlurb = defineTool<Options, Content>({
  route: 'book-blurb',
  cluster: 'core',
  title: 'Book Blurb Generator',
  description: 'Three back-cover blurbs for your book (hook-focused, character-driven, situation-based) with a performance analysis.',
  sharePrefix: 'bb',
  optionsSchema: options,
  generateOffline(o, rng) {
    const v = genreVocab(o.genre);
    const name = o.protagonist ?? rng.pick(NAMES);
    const first = name.split(' ')[0]!;
    const place = o.setting ?? rng.pick(v.places);
    const conflict = o.conflict ?? `${rng.pick(v.forces)} comes looking for ${rng.pick(v.objects)}`;
    const stakes = o.stakes ?? rng.pick(['everyone they love', 'the only home they have ever known', 'their last chance at a second chance', 'the truth about their family', 'their own life']);
    const flaw = rng.pick(FLAWS);
    const ally = rng.pick(v.roles);
    const hook = rng.pick(HOOKS[o.tone]).replace(/\{name\}/g, first).replace(/\{Name\}/g, first).replace(/\{place\}/g, place);
    const closer = rng.pick(CLOSERS[o.tone]);
    const target = TARGET_WORDS[o.length];
    const extras = [
      `With ${ally} as an unlikely ally, ${first} has to decide who to trust.`,
      `Every choice pulls ${first} further from the life they planned.`,
      `And the closer ${first} gets to the truth, the more dangerous it becomes.`,
      `In ${place}, nothing is quite what it seems.`,
    ];
    const versions = [
      { type: 'hook-focused' as const, text: pad(`${hook} When ${conflict.replace(/\.$/, '')}, ${name} is the last person anyone expects to stand in the way. ${closer}`, target, extras) },
      { type: 'character-driven' as const, text: pad(`${cap(name)} is ${flaw.replace(/^who /, 'someone who ')}. But when ${conflict.replace(/\.$/, '')}, ${first} must risk ${stakes} and face the one thing they have always avoided: themselves. ${closer}`, target, extras) },
      { type: 'situation-based' as const, text: pad(`In ${place}, ${conflict.replace(/\.$/, '')}. Now ${stakes} hangs in the balance, and ${name} has one chance to put it right before it is too late. ${closer}`, target, extras) },
    ].map((x) => ({ type: x.type, blurb: x.text, wordCount: wordCount(x.text) }));
    const scores = versions.map((x) => analyseBlurb(x.type, x.blurb, name, target));
    const best = scores.reduce((a, b) => (b.overall > a.overall ? b : a));
    return {
      title: `Blurbs for "${o.bookTitle}"`,
      bookTitle: o.bookTitle,
      genre: o.genre,
      versions,
      performanceAnalysis: {
        recommended: best.type,
        scores,
        notes: [
          `The ${best.type.replace('-', ' ')} version scores highest overall (${best.overall}/10).`,
          `Target length for a ${o.length} blurb is about ${target} words.`,
          AUDIENCE_NOTE[o.audience],
        ],
      },
    };
  },
  llm: {
    system: 'You are a book marketing copywriter. Write compelling back-cover blurbs and assess them honestly. Answer with JSON only.',
    user: (o) =>
      `Book: "${o.bookTitle}", a ${humanize(o.genre)} novel for ${humanize(o.audience)} readers, tone ${o.tone}, about ${TARGET_WORDS[o.length]} words per blurb.` +
      (o.protagonist ? ` Protagonist: ${o.protagonist}.` : '') +
      (o.setting ? ` Setting: ${o.setting}.` : '') +
      (o.conflict ? ` Conflict: ${o.conflict}.` : '') +
      (o.stakes ? ` Stakes: ${o.stakes}.` : '') +
      ' Write three versions: hook-focused, character-driven, situation-based. Return {"title", "bookTitle", "genre", "versions": [{"type", "blurb", "wordCount"}], "performanceAnalysis": {"recommended", "scores": [{"type", "hookStrength", "clarity", "emotionalPull", "overall"}] (1-10), "notes": [string]}}.',
    contentSchema: content,
  },
  seo: (c, o) => ({
    title: `Book blurb ideas for "${o.bookTitle}"`,
    description: `Three ${humanize(o.genre)} book blurbs for "${o.bookTitle}": ${c.versions[0]?.blurb ?? ''}`,
    keywords: ['book blurb generator', `${humanize(o.genre)} book blurb`, 'back cover copy', 'book description', `${o.tone} blurb`, 'book marketing'],
  }),
  exportRows: (c) => [
    ...c.versions.map((x) => [`${titleCase(humanize(x.type))} blurb`, x.blurb] as [string, string]),
    ['Recommended version', c.performanceAnalysis.recommended],
    ...c.performanceAnalysis.scores.map((s) => [`${titleCase(humanize(s.type))} score`, `${s.overall}/10 (hook ${s.hookStrength}, clarity ${s.clarity}, emotional pull ${s.emotionalPull})`] as [string, string]),
  ],
  category: (o) => o.genre,
  summary: (c) => c.versions.find((x) => x.type === c.performanceAnalysis.recommended)?.blurb ?? c.title,
});
