// A small per-key cache with a time-to-live, for admin settings read on every AI call: a change shows
// within `ttlMs` without a restart, and a burst of calls costs one query per key per period.
export interface TtlCache<T> {
  get(key: string, load: () => Promise<T>): Promise<T>;
  clear(): void;
}

export function createTtlCache<T>(ttlMs: number, now: () => number = Date.now): TtlCache<T> {
  const entries = new Map<string, { value: Promise<T>; expires: number }>();
  return {
    get(key, load) {
      const hit = entries.get(key);
      if (hit && hit.expires > now()) return hit.value;
      const value = load();
      entries.set(key, { value, expires: now() + ttlMs });
      // A failed load is not remembered: the next call tries again.
      value.catch(() => entries.delete(key));
      return value;
    },
    clear: () => entries.clear(),
  };
}
