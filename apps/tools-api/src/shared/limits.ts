// Generation and response limits of spec 002, kept in tools_rate_limits so they hold across restarts and
// replicas. A counter is one fixed-window row; consuming is a single INSERT ... ON CONFLICT DO UPDATE whose
// WHERE refuses the increment at the limit, so concurrent requests can never push a window past it.
import type postgres from 'postgres';
import type { RateLimitScope, ToolRoute } from '@story/db';
import type { ToolsCaller } from './caller';
import type { RateLimitMeta } from './envelope';
import { toolsError } from './errors';

type Sql = postgres.Sql | postgres.TransactionSql;

export interface ConsumeInput {
  scope: RateLimitScope;
  /** 'sess:<id>', 'user:<uuid>' or 'ip:<hash>'. */
  key: string;
  /** The tool the window counts for; '*' (default) for limits across all tools. */
  tool?: ToolRoute | '*';
  limit: number;
  windowStart: Date;
  windowEnd: Date;
}

export interface ConsumeResult {
  allowed: boolean;
  /** Count in the window after this call (the count that refused it when not allowed). */
  current: number;
  limit: number;
  /** Epoch seconds when the window ends. */
  resetTime: number;
}

/** Count one use in a window, or refuse it when the window already holds `limit` uses. */
export async function consumeLimit({ sql }: { sql: Sql }, input: ConsumeInput): Promise<ConsumeResult> {
  const tool = input.tool ?? '*';
  const resetTime = Math.floor(input.windowEnd.getTime() / 1000);
  if (input.limit <= 0) return { allowed: false, current: 0, limit: input.limit, resetTime };
  // The WHERE on the conflict branch makes the check and the increment one atomic step under the row lock.
  const rows = await sql<{ count: number }[]>`
    insert into tools_rate_limits (key, scope, tool, window_start, count)
    values (${input.key}, ${input.scope}, ${tool}, ${input.windowStart.toISOString()}, 1)
    on conflict (key, scope, tool, window_start) do update
      set count = tools_rate_limits.count + 1, updated_at = now()
      where tools_rate_limits.count < ${input.limit}
    returning count`;
  if (rows[0]) return { allowed: true, current: rows[0].count, limit: input.limit, resetTime };
  const [row] = await sql<{ count: number }[]>`
    select count from tools_rate_limits where key = ${input.key} and scope = ${input.scope} and tool = ${tool} and window_start = ${input.windowStart.toISOString()}`;
  return { allowed: false, current: row?.count ?? input.limit, limit: input.limit, resetTime };
}

/** Give one use back (the request it was taken for failed before producing anything). */
export async function refundLimit({ sql }: { sql: Sql }, input: Omit<ConsumeInput, 'limit' | 'windowEnd'>): Promise<void> {
  await sql`
    update tools_rate_limits set count = count - 1, updated_at = now()
    where key = ${input.key} and scope = ${input.scope} and tool = ${input.tool ?? '*'} and window_start = ${input.windowStart.toISOString()} and count > 0`;
}

export interface LimitHit {
  scope: RateLimitScope;
  key: string;
  tool?: ToolRoute | '*';
  limit: number;
  current: number;
  caller: Pick<ToolsCaller, 'sessionId' | 'userId' | 'ipPrefix'>;
}

/** Record a refused request in tools_rate_limit_hits (admin view of who hits limits). */
export async function recordLimitHit({ sql }: { sql: Sql }, hit: LimitHit): Promise<void> {
  await sql`
    insert into tools_rate_limit_hits (tool, scope, key, session_id, user_id, ip_prefix, limit_value, current_usage)
    values (${hit.tool ?? '*'}, ${hit.scope}, ${hit.key}, ${hit.caller.sessionId || null}, ${hit.caller.userId}, ${hit.caller.ipPrefix}, ${hit.limit}, ${hit.current})`;
}

/** Fixed UTC windows: the current hour or day. */
export function windowOf(scope: RateLimitScope, now = new Date()): { windowStart: Date; windowEnd: Date } {
  const start = new Date(now);
  if (scope === 'hourly') {
    start.setUTCMinutes(0, 0, 0);
    return { windowStart: start, windowEnd: new Date(start.getTime() + 3_600_000) };
  }
  start.setUTCHours(0, 0, 0, 0);
  return { windowStart: start, windowEnd: new Date(start.getTime() + 86_400_000) };
}

export type Tier = 'anonymous' | 'authenticated' | 'premium';

export const tierOf = (caller: Pick<ToolsCaller, 'userId' | 'role'>): Tier =>
  caller.userId === null ? 'anonymous' : caller.role === 'admin' || caller.role === 'support' ? 'premium' : 'authenticated';

/** Generic generate endpoint, per hour (spec 002 Limits). */
export const HOURLY_GENERATE_LIMITS: Record<Tier, number> = { anonymous: 5, authenticated: 50, premium: 500 };

/** Per-tool daily generation limits of the tools application; the rest use the framework default. */
export const DAILY_TOOL_LIMITS: Partial<Record<ToolRoute, { anonymous: number; authenticated: number }>> = {
  flashcards: { anonymous: 10, authenticated: 100 },
  'story-prompts': { anonymous: 15, authenticated: 150 },
  'book-blurb': { anonymous: 10, authenticated: 100 },
  'romance-writing-prompts': { anonymous: 15, authenticated: 150 },
  flipbook: { anonymous: 5, authenticated: 50 },
};
export const DEFAULT_DAILY_TOOL_LIMIT = { anonymous: 10, authenticated: 100 };
/** Responses per tool per day (framework default). */
export const DAILY_RESPONSE_LIMITS = { anonymous: 5, authenticated: 50 };
/** Premium (admin, support) callers get ten times the signed-in daily allowances. */
const PREMIUM_DAILY_FACTOR = 10;

export function dailyToolLimit(tool: ToolRoute, tier: Tier): number {
  const limits = DAILY_TOOL_LIMITS[tool] ?? DEFAULT_DAILY_TOOL_LIMIT;
  return tier === 'anonymous' ? limits.anonymous : tier === 'authenticated' ? limits.authenticated : limits.authenticated * PREMIUM_DAILY_FACTOR;
}

export function dailyResponseLimit(tier: Tier): number {
  return tier === 'anonymous' ? DAILY_RESPONSE_LIMITS.anonymous : tier === 'authenticated' ? DAILY_RESPONSE_LIMITS.authenticated : DAILY_RESPONSE_LIMITS.authenticated * PREMIUM_DAILY_FACTOR;
}

/** The key a caller is counted under: the account when signed in, else the session. */
export const callerLimitKey = (caller: Pick<ToolsCaller, 'sessionId' | 'userId'>) => (caller.userId ? `user:${caller.userId}` : `sess:${caller.sessionId}`);

export interface LimitCheck {
  scope: RateLimitScope;
  key: string;
  tool?: ToolRoute | '*';
  limit: number;
}

export interface EnforceResult {
  /** The tightest of the windows consumed, for meta.rateLimit. */
  rateLimit: RateLimitMeta;
  /** Undo every count taken (the request failed before producing anything). */
  refund(): Promise<void>;
}

/**
 * Consume every check in one transaction: all pass or none is counted. A refusal is recorded in
 * tools_rate_limit_hits and thrown as 429 RATE_LIMIT_EXCEEDED. `scale` is RATE_LIMIT_SCALE (load tests).
 */
export async function enforceLimits(
  deps: { sql: postgres.Sql },
  caller: Pick<ToolsCaller, 'sessionId' | 'userId' | 'ipPrefix'>,
  checks: LimitCheck[],
  scale = 1,
  now = new Date(),
): Promise<EnforceResult> {
  const scaled = checks.map((c) => ({ ...c, limit: Math.max(1, Math.floor(c.limit * scale)), ...windowOf(c.scope, now) }));
  class Refused extends Error {
    constructor(readonly check: (typeof scaled)[number], readonly result: ConsumeResult) {
      super('refused');
    }
  }
  try {
    const results = await deps.sql.begin(async (tx) => {
      const out: { check: (typeof scaled)[number]; result: ConsumeResult }[] = [];
      for (const check of scaled) {
        const result = await consumeLimit({ sql: tx }, check);
        if (!result.allowed) throw new Refused(check, result);
        out.push({ check, result });
      }
      return out;
    });
    const tightest = results.reduce<(typeof results)[number] | undefined>(
      (best, r) => (!best || r.result.limit - r.result.current < best.result.limit - best.result.current ? r : best),
      undefined,
    );
    const rateLimit: RateLimitMeta = tightest
      ? { limit: tightest.result.limit, remaining: Math.max(0, tightest.result.limit - tightest.result.current), resetTime: tightest.result.resetTime }
      : { limit: 0, remaining: 0, resetTime: Math.floor(now.getTime() / 1000) };
    return {
      rateLimit,
      refund: async () => {
        for (const { check } of results) await refundLimit(deps, check);
      },
    };
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    await recordLimitHit(deps, { scope: err.check.scope, key: err.check.key, tool: err.check.tool, limit: err.result.limit, current: err.result.current, caller });
    throw toolsError.rateLimited({ currentUsage: err.result.current, limit: err.result.limit, resetTime: err.result.resetTime, scope: err.check.scope });
  }
}
