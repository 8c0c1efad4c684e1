// postgres.js (3.4.x) keeps its connection queues (open, busy, full, ...) and each connection's sent-query
// queue in an array that shift() empties by leaving holes and remove() searches from the start
// (indexOf). The array is only reset when a shift empties it, which never happens while the pool is
// saturated: with more concurrent queries than connections, every query scans a queue that only grows.
// Measured on this machine with 50 callers on a pool of 10: 16k queries/s falling to 5-6k within 30 s,
// against a steady 20-40k with the queue below (and 2% of core-api's CPU in `remove` after 10 s of the
// campaigns bench, rising with the run's length).
//
// The fix is the same queue with the same behaviour (FIFO, duplicates allowed, remove returns the item or
// null) whose remove() searches only the live part and whose shift() compacts the array once half of it is
// holes. It replaces postgres.js's queue module before postgres.js first loads; this module is the first
// import of @story/db, the only code that loads postgres.js (and drizzle's postgres-js driver) at run time.
import { createRequire } from 'node:module';
import path from 'node:path';

/** Compact once at least this many leading slots are holes (and they are at least half the array). */
const COMPACT_AFTER = 1024;

export interface PostgresQueue<T> {
  readonly length: number;
  remove(x: T): T | null;
  push(x: T): T;
  shift(): T | undefined;
}

export function createQueue<T>(initial: T[] = []): PostgresQueue<T> {
  let xs: (T | undefined)[] = initial.slice();
  let index = 0;
  return {
    get length() {
      return xs.length - index;
    },
    // Slots before `index` are holes: an item can only be found at or after it.
    remove: (x: T) => {
      const at = xs.indexOf(x, index);
      return at === -1 ? null : (xs.splice(at, 1), x);
    },
    push: (x: T) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++];
      if (index === xs.length) {
        index = 0;
        xs = [];
      } else {
        xs[index - 1] = undefined;
        if (index >= COMPACT_AFTER && index * 2 >= xs.length) {
          xs = xs.slice(index);
          index = 0;
        }
      }
      return out;
    },
  };
}

/**
 * Put createQueue in place of postgres.js's queue module, if postgres.js has not been loaded yet in this
 * process (then its index captured the original already, and nothing changes). Returns whether it did.
 */
function installQueueFix(): boolean {
  try {
    const load = createRequire(__filename);
    const indexPath = load.resolve('postgres');
    if (load.cache[indexPath]) return false;
    const queuePath = path.join(path.dirname(indexPath), 'queue.js');
    load(queuePath);
    const cached = load.cache[queuePath];
    if (!cached || typeof cached.exports !== 'function') return false;
    cached.exports = createQueue;
    return true;
  } catch {
    return false; // another layout of the package: leave it as it is
  }
}

/** Whether this process's postgres.js uses createQueue (false when postgres.js was loaded first). */
export const postgresQueueFixed = installQueueFix();
