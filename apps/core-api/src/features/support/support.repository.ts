// The SQL of content reports (support_flags), on postgres.js.
import type { Sql, TransactionSql } from 'postgres';
import { one, type FlagContentType, type FlagStatus } from '@story/db';
import { isoUtc } from '../sql-fragments';

export interface FlagRow {
  id: string;
  content_type: FlagContentType;
  content_id: string;
  reason: string;
  details: string | null;
  status: FlagStatus;
  created_at: string;
}

/** Each reportable kind and the table holding its owner. */
const OWNER_QUERIES = {
  story: (sql: Sql, id: string) => sql<{ owner: string }[]>`select user_id as owner from stories where id = ${id}`,
  recording: (sql: Sql, id: string) => sql<{ owner: string }[]>`select user_id as owner from recordings where id = ${id}`,
  conversation: (sql: Sql, id: string) => sql<{ owner: string }[]>`select user_id as owner from conversations where id = ${id}`,
} satisfies Record<FlagContentType, unknown>;

export function createSupportRepository(sql: Sql) {
  return {
    transaction: <T>(work: (tx: TransactionSql) => Promise<T>) => sql.begin(work) as Promise<T>,

    async ownerOf(type: FlagContentType, id: string): Promise<string | undefined> {
      const [row] = await OWNER_QUERIES[type](sql, id);
      return row?.owner;
    },

    /** One report per reporter and item while it is open: serialise that pair's reports. */
    async lockReport(tx: TransactionSql, userId: string, type: FlagContentType, id: string): Promise<void> {
      await tx`select pg_advisory_xact_lock(hashtextextended(${`flag:${userId}:${type}:${id}`}, 0))`;
    },

    async findOpen(tx: TransactionSql, userId: string, type: FlagContentType, id: string): Promise<FlagRow | undefined> {
      const [row] = await tx<FlagRow[]>`
        select id, content_type, content_id, reason, details, status, ${isoUtc(tx, 'created_at')} as created_at from support_flags
        where user_id = ${userId} and content_type = ${type} and content_id = ${id} and status in ('open', 'reviewing')
        order by created_at desc limit 1`;
      return row;
    },

    async insert(tx: TransactionSql, values: { userId: string; type: FlagContentType; id: string; reason: string; details: string | null }): Promise<FlagRow> {
      const rows = await tx<FlagRow[]>`
        insert into support_flags (user_id, content_type, content_id, reason, details)
        values (${values.userId}, ${values.type}, ${values.id}, ${values.reason}, ${values.details})
        returning id, content_type, content_id, reason, details, status, ${isoUtc(tx, 'created_at')} as created_at`;
      return one(rows);
    },
  };
}
