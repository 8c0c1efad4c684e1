// Deterministic readings of what a storyteller said: the people, places, years and themes of their
// answers (the offline analysis), and how deep the interview went (quality metrics). Everything is
// counted from the words present, so nothing is invented. The people/place/year reading itself is
// @story/providers' extractMentions, shared with the local LLM's generators.
import { extractMentions, MONTH_NAMES as MONTHS, uniqueCaseless } from '@story/providers';

/** Words that signal a theme; a word matches with any ending ("marr" matches married, marriage). */
export const THEME_LEXICON: Record<string, string[]> = {
  childhood: ['childhood', 'child', 'kid', 'little girl', 'little boy', 'grew up', 'growing up', 'young'],
  family: ['mother', 'father', 'mum', 'mom', 'dad', 'brother', 'sister', 'grandmother', 'grandfather', 'grandma', 'grandpa', 'famil', 'parent', 'aunt', 'uncle', 'cousin'],
  'love and marriage': ['marr', 'wedding', 'husband', 'wife', 'sweetheart', 'courting', 'fell in love', 'engaged'],
  work: ['job', 'work', 'factory', 'office', 'boss', 'career', 'shift', 'wages', 'apprentice'],
  'war and service': ['war', 'army', 'navy', 'air force', 'soldier', 'enlist', 'evacuat', 'rationing'],
  school: ['school', 'teacher', 'classroom', 'college', 'university', 'lesson'],
  home: ['house', 'home', 'kitchen', 'garden', 'bedroom', 'neighbo'],
  travel: ['travel', 'trip', 'journey', 'train', 'ship', 'abroad', 'holiday', 'vacation', 'emigrat', 'moved to'],
  faith: ['church', 'chapel', 'pray', 'faith', 'synagogue', 'mosque', 'temple'],
  'food and cooking': ['cook', 'bake', 'baking', 'recipe', 'dinner', 'bread', 'cake', 'supper'],
  'music and fun': ['music', 'song', 'sing', 'danc', 'piano', 'radio', 'game', 'football'],
  hardship: ['hard times', 'poor', 'struggl', 'sick', 'illness', 'died', 'funeral', 'depression', 'lost'],
  celebrations: ['christmas', 'birthday', 'easter', 'celebrat', 'party', 'anniversar'],
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const THEME_PATTERNS = Object.entries(THEME_LEXICON).map(([theme, cues]) => ({
  theme,
  pattern: new RegExp(`\\b(?:${cues.map(escape).join('|')})[\\p{L}'’]*`, 'giu'),
}));

/** Themes with how many cue words carry them, strongest first. */
export function findThemes(text: string): { theme: string; mentions: number }[] {
  return THEME_PATTERNS.map(({ theme, pattern }) => ({ theme, mentions: text.match(pattern)?.length ?? 0 }))
    .filter((t) => t.mentions > 0)
    .sort((a, b) => b.mentions - a.mentions || a.theme.localeCompare(b.theme));
}

export const wordCount = (text: string) => text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)?.length ?? 0;

/** Dates said in an answer: years, months with a day or year, and ages ("when I was 12"). */
function datesIn(text: string): string[] {
  const lower = text.toLowerCase();
  const found = [...text.matchAll(/\b(1[6-9]\d\d|20\d\d)s?\b/g)].map((m) => m[0]);
  for (const m of lower.matchAll(new RegExp(`\\b(?:${MONTHS.join('|')})\\s+\\d{1,4}\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTHS.join('|')})\\b`, 'g'))) found.push(m[0]);
  for (const m of lower.matchAll(/\bwhen (?:i|we|he|she|they) (?:was|were) (?:about |around )?\d{1,2}\b/g)) found.push(m[0]);
  return uniqueCaseless(found);
}

export interface AnswerDepth {
  messageId: string;
  words: number;
  names: number;
  dates: number;
  places: number;
  specificDetails: number;
}

export interface QualityMetrics {
  answerCount: number;
  questionCount: number;
  averageAnswerWords: number;
  longestAnswerWords: number;
  shortAnswers: number;
  specificDetailsPerAnswer: number;
  questionVariety: number;
  repeatedQuestions: number;
  depthScore: number;
  level: 'not started' | 'shallow' | 'developing' | 'rich';
  answers: AnswerDepth[];
  suggestions: string[];
  assessedAt: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Depth of an interview from its turns: answer lengths, specifics per answer, question variety. */
export function assessQuality(messages: { id: string; role: string; content: string }[], now = new Date()): QualityMetrics {
  const answers = messages.filter((m) => m.role === 'user' && m.content.trim().length > 0);
  const questions = messages.filter((m) => m.role === 'assistant' && m.content.includes('?'));

  const depths: AnswerDepth[] = answers.map((a) => {
    const mentions = extractMentions(a.content);
    const dates = datesIn(a.content).length;
    return {
      messageId: a.id,
      words: wordCount(a.content),
      names: mentions.people.length,
      dates,
      places: mentions.places.length,
      specificDetails: mentions.people.length + mentions.places.length + dates,
    };
  });
  const n = depths.length;
  const averageWords = n ? depths.reduce((s, d) => s + d.words, 0) / n : 0;
  const specificsPerAnswer = n ? depths.reduce((s, d) => s + d.specificDetails, 0) / n : 0;

  // Variety: how many different kinds of question were asked (their opening word), and repeats.
  const openers = questions.map((q) => (q.content.slice(0, q.content.indexOf('?')).split(/[.!]\s+/).at(-1) ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '');
  const normalized = questions.map((q) => q.content.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, '').replace(/\s+/g, ' ').trim());
  const distinctQuestions = new Set(normalized).size;
  const variety = questions.length ? new Set(openers).size / questions.length : 0;

  // 0-100: answer length (120 words is a full answer), specifics (3 per answer), variety; weighted 40/40/20.
  const score = n === 0 ? 0 : Math.round(100 * (0.4 * Math.min(1, averageWords / 120) + 0.4 * Math.min(1, specificsPerAnswer / 3) + 0.2 * (questions.length ? variety : 0.5)));
  const level: QualityMetrics['level'] = n === 0 ? 'not started' : score >= 65 ? 'rich' : score >= 35 ? 'developing' : 'shallow';

  const suggestions: string[] = [];
  if (n > 0 && averageWords < 40) suggestions.push('Answers are short: ask about one moment and invite the storyteller to walk through it slowly.');
  if (n > 0 && specificsPerAnswer < 1) suggestions.push('Few names, dates or places so far: ask who was there, where it happened and roughly when.');
  if (questions.length >= 3 && variety < 0.5) suggestions.push('The questions sound alike: mix what, who, where and how questions.');
  if (questions.length - distinctQuestions > 0) suggestions.push('Some questions were asked more than once.');

  return {
    answerCount: n,
    questionCount: questions.length,
    averageAnswerWords: round2(averageWords),
    longestAnswerWords: n ? Math.max(...depths.map((d) => d.words)) : 0,
    shortAnswers: depths.filter((d) => d.words < 15).length,
    specificDetailsPerAnswer: round2(specificsPerAnswer),
    questionVariety: round2(variety),
    repeatedQuestions: questions.length - distinctQuestions,
    depthScore: score,
    level,
    answers: depths,
    suggestions,
    assessedAt: now.toISOString(),
  };
}
