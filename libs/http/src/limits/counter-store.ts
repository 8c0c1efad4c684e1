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

async function consume(sql: Sql, w: Window): Promise<Count> {
  const resetTime = Math.floor(w.windowEnd.getTime() / 1000);
  // The WHERE on the conflict branch makes the check and the increment one atomic step under the row lock.
  const rows = await sql<{ count: number }[]>`
    insert into tools_rate_limits (key, scope, tool, window_start, count)
    values (${w.key}, ${w.scope}, ${w.tool}, ${w.windowStart.toISOString()}, 1)
    on conflict (key, scope, tool, window_start) do update
      set count = tools_rate_limits.count + 1, updated_at = now()
      where tools_rate_limits.count < ${w.max}
    returning count`;
  if (rows[0]) return { allowed: true, current: rows[0].count, resetTime };
  const [row] = await sql<{ count: number }[]>`
    select count from tools_rate_limits where key = ${w.key} and scope = ${w.scope} and tool = ${w.tool} and window_start = ${w.windowStart.toISOString()}`;
  return { allowed: false, current: row?.count ?? w.max, resetTime };
}

/** Give one use back (the request it was taken for failed before producing anything). */
async function refund(sql: Sql, w: Window): Promise<void> {
  await sql`
    update tools_rate_limits set count = count - 1, updated_at = now()
    where key = ${w.key} and scope = ${w.scope} and tool = ${w.tool} and window_start = ${w.windowStart.toISOString()} and count > 0`;
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
 * Consume every check in one transaction: all pass or none is counted. A refusal is handed to `onRefused`
 * (outside the transaction, so the record survives) and thrown as the 429 of spec 002.
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
  class Refused extends Error {
    constructor(readonly window: Window, readonly count: Count) {
      super('refused');
    }
  }
  try {
    const counts = await sql.begin(async (tx) => {
      const out: { w: Window; count: Count }[] = [];
      for (const w of windows) {
        const count = await consume(tx, w);
        if (!count.allowed) throw new Refused(w, count);
        out.push({ w, count });
      }
      return out;
    });
    const tightest = counts.reduce<(typeof counts)[number] | undefined>((best, c) => (!best || c.w.max - c.count.current < best.w.max - best.count.current ? c : best), undefined);
    const rateLimit: RateLimitState = tightest
      ? { limit: tightest.w.max, remaining: Math.max(0, tightest.w.max - tightest.count.current), resetTime: tightest.count.resetTime }
      : { limit: 0, remaining: 0, resetTime: Math.floor(now.getTime() / 1000) };
    return {
      rateLimit,
      refund: async () => {
        for (const { w } of counts) await refund(sql, w);
      },
    };
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    const { window: w, count } = err;
    await options.onRefused?.({ scope: w.scope, key: w.key, tool: w.tool, limit: w.max, current: count.current });
    throw counterRefusal({ currentUsage: count.current, limit: w.max, resetTime: count.resetTime, scope: w.scope });
  }
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
