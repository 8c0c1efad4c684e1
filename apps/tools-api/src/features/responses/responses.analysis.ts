// Offline analysis of a written response to a story prompt (POST /api/story-prompts/analyze-response):
// classic readability formulas (Flesch, Flesch-Kincaid), moving-average type-token ratio for vocabulary,
// a small negation-aware sentiment lexicon (VADER-style normalisation), craft signals (dialogue, sensory
// words, adverbs, passive voice) and how much of the prompt's character, setting and conflict the text
// uses. Deterministic and labelled local: no model is called.

export const ANALYZER = 'local-heuristic-v1';

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** Words as a reader counts them (don't, well-known and 1999 are one word each). */
export const wordsOf = (text: string): string[] => text.match(WORD) ?? [];
export const countWords = (text: string): number => wordsOf(text).length;
/** Code points, as PostgreSQL's char_length counts them. */
export const countCharacters = (text: string): number => [...text].length;

const STOPWORDS = new Set(
  'a an and are as at be been but by for from had has have he her hers him his i if in into is it its me my no not of on or our she so than that the their them then there they this to up was we were what when where which who whom why will with would you your yours about after again against all also am any because before being below between both can could did do does doing down during each few further here how just more most much must nor now off once only other ought out over own same should some such too under until very while yet one two someone something somebody anyone every never ever still even like'.split(
    ' ',
  ),
);

/** Syllables of an English word by vowel groups, with the usual silent-e and -ed/-es corrections. */
export function syllables(word: string): number {
  let w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (w.length === 0) return 0;
  if (w.length <= 3) return 1;
  // Silent endings: "made", "jumped", "hopes" (but "wanted", "boxes", "roses" keep the syllable).
  w = w.replace(/(?:[^laeiouysxzch]es|[^laeiouydt]ed|[^laeiouy]e)$/, (m) => m.charAt(0)).replace(/^y/, '');
  const groups = w.match(/[aeiouy]+/g);
  return Math.max(1, groups ? groups.length : 1);
}

/** A light suffix-stripping stem, enough to match "letters" with "letter" and "keeping" with "keep". */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, '');
  for (const suffix of ['ingly', 'edly', 'ness', 'ment', 'ing', 'ied', 'ies', 'ed', 'es', 'ly', 'er', 's']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}

const POSITIVE = new Set(
  'love loved loving lovely joy joyful happy happiness hope hopeful warm warmth kind kindness gentle smile smiled smiling laugh laughed laughter bright beautiful brave courage proud grateful thankful relief relieved safe calm peace peaceful delight delighted wonderful wonder tender comfort comforted trust free freedom glad cheer cheerful forgive forgave forgiven friend friends friendship victory triumph succeed success win won embrace embraced home golden sweet heal healed healing promise treasure shine shining alive'.split(
    ' ',
  ),
);
const NEGATIVE = new Set(
  'hate hated fear feared afraid scared terror terrified sad sadness grief grieve cry cried tears angry anger rage furious alone lonely lost loss dark darkness cold death dead die died dying pain painful hurt wound wounded broken break betray betrayed lie lied lies guilt guilty shame ashamed regret bitter cruel danger dangerous threat panic dread worry worried despair hopeless miserable fail failed failure blood scream screamed trapped ruin ruined empty sorrow doubt'.split(
    ' ',
  ),
);
const NEGATORS = new Set(['not', 'no', 'never', 'nothing', 'nobody', 'none', 'neither', 'nor', "don't", "didn't", "wasn't", "isn't", "couldn't", "won't", 'without']);
const INTENSIFIERS = new Set(['very', 'so', 'extremely', 'deeply', 'utterly', 'truly', 'completely', 'really', 'incredibly']);
const SENSORY = new Set(
  'smell smelled scent stink stench taste tasted bitter sour salty sweet sound sounds hum hummed whisper whispered echo echoed creak creaked roar crackle crackled rustle rustled hiss hissed ring rang glow glowed glimmer flicker flickered shadow shadows gleam shimmer shimmered rough smooth cold warm damp wet soft sharp sticky itch ache ached tingle prickle velvet grit gritty silk blaze hazy fog misty salt smoke smoky musty sour rot loud quiet silence silent bright dim'.split(
    ' ',
  ),
);

export interface PromptElement {
  element: string;
  text: string;
}

export interface ElementUse {
  element: string;
  text: string;
  matched: string[];
  used: boolean;
}

export interface ResponseAnalysis {
  analyzer: string;
  wordCount: number;
  characterCount: number;
  sentenceCount: number;
  paragraphCount: number;
  averageSentenceLength: number;
  readingTimeMinutes: number;
  readability: { fleschReadingEase: number; fleschKincaidGrade: number; level: string };
  vocabulary: { uniqueWords: number; lexicalDiversity: number };
  style: { dialogueRatio: number; adverbRatio: number; passiveSentences: number; sensoryDetails: number; sentenceLengthVariation: number };
  sentiment: { score: number; label: 'positive' | 'negative' | 'neutral'; positiveWords: number; negativeWords: number };
  promptElements: { coverage: number; elements: ElementUse[] };
  scores: { length: number; readability: number; vocabulary: number; structure: number; promptUse: number; craft: number };
  qualityScore: number;
  strengths: string[];
  suggestions: string[];
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const clamp01 = (n: number) => Math.min(1, Math.max(0, n));

export const sentencesOf = (text: string): string[] =>
  text
    .split(/(?<=[.!?…]["”’)]?)\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => wordsOf(s).length > 0);

/** Moving-average type-token ratio (window 50): unlike the plain ratio, it does not fall just because a text is longer. */
export function lexicalDiversity(words: string[]): number {
  const lower = words.map((w) => w.toLowerCase());
  if (lower.length === 0) return 0;
  const window = 50;
  if (lower.length <= window) return new Set(lower).size / lower.length;
  let total = 0;
  let windows = 0;
  for (let i = 0; i + window <= lower.length; i += 5) {
    total += new Set(lower.slice(i, i + window)).size / window;
    windows += 1;
  }
  return total / windows;
}

export function sentimentOf(words: string[]): ResponseAnalysis['sentiment'] {
  let sum = 0;
  let positive = 0;
  let negative = 0;
  const lower = words.map((w) => w.toLowerCase());
  lower.forEach((w, i) => {
    const polarity = POSITIVE.has(w) ? 1 : NEGATIVE.has(w) ? -1 : 0;
    if (polarity === 0) return;
    const before = lower.slice(Math.max(0, i - 3), i);
    const negated = before.some((b) => NEGATORS.has(b) || b.endsWith("n't"));
    const boost = before.length > 0 && INTENSIFIERS.has(before.at(-1) ?? '') ? 1.5 : 1;
    const value = polarity * boost * (negated ? -0.75 : 1);
    sum += value;
    if (value > 0) positive += 1;
    else negative += 1;
  });
  // VADER's normalisation: maps an unbounded sum into (-1, 1), saturating smoothly.
  const score = sum / Math.sqrt(sum * sum + 15);
  return { score: round(score, 3), label: score >= 0.05 ? 'positive' : score <= -0.05 ? 'negative' : 'neutral', positiveWords: positive, negativeWords: negative };
}

/** Content words of a prompt element, stemmed, for matching against the response. */
export const keyTermsOf = (text: string): string[] => [...new Set(wordsOf(text).map((w) => w.toLowerCase()).filter((w) => w.length >= 4 && !STOPWORDS.has(w)).map(stem))];

export function elementUse(elements: PromptElement[], words: string[]): ResponseAnalysis['promptElements'] {
  const stems = new Set(words.map(stem));
  const uses = elements
    .filter((e) => e.text.trim() !== '')
    .map((e) => {
      const terms = keyTermsOf(e.text);
      const matched = terms.filter((t) => stems.has(t));
      // Used when a third of its key words appear, or two of them (long elements), or its only one.
      const used = terms.length > 0 && (matched.length >= 2 || matched.length / terms.length >= 1 / 3);
      return { element: e.element, text: e.text, matched, used };
    });
  const coverage = uses.length ? uses.filter((u) => u.used).length / uses.length : 0;
  return { coverage: round(coverage), elements: uses };
}

/** The parts of a story prompt's content a response is expected to use. */
export function promptElementsOf(content: Record<string, unknown>): PromptElement[] {
  return ['character', 'setting', 'conflict', 'theme']
    .map((key) => ({ element: key, text: typeof content[key] === 'string' ? (content[key] as string) : '' }))
    .filter((e) => e.text !== '');
}

export function analyzeResponse(text: string, prompt: { elements: PromptElement[]; wordCountTarget?: number | null } = { elements: [] }): ResponseAnalysis {
  const words = wordsOf(text);
  const wordCount = words.length;
  const sentences = sentencesOf(text);
  const sentenceCount = Math.max(1, sentences.length);
  const paragraphs = text.split(/\n\s*\n/).filter((p) => wordsOf(p).length > 0);
  const paragraphCount = Math.max(wordCount ? 1 : 0, paragraphs.length);
  const syllableCount = words.reduce((n, w) => n + syllables(w), 0);
  const wordsPerSentence = wordCount / sentenceCount;
  const syllablesPerWord = wordCount ? syllableCount / wordCount : 0;
  const fre = wordCount ? 206.835 - 1.015 * wordsPerSentence - 84.6 * syllablesPerWord : 0;
  const grade = wordCount ? 0.39 * wordsPerSentence + 11.8 * syllablesPerWord - 15.59 : 0;
  const level = grade <= 5 ? 'elementary' : grade <= 8 ? 'middle school' : grade <= 12 ? 'high school' : 'college';

  const lengths = sentences.map((s) => wordsOf(s).length);
  const mean = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const variation = Math.sqrt(lengths.reduce((a, l) => a + (l - mean) ** 2, 0) / Math.max(1, lengths.length));

  const quoted = (text.match(/“[^”]*”|"[^"]*"/g) ?? []).join('');
  const dialogueRatio = text.length ? quoted.length / text.length : 0;
  const lower = words.map((w) => w.toLowerCase());
  const adverbs = lower.filter((w) => w.length > 4 && w.endsWith('ly') && !['only', 'family', 'early', 'likely', 'lonely', 'holy', 'ugly', 'belly', 'reply', 'supply', 'friendly'].includes(w)).length;
  const passive = sentences.filter((s) => /\b(?:was|were|is|are|been|being|be)\s+(?:\w+ly\s+)?\w+(?:ed|en)\b/i.test(s)).length;
  const sensory = lower.filter((w) => SENSORY.has(w)).length;
  const diversity = lexicalDiversity(words);
  const sentiment = sentimentOf(words);
  const promptElements = elementUse(prompt.elements, words);

  const target = prompt.wordCountTarget && prompt.wordCountTarget > 0 ? prompt.wordCountTarget : 300;
  const scores = {
    // Full marks from the target length on; a sliver of text earns little.
    length: clamp01(wordCount / target),
    // Plain, readable prose (Flesch 50 to 80) scores best; very dense or choppy text less.
    readability: wordCount ? clamp01(1 - Math.max(0, 50 - fre, fre - 85) / 40) : 0,
    vocabulary: clamp01((diversity - 0.45) / 0.3),
    // Paragraphs for longer texts and varied sentence lengths (rhythm).
    structure: wordCount ? 0.5 * clamp01(paragraphCount / Math.max(1, Math.ceil(wordCount / 150))) + 0.5 * clamp01(variation / 6) : 0,
    promptUse: prompt.elements.length ? promptElements.coverage : 1,
    craft: wordCount
      ? clamp01(0.4 * clamp01((sensory / wordCount) * 100 / 2) + 0.3 * (1 - clamp01((adverbs / wordCount) * 100 / 5)) + 0.3 * (1 - clamp01(passive / sentenceCount / 0.3)))
      : 0,
  };
  const weights = { length: 20, readability: 15, vocabulary: 20, structure: 15, promptUse: 20, craft: 10 };
  const qualityScore = round(
    (Object.keys(weights) as (keyof typeof weights)[]).reduce((sum, k) => sum + scores[k] * weights[k], 0),
    1,
  );

  const strengths: string[] = [];
  const suggestions: string[] = [];
  if (scores.length >= 1) strengths.push(`Reaches the ${target}-word target.`);
  else suggestions.push(`Develop it further: ${wordCount} of about ${target} words.`);
  if (scores.vocabulary >= 0.7) strengths.push('Varied vocabulary.');
  else if (wordCount >= 30) suggestions.push('Vary your word choice; several words repeat often.');
  if (prompt.elements.length) {
    const missing = promptElements.elements.filter((e) => !e.used).map((e) => e.element);
    if (missing.length === 0) strengths.push('Uses every element of the prompt.');
    else suggestions.push(`Bring in the prompt's ${missing.join(', ')}.`);
  }
  if (sensory >= 2) strengths.push('Concrete sensory detail.');
  else if (wordCount >= 50) suggestions.push('Add sensory detail: what can be heard, smelled or touched?');
  if (dialogueRatio > 0) strengths.push('Uses dialogue.');
  if (variation < 3 && sentences.length >= 4) suggestions.push('Mix short and long sentences for rhythm.');
  if (adverbs / Math.max(1, wordCount) > 0.04) suggestions.push('Trim -ly adverbs; stronger verbs carry more.');
  if (passive / sentenceCount > 0.3) suggestions.push('Several sentences are passive; let characters act.');
  if (fre < 40 && wordCount > 0) suggestions.push('Long sentences and words make it hard going; split some.');

  return {
    analyzer: ANALYZER,
    wordCount,
    characterCount: countCharacters(text),
    sentenceCount: sentences.length,
    paragraphCount,
    averageSentenceLength: round(wordCount / sentenceCount, 1),
    readingTimeMinutes: round(wordCount / 230, 1),
    readability: { fleschReadingEase: round(fre, 1), fleschKincaidGrade: round(grade, 1), level },
    vocabulary: { uniqueWords: new Set(lower).size, lexicalDiversity: round(diversity, 3) },
    style: { dialogueRatio: round(dialogueRatio, 3), adverbRatio: round(adverbs / Math.max(1, wordCount), 3), passiveSentences: passive, sensoryDetails: sensory, sentenceLengthVariation: round(variation, 1) },
    sentiment,
    promptElements,
    scores: Object.fromEntries(Object.entries(scores).map(([k, v]) => [k, round(v, 2)])) as ResponseAnalysis['scores'],
    qualityScore,
    strengths,
    suggestions,
  };
}
