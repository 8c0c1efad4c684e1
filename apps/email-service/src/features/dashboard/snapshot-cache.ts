// A value computed in the background and served from memory (spec 001 Limits: cache time-to-live 300 s).
// The dashboard's figures scan whole tables (a third of a second at 100,000 accounts and 1,000,000 stories),
// so a page must not wait for them: a fresh-enough snapshot is served at once, a stale one is served while
// one refresh runs, and only the very first load waits. Each page says how old its figures are.
export interface Snapshot<T> {
  value: T;
  /** When the figures were read. */
  at: Date;
}

export interface SnapshotCache<T> {
  get(): Promise<Snapshot<T>>;
  /** Forget the snapshot (the cache bus's clear, an admin's refresh): the next get reads again. */
  clear(): void;
}

export function createSnapshotCache<T>(load: () => Promise<T>, { ttlMs, onError }: { ttlMs: number; onError?: (err: unknown) => void }): SnapshotCache<T> {
  let current: Snapshot<T> | null = null;
  let loading: Promise<Snapshot<T>> | null = null;
  let generation = 0;

  const refresh = (): Promise<Snapshot<T>> => {
    if (loading) return loading;
    const started = generation;
    const run = (async () => {
      const at = new Date();
      const value = await load();
      const snapshot = { value, at };
      // A clear() during the load means the figures may predate the change: keep them for this answer only.
      if (started === generation) current = snapshot;
      return snapshot;
    })();
    loading = run;
    void run.finally(() => {
      if (loading === run) loading = null;
    }).catch(() => undefined);
    return run;
  };

  return {
    async get() {
      if (!current) return refresh();
      if (Date.now() - current.at.getTime() > ttlMs) void refresh().catch((err: unknown) => onError?.(err));
      return current;
    },
    clear() {
      generation++;
      current = null;
      loading = null;
    },
  };
}
