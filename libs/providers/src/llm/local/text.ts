// Plain-text measures the offline generators share: words, sentences, and the people, places and times a
// memory mentions. Heuristics over the words actually present, so nothing is invented.
import { extractMentions, MONTH_NAMES, uniqueCaseless } from '../../text/mentions';

export function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
}

/** Sentences by terminal punctuation (a text without any is one sentence). */
export function sentences(text: string): string[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return [];
  return (flat.match(/[^.!?]+(?:[.!?]+["'”’)]*|$)/g) ?? []).map((s) => s.trim()).filter((s) => words(s).length > 0);
}

export const KIN_WORDS = [
  'great-grandmother', 'great-grandfather', 'grandmother', 'grandfather', 'grandma', 'grandpa', 'granny', 'nana', 'mother', 'father',
  'mum', 'mom', 'dad', 'mama', 'papa', 'brother', 'sister', 'aunt', 'auntie', 'uncle', 'cousin', 'wife', 'husband', 'son', 'daughter',
  'grandson', 'granddaughter', 'friend', 'neighbour', 'neighbor', 'teacher', 'boss', 'sweetheart', 'girlfriend', 'boyfriend', 'parents',
  'grandparents',
];

export const PLACE_NOUNS = [
  'house', 'home', 'farm', 'school', 'village', 'town', 'city', 'church', 'kitchen', 'garden', 'shop', 'store', 'street', 'beach',
  'mill', 'factory', 'hospital', 'station', 'river', 'lake', 'camp', 'office', 'market', 'harbour', 'harbor', 'cottage', 'flat',
  'apartment', 'neighbourhood', 'neighborhood', 'island', 'mountains', 'countryside', 'pub', 'chapel', 'bakery', 'dock', 'docks',
];

export interface Mentions {
  /** Named people (capitalised names not introduced as places) and kin words, as written. */
  people: string[];
  places: string[];
  times: string[];
}

/**
 * The named people and places (the one shared reading, text/mentions.ts), with kin words ("my aunt") and
 * place nouns ("the mill") added, and the times a memory mentions: years, decades, ages and seasons.
 */
export function findMentions(text: string): Mentions {
  const named = extractMentions(text);
  const lower = text.toLowerCase();
  const kin = KIN_WORDS.filter((k) => new RegExp(`\\b(?:my|our|his|her|their)\\s+(?:\\w+\\s+)?${k}s?\\b`).test(lower));
  const placeNouns = PLACE_NOUNS.filter((n) => new RegExp(`\\b(?:the|our|my|a|his|her|their)\\s+(?:\\w+\\s+)?${n}\\b`).test(lower));

  const times: string[] = [];
  for (const m of text.matchAll(/\b(1[6-9]\d\d|20\d\d)s?\b/g)) times.push(m[0]);
  for (const m of lower.matchAll(/\b(?:the\s+)?(?:twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties|'\d0s)\b/g)) times.push(m[0].trim());
  for (const m of lower.matchAll(/\bwhen (?:i|we|he|she|they) (?:was|were) (?:a |an |about |around )?(?:\d+|\w+)(?: years old)?\b/g)) times.push(m[0]);
  for (const m of lower.matchAll(/\b(?:during|after|before) the war\b|\b(?:every|that|one|last|next) (?:summer|winter|spring|autumn|fall|christmas|easter|sunday|morning|evening|night)\b/g)) times.push(m[0]);
  for (const month of MONTH_NAMES) if (new RegExp(`\\b${month}\\b`).test(lower) && (month !== 'may' || /\bmay\s+\d/.test(lower))) times.push(month);

  return { people: uniqueCaseless([...named.people, ...kin]), places: uniqueCaseless([...named.places, ...placeNouns]), times: uniqueCaseless(times) };
}

/** A small deterministic hash for choosing among equivalent phrasings. */
export function stableHash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
