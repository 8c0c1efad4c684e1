// The AI helpers' allowance per tier (TIER_AI_ALLOWANCES): requests per UTC day and per UTC month. A
// request takes its place with one conditional upsert per window inside a transaction, so the counters are
// atomic: two concurrent calls can never both take the last place (no overshoot, not even by the number in
// flight). A request whose helper then fails is given back, so only answered requests count.
import type { Sql, TransactionSql } from 'postgres';
import { AppError } from '@story/http';
import { TIER_AI_ALLOWANCES, tierOf, type Tier } from '../tiers/tier-allowances';

export interface AiLimits {
  tier: Tier;
  aiRequestsPerDay: number | null;
  aiRequestsPerMonth: number | null;
}
export interface AiUsageCounts {
  aiRequestsToday: number;
  aiRequestsThisMonth: number;
}
export interface AiReservation {
  userId: string;
  day: string;
  month: string;
  limits: AiLimits;
  usage: AiUsageCounts;
}

const windows = (now: Date) => {
  const day = now.toISOString().slice(0, 10);
  return { day, month: `${day.slice(0, 8)}01` };
};

/** Seconds until the window that refused the request starts again (UTC midnight, or the 1st of next month). */
function secondsUntilReset(now: Date, period: 'day' | 'month'): number {
  const next =
    period === 'day'
      ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
      : Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

class Refused extends Error {}

/** +1 on one window unless it is already at `limit`; the new count, or null when refused. */
async function bump(tx: TransactionSql, userId: string, period: 'day' | 'month', windowStart: string, limit: number | null): Promise<number | null> {
  // The WHERE on DO UPDATE is checked under the row lock the upsert takes, so the test and the increment
  // are one step for concurrent requests of the same account.
  const [row] = await tx<{ count: number }[]>`
    insert into ai_request_counters (user_id, period, window_start, count)
    values (${userId}, ${period}, ${windowStart}, 1)
    on conflict (user_id, period, window_start) do update
      set count = ai_request_counters.count + 1, updated_at = now()
      where ${limit === null ? tx`true` : tx`ai_request_counters.count < ${limit}`}
    returning count`;
  return row ? row.count : null;
}

export async function currentUsage(sql: Sql, userId: string, now = new Date()): Promise<AiUsageCounts> {
  const { day, month } = windows(now);
  const rows = await sql<{ period: string; count: number }[]>`
    select period, count from ai_request_counters
    where user_id = ${userId} and ((period = 'day' and window_start = ${day}) or (period = 'month' and window_start = ${month}))`;
  return {
    aiRequestsToday: rows.find((r) => r.period === 'day')?.count ?? 0,
    aiRequestsThisMonth: rows.find((r) => r.period === 'month')?.count ?? 0,
  };
}

/** Take one request of the caller's allowance, or throw 429 {success: false, error, limits, usage}. */
export async function reserveAiRequest(sql: Sql, userId: string, now = new Date()): Promise<AiReservation> {
  const tier = await tierOf(sql, userId);
  const limits: AiLimits = { tier, ...TIER_AI_ALLOWANCES[tier] };
  const { day, month } = windows(now);
  let refusedBy: 'day' | 'month' = 'day';
  try {
    const usage = await sql.begin(async (tx) => {
      const today = await bump(tx, userId, 'day', day, limits.aiRequestsPerDay);
      if (today === null) throw new Refused();
      const thisMonth = await bump(tx, userId, 'month', month, limits.aiRequestsPerMonth);
      if (thisMonth === null) {
        refusedBy = 'month';
        throw new Refused(); // rolls the day's increment back
      }
      return { aiRequestsToday: today, aiRequestsThisMonth: thisMonth };
    });
    return { userId, day, month, limits, usage };
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    const usage = await currentUsage(sql, userId, now);
    const allowed = refusedBy === 'day' ? limits.aiRequestsPerDay : limits.aiRequestsPerMonth;
    const retryAfter = secondsUntilReset(now, refusedBy);
    throw new AppError('rate_limited', `Your ${tier} plan allows ${allowed} AI requests per ${refusedBy}; that allowance is used up.`, {
      retryAfter,
      extra: {
        success: false,
        limits,
        usage: { ...usage, exceeded: refusedBy === 'day' ? 'aiRequestsPerDay' : 'aiRequestsPerMonth', resetsAt: new Date(now.getTime() + retryAfter * 1000).toISOString() },
      },
    });
  }
}

/** Give a reserved request back (its helper failed before answering). */
export async function releaseAiRequest(sql: Sql, r: AiReservation): Promise<void> {
  await sql`
    update ai_request_counters set count = count - 1, updated_at = now()
    where user_id = ${r.userId} and count > 0
      and ((period = 'day' and window_start = ${r.day}) or (period = 'month' and window_start = ${r.month}))`;
}
