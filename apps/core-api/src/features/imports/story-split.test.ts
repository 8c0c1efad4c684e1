// The local split of imported text into candidate stories: chapter markers, headings, scene breaks,
// unstructured long text, fragments and the content limit.
import { candidateHtml, splitIntoStories } from './story-split';

const para = (n: number, word = 'memory') => Array.from({ length: n }, (_, i) => (i % 12 === 11 ? `${word}.` : word)).join(' ');

describe('splitIntoStories', () => {
  it('splits at chapter markers and keeps their names as titles', () => {
    const text = `My Family Book\n\nCHAPTER 1\nThe Farm\n\n${para(60)}\n\n${para(40)}\n\nChapter 2: Moving to the City\n\n${para(80)}\n\nChapter Three - War Years\n\n${para(50)}`;
    const out = splitIntoStories(text, 'Imported');
    expect(out.map((c) => c.title)).toEqual(['Chapter 1: The Farm', 'Chapter 2: Moving to the City', 'Chapter Three: War Years']);
    expect(out.map((c) => c.wordCount)).toEqual([100 + 3, 80, 50]);
    expect(out[0]!.content.split('\n\n')).toHaveLength(3);
  });

  it('splits at markdown and standalone capitalised headings, and at scene breaks', () => {
    const md = splitIntoStories(`# Summer of 1952\n\n${para(30)}\n\n## The Wedding\n\n${para(30)}`, 'x');
    expect(md.map((c) => c.title)).toEqual(['Summer of 1952', 'The Wedding']);
    const caps = splitIntoStories(`GRANDMA'S KITCHEN\n\n${para(30)}\n\nTHE OLD CAR\n\n${para(30)}`, 'x');
    expect(caps.map((c) => c.title)).toEqual(["Grandma's Kitchen", 'The Old Car']);
    const breaks = splitIntoStories(`We met at the dance hall in town. ${para(30)}\n\n* * *\n\nThe harvest came early that year. ${para(30)}`, 'x');
    expect(breaks.map((c) => c.title)).toEqual(['We met at the dance hall in town', 'The harvest came early that year']);
  });

  it('keeps a short unstructured text as one story titled with the fallback', () => {
    const out = splitIntoStories(`${para(50)}\n\n${para(50)}`, 'Pasted memories');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ index: 0, title: 'Pasted memories', wordCount: 100 });
  });

  it('groups a long unstructured text into parts between paragraphs', () => {
    const text = Array.from({ length: 30 }, () => para(100)).join('\n\n');
    const out = splitIntoStories(text, 'Long');
    expect(out.length).toBe(3);
    expect(out.reduce((n, c) => n + c.wordCount, 0)).toBe(3000);
    for (const c of out) expect(c.wordCount % 100).toBe(0);
  });

  it('folds fragments into a neighbour, drops page markers and unwraps lines', () => {
    const text = `Chapter 1\n\n${para(40)}\nwrapped line\n\n-- 1 of 2 --\n\nChapter 2\n\nonly four words here\n\nChapter 3\n\n${para(40)}`;
    const out = splitIntoStories(text, 'x');
    expect(out.map((c) => c.title)).toEqual(['Chapter 1', 'Chapter 3']);
    expect(out[0]!.content).toContain('memory wrapped line');
    expect(out[0]!.content).toContain('only four words here');
    expect(out[0]!.content).not.toContain('1 of 2');
  });

  it('cuts a story over the content limit into parts that each fit', () => {
    const text = `# Huge\n\n${Array.from({ length: 20 }, () => para(800, 'remembering')).join('\n\n')}`;
    const out = splitIntoStories(text, 'x');
    expect(out.length).toBeGreaterThan(1);
    expect(out[0]!.title).toBe('Huge (part 1)');
    for (const c of out) expect(candidateHtml(c.content).length).toBeLessThanOrEqual(50_000);
  });
});

describe('splitIntoStories on hostile input', () => {
  it('cuts a 500,000-character paragraph without spaces quickly and completely', () => {
    const started = Date.now();
    const out = splitIntoStories('x'.repeat(500_000), 'Blob');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(out.map((c) => c.content).join('')).toHaveLength(500_000);
    for (const c of out) expect(candidateHtml(c.content).length).toBeLessThanOrEqual(50_000);
  });

  it('handles many short lines and headings in linear time', () => {
    const text = Array.from({ length: 20_000 }, (_, i) => (i % 50 === 0 ? `\n# Part ${i}\n` : 'a line of text here')).join('\n');
    const started = Date.now();
    const out = splitIntoStories(text, 'x');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(out.length).toBe(400);
  });
});

describe('candidateHtml', () => {
  it('escapes text and makes paragraphs', () => {
    expect(candidateHtml('a <b> & c\n\nline one\nline two')).toBe('<p>a &lt;b&gt; &amp; c</p><p>line one<br>line two</p>');
  });
});
