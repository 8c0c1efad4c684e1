// postgres.js 3.4.9 as patched by patches/postgres+3.4.9.patch (applied by patch-package on npm install).
// The connection half of the patch (a deferred write after the socket closed) is exercised for real by
// apps/core-api/src/faults/postgres-restart.test.ts; this file checks the queue half.
//
// postgres.js keeps its connection queues in an array that shift() empties by leaving holes, reset only
// when a shift empties it, which never happens on a saturated pool (more concurrent queries than
// connections); upstream, remove() then scanned every hole on every query, and 50 callers on a pool of 10
// fell from 16k to 5k queries/s within 30 s here. Patched, remove() searches only the live part and shift()
// drops the holes once they are half of the array.
import path from 'node:path';

type Queue<T> = { length: number; remove(x: T): T | null; push(x: T): T; shift(): T | undefined };
const Queue = require(path.join(path.dirname(require.resolve('postgres')), 'queue.js')) as <T>(initial?: T[]) => Queue<T>;

/** The upstream 3.4.9 queue, for comparison. */
function upstreamQueue<T>(initial: T[] = []): Queue<T> {
  let xs: (T | undefined)[] = initial.slice();
  let index = 0;
  return {
    get length() {
      return xs.length - index;
    },
    remove: (x: T) => {
      const at = xs.indexOf(x);
      return at === -1 ? null : (xs.splice(at, 1), x);
    },
    push: (x: T) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++];
      if (index === xs.length) {
        index = 0;
        xs = [];
      } else xs[index - 1] = undefined;
      return out;
    },
  };
}

it('is the patched queue', () => {
  expect(String(Queue)).toContain('patched');
});

it('is first in, first out, counts what is left and removes any item (null when absent)', () => {
  const [a, b, c, d] = [{ n: 'a' }, { n: 'b' }, { n: 'c' }, { n: 'd' }];
  const q = Queue([a, b]);
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
});

it('keeps duplicates as upstream does (remove takes the oldest)', () => {
  const x = { n: 'x' };
  const y = { n: 'y' };
  const q = Queue<object>();
  q.push(x);
  q.push(y);
  q.push(x);
  expect(q.remove(x)).toBe(x);
  expect(q.length).toBe(2);
  expect(q.shift()).toBe(y);
  expect(q.shift()).toBe(x);
});

it('stays exact and linear on a queue that is never emptied (a saturated pool), where upstream slows down', () => {
  // What postgres.js does per query on a busy pool: shift a connection, then move it back (remove + push).
  const rotate = (make: <T>(initial: T[]) => Queue<T>, rounds: number) => {
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
    return { ms: performance.now() - started, wrong, count: left.length, left: new Set(left), items: new Set(items) };
  };
  const patched = rotate(Queue, 40_000);
  const upstream = rotate(upstreamQueue, 40_000);
  expect(patched).toMatchObject({ wrong: 0, count: 10 });
  expect(patched.left).toEqual(patched.items);
  expect(upstream).toMatchObject({ wrong: 0, count: 10 });
  // Upstream scans every hole earlier shifts left (quadratic); the patched queue only the live items.
  expect(upstream.ms).toBeGreaterThan(5 * patched.ms);
});
