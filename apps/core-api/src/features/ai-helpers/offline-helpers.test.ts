// The offline algorithms on their own: refinement keeps the meaning (letters and digits in order for a
// narrative; ambiguous contractions left alone), templates, grammar correction application, readability,
// and the model-answer mappers that drop what the text does not contain.
import fc from 'fast-check';
import { refineOffline } from './content-refinement';
import { applyCorrections, grammarScore } from './grammar';
import { placePhotosOffline, storyParagraphs } from './photo-suggestions';
import { connectionsOffline } from './story-connections';
import { refineTemplateOffline, templateFromModel } from './template-refinement';
import { locate, readability } from './text-measures';
import { memoryPromptsOffline } from './memory-prompts';

const letters = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

describe('content refinement', () => {
  it('narrative with preserveVoice keeps every letter and digit in order, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        expect(letters(refineOffline(text, 'narrative', true).refinedContent)).toBe(letters(text));
      }),
      { numRuns: 300 },
    );
  });

  it('formal expands only what the next word decides; possessives and unclear forms stay', () => {
    const out = refineOffline("It's Harry's coat. I'd like tea. I'd gone home. I'd sooner not. Won't you? It's been long.", 'formal', true).refinedContent;
    expect(out).toBe("It is Harry's coat. I would like tea. I had gone home. I'd sooner not. Won't you? It has been long.");
  });

  it('casual does not contract before a comma or at a sentence end', () => {
    expect(refineOffline('That is, we are. I do not, really.', 'casual', true).refinedContent).toBe('That is, we are. I do not, really.');
  });

  it('spacing, punctuation spacing and capitals are normalised and listed', () => {
    const r = refineOffline('we went home .then   i slept,happily', 'narrative', true);
    expect(r.refinedContent).toBe('We went home. Then I slept, happily');
    expect(r.changes.map((c) => c.type)).toEqual(expect.arrayContaining(['spacing', 'punctuation', 'capitalization']));
  });

  it('leaves i.e. alone', () => {
    expect(refineOffline('The best day, i.e. Sunday.', 'narrative', true).refinedContent).toBe('The best day, i.e. Sunday.');
  });
});

describe('templates', () => {
  it('keeps {{placeholders}} and reports a dropped one in a model rewrite', () => {
    const r = templateFromModel('Tell us about {{name}} in {{place}}.', { refinedTemplate: 'Tell us about {{name}}.', changes: [], issues: [] });
    expect(r.placeholders).toEqual(['name']);
    expect(r.issues.join(' ')).toMatch(/\{\{place\}\}/);
  });
  it('book templates keep full stops on questions-looking headings', () => {
    expect(refineTemplateOffline('What we did.', 'book').refinedTemplate).toBe('What we did.');
  });
});

describe('grammar helpers', () => {
  it('applies corrections right to left, skipping overlaps', () => {
    expect(applyCorrections('a b c', [{ start: 0, end: 1, suggestion: 'A' }, { start: 0, end: 3, suggestion: 'X' }, { start: 4, end: 5, suggestion: 'C' }])).toBe('A b C');
  });
  it('scores and measures', () => {
    expect(grammarScore(0, 100)).toBe(100);
    expect(grammarScore(1, 100)).toBe(95);
    expect(grammarScore(50, 100)).toBe(0);
    expect(readability('The cat sat. The dog ran.')).toMatchObject({ words: 6, sentences: 2, averageSentenceLength: 3 });
  });
  it('locate drops quotes the text does not contain', () => {
    expect(locate('one two one', [{ original: 'one' }, { original: 'zzz' }, { original: 'one' }])).toEqual([
      { original: 'one', start: 0, end: 3 },
      { original: 'one', start: 8, end: 11 },
    ]);
  });
});

describe('stories, photos and prompts', () => {
  it('paragraphs of HTML and of plain text', () => {
    expect(storyParagraphs('<p>One &amp; two.</p><p></p><p>Three.</p>')).toEqual(['One & two.', 'Three.']);
    expect(storyParagraphs('One.\n\nTwo.')).toEqual(['One.', 'Two.']);
  });
  it('connects nothing when nothing is shared', () => {
    expect(connectionsOffline([{ id: 'a', title: 'One', text: 'We went to Leeds.' }, { id: 'b', title: 'Two', text: 'It rained in Whitby.' }], 1)).toEqual([]);
  });
  it('a photo with no description is unplaced', () => {
    const r = placePhotosOffline('<p>Hello.</p>', [{ id: '00000000-0000-4000-8000-000000000001', title: null, caption: null, takenYear: null, storyId: null }]);
    expect(r.unplaced).toHaveLength(1);
  });
  it('prompts for a new storyteller come from the relationship’s themes, and a topic leads', () => {
    const p = memoryPromptsOffline({ texts: [], relationship: 'partner', storytellerName: 'Jo', topic: 'the farm' }, 4);
    expect(p[0]!.category).toBe('topic');
    expect(p.map((x) => x.category)).toContain('themes');
    expect(new Set(p.map((x) => x.prompt)).size).toBe(4);
  });
});
