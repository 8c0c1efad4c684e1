// The deterministic faithfulness layer and the provenance alignment, on real sentences.
import { checkFaithfulness, extractClaims } from './faithfulness';
import { buildProvenance } from './provenance';

const SOURCE =
  'um so we moved to Napoli in 1952, me and my brother Giuseppe. we had three cows and uh a little farm near the river. ' +
  'every Sunday my mother made bread. in March the river flooded and we lost two of the cows.';

describe('faithfulness', () => {
  it('extracts names, places, numbers and dates, not sentence openers', () => {
    const claims = extractClaims('We moved to Napoli in 1952 with Giuseppe. Then three cows came. In March it rained.');
    expect(claims).toEqual(
      expect.arrayContaining([
        { kind: 'place', text: 'Napoli' },
        { kind: 'date', text: '1952' },
        { kind: 'name', text: 'Giuseppe' },
        { kind: 'number', text: '3' },
        { kind: 'date', text: 'March' },
      ]),
    );
    expect(claims.map((c) => c.text)).not.toContain('We');
    expect(claims.map((c) => c.text)).not.toContain('Then');
  });

  it('passes a story that only restates the source, numbers compared by value', () => {
    const verdict = checkFaithfulness('In 1952 we moved to Napoli, my brother Giuseppe and I. We had 3 cows near the river. Every Sunday my mother made bread.', SOURCE);
    expect(verdict).toMatchObject({ passed: true, score: 1, unsupportedClaims: [] });
  });

  it('lists every invented name, place, number and date', () => {
    const verdict = checkFaithfulness('In 1954 we moved to Rome with Aunt Maria. We had 12 cows. In July the river flooded.', SOURCE);
    expect(verdict.passed).toBe(false);
    expect(verdict.unsupportedClaims).toEqual(expect.arrayContaining(['1954', 'Rome', 'Aunt Maria', '12', 'July']));
    expect(verdict.score).toBeLessThan(0.5);
  });
});

describe('provenance', () => {
  it('aligns each paragraph to its span of the source, in order, with seconds from word timings', () => {
    const source = 'we moved to Napoli in 1952. we had three cows. every Sunday my mother made bread.';
    const words = source.split(' ').map((w, i) => ({ word: w.replace(/[.,]/g, ''), start: i, end: i + 0.8 }));
    const [first, second] = buildProvenance({ paragraphs: ['We moved to Napoli in 1952.', 'Every Sunday my mother made bread.'], source, words });
    expect(first).toMatchObject({ sourceStart: 0, sourceExcerpt: 'we moved to Napoli in 1952', startSeconds: 0, endSeconds: 5.8, faithful: true, alignment: 1 });
    expect(second!.sourceExcerpt).toBe('every Sunday my mother made bread');
    expect(second!.startSeconds).toBe(10);
  });

  it('marks a paragraph with an invented claim unfaithful and names the claim', () => {
    const [p] = buildProvenance({ paragraphs: ['We moved to Milano in 1952.'], source: 'we moved to Napoli in 1952.' });
    expect(p).toMatchObject({ faithful: false, unsupportedClaims: ['Milano'] });
  });
});
