// How the admin pages show a line diff (admin-ai/line-diff.ts computes it for prompts and templates alike).
import type { DiffLine } from '../admin-ai/line-diff';

/** Within each run of changed lines, the removed ones first, as diffs are read (lineDiff may interleave them). */
export function removalsFirst(lines: DiffLine[]): DiffLine[] {
  const out: DiffLine[] = [];
  let run: DiffLine[] = [];
  const flush = () => {
    out.push(...run.filter((l) => l.op === 'remove'), ...run.filter((l) => l.op === 'add'));
    run = [];
  };
  for (const l of lines) {
    if (l.op === 'equal') {
      flush();
      out.push(l);
    } else run.push(l);
  }
  flush();
  return out;
}
