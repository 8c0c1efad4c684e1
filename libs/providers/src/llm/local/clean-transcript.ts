// Offline transcript clean-up: removes spoken fillers, cut-off words and immediate repetitions, adds
// sentence punctuation and capitals, and splits paragraphs at time or topic shifts. It only removes
// disfluencies and re-punctuates: every name, number, date and place of the input survives.

const FILLER = String.raw`(?:u+m+|u+h+|e+r+m+|e+r+|a+h+|h+m+|m{2,})`;
const NOT_WORD_BEFORE = String.raw`(?<![\p{L}\p{N}'’-])`;
const NOT_WORD_AFTER = String.raw`(?![\p{L}\p{N}'’-])`;

/** Fillers with the commas around them ("so, um, we" → "so we"); a sentence end is kept. */
export function removeFillers(text: string): string {
  const filler = new RegExp(String.raw`(,\s*)?${NOT_WORD_BEFORE}${FILLER}${NOT_WORD_AFTER}(?:\s*(?:,|…|\.{2,}))*\s*`, 'giu');
  let out = text.replace(filler, ' ');
  // "you know" / "I mean" only where they stand between clauses (", you know," or at a sentence edge);
  // "you know him" and "what I mean is" carry meaning and stay.
  const phrase = /(^|[,.!?;])\s*(?:you know|i mean)\s*(?:,|(?=[.!?;])|$)/gi;
  out = out.replace(phrase, (_m, before: string) => (/[.!?;]/.test(before) ? `${before} ` : ' '));
  // unpunctuated captions: "at the mill you know and then we" — a trailing "you know" before a new clause
  return out.replace(/\s+you know(?=\s+(?:and|so|but|then|anyway)\b)/gi, '');
}

/** Words cut off mid-way ("we wen- we went"), which the repetition pass then folds. */
export function removeCutOffs(text: string): string {
  return text.replace(/(?<=^|\s)[\p{L}'’]+[-–—](?=\s)/gu, ' ');
}

const KEEP_DOUBLED = new Set(['had', 'that']);
const norm = (token: string) => token.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** Immediate repetitions of 1-4 words ("I I went", "we went, we went to") keep one copy. */
export function collapseRepetitions(text: string): string {
  let tokens = text.split(/\s+/).filter(Boolean);
  let changed = true;
  while (changed) {
    changed = false;
    for (let n = 4; n >= 1 && !changed; n--) {
      for (let i = 0; i + 2 * n <= tokens.length; i++) {
        const first = tokens.slice(i, i + n);
        const second = tokens.slice(i + n, i + 2 * n);
        if (!first.every((t, k) => norm(t) !== '' && norm(t) === norm(second[k]))) continue;
        // never across a sentence end; "had had" is grammar; doubled names (Bora Bora) are names
        if (/[.!?]["'”’)]*$/.test(first[n - 1])) continue;
        if (n === 1 && (KEEP_DOUBLED.has(norm(first[0])) || (/^\p{Lu}/u.test(first[0]) && first[0] !== 'I' && /^\p{Lu}/u.test(second[0])))) continue;
        tokens = [...tokens.slice(0, i), ...tokens.slice(i + n)];
        changed = true;
        break;
      }
    }
  }
  return tokens.join(' ');
}

const PRONOUNS = new Set(['i', 'we', 'he', 'she', 'they', 'my', 'our', 'his', 'her', 'their', 'it', 'you']);
const PAIR_MARKERS = new Set(['and then', 'but then', 'so then', 'after that', 'one day', 'years later', 'later on', 'the next', 'and so']);

/** Is tokens[i] the start of a new clause worth a sentence break in unpunctuated speech? */
function clauseStart(tokens: string[], i: number): boolean {
  const a = norm(tokens[i]);
  const b = i + 1 < tokens.length ? norm(tokens[i + 1]) : '';
  if (PAIR_MARKERS.has(`${a} ${b}`)) return true;
  if (a === 'anyway' || a === 'afterwards' || a === 'eventually') return true;
  // "Lucia and I used to hide": a name joined to a pronoun is one subject, not a new clause.
  if (a === 'and' && i > 0 && /^\p{Lu}[\p{L}'’-]*$/u.test(tokens[i - 1])) return false;
  return (a === 'so' || a === 'and' || a === 'but') && PRONOUNS.has(b);
}

/** Long unpunctuated runs (typical of live captions) are split before clause markers. */
function splitLong(sentence: string): string[] {
  const tokens = sentence.split(/\s+/).filter(Boolean);
  if (tokens.length <= 25) return [sentence];
  const out: string[] = [];
  let current: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (current.length >= 8 && tokens.length - i >= 4 && clauseStart(tokens, i)) {
      current[current.length - 1] = current[current.length - 1].replace(/[,;:]+$/, '');
      out.push(current.join(' '));
      current = [];
    }
    current.push(tokens[i]);
  }
  if (current.length) out.push(current.join(' '));
  return out;
}

const QUESTION = /^(?:(?:what|why|how|who|where)\s+(?:do|did|does|was|were|is|are|would|could|can|will)|(?:did|do|does|can|could|would|will|is|are|was|were|have|has)\s+(?:you|i|we|he|she|they|it))\b/i;

function finishSentence(sentence: string): string {
  let s = sentence
    .replace(/^[\s,;:–—-]+/, '')
    .replace(/[\s,;:–—-]+$/, '')
    .replace(/(?<![\p{L}'’])i(?=$|[\s,.!?;:]|['’](?:m|ve|d|ll)\b)/gu, 'I');
  if (!s) return '';
  s = s.charAt(0).toUpperCase() + s.slice(1);
  if (!/[.!?]["'”’)]*$/.test(s)) s += QUESTION.test(s) ? '?' : '.';
  return s;
}

function fixSpacing(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.!?;:])/g, '$1')
    .replace(/([,;:])(?:\s*[,;:])+/g, '$1')
    .replace(/,\s*([.!?])/g, '$1')
    .replace(/([,;:!?])(?=\p{L})/gu, '$1 ')
    .replace(/(\p{L}{2,}\.)(?=\p{L}{2,})/gu, '$1 ')
    .trim();
}

/** Sentences that open a new paragraph once the current one has three or more sentences. */
const SHIFT = /^(?:then\b|later\b|after\b|afterwards\b|years later\b|the next\b|one day\b|eventually\b|meanwhile\b|anyway\b|back then\b|in (?:the )?(?:\d{4}|\d{4}s|spring|summer|autumn|fall|winter|war)\b|when (?:i|we|he|she|they) (?:was|were|got|moved|left|came|went|turned)\b|by (?:the time|\d{4})\b|that (?:summer|winter|spring|autumn|year|day|night)\b|(?:my|our) (?:mother|father|mum|mom|dad|grandmother|grandfather|brother|sister|wife|husband)\b)/i;

export function toParagraphs(list: string[]): string[][] {
  const paragraphs: string[][] = [];
  let current: string[] = [];
  for (const s of list) {
    if (current.length >= 5 || (current.length >= 3 && SHIFT.test(s))) {
      paragraphs.push(current);
      current = [];
    }
    current.push(s);
  }
  if (current.length) {
    // a lone trailing sentence joins the paragraph before it unless that one is already full
    if (current.length === 1 && paragraphs.length && paragraphs[paragraphs.length - 1].length < 5) paragraphs[paragraphs.length - 1].push(...current);
    else paragraphs.push(current);
  }
  return paragraphs;
}

export function cleanTranscript(raw: string): string {
  let text = raw.replace(/\s+/g, ' ').trim();
  if (!text) return '';
  text = removeFillers(text);
  text = removeCutOffs(text);
  text = collapseRepetitions(fixSpacing(text));
  text = fixSpacing(text);
  const pieces = text.match(/[^.!?]+(?:[.!?]+["'”’)]*|$)/g) ?? [text];
  const list = pieces
    .flatMap((p) => splitLong(p.trim()))
    .map((s) => finishSentence(fixSpacing(s)))
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
  return toParagraphs(list)
    .map((p) => p.join(' '))
    .join('\n\n');
}
