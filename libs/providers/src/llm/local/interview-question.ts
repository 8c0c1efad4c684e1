// Offline interviewer: one warm follow-up question from a curated catalogue, chosen by what the last
// answer mentions (a person → what they were like, a place → what it looked like, a time → what life
// was like then). The entity named in the question is quoted from the answer, never made up.
import { findMentions, stableHash } from './text';

export interface InterviewQuestionInput {
  lastAnswer?: string;
  topic?: string;
}

type Template = (subject: string) => string;

export const QUESTION_CATALOGUE: Record<'kin' | 'person' | 'place' | 'time' | 'topic' | 'opening' | 'more', Template[]> = {
  kin: [
    (s) => `You mentioned your ${s}. What was your ${s} like as a person?`,
    (s) => `What is something your ${s} used to say or do that you still remember?`,
    (s) => `When you picture your ${s} back then, what do you see them doing?`,
  ],
  person: [
    (s) => `You mentioned ${s}. What was ${s} like?`,
    (s) => `How did you come to know ${s}, and what do you remember most about them?`,
    (s) => `If you could tell ${s} one thing today, what would it be?`,
  ],
  place: [
    (s) => `What did ${s} look like back then? If you close your eyes, what do you see there?`,
    (s) => `What sounds and smells do you remember from ${s}?`,
    (s) => `Can you walk me through ${s} as it was then, as if I were there with you?`,
  ],
  time: [
    (s) => `What was life like for you ${s}? What did an ordinary day look like?`,
    (s) => `What do you remember most about the world around you ${s}?`,
  ],
  topic: [
    (s) => `I'd love to hear about ${s}. What is the first memory that comes to mind?`,
    (s) => `When you think about ${s}, which moment stands out most?`,
  ],
  opening: [
    () => `What is a memory from your childhood that you still think about often?`,
    () => `Who was the person you looked up to most when you were young, and why?`,
    () => `What did home look like when you were growing up?`,
  ],
  more: [
    () => `That sounds like it mattered to you. What happened next?`,
    () => `How did that feel at the time, and does it feel different looking back now?`,
  ],
};

const pick = (list: Template[], seed: string, subject: string) => list[stableHash(seed) % list.length](subject);

const MONTH = /^(?:january|february|march|april|may|june|july|august|september|october|november|december)$/;

/** A time as mentioned, turned into a phrase that follows "What was life like for you ...". */
function timePhrase(time: string): string {
  if (/^\d{4}$/.test(time)) return `around ${time}`;
  if (/^\d{4}s$/.test(time)) return `in the ${time}`;
  if (/^(?:the\s+)?(?:\w+ties|'\d0s)$/.test(time)) return `in ${time.startsWith('the') ? time : `the ${time}`}`;
  return time.replace(/^when (?:i|we) (?:was|were)/, 'when you were');
}

const KIN_PLACE = /^(?:my|our|the|a|his|her|their)\s+/i;

export function interviewQuestion(input: InterviewQuestionInput): string {
  const answer = (input.lastAnswer ?? '').replace(/\s+/g, ' ').trim();
  const topic = (input.topic ?? '').trim();
  if (!answer) return topic ? pick(QUESTION_CATALOGUE.topic, topic, topic) : pick(QUESTION_CATALOGUE.opening, topic, '');

  const { people, places, times } = findMentions(answer);
  const lower = answer.toLowerCase();
  // the subject mentioned last is what the storyteller was just talking about
  const last = (list: string[]) => [...list].sort((a, b) => lower.lastIndexOf(b.toLowerCase()) - lower.lastIndexOf(a.toLowerCase()))[0];
  const candidates: { kind: 'kin' | 'person' | 'place' | 'time'; subject: string }[] = [];
  const person = last(people);
  const place = last(places);
  const time = last(times.filter((t) => !MONTH.test(t)));
  if (person) candidates.push({ kind: /^\p{Lu}/u.test(person) ? 'person' : 'kin', subject: person });
  if (place) candidates.push({ kind: 'place', subject: /^\p{Lu}/u.test(place) ? place : `the ${place.replace(KIN_PLACE, '')}` });
  if (time) candidates.push({ kind: 'time', subject: timePhrase(time) });
  if (candidates.length === 0) return pick(QUESTION_CATALOGUE.more, answer, '');

  // several candidates: the answer's content picks one, so the same answer always gets the same question
  const chosen = candidates[stableHash(answer) % candidates.length];
  return pick(QUESTION_CATALOGUE[chosen.kind], `${answer}|${chosen.kind}`, chosen.subject);
}
