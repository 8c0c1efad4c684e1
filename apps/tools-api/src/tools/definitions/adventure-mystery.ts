// Adventure and mystery cluster: quest premises, and whodunit plots with suspects, clues and a solution.
import { z } from 'zod';
import { cap, fill, humanize, optionalText, titleCase } from '../text';
import { defineTool } from '../tool-definition';

const LANDSCAPES = ['jungle', 'desert', 'ocean', 'mountains', 'space', 'city', 'arctic', 'underground'] as const;
type Landscape = (typeof LANDSCAPES)[number];
const ADVENTURE: Record<Landscape, { places: readonly string[]; goals: readonly string[]; obstacles: readonly string[] }> = {
  jungle: { places: ['a temple swallowed by vines', 'a river that runs backwards at night', 'an abandoned rubber plantation'], goals: ['a lost expedition journal', 'a cure only one plant can provide', 'the missing guide who vanished a year ago'], obstacles: ['a flash flood cuts off the way back', 'the map was drawn by someone who lied', 'something is following the camp at night', 'fever takes the strongest of the group'] },
  desert: { places: ['a city buried by a sandstorm a century ago', 'an oasis that appears on no map', 'a crashed cargo plane'], goals: ['water for a stranded village', 'a stolen relic', 'a sister who joined the caravan and never wrote'], obstacles: ['the camels bolt in the night', 'a rival crew is a day ahead', 'the compass spins near the ruins', 'the well they were counting on is dry'] },
  ocean: { places: ['a shipwreck on a reef that moves', 'an island that sinks every twelve hours', 'a drowned lighthouse'], goals: ['the captain’s logbook', 'a legendary pearl', 'the crew of a ship that sent one last signal'], obstacles: ['a storm splits the crew between two boats', 'the radio goes dead', 'someone on board is sabotaging the engine', 'the tide turns early'] },
  mountains: { places: ['a monastery above the clouds', 'a glacier cave', 'a pass closed for fifty years'], goals: ['the first ascent of an unclimbed face', 'a climber lost in last winter’s storm', 'a hidden valley from a grandmother’s story'], obstacles: ['an avalanche buries the route', 'altitude sickness clouds the leader’s judgment', 'the rope bridge is gone', 'a rival team will not share the only shelter'] },
  space: { places: ['a derelict ship drifting near a dying star', 'a moon with a breathable atmosphere nobody can explain', 'an asteroid mining colony gone silent'], goals: ['a distress beacon’s origin', 'fuel for the long journey home', 'the first contact team that never reported back'], obstacles: ['oxygen is running low', 'the navigation AI disagrees with the captain', 'a micrometeor storm', 'the rescue ship is not who it claims to be'] },
  city: { places: ['the tunnels under the old city', 'a skyscraper under construction', 'a night market that moves every evening'], goals: ['a stolen painting before dawn', 'a missing child who left a trail of chalk marks', 'a key hidden somewhere in a million people'], obstacles: ['the police think the heroes are the thieves', 'the bridges are closed', 'a blackout hits the whole district', 'an old friend has switched sides'] },
  arctic: { places: ['a research station where the crew vanished', 'an ice ship frozen for a century', 'a polar night that lasts weeks'], goals: ['the crew’s last recordings', 'a meteorite everyone wants', 'the route home before the ice closes'], obstacles: ['the sled dogs refuse to go on', 'a whiteout hides everything', 'the ice cracks under the base', 'supplies were tampered with'] },
  underground: { places: ['a cave system that breathes', 'a flooded mine', 'catacombs beneath a cathedral'], goals: ['a miner trapped since the collapse', 'the source of a strange light', 'a treasure hidden during the war'], obstacles: ['the only torch fails', 'the passage floods', 'the echoes lie about distance', 'someone has sealed the way out'] },
};
const HEROES: Record<'children' | 'young-adult' | 'adult', readonly string[]> = {
  children: ['a twelve-year-old who never goes anywhere without a notebook', 'twins who cannot agree on anything', 'a shy kid with an extraordinary memory'],
  'young-adult': ['a runaway apprentice with a stolen map', 'a teenage pilot grounded for recklessness', 'a seventeen-year-old who just inherited a boat'],
  adult: ['a disgraced expedition leader', 'a retired smuggler pulled back for one last job', 'a field medic who has seen too much'],
};
const ALLIES = ['a guide who knows more than they say', 'a rival who turns out to be trustworthy', 'a talking crow (or a very clever one)', 'an old friend with a debt to repay', 'a scholar who has never left the library'];
const DANGER: Record<'mild' | 'moderate' | 'extreme', string> = { mild: 'Keep the peril exciting but safe: everyone comes home.', moderate: 'Real danger: someone is hurt, and the way back is uncertain.', extreme: 'Life or death from the first chapter: not everyone makes it.' };

const adventureOptions = z.object({
  landscape: z.enum(LANDSCAPES).default('jungle'),
  audience: z.enum(['children', 'young-adult', 'adult']).default('adult'),
  danger: z.enum(['mild', 'moderate', 'extreme']).default('moderate'),
  hero: optionalText(200),
});
type AdventureOptions = z.infer<typeof adventureOptions>;
const adventureContent = z.object({
  title: z.string().min(1),
  landscape: z.string(),
  premise: z.string().min(1),
  hero: z.string(),
  quest: z.string(),
  ally: z.string(),
  obstacles: z.array(z.string()).min(1),
  climaxIdea: z.string(),
  danger: z.string(),
});
type AdventureContent = z.infer<typeof adventureContent>;

export const adventurePrompts = defineTool<AdventureOptions, AdventureContent>({
  route: 'adventure-prompts',
  cluster: 'adventure-mystery',
  title: 'Adventure Story Prompts',
  description: 'Adventure story prompts: a hero, a quest, a perilous place and the obstacles on the way.',
  sharePrefix: 'ap',
  optionsSchema: adventureOptions,
  generateOffline(o, rng) {
    const land = ADVENTURE[o.landscape];
    const place = rng.pick(land.places);
    const goal = rng.pick(land.goals);
    const hero = o.hero ?? rng.pick(HEROES[o.audience]);
    return {
      title: `Adventure Prompt: ${titleCase(place.replace(/^an? /, ''))}`,
      landscape: o.landscape,
      premise: `${cap(hero)} sets out for ${place} to find ${goal}.`,
      hero: cap(hero),
      quest: `Find ${goal}.`,
      ally: cap(rng.pick(ALLIES)),
      obstacles: rng.sample(land.obstacles, 3).map((x) => `${cap(x)}.`),
      climaxIdea: `At the heart of ${place}, the hero must choose between ${goal} and the safety of the companions who came with them.`,
      danger: DANGER[o.danger],
    };
  },
  llm: {
    system: 'You write vivid adventure story prompts. Answer with JSON only.',
    user: (o) => `Write an adventure prompt set in the ${o.landscape} for ${humanize(o.audience)} readers, danger level ${o.danger}${o.hero ? `, hero: ${o.hero}` : ''}. Return {"title", "landscape", "premise", "hero", "quest", "ally", "obstacles": [string], "climaxIdea", "danger"}.`,
    contentSchema: adventureContent,
  },
  seo: (c, o) => ({
    title: `${cap(o.landscape)} adventure story prompt`,
    description: `An adventure writing prompt for ${humanize(o.audience)} readers: ${c.premise}`,
    keywords: ['adventure prompts', `${o.landscape} adventure`, 'quest story ideas', 'adventure writing', `${humanize(o.audience)} adventure`, 'story prompt'],
  }),
  exportRows: (c) => [
    ['Premise', c.premise],
    ['Quest', c.quest],
    ['Ally', c.ally],
    ['Obstacles', c.obstacles.join(' | ')],
    ['Climax', c.climaxIdea],
  ],
  category: (o) => o.landscape,
  summary: (c) => c.premise,
});

const SUBGENRES = ['cozy', 'noir', 'police-procedural', 'locked-room', 'historical', 'psychological'] as const;
type Subgenre = (typeof SUBGENRES)[number];
const MYSTERY_SETTINGS: Record<Subgenre, readonly string[]> = {
  cozy: ['a village baking competition', 'a seaside bookshop', 'a knitting retreat at a country hotel'],
  noir: ['a rain-soaked port city in 1947', 'a jazz club with a back room', 'a racetrack owned by the wrong people'],
  'police-procedural': ['a city precinct during a heatwave', 'a commuter town with a new superintendent', 'a cold-case unit reopening a 1998 file'],
  'locked-room': ['a snowed-in mountain lodge', 'a private museum after closing', 'a study locked from the inside'],
  historical: ['a Victorian séance', 'a 1920s ocean liner', 'a Tudor manor at Christmas'],
  psychological: ['a therapist’s practice', 'a remote writing retreat', 'a family reunion after twenty years'],
};
const DETECTIVES: Record<Subgenre, readonly string[]> = {
  cozy: ['a retired headmistress with a sharp eye', 'the village baker who hears everything'],
  noir: ['a private eye with more debts than clients', 'an ex-cop who drinks at the crime scene bar'],
  'police-procedural': ['a detective sergeant on her first murder', 'a tired inspector three weeks from retirement'],
  'locked-room': ['a magician who explains impossible tricks', 'a mathematician who hates loose ends'],
  historical: ['a lady’s companion no one notices', 'a young constable with new-fangled methods'],
  psychological: ['the victim’s sister, who may not be reliable', 'a therapist bound by confidentiality'],
};
const VICTIMS = ['a beloved local philanthropist', 'a property developer with many enemies', 'a famous novelist about to publish a memoir', 'the family patriarch who just changed his will', 'a charming newcomer nobody really knew'];
const SUSPECT_ROLES = ['the business partner', 'the estranged daughter', 'the loyal housekeeper', 'the new spouse', 'the old friend', 'the rival', 'the family doctor', 'the gardener'];
const MOTIVES = ['stood to inherit', 'was being blackmailed', 'was about to be exposed', 'had been cheated out of a fortune', 'was in love with the victim', 'wanted revenge for an old betrayal'];
const ALIBIS = ['claims to have been on the last train home', 'says they were asleep and no one can confirm it', 'was seen at the party, but not for twenty minutes', 'has a receipt that is a little too convenient', 'was on the phone, but the call log disagrees'];
const SECRETS = ['is secretly in debt', 'is not who they say they are', 'saw something and has told no one', 'has a second family', 'wrote the anonymous letters'];
const CRIMES = [
  '{Victim} is found dead at {setting}, and the door was locked from the inside.',
  '{Victim} collapses during dinner at {setting}; by morning the glass has vanished.',
  '{Victim} disappears from {setting}, leaving only a bloodstained scarf.',
  '{Victim} is found at the foot of the stairs at {setting}; everyone heard the fall, nobody saw it.',
];
const CLUES = ['a cup of tea poured for two', 'mud on shoes that never left the house', 'a clock stopped ten minutes fast', 'a missing page in the guest book', 'perfume on a letter', 'a dog that did not bark'];
const NAMES = ['Harriet Voss', 'Edmund Clarke', 'Lydia Marsh', 'Felix Okafor', 'Agnes Byrne', 'Tobias Quaid', 'Celia Navarro', 'Arthur Penhallow', 'Mina Kaur', 'Rupert Sloane'];

const mysteryOptions = z.object({
  subgenre: z.enum(SUBGENRES).default('cozy'),
  complexity: z.enum(['simple', 'intricate']).default('simple'),
  suspectCount: z.number().int().min(3).max(6).default(4),
  setting: optionalText(200),
});
type MysteryOptions = z.infer<typeof mysteryOptions>;
const suspect = z.object({ name: z.string(), role: z.string(), motive: z.string(), alibi: z.string(), secret: z.string() });
const mysteryContent = z.object({
  title: z.string().min(1),
  subgenre: z.string(),
  setting: z.string(),
  crime: z.string(),
  victim: z.string(),
  detective: z.string(),
  suspects: z.array(suspect).min(3),
  culprit: z.string(),
  keyClue: z.string(),
  redHerrings: z.array(z.string()),
  solution: z.string(),
});
type MysteryContent = z.infer<typeof mysteryContent>;

export const mysteryPlotGenerator = defineTool<MysteryOptions, MysteryContent>({
  route: 'mystery-plot-generator',
  cluster: 'adventure-mystery',
  title: 'Mystery Plot Generator',
  description: 'Complete mystery plots: the crime, the detective, suspects with motives and alibis, the clue and the solution.',
  sharePrefix: 'mq',
  optionsSchema: mysteryOptions,
  generateOffline(o, rng) {
    const setting = o.setting ?? rng.pick(MYSTERY_SETTINGS[o.subgenre]);
    const victim = rng.pick(VICTIMS);
    const names = rng.sample(NAMES, o.suspectCount);
    const roles = rng.sample(SUSPECT_ROLES, o.suspectCount);
    const suspects = names.map((name, i) => ({ name, role: cap(roles[i]!), motive: `${cap(rng.pick(MOTIVES))}.`, alibi: `${cap(rng.pick(ALIBIS))}.`, secret: `${cap(rng.pick(SECRETS))}.` }));
    const culprit = rng.pick(suspects);
    const [keyClue, ...herrings] = rng.sample(CLUES, o.complexity === 'intricate' ? 4 : 3) as [string, ...string[]];
    return {
      title: `Murder at ${titleCase(setting.replace(/^an? /, ''))}`,
      subgenre: o.subgenre,
      setting: cap(setting),
      crime: fill(rng.pick(CRIMES), { victim, setting }),
      victim: cap(victim),
      detective: cap(rng.pick(DETECTIVES[o.subgenre])),
      suspects,
      culprit: culprit.name,
      keyClue: cap(keyClue),
      redHerrings: herrings.map(cap),
      solution: `${culprit.name} ${culprit.motive.toLowerCase().replace(/\.$/, '')}. ${cap(keyClue)} breaks the alibi: ${culprit.name} ${culprit.alibi.toLowerCase().replace(/\.$/, '')}, but the clue places them at the scene.` + (o.complexity === 'intricate' ? ` A second suspect covered for them because they ${rng.pick(SECRETS)}.` : ''),
    };
  },
  llm: {
    system: 'You design fair-play mystery plots. Answer with JSON only.',
    user: (o) => `Design a ${o.complexity} ${humanize(o.subgenre)} mystery with ${o.suspectCount} suspects${o.setting ? ` set at ${o.setting}` : ''}. Return {"title", "subgenre", "setting", "crime", "victim", "detective", "suspects": [{"name", "role", "motive", "alibi", "secret"}], "culprit", "keyClue", "redHerrings": [string], "solution"}.`,
    contentSchema: mysteryContent,
  },
  seo: (c, o) => ({
    title: `${titleCase(humanize(o.subgenre))} mystery plot: ${c.title}`,
    description: `A ${o.complexity} ${humanize(o.subgenre)} mystery plot with ${c.suspects.length} suspects. ${c.crime}`,
    keywords: ['mystery plot generator', `${humanize(o.subgenre)} mystery`, 'whodunit ideas', 'murder mystery plot', 'mystery writing', 'detective story'],
  }),
  exportRows: (c) => [
    ['Crime', c.crime],
    ['Detective', c.detective],
    ...c.suspects.map((s) => [`Suspect: ${s.name}`, `${s.role}. Motive: ${s.motive} Alibi: ${s.alibi} Secret: ${s.secret}`] as [string, string]),
    ['Key clue', c.keyClue],
    ['Solution', c.solution],
  ],
  category: (o) => o.subgenre,
  summary: (c) => c.crime,
});
