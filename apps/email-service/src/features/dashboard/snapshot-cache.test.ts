// The dashboard's figures are served from a snapshot: the first read waits, a fresh one is served as it is,
// a stale one is served while exactly one refresh runs, and clear() makes the next read load again.
import { createSnapshotCache } from './snapshot-cache';

const tick = () => new Promise((r) => setImmediate(r));

it('waits once, then serves from memory; a stale snapshot is served while one refresh runs', async () => {
  let loads = 0;
  let release: (() => void) | undefined;
  const cache = createSnapshotCache(
    async () => {
      loads++;
      if (loads > 1) await new Promise<void>((r) => (release = r));
      return loads;
    },
    { ttlMs: 20 },
  );
  expect((await cache.get()).value).toBe(1);
  expect((await cache.get()).value).toBe(1);
  expect(loads).toBe(1);
  await new Promise((r) => setTimeout(r, 30));
  // Stale: answered at once with the old value; one refresh starts, however many reads come.
  expect((await cache.get()).value).toBe(1);
  expect((await cache.get()).value).toBe(1);
  await tick();
  expect(loads).toBe(2);
  release?.();
  await tick();
  await tick();
  expect((await cache.get()).value).toBe(2);
});

it('loads again after clear(), and a failed first load reaches the caller', async () => {
  let n = 0;
  const cache = createSnapshotCache(async () => ++n, { ttlMs: 60_000 });
  await cache.get();
  cache.clear();
  expect((await cache.get()).value).toBe(2);
  const failing = createSnapshotCache(async () => Promise.reject(new Error('database down')), { ttlMs: 1000 });
  await expect(failing.get()).rejects.toThrow('database down');
});
