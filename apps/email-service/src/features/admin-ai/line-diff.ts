// A line diff between two prompt versions: longest common subsequence over lines after trimming the
// common head and tail (edits to prompts are usually local, so the table stays small). Prompt texts are
// capped at 50,000 characters, which bounds the table.
export interface DiffLine {
  op: 'equal' | 'add' | 'remove';
  text: string;
  /** Line number in the old text (equal, remove) and in the new text (equal, add), from 1. */
  oldLine?: number;
  newLine?: number;
}

export function lineDiff(oldText: string, newText: string): { lines: DiffLine[]; added: number; removed: number } {
  const a = oldText.split('\n');
  const b = newText.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);

  // lcs[i][j]: length of the LCS of midA[i..] and midB[j..], one row per line of the old middle.
  const n = midA.length;
  const m = midB.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }

  const lines: DiffLine[] = [];
  let oldLine = 1;
  let newLine = 1;
  const equal = (text: string) => lines.push({ op: 'equal', text, oldLine: oldLine++, newLine: newLine++ });
  a.slice(0, head).forEach(equal);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      equal(midA[i]!);
      i++;
      j++;
    } else if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      lines.push({ op: 'add', text: midB[j++]!, newLine: newLine++ });
    } else {
      lines.push({ op: 'remove', text: midA[i++]!, oldLine: oldLine++ });
    }
  }
  a.slice(a.length - tail).forEach(equal);
  return { lines, added: lines.filter((l) => l.op === 'add').length, removed: lines.filter((l) => l.op === 'remove').length };
}

/** The diff as unified-style text (` `, `+`, `-` prefixes), for display. */
export const unifiedText = (lines: DiffLine[]) => lines.map((l) => `${l.op === 'add' ? '+' : l.op === 'remove' ? '-' : ' '}${l.text}`).join('\n');
