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
