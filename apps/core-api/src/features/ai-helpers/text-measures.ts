// Plain-text measures the offline helpers share: words, sentences, syllables and Flesch reading ease.
// Counting only; nothing here writes text.

export function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
}

/** Sentences by terminal punctuation (a text without any is one sentence). */
export function sentencesOf(text: string): string[] {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return [];
  return (flat.match(/[^.!?]+(?:[.!?]+["'”’)]*|$)/g) ?? []).map((s) => s.trim()).filter((s) => wordsOf(s).length > 0);
}

/** Syllables of an English word by vowel groups (the usual estimate: silent final e, at least one). */
export function syllables(word: string): number {
  const w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (w.length <= 3) return 1;
  const groups = w.replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, '').replace(/^y/, '').match(/[aeiouy]{1,2}/g);
  return Math.max(1, groups?.length ?? 1);
}

export interface Readability {
  words: number;
  sentences: number;
  averageSentenceLength: number;
  fleschReadingEase: number;
}

/** Flesch reading ease: 206.835 − 1.015 × words per sentence − 84.6 × syllables per word (higher is easier). */
export function readability(text: string): Readability {
  const words = wordsOf(text);
  const sentences = Math.max(1, sentencesOf(text).length);
  if (words.length === 0) return { words: 0, sentences: 0, averageSentenceLength: 0, fleschReadingEase: 0 };
  const syl = words.reduce((n, w) => n + syllables(w), 0);
  const perSentence = words.length / sentences;
  const ease = 206.835 - 1.015 * perSentence - 84.6 * (syl / words.length);
  return {
    words: words.length,
    sentences,
    averageSentenceLength: Math.round(perSentence * 10) / 10,
    fleschReadingEase: Math.round(Math.min(121, Math.max(0, ease)) * 10) / 10,
  };
}

/** Positions of `needles` in `text`, each searched after the previous one (model answers quote the text in order). */
export function locate<T extends { original: string }>(text: string, items: T[]): (T & { start: number; end: number })[] {
  const out: (T & { start: number; end: number })[] = [];
  let from = 0;
  for (const item of items) {
    if (!item.original) continue;
    let at = text.indexOf(item.original, from);
    if (at < 0) at = text.indexOf(item.original);
    if (at < 0) continue; // a quote the text does not contain is dropped, never guessed
    out.push({ ...item, start: at, end: at + item.original.length });
    from = at + item.original.length;
  }
  return out;
}
