// The PostgreSQL store of the limiter, for the limits the spec wants persisted so they hold across restarts
// and replicas without Redis. Two kinds:
// - counters in tools_rate_limits: one fixed-window row per (key, scope, tool, window); consuming is a single
//   INSERT ... ON CONFLICT DO UPDATE whose WHERE refuses the increment at the limit, so concurrent requests
//   can never push a window past it;
// - counted limits: the feature counts rows it stores anyway (invitations, verification tokens) in its own
//   transaction and hands the count here, which decides and refuses.
import type postgres from 'postgres';
import type { RateLimitScope } from '@story/db';
import { limitSpec, scaledMax, type CountedLimitName, type LimitSpec } from './limit-table';
import { counterRefusal, countedRefusal, type RateLimitState } from './refusals';

type Sql = postgres.Sql | postgres.TransactionSql;

/** Fixed UTC windows: the current hour, or the current day (daily and responses). */
export function windowOf(scope: RateLimitScope, now = new Date()): { windowStart: Date; windowEnd: Date } {
  const start = new Date(now);
  if (scope === 'hourly') {
    start.setUTCMinutes(0, 0, 0);
    return { windowStart: start, windowEnd: new Date(start.getTime() + 3_600_000) };
  }
  start.setUTCHours(0, 0, 0, 0);
  return { windowStart: start, windowEnd: new Date(start.getTime() + 86_400_000) };
}

export interface CounterCheck {
  /** A 'postgres' limit of the table with a tools_rate_limits counter. */
  limit: LimitSpec;
  /** 'sess:<id>', 'user:<uuid>' or 'ip:<hash>'. */
  key: string;
  /** The tool the window counts for; '*' (default) for limits across all tools. */
  tool?: string;
}

interface Window {
  scope: RateLimitScope;
  key: string;
  tool: string;
  max: number;
  windowStart: Date;
  windowEnd: Date;
}

interface Count {
  allowed: boolean;
  /** Count in the window after this call (the count that refused it when not allowed). */
  current: number;
  /** Epoch seconds when the window ends. */
  resetTime: number;
}

const sameWindow = (a: Pick<Window, 'key' | 'scope' | 'tool'>, b: Pick<Window, 'key' | 'scope' | 'tool'>) => a.key === b.key && a.scope === b.scope && a.tool === b.tool;

/**
 * Take one use of every window in one statement (one round trip, one commit): a multi-row upsert whose
 * conflict branch refuses, under each row's lock, the increment of a window at its max. Returns the counts
 * of the windows that took the use; a window missing from the answer refused it.
 */
async function consumeAll(sql: Sql, windows: Window[]): Promise<{ w: Window; current: number }[]> {
  if (windows.length === 0) return [];
  const values = windows
    .map((w) => sql`(${w.key}, ${w.scope}, ${w.tool}, ${w.windowStart.toISOString()}::timestamptz, 1)`)
    .reduce((acc, v) => sql`${acc}, ${v}`);
  const maxOf = windows.reduce(
    (acc, w) => sql`${acc} when tools_rate_limits.key = ${w.key} and tools_rate_limits.scope = ${w.scope} and tools_rate_limits.tool = ${w.tool} then ${w.max}::int`,
    sql``,
  );
  const taken = await sql<{ key: string; scope: RateLimitScope; tool: string; count: number }[]>`
    insert into tools_rate_limits (key, scope, tool, window_start, count) values ${values}
    on conflict (key, scope, tool, window_start) do update
      set count = tools_rate_limits.count + 1, updated_at = now()
      where tools_rate_limits.count < (case ${maxOf} end)
    returning key, scope, tool, count`;
  return windows.flatMap((w) => {
    const row = taken.find((t: { key: string; scope: RateLimitScope; tool: string }) => sameWindow(t, w));
    return row ? [{ w, current: row.count }] : [];
  });
}

/** Give one use back in each window (the request it was taken for failed before producing anything). */
async function refund(sql: Sql, windows: Window[]): Promise<void> {
  if (windows.length === 0) return;
  const match = windows.reduce<postgres.PendingQuery<postgres.Row[]> | null>((acc, w) => {
    const one = sql`(key = ${w.key} and scope = ${w.scope} and tool = ${w.tool} and window_start = ${w.windowStart.toISOString()})`;
    return acc ? sql`${acc} or ${one}` : one;
  }, null);
  await sql`update tools_rate_limits set count = count - 1, updated_at = now() where (${match!}) and count > 0`;
}

/** A refused check, for the caller's record of who hits limits (tools_rate_limit_hits). */
export interface CounterHit {
  scope: RateLimitScope;
  key: string;
  tool: string;
  limit: number;
  current: number;
}

export interface CountersTaken {
  /** The tightest of the windows consumed, for meta.rateLimit and the X-RateLimit headers. */
  rateLimit: RateLimitState;
  /** Undo every count taken (the request failed before producing anything). */
  refund(): Promise<void>;
}

/**
 * Consume every check: all pass or none is counted. A refusal is handed to `onRefused` and thrown as the
 * 429 of spec 002.
 */
export async function consumeCounters(
  sql: postgres.Sql,
  checks: CounterCheck[],
  options: { scale: number; now?: Date; onRefused?: (hit: CounterHit) => Promise<void> },
): Promise<CountersTaken> {
  const now = options.now ?? new Date();
  const windows: Window[] = checks.map(({ limit, key, tool }) => {
    if (limit.store !== 'postgres' || !limit.counter || limit.counter === 'rows') throw new Error(`Limit "${limit.name}" is not a counter`);
    return { scope: limit.counter, key, tool: tool ?? '*', max: scaledMax(limit, options.scale), ...windowOf(limit.counter, now) };
  });
  // One statement takes every use. When a window refuses, the uses the others took in that statement are
  // given straight back, so all pass or none stays counted (as one transaction would, without holding the
  // hot rows' locks across several round trips: every generation of a visitor touches the same rows).
  const distinct = windows.every((w, i) => windows.findIndex((o) => sameWindow(o, w)) === i);
  if (!distinct) throw new Error('consumeCounters: the same window twice in one call');
  const taken = await consumeAll(sql, windows);
  const refused = windows.find((w) => !taken.some((t) => t.w === w));
  if (refused) {
    await refund(
      sql,
      taken.map((t) => t.w),
    );
    const [row] = await sql<{ count: number }[]>`
      select count from tools_rate_limits where key = ${refused.key} and scope = ${refused.scope} and tool = ${refused.tool} and window_start = ${refused.windowStart.toISOString()}`;
    const count: Count = { allowed: false, current: row?.count ?? refused.max, resetTime: Math.floor(refused.windowEnd.getTime() / 1000) };
    await options.onRefused?.({ scope: refused.scope, key: refused.key, tool: refused.tool, limit: refused.max, current: count.current });
    throw counterRefusal({ currentUsage: count.current, limit: refused.max, resetTime: count.resetTime, scope: refused.scope });
  }
  const tightest = taken.reduce<(typeof taken)[number] | undefined>((best, c) => (!best || c.w.max - c.current < best.w.max - best.current ? c : best), undefined);
  const rateLimit: RateLimitState = tightest
    ? { limit: tightest.w.max, remaining: Math.max(0, tightest.w.max - tightest.current), resetTime: Math.floor(tightest.w.windowEnd.getTime() / 1000) }
    : { limit: 0, remaining: 0, resetTime: Math.floor(now.getTime() / 1000) };
  return {
    rateLimit,
    refund: () =>
      refund(
        sql,
        taken.map((t) => t.w),
      ),
  };
}

export interface CountedLimit {
  /** The max in force (scaled). */
  max: number;
  /** Refuse (429 with the table's sentence and Retry-After) when `used` rows already reach the max. */
  assert(used: number, retryAfterSeconds: number): void;
}

/** A limit the feature counts over its own rows, inside its own transaction (which serialises the count). */
export function countedLimit(name: CountedLimitName, scale = 1): CountedLimit {
  const spec = limitSpec(name);
  const max = scaledMax(spec, scale);
  return {
    max,
    assert(used, retryAfterSeconds) {
      if (used >= max) throw countedRefusal(spec, max, retryAfterSeconds);
    },
  };
}
