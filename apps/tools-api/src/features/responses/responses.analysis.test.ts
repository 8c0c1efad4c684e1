import { analyzeResponse, countCharacters, countWords, elementUse, lexicalDiversity, sentimentOf, sentencesOf, stem, syllables, wordsOf } from './responses.analysis';

describe('text measures', () => {
  it('counts words as readers do and characters as PostgreSQL does', () => {
    expect(countWords("Don't stop — it's a well-known 1999 song!")).toBe(7);
    expect(countWords('  \n ')).toBe(0);
    expect(countCharacters('🌊 wave')).toBe(6);
  });

  it('counts syllables with the usual English corrections', () => {
    const words = ['cat', 'table', 'lighthouse', 'beautiful', 'jumped', 'wanted', 'boxes', 'hopes', 'made', 'elephant'];
    expect(words.map(syllables)).toEqual([1, 2, 2, 3, 1, 2, 2, 1, 1, 3]);
  });

  it('splits sentences on end punctuation and line breaks', () => {
    expect(sentencesOf('She ran. “Stop!” he cried. Why?\nThen silence')).toEqual(['She ran.', '“Stop!”', 'he cried.', 'Why?', 'Then silence']);
  });

  it('stems enough to match word forms', () => {
    expect(['letters', 'keeping', 'drowned', 'storms'].map(stem)).toEqual(['letter', 'keep', 'drown', 'storm']);
  });

  it('measures vocabulary independent of length (moving-average type-token ratio)', () => {
    const varied = wordsOf('the quick brown fox jumps over a lazy dog while seven wizards box jolly quiet nymphs near frozen lakes');
    const repetitive = wordsOf(Array.from({ length: 40 }, () => 'the dog saw the dog').join(' '));
    expect(lexicalDiversity(varied)).toBeGreaterThan(0.9);
    expect(lexicalDiversity(repetitive)).toBeLessThan(0.1);
  });

  it('scores sentiment with negation and intensifiers', () => {
    expect(sentimentOf(wordsOf('She was happy and grateful, full of hope.'))).toMatchObject({ label: 'positive', positiveWords: 3 });
    expect(sentimentOf(wordsOf('Grief and fear filled the dark house.'))).toMatchObject({ label: 'negative', negativeWords: 3 });
    expect(sentimentOf(wordsOf('She was not happy.')).label).toBe('negative');
    expect(sentimentOf(wordsOf('very happy')).score).toBeGreaterThan(sentimentOf(wordsOf('happy')).score);
    expect(sentimentOf(wordsOf('The table is brown.'))).toMatchObject({ label: 'neutral', score: 0 });
  });

  it('finds which prompt elements a text uses', () => {
    const use = elementUse(
      [
        { element: 'character', text: 'a retired lighthouse keeper' },
        { element: 'setting', text: 'a frozen northern harbour' },
      ],
      wordsOf('The old keeper of the lighthouse walked home.'),
    );
    expect(use.elements.map((e) => [e.element, e.used, e.matched])).toEqual([
      ['character', true, ['lighthouse', 'keep']],
      ['setting', false, []],
    ]);
    expect(use.coverage).toBe(0.5);
  });
});

describe('analyzeResponse', () => {
  it('computes Flesch scores on a known text', () => {
    const a = analyzeResponse('The cat sat on the mat. The dog ran.');
    expect(a.sentenceCount).toBe(2);
    expect(a.averageSentenceLength).toBe(4.5);
    // 9 words, 2 sentences, 9 syllables: 206.835 - 1.015 * 4.5 - 84.6 * 1
    expect(a.readability.fleschReadingEase).toBe(117.7);
    expect(a.readability.level).toBe('elementary');
  });

  it('rates a developed, on-prompt response above a thin off-topic one', () => {
    const prompt = { elements: [{ element: 'setting', text: 'a storm-battered lighthouse' }, { element: 'conflict', text: 'a letter that accuses her brother' }], wordCountTarget: 60 };
    const strong = analyzeResponse(
      'The storm battered the lighthouse all night. Rain hissed on the glass and the lamp flickered.\n\n' +
        'She unfolded the letter with cold fingers. It accused her brother of something unforgivable, in a hand she knew.\n\n' +
        '“Not him,” she whispered. The sea roared below, and she did not believe it.',
      prompt,
    );
    const weak = analyzeResponse('It was good. It was good. It was good.', prompt);
    expect(strong.promptElements.coverage).toBe(1);
    expect(weak.promptElements.coverage).toBe(0);
    expect(strong.qualityScore).toBeGreaterThan(weak.qualityScore + 30);
    expect(strong.strengths).toEqual(expect.arrayContaining(['Uses every element of the prompt.', 'Uses dialogue.']));
    expect(weak.suggestions.join(' ')).toMatch(/setting, conflict/);
    expect(strong.qualityScore).toBeLessThanOrEqual(100);
  });

  it('handles an empty text without dividing by zero', () => {
    const a = analyzeResponse('');
    expect(a).toMatchObject({ wordCount: 0, sentenceCount: 0, qualityScore: expect.any(Number) });
    expect(Number.isFinite(a.readability.fleschReadingEase)).toBe(true);
  });
});
