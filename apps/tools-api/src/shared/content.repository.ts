// The content rows every feature reads the same way: one live row by id or share code, for responses,
// share, analytics, export and the prompt library. Soft-deleted and expired rows do not exist for anyone;
// who may see the rest is shared/visibility.ts.
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import { toolTableName } from './tool-param';
import { toDate } from './dates';
import { isUuid } from '@story/http';

type Sql = postgres.Sql | postgres.TransactionSql;

type DateField = 'share_expires_at' | 'expires_at' | 'created_at' | 'updated_at';

export interface ContentAccessRow {
  id: string;
  share_code: string;
  session_id: string;
  user_id: string | null;
  title: string | null;
  content: Record<string, unknown>;
  is_public: boolean;
  share_type: 'public' | 'private' | 'expiring';
  share_expires_at: Date | null;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  view_count: number;
  share_count: number;
  export_count: number;
  rating_sum: number;
  rating_count: number;
  seo_title: string | null;
  seo_description: string | null;
  keywords: string[] | null;
  ai_model: string | null;
  is_ai_generated: boolean;
}

/** One live row by id or share code, without access checks; `lock` holds it for an update in a transaction. */
export async function findLiveContent(sql: Sql, tool: ToolRoute, idOrShareCode: string, lock = false): Promise<ContentAccessRow | null> {
  const match = isUuid(idOrShareCode) ? sql`id = ${idOrShareCode}` : sql`share_code = ${idOrShareCode}`;
  const [row] = await sql<(Omit<ContentAccessRow, DateField> & Record<DateField, string | Date | null>)[]>`
    select id, share_code, session_id, user_id, title, content, is_public, share_type, share_expires_at, expires_at, created_at, updated_at,
           view_count, share_count, export_count, rating_sum, rating_count, seo_title, seo_description, keywords, ai_model, is_ai_generated
    from ${sql(toolTableName(tool))}
    where ${match} and deleted_at is null and (expires_at is null or expires_at > now())
    ${lock ? sql`for update` : sql``}`;
  if (!row) return null;
  const date = (v: string | Date | null) => (v === null ? null : toDate(v));
  return {
    ...row,
    share_expires_at: date(row.share_expires_at),
    expires_at: date(row.expires_at),
    created_at: toDate(row.created_at as string | Date),
    updated_at: toDate(row.updated_at as string | Date),
  };
}
