// First lines, and the two multi-variant generators: character names and story titles (several per call).
import { z } from 'zod';
import { genreVocab, STORY_GENRES } from '../genres';
import { cap, fill, humanize, stringList, titleCase } from '../text';
import { defineTool } from '../tool-definition';

const TONES = ['mysterious', 'humorous', 'ominous', 'lyrical', 'urgent'] as const;
type Tone = (typeof TONES)[number];
const LINES: Record<Tone, readonly { line: string; technique: string }[]> = {
  mysterious: [
    { line: 'The letter arrived forty years late, and it was addressed to {me}.', technique: 'An impossible fact' },
    { line: 'Nobody in {place} would say what happened to the last {role}.', technique: 'A withheld secret' },
    { line: 'There were three rules about {object}, and {I} had already broken two.', technique: 'Rules about to be broken' },
  ],
  humorous: [
    { line: '{I} had exactly one job at the wedding, and {I} lost it before breakfast.', technique: 'Comic understatement' },
    { line: 'The goat was not part of the plan.', technique: 'An absurd detail' },
    { line: 'In {my} defence, {object} had been asking for it.', technique: 'An unreliable excuse' },
  ],
  ominous: [
    { line: 'The birds left {place} on a Tuesday, and by Friday so had everyone else.', technique: 'Foreboding pattern' },
    { line: 'It was the kind of quiet that comes just before someone screams.', technique: 'Atmosphere' },
    { line: '{My} mother always said {place} would take one of us eventually.', technique: 'A prophecy' },
  ],
  lyrical: [
    { line: 'That summer the river ran the colour of old tea, and {I} was in love with everyone.', technique: 'Sensory image' },
    { line: 'Some houses remember you long after you have forgotten them.', technique: 'Reflective voice' },
    { line: 'The snow came in the night like an apology.', technique: 'Simile' },
  ],
  urgent: [
    { line: '{I} had ninety seconds to get out of {place}, and the door would not open.', technique: 'A ticking clock' },
    { line: 'Run, the message said. Do not pack.', technique: 'An imperative' },
    { line: 'By the time {I} found {object}, the sirens had already started.', technique: 'In medias res' },
  ],
};
const POV: Record<'first' | 'second' | 'third', Record<string, string>> = {
  first: { I: 'I', me: 'me', my: 'my' },
  second: { I: 'you', me: 'you', my: 'your' },
  third: { I: 'she', me: 'her', my: 'her' },
};

const firstLineOptions = z.object({
  genre: z.enum(STORY_GENRES).default('literary'),
  tone: z.enum(TONES).default('mysterious'),
  pointOfView: z.enum(['first', 'second', 'third']).default('first'),
  count: z.number().int().min(1).max(10).default(5),
});
type FirstLineOptions = z.infer<typeof firstLineOptions>;
const firstLineContent = z.object({
  title: z.string().min(1),
  genre: z.string(),
  tone: z.string(),
  pointOfView: z.string(),
  lines: z.array(z.object({ line: z.string().min(1), technique: z.string() })).min(1),
});
type FirstLineContent = z.infer<typeof firstLineContent>;

export const firstLineGenerator = defineTool<FirstLineOptions, FirstLineContent>({
  route: 'first-line-generator',
  cluster: 'multi-variant',
  title: 'First Line Generator',
  description: 'Opening lines for your story, by genre, tone and point of view, each labelled with the technique it uses.',
  sharePrefix: 'fl',
  optionsSchema: firstLineOptions,
  generateOffline(o, rng) {
    const v = genreVocab(o.genre);
    const pov = POV[o.pointOfView];
    // The chosen tone first, then the others, so a long list stays on tone as far as it can.
    const pool = [...rng.sample(LINES[o.tone], 99), ...rng.sample(TONES.filter((t) => t !== o.tone).flatMap((t) => LINES[t]), 99)];
    const lines = pool.slice(0, o.count).map((l) => {
      const values = { ...pov, place: rng.pick(v.places), role: rng.pick(v.roles).replace(/^the /, ''), object: rng.pick(v.objects) };
      const text = fill(l.line, values);
      return { line: cap(text), technique: l.technique };
    });
    return { title: `${lines.length} ${cap(o.tone)} First Lines for ${titleCase(humanize(o.genre))}`, genre: o.genre, tone: o.tone, pointOfView: o.pointOfView, lines };
  },
  llm: {
    system: 'You write memorable first lines for stories. Answer with JSON only.',
    user: (o) => `Write ${o.count} ${o.tone} first lines for ${humanize(o.genre)} stories in ${o.pointOfView} person. Return {"title", "genre", "tone", "pointOfView", "lines": [{"line", "technique"}]}.`,
    contentSchema: firstLineContent,
  },
  seo: (c, o) => ({
    title: `${cap(o.tone)} first lines for ${humanize(o.genre)} stories`,
    description: `${c.lines.length} ${o.tone} opening lines for ${humanize(o.genre)} writers: ${c.lines[0]?.line ?? ''}`,
    keywords: ['first line generator', 'opening lines', `${humanize(o.genre)} story openings`, `${o.tone} first lines`, 'story hooks', 'writing ideas'],
  }),
  exportRows: (c) => c.lines.map((l, i) => [`Line ${i + 1}`, `${l.line} (${l.technique})`] as [string, string]),
  category: (o) => o.genre,
  summary: (c) => c.lines[0]?.line ?? c.title,
});

const NAME_STYLES = ['english', 'celtic', 'nordic', 'latin', 'slavic', 'fantasy', 'sci-fi'] as const;
type NameStyle = (typeof NAME_STYLES)[number];
type Gendered = { feminine: readonly [string, string][]; masculine: readonly [string, string][]; neutral: readonly [string, string][]; surnames: readonly [string, string][] };
/** [name, meaning] pairs; meanings are the commonly given ones. */
const NAME_BANK: Record<NameStyle, Gendered> = {
  english: {
    feminine: [['Harriet', 'home ruler'], ['Edith', 'prosperous in war'], ['Rose', 'the flower'], ['Matilda', 'mighty in battle'], ['Winifred', 'blessed peace'], ['Audrey', 'noble strength']],
    masculine: [['Arthur', 'bear'], ['Edmund', 'prosperous protector'], ['Alfred', 'elf counsel'], ['Oswin', 'friend of god'], ['Harold', 'army ruler'], ['Walter', 'ruler of the army']],
    neutral: [['Ashley', 'ash tree meadow'], ['Robin', 'bright fame'], ['Shelby', 'willow farm'], ['Avery', 'ruler of elves']],
    surnames: [['Fairweather', 'of good weather'], ['Blackwood', 'dark forest'], ['Thornbury', 'fort among thorns'], ['Whitlock', 'fair-haired'], ['Ashdown', 'ash hill'], ['Penhallow', 'head of the moor']],
  },
  celtic: {
    feminine: [['Aisling', 'dream'], ['Niamh', 'bright'], ['Siobhan', 'God is gracious'], ['Bronwen', 'white breast'], ['Eilidh', 'sun'], ['Orla', 'golden princess']],
    masculine: [['Cormac', 'charioteer'], ['Declan', 'full of goodness'], ['Rhys', 'ardour'], ['Tadhg', 'poet'], ['Fionn', 'fair'], ['Cian', 'ancient']],
    neutral: [['Rowan', 'little red one'], ['Quinn', 'wise'], ['Morgan', 'sea-born'], ['Riley', 'valiant']],
    surnames: [['MacAllister', 'son of Alasdair'], ["O'Connell", 'strong as a wolf'], ['Gwynne', 'white'], ['Kennedy', 'helmeted head'], ['Lachlan', 'land of lakes'], ['Brennan', 'sorrow']],
  },
  nordic: {
    feminine: [['Astrid', 'divinely beautiful'], ['Sigrid', 'beautiful victory'], ['Freya', 'lady'], ['Ingrid', 'beautiful'], ['Solveig', 'strong house'], ['Liv', 'life']],
    masculine: [['Bjorn', 'bear'], ['Leif', 'heir'], ['Sven', 'young man'], ['Erik', 'eternal ruler'], ['Torvald', "Thor's ruler"], ['Ragnar', 'warrior of judgment']],
    neutral: [['Kari', 'pure'], ['Eir', 'mercy'], ['Sol', 'sun'], ['Linn', 'waterfall']],
    surnames: [['Halvorsen', 'son of Halvor'], ['Lindqvist', 'linden twig'], ['Dahl', 'valley'], ['Nyberg', 'new mountain'], ['Strand', 'shore'], ['Berg', 'mountain']],
  },
  latin: {
    feminine: [['Aurelia', 'golden'], ['Livia', 'blue'], ['Octavia', 'eighth'], ['Valeria', 'strong'], ['Camilla', 'young attendant'], ['Flavia', 'golden-haired']],
    masculine: [['Lucius', 'light'], ['Marcus', 'of Mars'], ['Felix', 'lucky'], ['Cassius', 'empty'], ['Septimus', 'seventh'], ['Julian', 'youthful']],
    neutral: [['Sol', 'sun'], ['Valen', 'strong'], ['Aurel', 'golden'], ['Celeste', 'heavenly']],
    surnames: [['Valerius', 'strong'], ['Aquila', 'eagle'], ['Corvinus', 'raven'], ['Silvanus', 'of the woods'], ['Maro', 'poet'], ['Severus', 'stern']],
  },
  slavic: {
    feminine: [['Mila', 'gracious'], ['Vesna', 'spring'], ['Zora', 'dawn'], ['Dragana', 'precious'], ['Ludmila', 'loved by the people'], ['Nadia', 'hope']],
    masculine: [['Bogdan', 'gift of God'], ['Milan', 'gracious'], ['Radomir', 'joy and peace'], ['Stanislav', 'glory of government'], ['Vadim', 'to attract'], ['Yaroslav', 'fierce glory']],
    neutral: [['Sasha', 'defender'], ['Zhenya', 'well-born'], ['Valya', 'strong'], ['Slava', 'glory']],
    surnames: [['Novak', 'newcomer'], ['Petrova', 'of Peter'], ['Kovalenko', 'smith'], ['Volkov', 'wolf'], ['Sokolova', 'falcon'], ['Zelenko', 'green']],
  },
  fantasy: {
    feminine: [['Elowen', 'elm tree'], ['Isolde', 'ice ruler'], ['Seraphine', 'fiery one'], ['Thessaly', 'old kingdom'], ['Mirelle', 'admired'], ['Ysolda', 'fair']],
    masculine: [['Caelan', 'slender'], ['Thorne', 'thorn'], ['Aldric', 'old ruler'], ['Oberon', 'noble bear'], ['Kael', 'mighty warrior'], ['Dorian', 'of the sea']],
    neutral: [['Sable', 'black'], ['Ember', 'spark'], ['Wren', 'small bird'], ['Lark', 'songbird']],
    surnames: [['Stormhollow', 'valley of storms'], ['Ravenmere', 'raven lake'], ['Ashgrave', 'ash and stone'], ['Duskwhisper', 'voice of evening'], ['Ironvale', 'iron valley'], ['Starfall', 'falling star']],
  },
  'sci-fi': {
    feminine: [['Nova', 'new star'], ['Vega', 'falling eagle'], ['Lyra', 'lyre'], ['Io', 'moon of Jupiter'], ['Andromeda', 'ruler of men'], ['Kira', 'beam of light']],
    masculine: [['Orion', 'hunter'], ['Cassian', 'hollow'], ['Jax', 'God has been gracious'], ['Rigel', 'foot'], ['Talon', 'claw'], ['Zeno', 'of Zeus']],
    neutral: [['Echo', 'reflected sound'], ['Sol', 'sun'], ['Quill', 'feather pen'], ['Rye', 'grain']],
    surnames: [['Kade-7', 'series designation'], ['Vantor', 'invented'], ['Okonkwo-Reyes', 'double family name'], ['Halcyon', 'calm'], ['Marlowe', 'driftwood'], ['Tsukada', 'mound field']],
  },
};

const nameOptions = z.object({
  style: z.enum(NAME_STYLES).default('english'),
  gender: z.enum(['feminine', 'masculine', 'neutral', 'any']).default('any'),
  count: z.number().int().min(3).max(30).default(10),
  includeSurname: z.boolean().default(true),
});
type NameOptions = z.infer<typeof nameOptions>;
const nameContent = z.object({
  title: z.string().min(1),
  style: z.string(),
  gender: z.string(),
  names: z.array(z.object({ firstName: z.string().min(1), lastName: z.string().optional(), fullName: z.string().min(1), meaning: z.string(), gender: z.string() })).min(1),
});
type NameContent = z.infer<typeof nameContent>;

export const characterNameGenerator = defineTool<NameOptions, NameContent>({
  route: 'character-name-generator',
  cluster: 'multi-variant',
  title: 'Character Name Generator',
  description: 'Character names with meanings, by style and gender, with surnames: several options in one go.',
  sharePrefix: 'cn',
  optionsSchema: nameOptions,
  generateOffline(o, rng) {
    const bank = NAME_BANK[o.style];
    const genders = o.gender === 'any' ? (['feminine', 'masculine', 'neutral'] as const) : ([o.gender] as const);
    const pool = rng.sample(genders.flatMap((g) => bank[g].map(([n, m]) => ({ n, m, g }))), 99);
    const surnames = rng.sample(bank.surnames, 99);
    // Combinations of first names and surnames, so a large count still gives distinct full names.
    const names: NameContent['names'] = [];
    for (let i = 0; names.length < o.count && i < pool.length * surnames.length; i++) {
      const first = pool[i % pool.length]!;
      const last = surnames[(i + Math.floor(i / pool.length)) % surnames.length]!;
      const fullName = o.includeSurname ? `${first.n} ${last[0]}` : first.n;
      if (names.some((x) => x.fullName === fullName)) continue;
      names.push({ firstName: first.n, ...(o.includeSurname ? { lastName: last[0] } : {}), fullName, meaning: o.includeSurname ? `${first.m}; ${last[0]}: ${last[1]}` : first.m, gender: first.g });
    }
    return { title: `${names.length} ${titleCase(humanize(o.style))} Character Names`, style: o.style, gender: o.gender, names };
  },
  llm: {
    system: 'You suggest fitting character names with their meanings. Answer with JSON only.',
    user: (o) => `Suggest ${o.count} ${humanize(o.style)}-style character names, gender ${o.gender}${o.includeSurname ? ', with surnames' : ', first names only'}. Return {"title", "style", "gender", "names": [{"firstName", "lastName", "fullName", "meaning", "gender"}]}.`,
    contentSchema: nameContent,
  },
  seo: (c, o) => ({
    title: `${titleCase(humanize(o.style))} character names with meanings`,
    description: `${c.names.length} ${humanize(o.style)} character names for your story: ${c.names.slice(0, 4).map((n) => n.fullName).join(', ')}, and more, with meanings.`,
    keywords: ['character name generator', `${humanize(o.style)} names`, 'name meanings', 'fantasy names', 'character names for writers', `${o.gender} names`],
  }),
  exportRows: (c) => c.names.map((n) => [n.fullName, n.meaning] as [string, string]),
  category: (o) => o.style,
  summary: (c) => c.names.map((n) => n.fullName).slice(0, 6).join(', '),
});

const TITLE_PATTERNS: readonly { pattern: string; template: string }[] = [
  { pattern: 'The X of Y', template: 'The {Noun} of {Place}' },
  { pattern: 'Evocative phrase', template: '{Adjective} {Noun}' },
  { pattern: 'Possessive', template: 'The {Role}’s {Noun}' },
  { pattern: 'Single word', template: '{Noun}' },
  { pattern: 'Statement', template: 'Nobody Leaves {Place}' },
  { pattern: 'Question', template: 'Who Took the {Noun}?' },
  { pattern: 'Time and place', template: '{Season} at {Place}' },
  { pattern: 'Last or first', template: 'The Last {Role}' },
];
const ADJECTIVES: Record<string, readonly string[]> = {
  dark: ['Hollow', 'Broken', 'Silent', 'Drowned', 'Burning', 'Bitter'],
  hopeful: ['Bright', 'Golden', 'Wild', 'Open', 'Shining', 'Second'],
  playful: ['Accidental', 'Reluctant', 'Unlikely', 'Questionable', 'Borrowed', 'Runaway'],
  epic: ['Iron', 'Endless', 'Shattered', 'Forgotten', 'Crimson', 'Eternal'],
};
const NOUNS = ['Crown', 'Lantern', 'Tide', 'Orchard', 'Letters', 'Promise', 'Winter', 'Garden', 'Map', 'Key', 'Ashes', 'Harbour', 'Song', 'Secret'];
const SEASONS = ['Winter', 'Midsummer', 'Harvest', 'Spring', 'Nightfall', 'Christmas'];

const titleOptions = z.object({
  genre: z.enum(STORY_GENRES).default('literary'),
  tone: z.enum(['dark', 'hopeful', 'playful', 'epic']).default('hopeful'),
  keywords: stringList(5, 40).optional(),
  count: z.number().int().min(3).max(20).default(10),
});
type TitleOptions = z.infer<typeof titleOptions>;
const titleContent = z.object({
  title: z.string().min(1),
  genre: z.string(),
  tone: z.string(),
  titles: z.array(z.object({ title: z.string().min(1), pattern: z.string() })).min(1),
});
type TitleContent = z.infer<typeof titleContent>;

export const storyTitleGenerator = defineTool<TitleOptions, TitleContent>({
  route: 'story-title-generator',
  cluster: 'multi-variant',
  title: 'Story Title Generator',
  description: 'Story and book title ideas by genre and tone, in several title patterns, with your own keywords.',
  sharePrefix: 'st',
  optionsSchema: titleOptions,
  generateOffline(o, rng) {
    const v = genreVocab(o.genre);
    const own = (o.keywords ?? []).map(titleCase);
    const seen = new Set<string>();
    const titles: TitleContent['titles'] = [];
    for (let i = 0; titles.length < o.count && i < o.count * 8; i++) {
      const p = TITLE_PATTERNS[i % TITLE_PATTERNS.length]!;
      const noun = own.length && rng.chance(0.5) ? rng.pick(own) : rng.pick(NOUNS);
      const values = {
        noun,
        place: titleCase(rng.pick(v.places).replace(/^the /, '')),
        adjective: rng.pick(ADJECTIVES[o.tone]!),
        role: titleCase(rng.pick(v.roles).replace(/^the /, '').replace(/'s .*/, '')),
        season: rng.pick(SEASONS),
      };
      const t = fill(p.template, values);
      if (seen.has(t)) continue;
      seen.add(t);
      titles.push({ title: t, pattern: p.pattern });
    }
    return { title: `${titles.length} ${cap(o.tone)} ${titleCase(humanize(o.genre))} Story Titles`, genre: o.genre, tone: o.tone, titles };
  },
  llm: {
    system: 'You brainstorm strong, varied story titles. Answer with JSON only.',
    user: (o) => `Suggest ${o.count} ${o.tone} titles for a ${humanize(o.genre)} story${o.keywords?.length ? ` using ideas like ${o.keywords.join(', ')}` : ''}. Return {"title", "genre", "tone", "titles": [{"title", "pattern"}]}.`,
    contentSchema: titleContent,
  },
  seo: (c, o) => ({
    title: `${cap(o.tone)} ${humanize(o.genre)} story title ideas`,
    description: `${c.titles.length} ${o.tone} title ideas for ${humanize(o.genre)} stories and books: ${c.titles.slice(0, 4).map((t) => t.title).join(', ')}.`,
    keywords: ['story title generator', 'book title ideas', `${humanize(o.genre)} titles`, `${o.tone} titles`, 'novel title generator', ...(o.keywords ?? [])],
  }),
  exportRows: (c) => c.titles.map((t, i) => [`Title ${i + 1}`, `${t.title} (${t.pattern})`] as [string, string]),
  category: (o) => o.genre,
  summary: (c) => c.titles.map((t) => t.title).slice(0, 6).join(', '),
});
