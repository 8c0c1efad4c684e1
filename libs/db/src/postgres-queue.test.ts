import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createQueue } from './postgres-queue';

describe('createQueue (postgres.js queue replacement)', () => {
  it('is first in, first out, counts what is left and removes any item (null when absent)', () => {
    const [a, b, c, d] = [{ n: 'a' }, { n: 'b' }, { n: 'c' }, { n: 'd' }];
    const q = createQueue([a, b]);
    q.push(c);
    expect(q.length).toBe(3);
    expect(q.shift()).toBe(a);
    expect(q.remove(a)).toBeNull();
    expect(q.remove(c)).toBe(c);
    expect(q.remove(d)).toBeNull();
    expect(q.length).toBe(1);
    expect(q.shift()).toBe(b);
    expect(q.length).toBe(0);
    q.push(d);
    expect(q.shift()).toBe(d);
    expect(q.shift()).toBeUndefined();
    expect(q.length).toBe(0);
  });

  it('keeps duplicates as postgres.js does (remove takes the oldest)', () => {
    const x = { n: 'x' };
    const y = { n: 'y' };
    const q = createQueue<object>();
    q.push(x);
    q.push(y);
    q.push(x);
    expect(q.remove(x)).toBe(x);
    expect(q.length).toBe(2);
    expect(q.shift()).toBe(y);
    expect(q.shift()).toBe(x);
  });

  it('stays exact and linear on a queue that is never emptied (a saturated pool), where the original slows down', () => {
    // What postgres.js does per query on a busy pool: shift a connection, then move it back (remove + push).
    const rotate = (make: <T>(initial: T[]) => { length: number; remove(x: T): T | null; push(x: T): T; shift(): T | undefined }, rounds: number) => {
      const items = Array.from({ length: 10 }, (_, i) => ({ i }));
      const q = make(items);
      let wrong = 0;
      const started = performance.now();
      for (let n = 0; n < rounds; n++) {
        const c = q.shift()!;
        if (q.remove(c) !== null) wrong++;
        q.push(c);
        if (n % 1000 === 0) {
          const mid = items[(n / 1000) % 10]!;
          if (q.remove(mid) !== mid) wrong++;
          q.push(mid);
        }
      }
      const left = Array.from({ length: q.length }, () => q.shift());
      return { ms: performance.now() - started, wrong, left: new Set(left), count: left.length, items: new Set(items) };
    };
    // postgres.js's own queue, read from its file (a require may already give the replacement).
    const mod = { exports: {} as unknown };
    new Function('module', 'exports', readFileSync(path.join(path.dirname(require.resolve('postgres')), 'queue.js'), 'utf8'))(mod, mod.exports);
    const original = mod.exports as Parameters<typeof rotate>[0];
    expect(original).not.toBe(createQueue);
    const fixed = rotate(createQueue, 40_000);
    const before = rotate(original, 40_000);
    expect(fixed).toMatchObject({ wrong: 0, count: 10 });
    expect(fixed.left).toEqual(fixed.items);
    expect(before).toMatchObject({ wrong: 0, count: 10 });
    // The original scans every hole earlier shifts left (quadratic); the replacement only the live items.
    expect(before.ms).toBeGreaterThan(5 * fixed.ms);
  });

  it("is what postgres.js uses in a plain Node process that loads it through @story/db", () => {
    // Jest has its own module registry (the fix does not apply in here): check it in a child process.
    const root = path.resolve(__dirname, '..', '..', '..');
    const script = `
      require('tsx/cjs');
      const db = require('./libs/db/src/postgres-queue.ts');
      const indexPath = require.resolve('postgres');
      require('postgres');
      const queue = require(require('node:path').join(require('node:path').dirname(indexPath), 'queue.js'));
      process.stdout.write(JSON.stringify({ fixed: db.postgresQueueFixed, same: queue === db.createQueue }));`;
    const out = execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ fixed: true, same: true });
  });
});
