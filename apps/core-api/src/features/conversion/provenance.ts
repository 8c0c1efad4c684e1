// Where each paragraph of a story came from: the span of the source transcript it was made from, the
// seconds in the recording when the provider gave word timings, the conversation turns for a chat, and
// the faithfulness verdict of that paragraph. A reader can then jump from a sentence to the storyteller's
// own voice. The alignment is monotonic (stories keep the order of the telling): each story word is looked
// for a little way ahead of the previous match, so repeated common words cannot pull a span backwards.
import type { TranscriptWord } from '@story/db';
import { checkFaithfulness } from './faithfulness';

export interface SourceSegment {
  /** Character range of this segment in the joined source text. */
  start: number;
  end: number;
  messageId?: string;
}

export interface ParagraphProvenance {
  paragraph: number;
  /** Character offsets in the source text (end exclusive); null when nothing could be aligned. */
  sourceStart: number | null;
  sourceEnd: number | null;
  sourceExcerpt: string | null;
  /** Seconds in the recording, when word timings exist. */
  startSeconds: number | null;
  endSeconds: number | null;
  messageIds: string[];
  /** Share of the paragraph's words found in order in its span. */
  alignment: number;
  faithful: boolean;
  unsupportedClaims: string[];
}

interface Token {
  word: string;
  start: number;
  end: number;
}

const tokenize = (text: string): Token[] =>
  [...text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)].map((m) => ({ word: m[0].toLowerCase().replace(/’/g, "'"), start: m.index!, end: m.index! + m[0].length }));

const LOOKAHEAD = 40;

/** Source token index -> timing of the same word in `words` (matched in order), when timings exist. */
function timeTokens(tokens: Token[], words: TranscriptWord[] | null | undefined): ({ start: number; end: number } | null)[] {
  const out: ({ start: number; end: number } | null)[] = tokens.map(() => null);
  if (!words || words.length === 0) return out;
  let w = 0;
  const clean = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');
  for (let i = 0; i < tokens.length && w < words.length; i++) {
    for (let k = w; k < Math.min(words.length, w + 8); k++) {
      if (clean(words[k]!.word) === tokens[i]!.word) {
        out[i] = { start: words[k]!.start, end: words[k]!.end };
        w = k + 1;
        break;
      }
    }
  }
  return out;
}

export function buildProvenance(input: { paragraphs: string[]; source: string; words?: TranscriptWord[] | null; segments?: SourceSegment[] }): ParagraphProvenance[] {
  const sourceTokens = tokenize(input.source);
  const timings = timeTokens(sourceTokens, input.words);
  let cursor = 0;
  return input.paragraphs.map((paragraph, index) => {
    const tokens = tokenize(paragraph);
    let first = -1;
    let last = -1;
    let matched = 0;
    let pointer = cursor;
    for (const t of tokens) {
      for (let k = pointer; k < Math.min(sourceTokens.length, pointer + LOOKAHEAD); k++) {
        if (sourceTokens[k]!.word === t.word) {
          if (first < 0) first = k;
          last = k;
          matched++;
          pointer = k + 1;
          break;
        }
      }
    }
    if (last >= 0) cursor = last + 1;
    const verdict = checkFaithfulness(paragraph, input.source);
    const sourceStart = first >= 0 ? sourceTokens[first]!.start : null;
    const sourceEnd = last >= 0 ? sourceTokens[last]!.end : null;
    const timed = first >= 0 ? timings.slice(first, last + 1).filter((x): x is { start: number; end: number } => x !== null) : [];
    const messageIds =
      sourceStart === null || !input.segments
        ? []
        : input.segments.filter((s) => s.messageId && s.start < sourceEnd! && s.end > sourceStart).map((s) => s.messageId!);
    return {
      paragraph: index,
      sourceStart,
      sourceEnd,
      sourceExcerpt: sourceStart === null ? null : input.source.slice(sourceStart, sourceEnd!),
      startSeconds: timed.length ? timed[0]!.start : null,
      endSeconds: timed.length ? timed[timed.length - 1]!.end : null,
      messageIds,
      alignment: tokens.length === 0 ? 0 : Math.round((matched / tokens.length) * 1000) / 1000,
      faithful: verdict.passed,
      unsupportedClaims: verdict.unsupportedClaims,
    };
  });
}
