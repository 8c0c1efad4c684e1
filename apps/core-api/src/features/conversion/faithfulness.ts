// The deterministic layer of the faithfulness check ("Recording to story" 7): every name, number, date
// and place in the story must come from the source. Claims are pulled out of the story and looked up in
// the source, with numbers compared by value ("3" and "three" agree). An LLM judge may add findings on
// top when one is configured (conversion.service), but can never clear what this layer flags.

export type ClaimKind = 'name' | 'number' | 'date' | 'place';

export interface Claim {
  kind: ClaimKind;
  text: string;
}

export interface FaithfulnessVerdict {
  passed: boolean;
  /** Share of the story's claims found in the source (1 when it makes none). */
  score: number;
  claims: Claim[];
  unsupportedClaims: string[];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const PLACE_PREPOSITIONS = new Set(['in', 'at', 'to', 'from', 'near', 'into', 'outside', 'across', 'through', 'toward', 'towards']);
/** Capitalised words that open sentences without naming anything. */
const NOT_NAMES = new Set(
  'I The A An We He She They It My Our His Her Their This That These Those Then There When After Before And But So Yes No Oh Well In On At From To Into Every Each One Some All Later Once While During Since Until Back'.split(' '),
);

/** Numbers written as words up to 99 ("twenty-three") and as digits, to their values. */
function numberWordsToValues(text: string): number[] {
  const values: number[] = [];
  const lower = text.toLowerCase();
  const tens = TENS.filter(Boolean).join('|');
  const units = UNITS.join('|');
  const re = new RegExp(`\\b(?:(${tens})(?:[\\s-](${UNITS.slice(1, 10).join('|')}))?|(${units}))\\b`, 'g');
  for (const m of lower.matchAll(re)) {
    if (m[3]) values.push(UNITS.indexOf(m[3]));
    else values.push(TENS.indexOf(m[1]!) * 10 + (m[2] ? UNITS.indexOf(m[2]) : 0));
  }
  if (/\bhundred\b/.test(lower)) values.push(100);
  if (/\bthousand\b/.test(lower)) values.push(1000);
  if (/\b(?:a\s+)?dozen\b/.test(lower)) values.push(12);
  return values;
}

function digitValues(text: string): { text: string; value: number }[] {
  return [...text.matchAll(/\b\d{1,3}(?:,\d{3})+\b|\b\d+(?:\.\d+)?\b/g)].map((m) => ({ text: m[0], value: Number(m[0].replace(/,/g, '')) }));
}

const norm = (s: string) => s.toLowerCase().replace(/[’']/g, "'").replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim();

/** Capitalised phrases with where they stand (sentence start or not) and the word before them. */
function capitalisedPhrases(text: string): { phrase: string; sentenceStart: boolean; before: string }[] {
  const out: { phrase: string; sentenceStart: boolean; before: string }[] = [];
  // Words of a phrase are joined by spaces only, never across punctuation ("Giuseppe. Then" is two).
  const re = /\p{Lu}[\p{L}'’-]*(?: (?:(?:of|de|van|von|del|la|le|da) )?\p{Lu}[\p{L}'’-]*)*/gu;
  for (const m of text.matchAll(re)) {
    const phrase = m[0].replace(/['’-]+$/, '');
    const prefix = text.slice(0, m.index).trimEnd();
    const sentenceStart = prefix === '' || /[.!?:;"“]$/.test(prefix);
    const before = (/(\p{L}+)$/u.exec(prefix)?.[1] ?? '').toLowerCase();
    out.push({ phrase, sentenceStart, before });
  }
  return out;
}

/** The claims a text makes: names and places (capitalised phrases), numbers, and dates (years, months, weekdays). */
export function extractClaims(text: string): Claim[] {
  const claims: Claim[] = [];
  const seen = new Set<string>();
  const add = (kind: ClaimKind, t: string) => {
    const key = `${kind}:${t.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    claims.push({ kind, text: t });
  };
  const phrases = capitalisedPhrases(text);
  const midSentence = new Set(phrases.filter((p) => !p.sentenceStart).map((p) => p.phrase.split(/\s+/)[0]));
  for (const p of phrases) {
    const words = p.phrase.split(/\s+/);
    let phrase = p.phrase;
    let before = p.before;
    if (p.sentenceStart) {
      // "We", "Then", "In": sentence openers. A lone capitalised opener counts only if it is capitalised elsewhere too.
      if (NOT_NAMES.has(words[0]!)) {
        if (words.length === 1) continue;
        phrase = words.slice(1).join(' ');
        before = words[0]!.toLowerCase();
      } else if (words.length === 1 && !midSentence.has(words[0]!)) continue;
    }
    if (phrase === 'I' || /^I'/.test(phrase)) continue;
    const lower = phrase.toLowerCase();
    if (MONTHS.includes(lower) || WEEKDAYS.includes(lower)) {
      add('date', phrase);
      continue;
    }
    add(PLACE_PREPOSITIONS.has(before) ? 'place' : 'name', phrase);
  }
  for (const d of digitValues(text)) add(d.value >= 1600 && d.value <= 2100 && Number.isInteger(d.value) ? 'date' : 'number', d.text);
  for (const v of numberWordsToValues(text)) add('number', String(v));
  return claims;
}

/** Is this claim stated in the source? Phrases as whole words (case-insensitive); numbers by value. */
export function makeSourceIndex(source: string) {
  const normalized = ` ${norm(source)} `;
  const values = new Set<number>([...digitValues(source).map((d) => d.value), ...numberWordsToValues(source)]);
  return (claim: Claim): boolean => {
    if (claim.kind === 'number' || (claim.kind === 'date' && /^\d/.test(claim.text))) {
      const value = Number(claim.text.replace(/,/g, ''));
      return values.has(value);
    }
    const phrase = norm(claim.text);
    if (phrase === '') return true;
    if (normalized.includes(` ${phrase} `)) return true;
    // "Grandpa Joe" when the source says "grandpa ... Joe": every word of the name must be there.
    return phrase.split(' ').every((w) => w.length < 3 || normalized.includes(` ${w} `) || normalized.includes(` ${w}'s `));
  };
}

export function checkFaithfulness(story: string, source: string): FaithfulnessVerdict {
  const claims = extractClaims(story);
  const supported = makeSourceIndex(source);
  const unsupportedClaims = claims.filter((c) => !supported(c)).map((c) => c.text);
  const score = claims.length === 0 ? 1 : (claims.length - unsupportedClaims.length) / claims.length;
  return { passed: unsupportedClaims.length === 0, score: Math.round(score * 1000) / 1000, claims, unsupportedClaims };
}
