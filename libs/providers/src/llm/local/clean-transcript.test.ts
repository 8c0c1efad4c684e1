import { cleanTranscript, collapseRepetitions, removeFillers } from './clean-transcript';

const caption =
  'um so I I was born in Leeds in 1932 and uh my father worked at the mill on Kirkstall Road you know and then we we moved to Harrogate in 1940 ' +
  'when the war started so we went, we went to live with my aunt Mabel she had a a little house near the station and er I remember the smell of bread ' +
  'from the bakery every morning. I mean, it was hard. But then in 1945 my brother Tom came home from Burma and he was, you know, a different man. ' +
  'we wen- we went to Scarborough on 14 August that summer. I knew that that was the end of something. Was it 1946 or 1947? I can\'t remember. ' +
  'anyway i\'m getting ahead of myself.';

const numbers = (t: string) => (t.match(/\d+/g) ?? []).sort();
const names = (t: string) => [...new Set((t.match(/\b[A-Z][a-z]+\b/g) ?? []).filter((w) => !['So', 'And', 'But', 'Was', 'It', 'We', 'Anyway', 'Then', 'She', 'My', 'When', 'I'].includes(w)))].sort();

describe('cleanTranscript', () => {
  const cleaned = cleanTranscript(caption);

  it('keeps every number and capitalised name of the input', () => {
    expect(numbers(cleaned)).toEqual(numbers(caption));
    for (const name of names(caption)) expect(cleaned).toContain(name);
    for (const name of ['Leeds', 'Kirkstall Road', 'Harrogate', 'Mabel', 'Tom', 'Burma', 'Scarborough', 'August']) expect(cleaned).toContain(name);
  });

  it('removes fillers, false starts and repeated words', () => {
    expect(cleaned).not.toMatch(/\b(um|uh|er)\b/i);
    expect(cleaned).not.toMatch(/you know/i);
    expect(cleaned).not.toMatch(/I mean/);
    expect(cleaned).not.toMatch(/\bI I\b/);
    expect(cleaned).not.toMatch(/\bwe we\b/i);
    expect(cleaned).not.toMatch(/\ba a\b/);
    expect(cleaned).not.toContain('wen-');
    expect(cleaned).toContain('we went to live with my aunt Mabel');
    expect(cleaned).toContain('he was a different man');
    expect(cleaned).toContain('We went to Scarborough');
    // "that that" is grammar here, not a stutter
    expect(cleaned).toContain('I knew that that was the end');
  });

  it('punctuates and capitalises sentences and splits paragraphs', () => {
    const paragraphs = cleaned.split('\n\n');
    expect(paragraphs.length).toBeGreaterThanOrEqual(2);
    for (const p of paragraphs) {
      const sentences = p.match(/[^.!?]+[.!?]/g) ?? [];
      expect(sentences.length).toBeGreaterThanOrEqual(2);
      expect(sentences.length).toBeLessThanOrEqual(6);
      for (const s of sentences) expect(s.trim()).toMatch(/^[A-Z0-9]/);
    }
    expect(cleaned).toMatch(/^So I was born in Leeds in 1932\./);
    expect(cleaned).toContain("I'm getting ahead of myself.");
    expect(cleaned).toContain('Was it 1946 or 1947?');
    expect(cleaned).not.toMatch(/ [,.]/);
    expect(cleaned).not.toMatch(/ {2}/);
  });

  it('does not split a long sentence between a name and the pronoun it is joined to', () => {
    const long = 'I missed the farm terribly the smell of the hay the sound of the donkey in the morning and the big fig tree behind the house where Lucia and I used to hide from our chores on long summer afternoons';
    expect(cleanTranscript(long)).toContain('where Lucia and I used to hide');
  });

  it('is deterministic and leaves clean text alone', () => {
    expect(cleanTranscript(caption)).toBe(cleaned);
    expect(cleanTranscript('We lived in Leeds. It rained a lot.')).toBe('We lived in Leeds. It rained a lot.');
    expect(cleanTranscript('   ')).toBe('');
  });

  it('keeps "you know" and "I mean" when they carry meaning', () => {
    expect(removeFillers('you know him well')).toContain('you know him');
    expect(cleanTranscript('That is what I mean by home.')).toBe('That is what I mean by home.');
  });

  it('folds phrase repetitions but not doubled names', () => {
    expect(collapseRepetitions('we went, we went to the sea')).toBe('we went to the sea');
    expect(collapseRepetitions('I I I went')).toBe('I went');
    expect(collapseRepetitions('a trip to Bora Bora')).toBe('a trip to Bora Bora');
    expect(collapseRepetitions('It was cold. It was cold again')).toBe('It was cold. It was cold again');
  });
});
