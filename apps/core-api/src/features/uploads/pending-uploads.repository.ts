// SQL of direct_uploads (libs/db schema/direct-uploads.ts): the presigned tickets not registered yet, and
// the sweep's view of the expired ones.
import type { Sql } from 'postgres';

export interface ExpiredUpload {
  key: string;
  /** A recording row already points at the key (registered; only the ticket row was left behind). */
  registered: boolean;
}

export function createPendingUploadsRepository(sql: Sql) {
  return {
    async record(input: { key: string; userId: string; sizeBytes: number; expiresAt: Date }): Promise<void> {
      await sql`insert into direct_uploads (key, user_id, size_bytes, expires_at)
        values (${input.key}, ${input.userId}, ${input.sizeBytes}, ${input.expiresAt.toISOString()}::timestamptz)
        on conflict (key) do nothing`;
    },

    async forget(key: string): Promise<void> {
      await sql`delete from direct_uploads where key = ${key}`;
    },

    /** Tickets expired more than `graceSeconds` ago, oldest first, with whether a recording names the key. */
    async expired(graceSeconds: number, limit: number): Promise<ExpiredUpload[]> {
      return sql<ExpiredUpload[]>`
        -- By user first: recordings has no storage_key index, its user index narrows to that account's rows.
        select d.key, exists (select 1 from recordings r where r.user_id = d.user_id and r.storage_key = d.key) as registered
          from direct_uploads d
         where d.expires_at < now() - make_interval(secs => ${graceSeconds})
         order by d.expires_at
         limit ${limit}`;
    },
  };
}

export type PendingUploadsRepository = ReturnType<typeof createPendingUploadsRepository>;
