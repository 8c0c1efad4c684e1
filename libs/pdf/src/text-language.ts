// The direction and language of a piece of text, from the text itself: a paragraph of Arabic in an English
// book is set right to left, and a story page carries lang and dir (spec 000 Archive 3: readable pages).
// Direction follows Unicode's bidi rules (a paragraph takes the direction of its first strong letter;
// a page the direction most of its letters have). Language comes from the script where the script says
// it (kana: Japanese, Hangul: Korean, ...), else from tinyld (MIT, n-grams, no network) for Latin and
// Cyrillic text long enough to judge, else the caller's fallback (the book's language).

export type Direction = 'ltr' | 'rtl';

/** Letters of right-to-left scripts (bidi classes R and AL). */
const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;
const LETTER = /\p{L}/u;

/** Unicode bidi P2/P3: the direction of the first strong letter; ltr when there is none. */
export function paragraphDirection(text: string): Direction {
  for (const char of text) {
    if (!LETTER.test(char)) continue;
    return RTL_LETTER.test(char) ? 'rtl' : 'ltr';
  }
  return 'ltr';
}

/** The direction most letters of the text read in (a page's `dir`). */
export function dominantDirection(text: string): Direction {
  let rtl = 0;
  let ltr = 0;
  for (const char of text) {
    if (!LETTER.test(char)) continue;
    if (RTL_LETTER.test(char)) rtl++;
    else ltr++;
  }
  return rtl > ltr ? 'rtl' : 'ltr';
}

type Script = 'Latin' | 'Cyrillic' | 'Greek' | 'Arabic' | 'Hebrew' | 'Devanagari' | 'Han' | 'Kana' | 'Hangul' | 'Thai' | 'Other';

const SCRIPTS: [Script, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Han', /\p{Script=Han}/u],
  ['Kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Thai', /\p{Script=Thai}/u],
];

function scriptCounts(text: string): Map<Script, number> {
  const counts = new Map<Script, number>();
  for (const char of text) {
    if (!LETTER.test(char)) continue;
    const script = SCRIPTS.find(([, re]) => re.test(char))?.[0] ?? 'Other';
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  return counts;
}

/** The script most letters are written in; null for text without letters. */
export function dominantScript(text: string): Script | null {
  const counts = scriptCounts(text);
  // Japanese mixes kanji and kana: any kana makes Han text Japanese.
  if ((counts.get('Kana') ?? 0) > 0) counts.set('Kana', (counts.get('Kana') ?? 0) + (counts.get('Han') ?? 0));
  let best: Script | null = null;
  let most = 0;
  for (const [script, n] of counts) {
    if (n > most) {
      best = script;
      most = n;
    }
  }
  return best;
}

/** The language a script alone says (null for scripts many languages share). */
const SCRIPT_LANGUAGE: Partial<Record<Script, string>> = { Greek: 'el', Hebrew: 'he', Devanagari: 'hi', Han: 'zh', Kana: 'ja', Hangul: 'ko', Thai: 'th' };

/** The script a language is written in (for the languages a book names most), Latin otherwise. */
export function scriptOfLanguage(language: string): Script {
  const code = language.toLowerCase().split('-')[0] ?? '';
  if (['ar', 'fa', 'ur', 'ps', 'ckb', 'sd', 'ug'].includes(code)) return 'Arabic';
  if (['he', 'yi'].includes(code)) return 'Hebrew';
  if (['hi', 'mr', 'ne', 'sa', 'kok', 'mai'].includes(code)) return 'Devanagari';
  if (code === 'zh') return 'Han';
  if (code === 'ja') return 'Kana';
  if (code === 'ko') return 'Hangul';
  if (code === 'el') return 'Greek';
  if (code === 'th') return 'Thai';
  if (['ru', 'uk', 'be', 'bg', 'mk', 'sr', 'kk', 'ky', 'tg', 'mn'].includes(code)) return 'Cyrillic';
  return 'Latin';
}

type Detector = (text: string) => string;
let detector: Detector | null | undefined;
const detect = (text: string): string => {
  if (detector === undefined) {
    try {
      detector = (require('tinyld/light') as { detect: Detector }).detect;
    } catch {
      detector = null;
    }
  }
  return detector ? detector(text) : '';
};

/** Below this many letters an n-gram guess is noise. */
const MIN_LETTERS_TO_DETECT = 40;

/**
 * The BCP 47 language of a text: the fallback when the text is in the fallback's own script (a Polish
 * book's Polish story), the script's language where the script says it, a detected one for longer
 * Latin, Cyrillic or Arabic text, else the fallback ('und' when none).
 */
export function languageOf(text: string, fallback: string | null = null): string {
  const script = dominantScript(text);
  if (!script) return fallback ?? 'und';
  if (fallback && scriptOfLanguage(fallback) === script) return fallback;
  const byScript = SCRIPT_LANGUAGE[script];
  if (byScript) return byScript;
  const letters = [...text].filter((c) => LETTER.test(c)).length;
  if (letters >= MIN_LETTERS_TO_DETECT) {
    const found = detect(text);
    if (found && scriptOfLanguage(found) === script) return found;
  }
  if (script === 'Arabic') return 'ar';
  if (script === 'Cyrillic') return 'ru';
  return 'und';
}
