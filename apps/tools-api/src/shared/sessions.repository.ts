// The SQL of tools_sessions: the one upsert every request with an X-Session-ID makes (shared/caller.ts).
import type postgres from 'postgres';
import { toDate } from './dates';

/** Session lifetimes of spec 002 States and transitions: anonymous 24 hours, any session 30 days idle. */
export const ANONYMOUS_SESSION_HOURS = 24;
export const IDLE_SESSION_DAYS = 30;

/** What the upsert records of a caller (a ToolsCaller fits). */
export interface SessionUpsert {
  sessionId: string;
  userId: string | null;
  ipPrefix: string;
  userAgent: string | null;
}

/**
 * Upsert the session row in one statement and report whether it is still alive and until when. A session that picks up
 * a signed-in account stops being anonymous and from then on lives 30 days past its last activity.
 */
export async function upsertToolsSession(sql: postgres.Sql, caller: SessionUpsert): Promise<{ alive: boolean; expiresAt: Date | null }> {
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
