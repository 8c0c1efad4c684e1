// The people, places and years a storyteller's text names: capitalised phrases read with the word before
// them ("moved to Leeds" is a place, "Uncle Harry" a person), counted only from the words present, so
// nothing is invented. One reading for every caller: core-api's conversation insights and the local LLM's
// generators (which add kin words, place nouns and spoken times on top, see llm/local/text.ts).

/** Month names, lower case: calendar words, never names (times and dates use them too). */
export const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** Capitalised words that are not names: sentence openers, pronouns, titles alone, calendar words. */
const NOT_NAMES = new Set([
  'i', "i'm", "i'd", "i've", 'the', 'a', 'an', 'and', 'but', 'so', 'then', 'when', 'we', 'he', 'she', 'they', 'it', 'my', 'our', 'his', 'her',
  'their', 'there', 'this', 'that', 'in', 'on', 'at', 'after', 'before', 'one', 'oh', 'well', 'yes', 'no', 'what', 'how', 'who', 'why',
  'where', 'if', 'you', 'your', 'christmas', 'easter', 'god', 'mum', 'mom', 'dad', 'grandma', 'grandpa', 'ok', 'okay', 'every', 'once',
  'sometimes', 'later', 'now', 'back', 'also', 'because', 'though', 'although', 'anyway', 'just', 'maybe', 'of', 'for', 'with', 'from',
  ...MONTH_NAMES,
  ...DAYS,
]);
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'aunt', 'uncle', 'auntie', 'father', 'sister', 'brother']);
const PLACE_BEFORE = new Set(['in', 'at', 'to', 'from', 'near', 'into', 'outside', 'around', 'across', 'through', 'towards', 'toward', 'visited', 'visit', 'left', 'leaving']);
const PLACE_SUFFIX = /\s(?:Road|Street|St|Lane|Avenue|Ave|Park|Hill|Square|Bridge|Farm|School|Church|Station|Hospital|Bay|Island|River|Lake|Mountains?|Valley|County|Village|City|Town|Beach|Harbou?r|Mill|Market|Hall|College|University)$/;

export interface NamedMentions {
  people: string[];
  places: string[];
  years: string[];
}

const stripWord = (w: string) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}'’]+$/gu, '').replace(/['’]s$/u, '');

function sentencesOf(text: string): string[] {
  return (text.replace(/\s+/g, ' ').trim().match(/[^.!?]+(?:[.!?]+|$)/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

/** Capitalised phrases with the word before them and whether they open their sentence. */
function capitalised(text: string): { phrase: string; before: string; opener: boolean }[] {
  const out: { phrase: string; before: string; opener: boolean }[] = [];
  for (const sentence of sentencesOf(text)) {
    const ws = sentence.split(' ');
    for (let i = 0; i < ws.length; i++) {
      const first = stripWord(ws[i]);
      if (!/^\p{Lu}/u.test(first)) continue;
      const parts = [first];
      let j = i + 1;
      // A name ends at punctuation ("Leeds, Harry" is two) or at a word that is not capitalised.
      while (j < ws.length && !/[,;:]$/.test(ws[j - 1])) {
        const next = stripWord(ws[j]);
        if (!/^\p{Lu}/u.test(next) || NOT_NAMES.has(next.toLowerCase())) break;
        parts.push(next);
        j++;
      }
      let start = 0;
      while (start < parts.length && NOT_NAMES.has(parts[start].toLowerCase())) start++;
      const kept = parts.slice(start);
      const onlyTitle = kept.length === 1 && TITLES.has(kept[0].toLowerCase());
      if (kept.length > 0 && !onlyTitle && kept.every((p) => p.length > 1)) {
        const at = i + start;
        out.push({ phrase: kept.join(' '), before: at > 0 ? stripWord(ws[at - 1]).toLowerCase() : '', opener: at === 0 });
      }
      i = j - 1;
    }
  }
  return out;
}

export function uniqueCaseless(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((x) => {
    const k = x.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Named people, places and years, each once (case-insensitive), in the order first said. */
export function extractMentions(text: string): NamedMentions {
  const phrases = capitalised(text);
  const midSentence = new Set(phrases.filter((p) => !p.opener).map((p) => p.phrase));
  const people: string[] = [];
  const places: string[] = [];
  for (const p of phrases) {
    // A sentence opener is capitalised anyway: it counts only when it also appears mid-sentence,
    // or when a title introduces it ("Mrs Patel", "Uncle Harry").
    const titled = p.phrase.includes(' ') && TITLES.has(p.phrase.split(' ')[0].toLowerCase());
    if (p.opener && !titled && !midSentence.has(p.phrase)) continue;
    if (PLACE_BEFORE.has(p.before) || PLACE_SUFFIX.test(` ${p.phrase}`)) places.push(p.phrase);
    else people.push(p.phrase);
  }
  // Named once as a place ("moved to Leeds"), it is a place everywhere.
  const placeKeys = new Set(places.map((p) => p.toLowerCase()));
  const years = [...text.matchAll(/\b(1[6-9]\d\d|20\d\d)s?\b/g)].map((m) => m[0]);
  return {
    people: uniqueCaseless(people.filter((p) => !placeKeys.has(p.toLowerCase()))),
    places: uniqueCaseless(places),
    years: uniqueCaseless(years),
  };
}
