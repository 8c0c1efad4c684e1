// Word error rate: (substitutions + deletions + insertions) / words of the reference, by edit distance over
// words normalised the way recognisers differ harmlessly (case, punctuation, numbers written as words are
// left as they are: the fixtures spell them out). Used by the recogniser's tests and bench/local-stt.ts.

/** Lower-case words without punctuation ("Mrs." and "mrs" are one word; "don't" keeps its apostrophe). */
export function normaliseWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^\p{L}\p{N}'\s-]+/gu, ' ')
    .replace(/-/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

/** Edit distance in words between a reference and a hypothesis, as a share of the reference's words. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = normaliseWords(reference);
  const hyp = normaliseWords(hypothesis);
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const current = [i];
    for (let j = 1; j <= hyp.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[hyp.length]! / ref.length;
}

export type AlignmentOp = 'match' | 'substitute' | 'delete' | 'insert';

/** The edit operations turning the reference's words into the hypothesis's, in order. */
export function alignWords(ref: string[], hyp: string[]): AlignmentOp[] {
  const cost: number[][] = Array.from({ length: ref.length + 1 }, (_, i) => Array.from({ length: hyp.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= ref.length; i++)
    for (let j = 1; j <= hyp.length; j++) cost[i]![j] = Math.min(cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1, cost[i - 1]![j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
  const ops: AlignmentOp[] = [];
  let i = ref.length;
  let j = hyp.length;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && cost[i]![j] === cost[i - 1]![j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1)) {
      ops.push(ref[i - 1] === hyp[j - 1] ? 'match' : 'substitute');
      i--;
      j--;
    } else if (i > 0 && cost[i]![j] === cost[i - 1]![j]! + 1) {
      ops.push('delete');
      i--;
    } else {
      ops.push('insert');
      j--;
    }
  }
  return ops.reverse();
}

export interface SentenceCheck {
  /** Share of each reference sentence's words recognised exactly, in order. */
  recognised: number[];
  /** The longest run of words in the hypothesis that stand for nothing in the reference. */
  longestInsertion: number;
}

/**
 * How each sentence of a long passage came through: a sentence lost at a cut shows as a sentence with few
 * of its words recognised, a sentence heard twice (pieces overlapping) as a long run of inserted words.
 */
export function checkSentences(sentences: string[], hypothesis: string): SentenceCheck {
  const refWords = sentences.map(normaliseWords);
  const ops = alignWords(refWords.flat(), normaliseWords(hypothesis));
  const sentenceOf: number[] = refWords.flatMap((words, s) => words.map(() => s));
  const matched = refWords.map(() => 0);
  let r = 0;
  let run = 0;
  let longestInsertion = 0;
  for (const op of ops) {
    if (op === 'insert') {
      longestInsertion = Math.max(longestInsertion, ++run);
      continue;
    }
    run = 0;
    if (op === 'match') matched[sentenceOf[r]!]!++;
    r++;
  }
  return { recognised: refWords.map((words, s) => (words.length ? matched[s]! / words.length : 1)), longestInsertion };
}
