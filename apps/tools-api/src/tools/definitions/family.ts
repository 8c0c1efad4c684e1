// Family storytelling cluster: interview questions for a relative and memory prompts for one's own life.
import { z } from 'zod';
import { cap, humanize, listOf, titleCase } from '../text';
import { defineTool } from '../tool-definition';

const TOPICS = ['childhood', 'school', 'work', 'love', 'history', 'traditions', 'hardships', 'advice', 'places', 'food'] as const;
type Topic = (typeof TOPICS)[number];
const RELATIONSHIPS = ['grandparent', 'parent', 'aunt-or-uncle', 'sibling', 'elder-friend'] as const;

/** Question bank per topic and depth; {they} is filled with "you" (questions are asked directly). */
const QUESTIONS: Record<Topic, Record<'light' | 'reflective' | 'deep', readonly string[]>> = {
  childhood: {
    light: ['What games did you play outside as a child?', 'What did your childhood home smell like?', 'Who was your best friend when you were eight?'],
    reflective: ['What is your earliest memory, and why do you think it stayed with you?', 'Which adult outside your family shaped you as a child?', 'What were you afraid of as a child?'],
    deep: ['What did you need as a child that you did not get?', 'What did your parents never talk about when you were growing up?', 'When did you first realise your family was different from others?'],
  },
  school: {
    light: ['What was your favourite subject, and who taught it?', 'How did you get to school each day?', 'What did you eat for lunch at school?'],
    reflective: ['Which teacher do you still think about, and why?', 'What did school get wrong about you?', 'What did you want to be when you left school?'],
    deep: ['Was there a moment at school when you felt truly alone?', 'What would you tell yourself on your last day of school?'],
  },
  work: {
    light: ['What was your very first job, and what did it pay?', 'What did a normal working day look like for you?'],
    reflective: ['Which job taught you the most about people?', 'What work are you proudest of?', 'Was there a job you left that you wish you had kept?'],
    deep: ['Did you ever have to choose between work and family? What did you choose?', 'What did work cost you that nobody saw?'],
  },
  love: {
    light: ['How did you meet your partner?', 'What was your first date like?', 'What song reminds you of falling in love?'],
    reflective: ['When did you know this was the person for you?', 'What has kept your relationship going through the hard years?'],
    deep: ['Was there someone before, who might have changed your life?', 'What do you understand about love now that you did not at twenty?'],
  },
  history: {
    light: ['What news event do you remember hearing about on the radio or television?', 'What did things cost when you were young?'],
    reflective: ['Which event in the world changed your everyday life the most?', 'What do people today misunderstand about the time you grew up in?'],
    deep: ['Was there a time you were afraid for your country or your family?', 'What did you see happen that you think should never be forgotten?'],
  },
  traditions: {
    light: ['How did your family celebrate birthdays?', 'What did a holiday meal look like at your house?'],
    reflective: ['Which family tradition do you hope we keep, and why?', 'Which tradition did you start yourself?'],
    deep: ['Is there a tradition you were glad to let go of?', 'What did your family carry with them from the place they came from?'],
  },
  hardships: {
    light: ['What was a difficult winter, or a lean year, like in your house?'],
    reflective: ['What was the hardest year of your life, and how did you get through it?', 'Who helped you when things were at their worst?'],
    deep: ['What loss changed you the most?', 'Is there something you have forgiven, or still cannot forgive?', 'What do you wish you had asked for help with?'],
  },
  advice: {
    light: ['What is the best piece of advice anyone ever gave you?', 'What should every young person learn to cook?'],
    reflective: ['What would you do differently if you could start again at twenty?', 'What are you still learning?'],
    deep: ['What do you want your great-grandchildren to know about you?', 'What do you hope we remember when you are gone?'],
  },
  places: {
    light: ['Which place from your past would you most like to visit again?', 'What was your street like when you were young?'],
    reflective: ['Where have you felt most at home?', 'Describe a journey that changed how you saw the world.'],
    deep: ['Is there a place you can never go back to? Why?', 'Where would you want your story to be told?'],
  },
  food: {
    light: ['What dish did your mother or father make best?', 'What was your favourite treat as a child?'],
    reflective: ['Which recipe would you most like to pass down, and where did it come from?', 'What meal reminds you of a particular person?'],
    deep: ['Was there ever a time when there was not enough food on the table?', 'Which meal would you choose to share with someone you have lost?'],
  },
};
const FOLLOW_UPS = ['Can you describe that in more detail?', 'Who else was there?', 'How did that make you feel at the time?', 'How do you feel about it now?', 'What happened next?', 'Do you have a photograph of that?'];
const INTERVIEW_TIPS = [
  'Record the conversation (with permission) so you can listen again.',
  'Ask one question at a time and leave long silences: the best answers come after a pause.',
  'Bring an old photograph to start the conversation.',
  'Follow the story they want to tell, not the list.',
  'Write down names and places to check the spelling afterwards.',
];

const interviewOptions = z.object({
  relationship: z.enum(RELATIONSHIPS).default('grandparent'),
  topics: z.array(z.enum(TOPICS)).min(1).max(TOPICS.length).default(['childhood', 'love', 'work', 'advice']),
  depth: z.enum(['light', 'reflective', 'deep']).default('reflective'),
  count: z.number().int().min(3).max(30).default(10),
  name: z.string().trim().max(100).optional(),
});
type InterviewOptions = z.infer<typeof interviewOptions>;
const interviewContent = z.object({
  title: z.string().min(1),
  relationship: z.string(),
  depth: z.string(),
  questions: z.array(z.object({ topic: z.string(), question: z.string().min(1), followUp: z.string() })).min(1),
  tips: z.array(z.string()),
});
type InterviewContent = z.infer<typeof interviewContent>;

export const familyInterviewQuestions = defineTool<InterviewOptions, InterviewContent>({
  route: 'family-interview-questions',
  cluster: 'family-storytelling',
  title: 'Family Interview Questions',
  description: 'Thoughtful interview questions to record a relative’s life story, by topic and depth, with follow-ups.',
  sharePrefix: 'fi',
  optionsSchema: interviewOptions,
  generateOffline(o, rng) {
    const topics = [...new Set(o.topics)];
    const pools = topics.map((t) => ({ topic: t, items: rng.sample([...QUESTIONS[t][o.depth], ...QUESTIONS[t][o.depth === 'light' ? 'reflective' : 'light']], 99) }));
    const questions: InterviewContent['questions'] = [];
    // Round-robin over the chosen topics so a long list stays varied.
    for (let round = 0; questions.length < o.count && round < 10; round++) {
      for (const pool of pools) {
        const q = pool.items[round];
        if (q && questions.length < o.count) questions.push({ topic: pool.topic, question: q, followUp: rng.pick(FOLLOW_UPS) });
      }
    }
    const who = o.name ?? `your ${humanize(o.relationship).replace('aunt or uncle', 'aunt or uncle')}`;
    return {
      title: `${questions.length} ${cap(o.depth)} Questions to Ask ${o.name ?? `Your ${titleCase(humanize(o.relationship))}`}`,
      relationship: o.relationship,
      depth: o.depth,
      questions,
      tips: [`Tell ${who} the topics beforehand: ${listOf(topics)}.`, ...rng.sample(INTERVIEW_TIPS, 2)],
    };
  },
  llm: {
    system: 'You help families record life stories with warm, open interview questions. Answer with JSON only.',
    user: (o) => `Write ${o.count} ${o.depth} interview questions for a ${humanize(o.relationship)} about ${listOf(o.topics)}. Return {"title", "relationship", "depth", "questions": [{"topic", "question", "followUp"}], "tips": [string]}.`,
    contentSchema: interviewContent,
  },
  seo: (c, o) => ({
    title: `${c.questions.length} questions to ask your ${humanize(o.relationship)}`,
    description: `${cap(o.depth)} family interview questions about ${listOf(o.topics)}: ${c.questions[0]?.question ?? ''}`,
    keywords: ['family interview questions', `questions to ask your ${humanize(o.relationship)}`, 'family history', 'life story interview', 'oral history', ...o.topics.slice(0, 3)],
  }),
  exportRows: (c) => c.questions.map((q, i) => [`Question ${i + 1} (${q.topic})`, `${q.question} Follow-up: ${q.followUp}`] as [string, string]),
  category: (o) => o.relationship,
  summary: (c) => c.questions.map((q) => q.question).slice(0, 3).join(' '),
});

const STAGES = ['childhood', 'teenage-years', 'young-adulthood', 'parenthood', 'later-life', 'any'] as const;
const THEMES = ['home', 'holidays', 'friendship', 'first-times', 'loss', 'achievement', 'everyday-life', 'senses'] as const;
const MEMORY_PROMPTS: Record<(typeof THEMES)[number], readonly string[]> = {
  home: ['Walk through the front door of a home you lived in during your {stage}. What do you see first?', 'Describe the kitchen table of your {stage} and who sat where.', 'What sound meant you were home during your {stage}?'],
  holidays: ['Write about one holiday in your {stage} when something went wrong.', 'Which holiday smell takes you straight back to your {stage}?', 'Describe the journey to a holiday you took in your {stage}.'],
  friendship: ['Who was the friend you told everything to in your {stage}? How did you meet?', 'Write about a friendship from your {stage} that ended. What happened?', 'Describe an afternoon with friends during your {stage} when nothing special happened, and it was perfect.'],
  'first-times': ['Write about a first time from your {stage}: a first job, a first flat, a first flight.', 'What did you buy with the first money you ever earned?', 'Describe the first time you felt truly grown up.'],
  loss: ['Write about someone from your {stage} you still think of. What would you tell them now?', 'Describe an object you kept after losing someone.', 'What did you learn about yourself after a loss in your {stage}?'],
  achievement: ['Write about something from your {stage} you are quietly proud of.', 'Describe a moment in your {stage} when you surprised yourself.', 'Who was the first person you told about a success in your {stage}?'],
  'everyday-life': ['Describe an ordinary Tuesday in your {stage}, from waking up to going to bed.', 'What did you carry in your pockets or bag during your {stage}?', 'Which chore from your {stage} do you remember best, and why?'],
  senses: ['Which song instantly brings back your {stage}? Where were you when you heard it?', 'Describe a taste from your {stage} you have never found again.', 'What did the air smell like on a summer evening in your {stage}?'],
};
const CUES = ['Close your eyes and picture the light in the room.', 'Start with a sound and let it lead.', 'Begin with what you were wearing.', 'Name three objects you could see.', 'Remember the weather that day.'];
const MEMORY_FOLLOW = ['Who else would remember this differently?', 'What happened right after?', 'Why do you think this memory stayed?', 'What would you like your family to know about it?'];
const STAGE_WORDS: Record<(typeof STAGES)[number], string> = { childhood: 'childhood', 'teenage-years': 'teenage years', 'young-adulthood': 'early twenties', parenthood: 'years as a young parent', 'later-life': 'later years', any: 'younger years' };

const memoryOptions = z.object({
  lifeStage: z.enum(STAGES).default('any'),
  theme: z.enum(THEMES).default('home'),
  count: z.number().int().min(1).max(20).default(5),
  format: z.enum(['written', 'spoken']).default('written'),
});
type MemoryOptions = z.infer<typeof memoryOptions>;
const memoryContent = z.object({
  title: z.string().min(1),
  lifeStage: z.string(),
  theme: z.string(),
  format: z.string(),
  prompts: z.array(z.object({ prompt: z.string().min(1), sensoryCue: z.string(), followUp: z.string() })).min(1),
});
type MemoryContent = z.infer<typeof memoryContent>;

export const memoryPrompts = defineTool<MemoryOptions, MemoryContent>({
  route: 'memory-prompts',
  cluster: 'family-storytelling',
  title: 'Memory Prompt Generator',
  description: 'Memory prompts to help you write or record your own life stories, by life stage and theme.',
  sharePrefix: 'mp',
  optionsSchema: memoryOptions,
  generateOffline(o, rng) {
    const themes = [o.theme, ...rng.sample(THEMES.filter((t) => t !== o.theme), 7)];
    const pool = themes.flatMap((t) => rng.sample(MEMORY_PROMPTS[t], 3));
    const stage = STAGE_WORDS[o.lifeStage];
    const prompts = pool.slice(0, o.count).map((p) => ({
      prompt: (o.format === 'spoken' ? 'Tell us: ' : '') + p.replace(/\{stage\}/g, stage),
      sensoryCue: rng.pick(CUES),
      followUp: rng.pick(MEMORY_FOLLOW),
    }));
    return { title: `${titleCase(humanize(o.theme))} Memory Prompts About Your ${titleCase(stage)}`, lifeStage: o.lifeStage, theme: o.theme, format: o.format, prompts };
  },
  llm: {
    system: 'You write gentle, specific memory prompts that help older adults tell their life stories. Answer with JSON only.',
    user: (o) => `Write ${o.count} ${o.format} memory prompts about ${humanize(o.theme)} during ${STAGE_WORDS[o.lifeStage]}. Return {"title", "lifeStage", "theme", "format", "prompts": [{"prompt", "sensoryCue", "followUp"}]}.`,
    contentSchema: memoryContent,
  },
  seo: (c, o) => ({
    title: `Memory prompts about ${humanize(o.theme)} in your ${STAGE_WORDS[o.lifeStage]}`,
    description: `${c.prompts.length} memory prompts for writing your life story: ${c.prompts[0]?.prompt ?? ''}`,
    keywords: ['memory prompts', 'life story writing', 'memoir prompts', `${humanize(o.theme)} memories`, 'family stories', 'reminiscence questions'],
  }),
  exportRows: (c) => c.prompts.map((p, i) => [`Prompt ${i + 1}`, `${p.prompt} (${p.sensoryCue} ${p.followUp})`] as [string, string]),
  category: (o) => o.theme,
  summary: (c) => c.prompts[0]?.prompt ?? c.title,
});
