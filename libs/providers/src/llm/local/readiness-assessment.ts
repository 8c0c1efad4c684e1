// Offline readiness assessment (the AI layer of the conversion gate, spec "States and transitions"):
// decides from measurable signals whether a source has enough story in it — length, sentences, and
// whether it mentions people, places and times — and says which signals decided.
import { findMentions, sentences, words } from './text';

export interface ReadinessAssessment {
  ready: boolean;
  reasons: string[];
  signals: { wordCount: number; sentenceCount: number; people: string[]; places: string[]; times: string[] };
}

/** Thresholds: below these a story would have to be padded with invented detail. */
export const READINESS_MIN_WORDS = 60;
export const READINESS_MIN_SENTENCES = 3;

export function assessReadiness(text: string): ReadinessAssessment {
  const wordCount = words(text).length;
  const sentenceCount = sentences(text).length;
  const { people, places, times } = findMentions(text);
  const anchors = [people.length > 0, places.length > 0, times.length > 0].filter(Boolean).length;

  const reasons: string[] = [];
  reasons.push(wordCount >= READINESS_MIN_WORDS ? `${wordCount} words is enough material` : `only ${wordCount} words; at least ${READINESS_MIN_WORDS} are needed`);
  reasons.push(sentenceCount >= READINESS_MIN_SENTENCES ? `${sentenceCount} sentences` : `only ${sentenceCount} sentence${sentenceCount === 1 ? '' : 's'}; at least ${READINESS_MIN_SENTENCES} are needed`);
  reasons.push(people.length ? `mentions people: ${people.slice(0, 5).join(', ')}` : 'mentions no people');
  reasons.push(places.length ? `mentions places: ${places.slice(0, 5).join(', ')}` : 'mentions no places');
  reasons.push(times.length ? `mentions times: ${times.slice(0, 5).join(', ')}` : 'mentions no times');
  if (anchors === 0) reasons.push('no person, place or time anchors the memory');

  return {
    ready: wordCount >= READINESS_MIN_WORDS && sentenceCount >= READINESS_MIN_SENTENCES && anchors >= 1,
    reasons,
    signals: { wordCount, sentenceCount, people, places, times },
  };
}
