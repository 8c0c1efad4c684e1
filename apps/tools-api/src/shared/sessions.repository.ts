// The SQL of tools_sessions: the one upsert every request with an X-Session-ID makes (shared/caller.ts).
import type postgres from 'postgres';
import { toDate } from './dates';
import { ANONYMOUS_SESSION_HOURS, IDLE_SESSION_DAYS, type ToolsCaller } from './caller';

/**
 * Upsert the session row in one statement and report whether it is still alive and until when. A session that picks up
 * a signed-in account stops being anonymous and from then on lives 30 days past its last activity.
 */
export async function upsertToolsSession(sql: postgres.Sql, caller: Pick<ToolsCaller, 'sessionId' | 'userId' | 'ipPrefix' | 'userAgent'>): Promise<{ alive: boolean; expiresAt: Date | null }> {
  const rows = await sql<{ alive: boolean; expires_at: string | Date }[]>`
    insert into tools_sessions (id, user_id, is_anonymous, ip_prefix, user_agent, expires_at)
    values (${caller.sessionId}, ${caller.userId}, ${caller.userId === null}, ${caller.ipPrefix}, ${caller.userAgent},
            now() + ${caller.userId === null ? `${ANONYMOUS_SESSION_HOURS} hours` : `${IDLE_SESSION_DAYS} days`}::interval)
    on conflict (id) do update set
      last_seen_at = case when tools_sessions.expires_at > now() then now() else tools_sessions.last_seen_at end,
      user_id = coalesce(excluded.user_id, tools_sessions.user_id),
      is_anonymous = tools_sessions.is_anonymous and excluded.user_id is null,
      ip_prefix = excluded.ip_prefix,
      user_agent = coalesce(excluded.user_agent, tools_sessions.user_agent),
      expires_at = case
        when tools_sessions.expires_at <= now() then tools_sessions.expires_at
        when coalesce(excluded.user_id, tools_sessions.user_id) is null then least(tools_sessions.expires_at, now() + ${`${IDLE_SESSION_DAYS} days`}::interval)
        else now() + ${`${IDLE_SESSION_DAYS} days`}::interval
      end
    returning expires_at > now() as alive, expires_at`;
  const row = rows[0];
  return { alive: !!row?.alive, expiresAt: row ? toDate(row.expires_at) : null };
}
