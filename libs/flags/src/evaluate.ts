// Flag evaluation (CONTRACTS §7), pure and synchronous so a cached answer costs a map lookup and one
// hash. Order: a per-user override beats everything; a flag that is off is off; a user is in the rollout
// when bucket(key, user) < rolloutPercentage, so raising the percentage only ever adds users; a user
// in the rollout of a flag with variants gets the variant their own (separate) hash picks by weight.

export interface FlagVariant {
  name: string;
  weight: number;
}

export interface FlagRule {
  key: string;
  enabled: boolean;
  /** 0-100. */
  rolloutPercentage: number;
  /** A/B variants; null or empty for a plain on/off flag. */
  variants: FlagVariant[] | null;
  /** user id → forced answer (true: on, with the user's variant if any; false: off). */
  overrides: Map<string, boolean>;
}

/** true/false, or the variant's name for an A/B flag. */
export type FlagValue = boolean | string;

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a over the UTF-16 units of `input`, continuing from `state` (streaming: fnv(a + b) = fnv(b, fnv(a))). */
function fnv(input: string, state = FNV_OFFSET): number {
  let h = state;
  for (let i = 0; i < input.length; i++) {
    h ^= input.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** murmur3's finaliser, to spread nearby inputs. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * 32-bit FNV-1a, then murmur3's finaliser. Stable across processes, versions and machines (no seed),
 * which is what "the same user always gets the same answer" needs; it is not a security boundary.
 */
export function stableHash(input: string): number {
  return mix(fnv(input));
}

// The FNV state after "<key>:" (and "<key>:variant:"), kept per key so an evaluation hashes only the
// user id and allocates nothing: a flag cache evaluation must stay in the low microseconds.
const prefixes = new Map<string, { bucket: number; variant: number }>();
function prefixState(key: string): { bucket: number; variant: number } {
  let state = prefixes.get(key);
  if (state === undefined) {
    if (prefixes.size > 10_000) prefixes.clear();
    state = { bucket: fnv(`${key}:`), variant: fnv(`${key}:variant:`) };
    prefixes.set(key, state);
  }
  return state;
}

/** The user's rollout bucket for a flag, 0-99: stableHash(`${key}:${userId}`) % 100. */
export function rolloutBucket(key: string, userId: string): number {
  return mix(fnv(userId, prefixState(key).bucket)) % 100;
}

/** The variant a user in the rollout gets: stableHash(`${key}:variant:${userId}`) over the total weight, independent of the bucket. */
export function pickVariant(key: string, userId: string, variants: FlagVariant[]): string | null {
  const total = variants.reduce((sum, v) => sum + Math.max(0, v.weight), 0);
  if (total <= 0) return variants[0]?.name ?? null;
  let point = mix(fnv(userId, prefixState(key).variant)) % total;
  for (const v of variants) {
    const w = Math.max(0, v.weight);
    if (point < w) return v.name;
    point -= w;
  }
  return variants[variants.length - 1]?.name ?? null;
}

function onValue(rule: FlagRule, userId: string | null): FlagValue {
  if (!rule.variants || rule.variants.length === 0) return true;
  // Without a user there is no stable bucket: the first variant is the control.
  return (userId ? pickVariant(rule.key, userId, rule.variants) : rule.variants[0]?.name) ?? true;
}

/** One flag for one user (null: a caller without an account). */
export function evaluateFlag(rule: FlagRule, userId: string | null): FlagValue {
  if (userId !== null) {
    const forced = rule.overrides.get(userId);
    if (forced !== undefined) return forced ? onValue(rule, userId) : false;
  }
  if (!rule.enabled) return false;
  if (rule.rolloutPercentage <= 0) return false;
  if (rule.rolloutPercentage < 100) {
    if (userId === null || rolloutBucket(rule.key, userId) >= rule.rolloutPercentage) return false;
  }
  return onValue(rule, userId);
}
