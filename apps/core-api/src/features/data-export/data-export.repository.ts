// SQL of user_data_exports (postgres.js): the export rows a user sees and the job's claim and outcome.
import type { Sql, TransactionSql } from 'postgres';
import { one } from '@story/db';

export type ExportFormat = 'json' | 'pdf' | 'zip';
export type ExportStatus = 'pending' | 'processing' | 'completed' | 'failed';

export interface ExportRow {
  id: string;
  user_id: string;
  export_type: 'stories' | 'profile' | 'all';
  format: ExportFormat;
  status: ExportStatus;
  file_url: string | null;
  storage_key: string | null;
  file_size_bytes: string | null;
  error: string | null;
  /** timestamptz as text (see the service). */
  expires_at: string | null;
  completed_at: string | null;
  created_at: string;
}

type Db = Sql | TransactionSql;

const COLUMNS = ['id', 'user_id', 'export_type', 'format', 'status', 'file_url', 'storage_key', 'file_size_bytes', 'error', 'expires_at', 'completed_at', 'created_at'] as const;

export function createDataExportRepository(sql: Sql) {
  return {
    async insert(row: { userId: string; exportType: ExportRow['export_type']; format: ExportFormat }, tx: Db = sql): Promise<ExportRow> {
      return one(
        await tx<ExportRow[]>`
          insert into user_data_exports (user_id, export_type, format) values (${row.userId}, ${row.exportType}, ${row.format})
          returning ${tx(COLUMNS)}`,
      );
    },

    /** One export of this user (another user's id reads as missing). */
    async find(userId: string, id: string, tx: Db = sql): Promise<ExportRow | undefined> {
      const [row] = await tx<ExportRow[]>`select ${tx(COLUMNS)} from user_data_exports where id = ${id} and user_id = ${userId}`;
      return row;
    },

    async list(userId: string, limit = 50, tx: Db = sql): Promise<ExportRow[]> {
      return tx<ExportRow[]>`select ${tx(COLUMNS)} from user_data_exports where user_id = ${userId} order by created_at desc, id desc limit ${limit}`;
    },

    /** The export GET /api/user/data-export answers: the newest usable one of this format and type (completed and unexpired, or still running). */
    async newestUsable(userId: string, format: ExportFormat, exportType: ExportRow['export_type'], tx: Db = sql): Promise<ExportRow | undefined> {
      const [row] = await tx<ExportRow[]>`
        select ${tx(COLUMNS)} from user_data_exports
         where user_id = ${userId} and format = ${format} and export_type = ${exportType}
           and (status in ('pending', 'processing') or (status = 'completed' and storage_key is not null and expires_at > now()))
         order by (status = 'completed') desc, created_at desc, id desc limit 1`;
      return row;
    },

    /** Take the row for building; a retry or a takeover finds it still processing. Null when it is gone or finished. */
    async start(id: string): Promise<ExportRow | undefined> {
      const [row] = await sql<ExportRow[]>`
        update user_data_exports set status = 'processing', error = null, updated_at = now()
         where id = ${id} and status in ('pending', 'processing') returning ${sql(COLUMNS)}`;
      return row;
    },

    /** False when the row is gone (the account was erased meanwhile): the caller deletes the file. */
    async complete(id: string, out: { storageKey: string; size: number; fileUrl: string; expiresAt: Date }): Promise<boolean> {
      const rows = await sql`
        update user_data_exports
           set status = 'completed', storage_key = ${out.storageKey}, file_url = ${out.fileUrl}, file_size_bytes = ${out.size},
               expires_at = ${out.expiresAt.toISOString()}, completed_at = now(), updated_at = now()
         where id = ${id} and status = 'processing' returning id`;
      return rows.length === 1;
    },

    async fail(id: string, message: string): Promise<void> {
      await sql`update user_data_exports set status = 'failed', error = ${message}, updated_at = now() where id = ${id} and status <> 'completed'`;
    },

    /** Completed exports past their expiry whose file is still stored (the expiry sweep's work list). */
    async expired(limit = 100): Promise<{ id: string; storage_key: string }[]> {
      return sql<{ id: string; storage_key: string }[]>`
        select id, storage_key from user_data_exports where status = 'completed' and storage_key is not null and expires_at <= now()
         order by expires_at limit ${limit}`;
    },

    async forgetFile(id: string): Promise<void> {
      await sql`update user_data_exports set storage_key = null, updated_at = now() where id = ${id}`;
    },

    async accountName(userId: string): Promise<{ email: string; full_name: string | null } | undefined> {
      const [row] = await sql<{ email: string; full_name: string | null }[]>`
        select a.email, p.full_name from accounts a left join profiles p on p.id = a.id where a.id = ${userId}`;
      return row;
    },
  };
}

export type DataExportRepository = ReturnType<typeof createDataExportRepository>;
