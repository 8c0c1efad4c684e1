// Plain-text measures the offline generators share: words, sentences, and the people, places and times a
// memory mentions. Heuristics over the words actually present, so nothing is invented.

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

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** Capitalised words that are not names: sentence openers, pronouns, and calendar words (those are times). */
const NOT_NAMES = new Set([
  'i', 'the', 'a', 'an', 'and', 'but', 'so', 'then', 'when', 'we', 'he', 'she', 'they', 'it', 'my', 'our', 'his', 'her', 'their', 'there',
  'this', 'that', 'in', 'on', 'at', 'after', 'before', 'one', 'oh', 'well', 'yes', 'no', 'mr', 'mrs', 'ms', 'dr', 'christmas', 'easter',
  ...MONTHS, ...DAYS,
]);
const PLACE_PREPOSITIONS = new Set(['in', 'at', 'to', 'from', 'near', 'into', 'outside', 'around', 'across', 'through', 'toward', 'towards', 'visit', 'visited', 'moved']);

const PLACE_SUFFIX = /\s(?:Road|Street|Lane|Avenue|Park|Hill|Square|Bridge|Farm|School|Church|Station|Hospital|Bay|Island|River|Lake|Mountains?|Valley|County|Village)$/;

export interface Mentions {
  /** Named people (capitalised names not introduced as places) and kin words, as written. */
  people: string[];
  places: string[];
  times: string[];
}

function unique(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    const key = item.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Capitalised phrases (one or more capitalised words, "Mr" titles kept) with the word before them. */
function capitalisedPhrases(text: string): { phrase: string; before: string; sentenceStart: boolean }[] {
  const out: { phrase: string; before: string; sentenceStart: boolean }[] = [];
  for (const sentence of sentences(text)) {
    const ws = sentence.split(/\s+/);
    for (let i = 0; i < ws.length; i++) {
      const clean = ws[i].replace(/^[^\p{L}]+|[^\p{L}'’]+$/gu, '').replace(/['’]s$/u, '');
      if (!/^\p{Lu}/u.test(clean)) continue;
      const parts = [clean];
      let j = i + 1;
      // a name ends at punctuation: "Leeds, Harry" is two names
      while (j < ws.length && !/[,.;:!?]$/.test(ws[j - 1])) {
        const next = ws[j].replace(/^[^\p{L}]+|[^\p{L}'’]+$/gu, '').replace(/['’]s$/u, '');
        if (!/^\p{Lu}/u.test(next) || NOT_NAMES.has(next.toLowerCase())) break;
        parts.push(next);
        j++;
      }
      const head = parts[0].toLowerCase();
      const phraseParts = NOT_NAMES.has(head) && !['mr', 'mrs', 'ms', 'dr'].includes(head) ? parts.slice(1) : parts;
      if (phraseParts.length > 0 && (phraseParts.length > 1 || !['mr', 'mrs', 'ms', 'dr'].includes(phraseParts[0].toLowerCase()))) {
        const firstIndex = i + (parts.length - phraseParts.length);
        out.push({
          phrase: phraseParts.join(' '),
          before: firstIndex > 0 ? ws[firstIndex - 1].replace(/[^\p{L}]/gu, '').toLowerCase() : '',
          sentenceStart: firstIndex === 0,
        });
      }
      i = j - 1;
    }
  }
  return out;
}

export function findMentions(text: string): Mentions {
  const people: string[] = [];
  const places: string[] = [];
  const times: string[] = [];
  const phrases = capitalisedPhrases(text);
  const midSentence = new Set(phrases.filter((p) => !p.sentenceStart).map((p) => p.phrase));
  for (const p of phrases) {
    // A capitalised sentence opener counts only when the same phrase also appears mid-sentence.
    if (p.sentenceStart && !midSentence.has(p.phrase) && !/^(Mr|Mrs|Ms|Dr)\b/.test(p.phrase)) continue;
    if (PLACE_PREPOSITIONS.has(p.before) || PLACE_SUFFIX.test(p.phrase)) places.push(p.phrase);
    else people.push(p.phrase);
  }
  // a phrase seen after "in/at/to" anywhere is a place everywhere
  const placeKeys = new Set(places.map((p) => p.toLowerCase()));
  const namedPeople = people.filter((p) => !placeKeys.has(p.toLowerCase()));

  const lower = text.toLowerCase();
  const kin = KIN_WORDS.filter((k) => new RegExp(`\\b(?:my|our|his|her|their)\\s+(?:\\w+\\s+)?${k}s?\\b`).test(lower));
  const placeNouns = PLACE_NOUNS.filter((n) => new RegExp(`\\b(?:the|our|my|a|his|her|their)\\s+(?:\\w+\\s+)?${n}\\b`).test(lower));

  for (const m of text.matchAll(/\b(1[6-9]\d\d|20\d\d)s?\b/g)) times.push(m[0]);
  for (const m of lower.matchAll(/\b(?:the\s+)?(?:twenties|thirties|forties|fifties|sixties|seventies|eighties|nineties|'\d0s)\b/g)) times.push(m[0].trim());
  for (const m of lower.matchAll(/\bwhen (?:i|we|he|she|they) (?:was|were) (?:a |an |about |around )?(?:\d+|\w+)(?: years old)?\b/g)) times.push(m[0]);
  for (const m of lower.matchAll(/\b(?:during|after|before) the war\b|\b(?:every|that|one|last|next) (?:summer|winter|spring|autumn|fall|christmas|easter|sunday|morning|evening|night)\b/g)) times.push(m[0]);
  for (const month of MONTHS) if (new RegExp(`\\b${month}\\b`).test(lower) && (month !== 'may' || /\bmay\s+\d/.test(lower))) times.push(month);

  return { people: unique([...namedPeople, ...kin]), places: unique([...places, ...placeNouns]), times: unique(times) };
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
