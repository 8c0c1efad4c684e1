// The SQL of exports: an item's responses (the ones the caller may see) and response count, and the
// export counter with its analytics event in one transaction. Raw postgres.js throughout.
import type postgres from 'postgres';
import type { ToolRoute } from '@story/db';
import { toolTableName } from '../../shared/tool-param';
import { visibleResponsesSql, type Viewer } from '../../shared/visibility';
import { jsonb } from '../responses/pg-values';

export interface ExportedResponseRow {
  id: string;
  title: string;
  content: string;
  word_count: number;
  created_at: string;
}

export interface EventSource {
  userId: string | null;
  sessionId: string | null;
  ipPrefix: string | null;
  userAgent: string | null;
}

export function createExportRepository(sql: postgres.Sql) {
  return {
    async countResponses(tool: ToolRoute, contentId: string): Promise<number> {
      const [counted] = await sql<{ n: number }[]>`select count(*)::int as n from tools_responses where tool = ${tool} and prompt_id = ${contentId} and deleted_at is null`;
      return counted?.n ?? 0;
    },

    /** The responses the viewer may see (shared/visibility.ts), oldest first, at most `limit`. */
    async visibleResponses(tool: ToolRoute, contentId: string, viewer: Viewer, limit: number): Promise<ExportedResponseRow[]> {
      return sql<ExportedResponseRow[]>`
        select id, title, content, word_count, created_at from tools_responses
        where tool = ${tool} and prompt_id = ${contentId} and deleted_at is null and ${visibleResponsesSql(sql, sql`tools_responses`, viewer)}
        order by created_at, id
        limit ${limit}`;
    },

    /** Count one export and record it as an analytics event, in one transaction. */
    async recordExport(tool: ToolRoute, contentId: string, data: Record<string, unknown>, source: EventSource): Promise<void> {
      await sql.begin(async (tx) => {
        await tx`update ${tx(toolTableName(tool))} set export_count = export_count + 1 where id = ${contentId}`;
        await tx`
          insert into tools_analytics (tool, content_id, event_type, event_data, user_id, session_id, ip_address, user_agent)
          values (${tool}, ${contentId}, 'export', ${jsonb(data)}::jsonb, ${source.userId}, ${source.sessionId}, ${source.ipPrefix}, ${source.userAgent})`;
      });
    },
  };
}
