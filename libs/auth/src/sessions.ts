// Every service checks the token's session on every request, so sign-out and refresh-token reuse
// revoke access everywhere at once. One indexed primary-key join; the role comes from the account
// row, so a role change applies immediately.
//
// That join was half the database work of a typical authenticated read, so a verified session is kept
// in-process for `cacheMs`. It stays correct because PostgreSQL says when it changes: triggers on
// auth_sessions (revoke, refresh, delete) and accounts (role, email, delete) NOTIFY `auth_session_changes`
// (migration 0009), and every process LISTENs and drops the entries named. Nothing is cached until the
// LISTEN is in place, and the whole cache is dropped whenever it is re-established (notices may have been
// missed while the connection was down), so the only staleness left is the delivery delay of a NOTIFY
// (milliseconds) or, with the listening connection silently gone, at most `cacheMs`.
import type postgres from 'postgres';

export interface ActiveSession {
  userId: string;
  email: string;
  role: string;
}

export interface SessionLookup {
  findActive(sessionId: string): Promise<ActiveSession | null>;
}

export interface SessionLookupOptions {
  /** How long a verified session is reused without a query; 0 queries on every request. */
  cacheMs?: number;
  /** Entries kept at most; the oldest go first. */
  maxEntries?: number;
}

/** The channel the triggers of migration 0009 notify: `s:<session id>` or `u:<account id>`. */
export const SESSION_CHANNEL = 'auth_session_changes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Entry {
  session: ActiveSession;
  /** performance.now() after which the database is asked again (cacheMs, or the session's own expiry). */
  until: number;
}

export function createSessionLookup(sql: postgres.Sql, options: SessionLookupOptions = {}): SessionLookup {
  const cacheMs = options.cacheMs ?? 0;
  const maxEntries = options.maxEntries ?? 10_000;
  const cache = new Map<string, Entry>();
  let listening = false;
  // Bumped by every notice: a lookup whose query began before a notice may hold the old state, and is
  // then returned but not cached.
  let generation = 0;

  const forget = (payload: string) => {
    generation++;
    if (payload.startsWith('s:')) cache.delete(payload.slice(2));
    else if (payload.startsWith('u:')) {
      const userId = payload.slice(2);
      for (const [id, entry] of cache) if (entry.session.userId === userId) cache.delete(id);
    } else cache.clear();
  };

  if (cacheMs > 0) {
    // onlisten runs on every (re)connect of the listening connection: start (or restart) from empty.
    sql
      .listen(SESSION_CHANNEL, forget, () => {
        generation++;
        cache.clear();
        listening = true;
      })
      .catch(() => {
        listening = false;
      });
  }

  const query = async (sessionId: string) => {
    const rows = await sql<{ user_id: string; email: string; role: string; expires_in_ms: number }[]>`
      select s.user_id, a.email, a.role, (extract(epoch from s.expires_at - now()) * 1000)::float8 as expires_in_ms
      from auth_sessions s join accounts a on a.id = s.user_id
      where s.id = ${sessionId} and s.revoked_at is null and s.expires_at > now()`;
    return rows[0];
  };

  return {
    async findActive(sessionId) {
      if (!UUID.test(sessionId)) return null;
      const now = performance.now();
      const hit = listening ? cache.get(sessionId) : undefined;
      if (hit && hit.until > now) return hit.session;
      const startedAt = generation;
      const row = await query(sessionId);
      if (!row) {
        cache.delete(sessionId);
        return null;
      }
      const session = { userId: row.user_id, email: row.email, role: row.role };
      if (listening && generation === startedAt) {
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
        cache.set(sessionId, { session, until: now + Math.min(cacheMs, row.expires_in_ms) });
      }
      return session;
    },
  };
}
