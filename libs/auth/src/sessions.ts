// Every service checks the token's session on every request, so sign-out and refresh-token reuse
// revoke access everywhere at once. One indexed primary-key join; the role comes from the account
// row, so a role change applies immediately.
import type postgres from 'postgres';

export interface ActiveSession {
  userId: string;
  email: string;
  role: string;
}

export interface SessionLookup {
  findActive(sessionId: string): Promise<ActiveSession | null>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createSessionLookup(sql: postgres.Sql): SessionLookup {
  return {
    async findActive(sessionId) {
      if (!UUID.test(sessionId)) return null;
      const rows = await sql<{ user_id: string; email: string; role: string }[]>`
        select s.user_id, a.email, a.role
        from auth_sessions s join accounts a on a.id = s.user_id
        where s.id = ${sessionId} and s.revoked_at is null and s.expires_at > now()`;
      const row = rows[0];
      return row ? { userId: row.user_id, email: row.email, role: row.role } : null;
    },
  };
}
