// The tools side of the limiter (libs/http/src/limits): which of the table's persisted counters a caller's
// request consumes, under which key, and the record of refusals in tools_rate_limit_hits (the admin view of
// who hits limits). Counting, windows, headers and the 429 body are the limiter's.
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import { toolsDailyLimit, toolsGenerateLimit, toolsResponseLimit, type CounterCheck, type CounterHit, type ToolsTier } from '@story/http';
import type { ToolsCaller } from './caller';

export type Tier = ToolsTier;

/** Premium are the staff roles (admin, support); anonymous has no account. */
export const tierOf = (caller: Pick<ToolsCaller, 'userId' | 'role'>): Tier =>
  caller.userId === null ? 'anonymous' : caller.role === 'admin' || caller.role === 'support' ? 'premium' : 'authenticated';

/** The key a caller is counted under: the account when signed in, else the session. */
export const callerLimitKey = (caller: Pick<ToolsCaller, 'sessionId' | 'userId'>) => (caller.userId ? `user:${caller.userId}` : `sess:${caller.sessionId}`);

/** A generation: the hourly generic limit (per address too when anonymous) and the tool's daily limit. */
export function generateChecks(tool: ToolRoute, caller: Pick<ToolsCaller, 'sessionId' | 'userId' | 'role' | 'ipHash'>): CounterCheck[] {
  const tier = tierOf(caller);
  const key = callerLimitKey(caller);
  const checks: CounterCheck[] = [{ limit: toolsGenerateLimit(tier), key }];
  // Anonymous visitors are also counted per address, so a fresh session id does not reset the hour.
  if (tier === 'anonymous') checks.push({ limit: toolsGenerateLimit(tier), key: `ip:${caller.ipHash}` });
  checks.push({ limit: toolsDailyLimit(tool, tier), key, tool });
  return checks;
}

/** A response: the per-tool daily response limit. */
export const responseChecks = (tool: ToolRoute, caller: Pick<ToolsCaller, 'sessionId' | 'userId' | 'role'>): CounterCheck[] => [
  { limit: toolsResponseLimit(tierOf(caller)), key: callerLimitKey(caller), tool },
];

/** consumeCounters' onRefused: record the refused request in tools_rate_limit_hits. */
export const recordLimitHit =
  (sql: postgres.Sql, caller: Pick<ToolsCaller, 'sessionId' | 'userId' | 'ipPrefix'>) =>
  async (hit: CounterHit): Promise<void> => {
    await sql`
      insert into tools_rate_limit_hits (tool, scope, key, session_id, user_id, ip_prefix, limit_value, current_usage)
      values (${hit.tool}, ${hit.scope}, ${hit.key}, ${caller.sessionId || null}, ${caller.userId}, ${caller.ipPrefix}, ${hit.limit}, ${hit.current})`;
  };
