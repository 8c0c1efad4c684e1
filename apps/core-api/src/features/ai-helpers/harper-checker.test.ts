// The real Harper checker in its worker thread: it loads offline, finds real mistakes and reports offsets
// in JavaScript string units (also after characters outside the Basic Multilingual Plane).
import { createHarperChecker, locateHarper } from './harper-checker';

const checker = createHarperChecker({ idleMs: 60_000 });
afterAll(() => checker.close());

it('finds harper.js on disk', () => {
  expect(locateHarper()).toEqual({ index: expect.stringMatching(/harper\.js[\\/]dist[\\/]index\.js$/), binary: expect.stringMatching(/binary\.js$/) });
});

it('catches an article, a repeated word and a misspelling with their offsets', async () => {
  const text = 'I ate a apple. We went went to Leeds and it rained alot.';
  const lints = await checker.check(text);
  const problems = lints.map((l) => [text.slice(l.start, l.end), l.kind]);
  expect(problems).toEqual(expect.arrayContaining([['a', expect.any(String)], ['went went', 'Repetition'], ['alot', expect.any(String)]]));
  const article = lints.find((l) => text.slice(l.start, l.end) === 'a');
  expect(article!.suggestions[0]).toEqual({ kind: 'replace', text: 'an' });
}, 60_000);

it('keeps offsets right after emoji', async () => {
  const text = '🎉🎉 We went went home.';
  const lints = await checker.check(text);
  const rep = lints.find((l) => l.kind === 'Repetition');
  expect(text.slice(rep!.start, rep!.end)).toBe('went went');
}, 60_000);
