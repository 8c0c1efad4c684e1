// The in-process flag cache every service evaluates from. The rules (flags and their overrides) are
// read in two queries and kept at most `ttlMs` (spec 001: 300 s); clear() drops them at once, which the
// cache bus does on every replica when a flag changes or /api/clear-cache is called.
import type postgres from 'postgres';
import { evaluateFlag, type FlagRule, type FlagValue, type FlagVariant } from './evaluate';

export const FLAG_CACHE_TTL_MS = 300_000;

export interface FlagSource {
  /** Every flag with its overrides. */
  load(): Promise<FlagRule[]>;
}

/** Reads feature_flags and feature_flag_overrides through postgres.js. */
export function sqlFlagSource(sql: postgres.Sql): FlagSource {
  return {
    async load() {
      const flags = await sql<{ id: string; key: string; enabled: boolean; rollout_percentage: number; ab_config: { variants?: FlagVariant[] } | null }[]>`
        select id, key, enabled, rollout_percentage, ab_config from feature_flags order by key`;
      const overrides = await sql<{ flag_id: string; user_id: string; enabled: boolean }[]>`
        select flag_id, user_id, enabled from feature_flag_overrides`;
      const byFlag = new Map<string, Map<string, boolean>>();
      for (const o of overrides) {
        let m = byFlag.get(o.flag_id);
        if (!m) byFlag.set(o.flag_id, (m = new Map()));
        m.set(o.user_id, o.enabled);
      }
      return flags.map((f) => ({
        key: f.key,
        enabled: f.enabled,
        rolloutPercentage: f.rollout_percentage,
        variants: Array.isArray(f.ab_config?.variants) && f.ab_config.variants.length > 0 ? f.ab_config.variants : null,
        overrides: byFlag.get(f.id) ?? new Map(),
      }));
    },
  };
}

interface Snapshot {
  rules: Map<string, FlagRule>;
  loadedAt: number;
}

export interface FlagStore {
  /** One flag for one user; false for an unknown key. */
  evaluate(key: string, userId: string | null): Promise<FlagValue>;
  /** Every flag for one user, false ones too (core-api GET /api/flags). */
  evaluateAll(userId: string | null): Promise<Record<string, FlagValue>>;
  /** From the rules already cached, without a load: undefined when nothing is cached or it is stale. */
  evaluateCached(key: string, userId: string | null): FlagValue | undefined;
  /** Drop the cached rules: the next evaluation reads the database. */
  clear(): void;
}

export function createFlagStore({ source, ttlMs = FLAG_CACHE_TTL_MS, now = Date.now }: { source: FlagSource; ttlMs?: number; now?: () => number }): FlagStore {
  let snapshot: Snapshot | null = null;
  // Bumped by clear(): a load that started before a clear must not install rules read before the change.
  let generation = 0;
  let loading: { gen: number; promise: Promise<Snapshot> } | null = null;

  const fresh = (s: Snapshot | null): s is Snapshot => s !== null && now() - s.loadedAt < ttlMs;

  function startLoad(): { gen: number; promise: Promise<Snapshot> } {
    const gen = generation;
    const loadedAt = now();
    const promise = source.load().then((rules) => {
      const next = { rules: new Map(rules.map((r) => [r.key, r])), loadedAt };
      if (gen === generation) snapshot = next;
      return next;
    });
    const entry = { gen, promise };
    const done = () => {
      if (loading === entry) loading = null;
    };
    promise.then(done, done);
    return entry;
  }

  async function current(): Promise<Snapshot> {
    for (;;) {
      if (fresh(snapshot)) return snapshot;
      // One load at a time per process, however many requests arrive while the cache is empty; a load
      // begun before the last clear() is not waited on, since it may predate the change.
      if (!loading || loading.gen !== generation) loading = startLoad();
      const { gen, promise } = loading;
      const loaded = await promise;
      if (gen === generation) return loaded;
    }
  }

  return {
    async evaluate(key, userId) {
      const rule = (await current()).rules.get(key);
      return rule ? evaluateFlag(rule, userId) : false;
    },
    async evaluateAll(userId) {
      const out: Record<string, FlagValue> = {};
      for (const [key, rule] of (await current()).rules) out[key] = evaluateFlag(rule, userId);
      return out;
    },
    evaluateCached(key, userId) {
      if (!fresh(snapshot)) return undefined;
      const rule = snapshot.rules.get(key);
      return rule ? evaluateFlag(rule, userId) : false;
    },
    clear() {
      generation++;
      snapshot = null;
    },
  };
}
