// Romance cluster: writing prompts by trope and heat level, and meet-cute scenarios. Heat levels describe
// how much tension and intimacy a scene shows on the page; prompts never contain explicit content.
import { z } from 'zod';
import { cap, fill, humanize, optionalText, titleCase } from '../text';
import { defineTool } from '../tool-definition';

export const TROPES = ['enemies-to-lovers', 'friends-to-lovers', 'second-chance', 'fake-dating', 'forced-proximity', 'grumpy-sunshine', 'forbidden-love', 'marriage-of-convenience', 'secret-identity', 'opposites-attract'] as const;
type Trope = (typeof TROPES)[number];

const FIRST_NAMES = ['Ava', 'Leo', 'Rosa', 'Finn', 'Maya', 'Sam', 'Nadia', 'Owen', 'Clara', 'Kai', 'Esme', 'Jude', 'Priya', 'Miles', 'Tess', 'Rafael'];
const JOBS = ['a pastry chef', 'a wildlife vet', 'a divorce lawyer', 'a touring musician', 'a firefighter', 'a bookshop owner', 'an architect', 'a lighthouse keeper', 'a wedding photographer', 'a rival journalist', 'a startup founder', 'a florist'];
const WOUNDS = ['was left at the altar', 'lost the family business', 'promised a dying parent to stay single-minded about work', 'has moved eleven times and never unpacked', 'was publicly humiliated by an ex', 'believes they are impossible to love'];
const SETTINGS: Record<string, readonly string[]> = {
  contemporary: ['a city food market', 'a co-working space', 'a destination wedding', 'a marathon finish line'],
  historical: ['a Regency ballroom', 'a 1920s ocean liner', 'a wartime telegraph office', 'a Victorian botanical garden'],
  paranormal: ['a haunted bed-and-breakfast', 'a witches’ night market', 'a vampire-run jazz club', 'a village where the moon never sets'],
  fantasy: ['the winter court', 'a dragon-rider academy', 'a border fortress under siege', 'an enchanted library'],
  'small-town': ['the annual harvest fair', 'the only diner in town', 'a Christmas tree farm', 'the town hall’s heritage committee'],
  workplace: ['a hospital night shift', 'a newsroom on deadline', 'a law firm merger', 'a restaurant kitchen before opening'],
};
const TROPE_SETUPS: Record<Trope, string> = {
  'enemies-to-lovers': '{A} and {B} have hated each other since {history}, and now they have to work together on {task}.',
  'friends-to-lovers': '{A} and {B} have been best friends since {history}; one of them has just realised it has been love for years.',
  'second-chance': '{A} and {B} broke up after {history}. Ten years later, they are both back for {task}.',
  'fake-dating': '{A} needs a date for {task}; {B} needs the favour returned. The rules: no feelings. The rules do not last.',
  'forced-proximity': 'A storm traps {A} and {B} together during {task}, with one room and a history of {history}.',
  'grumpy-sunshine': 'Relentlessly cheerful {A} is assigned to work with famously grumpy {B} on {task}.',
  'forbidden-love': '{A} and {B} are on opposite sides of {history}. Being seen together during {task} would cost them everything.',
  'marriage-of-convenience': '{A} needs a spouse on paper to save {task}. {B} agrees, for reasons of their own.',
  'secret-identity': '{B} has been falling for {A} online. Neither knows they are the rivals who clash daily over {task}.',
  'opposites-attract': 'Planner {A} and free spirit {B} are paired up for {task}, and agree on absolutely nothing.',
};
const HISTORIES = ['a disastrous school debate', 'a bidding war over the same building', 'the summer they were seventeen', 'a family feud three generations old', 'a one-star review that went viral', 'a kiss that nobody mentions'];
const TASKS = ['a sister’s wedding', 'saving the family restaurant', 'a charity gala', 'a cross-country road trip', 'the town’s centenary festival', 'a high-stakes pitch'];
const HEAT: Record<'sweet' | 'warm' | 'steamy', string> = {
  sweet: 'Keep it sweet: longing looks, hand-holding, and a kiss that closes the door on the page.',
  warm: 'Let the tension simmer: charged moments and kisses on the page, with intimacy implied and the scene fading out.',
  steamy: 'Turn up the tension: desire is explicit in the characters’ thoughts and the build-up is on the page, but the most intimate moments stay behind a closed door.',
};
const KEY_SCENES: Record<Trope, readonly string[]> = {
  'enemies-to-lovers': ['The argument that ends a little too close together.', 'One sees the other being kind when they think no one is watching.', 'A public defence of the other, against every instinct.'],
  'friends-to-lovers': ['The moment a familiar touch suddenly feels different.', 'Someone new shows interest and jealousy surprises them.', 'The confession that risks the friendship.'],
  'second-chance': ['The first accidental meeting, years later.', 'The truth about why they really broke up.', 'A choice to stay this time.'],
  'fake-dating': ['Rehearsing the story of how they met.', 'A kiss for an audience that does not feel fake.', 'The contract ends and neither wants it to.'],
  'forced-proximity': ['Negotiating the sleeping arrangements.', 'The night the power goes out.', 'The storm clears and they could leave, but do not.'],
  'grumpy-sunshine': ['Sunshine finds the grump’s soft spot.', 'Grump is grumpy at someone else on sunshine’s behalf.', 'Sunshine has a bad day and grump shows up.'],
  'forbidden-love': ['A secret meeting nearly discovered.', 'Someone they love finds out.', 'Choosing each other in public.'],
  'marriage-of-convenience': ['Moving in with house rules.', 'Playing the couple in front of family.', 'Realising the rules were broken weeks ago.'],
  'secret-identity': ['A clue that almost gives it away.', 'Defending the online friend to the rival.', 'The reveal, in the worst possible place.'],
  'opposites-attract': ['A plan goes wrong and the free spirit saves the day.', 'The free spirit needs a plan for once.', 'They meet in the middle.'],
};

const romanceOptions = z.object({
  trope: z.enum(TROPES).default('enemies-to-lovers'),
  heatLevel: z.enum(['sweet', 'warm', 'steamy']).default('sweet'),
  subgenre: z.enum(['contemporary', 'historical', 'paranormal', 'fantasy', 'small-town', 'workplace']).default('contemporary'),
  setting: optionalText(200),
});
type RomanceOptions = z.infer<typeof romanceOptions>;
const person = z.object({ name: z.string(), role: z.string(), wound: z.string() });
const romanceContent = z.object({
  title: z.string().min(1),
  trope: z.string(),
  heatLevel: z.string(),
  subgenre: z.string(),
  setting: z.string(),
  prompt: z.string().min(1),
  characters: z.array(person).length(2),
  keyScenes: z.array(z.string()).min(1),
  heatGuidance: z.string(),
});
type RomanceContent = z.infer<typeof romanceContent>;

export const romanceWritingPrompts = defineTool<RomanceOptions, RomanceContent>({
  route: 'romance-writing-prompts',
  cluster: 'core',
  title: 'Romance Writing Prompt Generator',
  description: 'Romance writing prompts by trope and heat level, with two leads, a setting and the key scenes of the arc.',
  sharePrefix: 'rp',
  optionsSchema: romanceOptions,
  generateOffline(o, rng) {
    const [a, b] = rng.sample(FIRST_NAMES, 2) as [string, string];
    const setting = o.setting ?? rng.pick(SETTINGS[o.subgenre]!);
    const task = rng.pick(TASKS);
    const prompt = `${fill(TROPE_SETUPS[o.trope], { a, b, A: a, B: b, history: rng.pick(HISTORIES), task })} Set it at ${setting}.`.replace(/\{A\}/g, a).replace(/\{B\}/g, b);
    const [roleA, roleB] = rng.sample(JOBS, 2) as [string, string];
    const [woundA, woundB] = rng.sample(WOUNDS, 2) as [string, string];
    return {
      title: `${titleCase(humanize(o.trope))} Romance Prompt: ${a} and ${b}`,
      trope: o.trope,
      heatLevel: o.heatLevel,
      subgenre: o.subgenre,
      setting,
      prompt,
      characters: [
        { name: a, role: cap(roleA), wound: `${a} ${woundA}.` },
        { name: b, role: cap(roleB), wound: `${b} ${woundB}.` },
      ],
      keyScenes: [...KEY_SCENES[o.trope]],
      heatGuidance: HEAT[o.heatLevel],
    };
  },
  llm: {
    system: 'You write romance writing prompts. Never write explicit sexual content; heat level only shapes tension. Answer with JSON only.',
    user: (o) =>
      `Write a ${humanize(o.subgenre)} romance writing prompt using the ${humanize(o.trope)} trope at heat level ${o.heatLevel}.` +
      (o.setting ? ` Setting: ${o.setting}.` : '') +
      ' Return {"title", "trope", "heatLevel", "subgenre", "setting", "prompt", "characters": [{"name", "role", "wound"}] (two), "keyScenes": [string], "heatGuidance"}.',
    contentSchema: romanceContent,
  },
  seo: (c, o) => ({
    title: `${titleCase(humanize(o.trope))} romance writing prompt`,
    description: `A ${o.heatLevel} ${humanize(o.subgenre)} romance prompt: ${c.prompt}`,
    keywords: ['romance writing prompts', `${humanize(o.trope)} trope`, `${o.heatLevel} romance`, `${humanize(o.subgenre)} romance`, 'romance story ideas', 'love story prompt'],
  }),
  exportRows: (c) => [
    ['Trope', c.trope],
    ['Heat level', c.heatLevel],
    ['Prompt', c.prompt],
    ...c.characters.map((p, i) => [`Lead ${i + 1}`, `${p.name}, ${p.role}. ${p.wound}`] as [string, string]),
    ['Key scenes', c.keyScenes.join(' | ')],
  ],
  category: (o) => o.trope,
  summary: (c) => c.prompt,
});

const MEET_SETTINGS = ['a coffee shop where their orders get swapped', 'a bookshop with one copy of the same book left', 'an airport during a cancelled-flight meltdown', 'a dog park when their dogs will not be separated', 'a rainy bus shelter', 'a farmers market stall fight over the last peaches', 'an office lift that breaks down', 'a wedding where both are seated at the singles table', 'a night class neither wanted to take', 'a ski lodge with one working fireplace'];
const SPARKS: Record<'funny' | 'sweet' | 'awkward' | 'dramatic', readonly string[]> = {
  funny: ['a misunderstanding involving a borrowed umbrella and a very loud ringtone', 'a spilled drink, a ruined shirt and an offer to pay for dry cleaning that spirals', 'both trying to return the same lost wallet to each other'],
  sweet: ['one quietly helps the other pick up dropped groceries and finds a handwritten list', 'they share an umbrella and discover they grew up streets apart', 'one stays to keep a stranger company while they wait for news'],
  awkward: ['one confidently waves back at a wave that was meant for someone else', 'they are mistaken for a couple and neither corrects it', 'one rehearses a speech out loud, not realising the other can hear every word'],
  dramatic: ['one pulls the other back from stepping into traffic', 'they both witness something they are not supposed to see', 'one is there to end a lease; the other has just signed it'],
};
const COMPLICATIONS = ['they are about to become rivals for the same job', 'one is moving across the world in a week', 'one is the sibling of the other’s ex', 'they already know each other from an anonymous online forum', 'their families have a long-running feud'];

const meetOptions = z.object({
  tone: z.enum(['funny', 'sweet', 'awkward', 'dramatic']).default('sweet'),
  setting: optionalText(200),
  era: z.enum(['contemporary', 'historical', 'futuristic']).default('contemporary'),
});
type MeetOptions = z.infer<typeof meetOptions>;
const meetContent = z.object({
  title: z.string().min(1),
  tone: z.string(),
  setting: z.string(),
  characters: z.array(z.object({ name: z.string(), description: z.string() })).length(2),
  scenario: z.string().min(1),
  firstLine: z.string(),
  complication: z.string(),
});
type MeetContent = z.infer<typeof meetContent>;
const ERA_NOTE: Record<MeetOptions['era'], string> = { contemporary: '', historical: ' in the 1890s', futuristic: ' in 2150' };
const FIRST_LINES = ['"I think you have my life. Or at least my coffee."', '"Please tell me you did not hear all of that."', '"This is the strangest day of my life, and it is not even noon."', '"You are standing on my foot. And my dignity."', '"I was here first. Technically. Spiritually."'];

export const meetCuteGenerator = defineTool<MeetOptions, MeetContent>({
  route: 'meet-cute-generator',
  cluster: 'romance',
  title: 'Meet-Cute Generator',
  description: 'Meet-cute scenarios for romance writers: where they meet, the spark, the first line and the complication.',
  sharePrefix: 'mc',
  optionsSchema: meetOptions,
  generateOffline(o, rng) {
    const [a, b] = rng.sample(FIRST_NAMES, 2) as [string, string];
    const setting = (o.setting ?? rng.pick(MEET_SETTINGS)) + ERA_NOTE[o.era];
    const spark = rng.pick(SPARKS[o.tone]);
    const [jobA, jobB] = rng.sample(JOBS, 2) as [string, string];
    return {
      title: `${titleCase(o.tone)} Meet-Cute: ${a} and ${b}`,
      tone: o.tone,
      setting: cap(setting),
      characters: [
        { name: a, description: `${cap(jobA)} having the worst day of the year.` },
        { name: b, description: `${cap(jobB)} who is, for once, exactly where they meant to be.` },
      ],
      scenario: `${a} and ${b} meet at ${setting}: ${spark}.`,
      firstLine: rng.pick(FIRST_LINES),
      complication: cap(rng.pick(COMPLICATIONS)) + '.',
    };
  },
  llm: {
    system: 'You invent charming, original meet-cute scenarios for romance writers. Answer with JSON only.',
    user: (o) => `Invent a ${o.tone} ${o.era} meet-cute${o.setting ? ` set at ${o.setting}` : ''}. Return {"title", "tone", "setting", "characters": [{"name", "description"}] (two), "scenario", "firstLine", "complication"}.`,
    contentSchema: meetContent,
  },
  seo: (c, o) => ({
    title: `${cap(o.tone)} meet-cute idea: ${c.characters[0]?.name} and ${c.characters[1]?.name}`,
    description: `A ${o.tone} meet-cute for your romance: ${c.scenario}`,
    keywords: ['meet cute generator', `${o.tone} meet cute`, 'romance writing', 'romance ideas', `${o.era} romance`, 'love story prompt'],
  }),
  exportRows: (c) => [
    ['Setting', c.setting],
    ['Scenario', c.scenario],
    ['First line', c.firstLine],
    ['Complication', c.complication],
  ],
  category: (o) => o.tone,
  summary: (c) => c.scenario,
});
