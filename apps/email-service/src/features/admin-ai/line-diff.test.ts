import fc from 'fast-check';
import { lineDiff, unifiedText } from './line-diff';

it('marks changed lines and keeps the rest equal, with line numbers', () => {
  const { lines, added, removed } = lineDiff('a\nb\nc\nd', 'a\nB\nc\nd\ne');
  expect(unifiedText(lines)).toBe(' a\n+B\n-b\n c\n d\n+e');
  expect([added, removed]).toEqual([2, 1]);
  expect(lines.find((l) => l.text === 'c')).toEqual({ op: 'equal', text: 'c', oldLine: 3, newLine: 3 });
  expect(lines.find((l) => l.text === 'e')).toEqual({ op: 'add', text: 'e', newLine: 5 });
});

it('identical texts give only equal lines', () => {
  expect(lineDiff('x\ny', 'x\ny')).toMatchObject({ added: 0, removed: 0 });
});

it('rebuilds both texts and keeps a longest common subsequence (property)', () => {
  const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 12 }).map((l) => l.join('\n'));
  fc.assert(
    fc.property(text, text, (x, y) => {
      const { lines } = lineDiff(x, y);
      expect(lines.filter((l) => l.op !== 'add').map((l) => l.text).join('\n')).toBe(x);
      expect(lines.filter((l) => l.op !== 'remove').map((l) => l.text).join('\n')).toBe(y);
      // Minimal: the equal lines are as many as the LCS length, computed independently.
      const a = x.split('\n');
      const b = y.split('\n');
      const memo = new Map<string, number>();
      const lcs = (i: number, j: number): number => {
        if (i === a.length || j === b.length) return 0;
        const k = `${i},${j}`;
        if (!memo.has(k)) memo.set(k, a[i] === b[j] ? 1 + lcs(i + 1, j + 1) : Math.max(lcs(i + 1, j), lcs(i, j + 1)));
        return memo.get(k)!;
      };
      expect(lines.filter((l) => l.op === 'equal').length).toBe(lcs(0, 0));
    }),
  );
});
