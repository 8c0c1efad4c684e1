// The SQL of responses (tools_responses) and their analytics events. Raw postgres.js throughout.
import type postgres from 'postgres';
import { one, type ToolRoute } from '@story/db';
import { visibleResponsesSql, type Viewer } from '../../shared/visibility';
import { jsonb } from './pg-values';

type Sql = postgres.Sql | postgres.TransactionSql;

export interface ResponseRow {
  id: string;
  tool: ToolRoute;
  prompt_id: string;
  session_id: string;
  user_id: string | null;
  title: string;
  content: string;
  word_count: number;
  character_count: number;
  is_public: boolean;
  moderation_status: string;
  view_count: number;
  like_count: number;
  share_count: number;
  quality_score: string | number | null;
  created_at: string;
  updated_at: string;
}

export interface NewResponse {
  tool: ToolRoute;
  promptId: string;
  sessionId: string;
  userId: string | null;
  title: string;
  content: string;
  wordCount: number;
  characterCount: number;
  isPublic: boolean;
}

export interface ResponseChange {
  title?: string;
  isPublic?: boolean;
  content?: { text: string; wordCount: number; characterCount: number };
}

export interface EventSource {
  userId: string | null;
  sessionId: string;
  ipPrefix: string | null;
  userAgent: string | null;
}

export function createResponsesRepository(sql: postgres.Sql) {
  const columns = sql`id, tool, prompt_id, session_id, user_id, title, content, word_count, character_count, is_public, moderation_status, view_count, like_count, share_count, quality_score, created_at, updated_at`;
  const r = sql`tools_responses`;

  return {
    async find(tool: ToolRoute, id: string, tx: Sql = sql): Promise<ResponseRow | null> {
      const [row] = await tx<ResponseRow[]>`select ${columns} from tools_responses where id = ${id} and tool = ${tool} and deleted_at is null`;
      return row ?? null;
    },

    /** The response and its 'response_created' event on the parent, in one transaction. */
    async insertWithEvent(input: NewResponse, source: EventSource): Promise<ResponseRow> {
      return sql.begin(async (tx) => {
        const inserted = one(
          await tx<ResponseRow[]>`
          insert into tools_responses (tool, prompt_id, session_id, user_id, title, content, word_count, character_count, is_public)
          values (${input.tool}, ${input.promptId}, ${input.sessionId}, ${input.userId}, ${input.title}, ${input.content}, ${input.wordCount}, ${input.characterCount}, ${input.isPublic})
          returning ${columns}`,
        );
        await tx`
          insert into tools_analytics (tool, content_id, event_type, event_data, user_id, session_id, ip_address, user_agent)
          values (${input.tool}, ${input.promptId}, 'response_created', ${jsonb({ responseId: inserted.id, wordCount: inserted.word_count, isPublic: inserted.is_public })}::jsonb,
                  ${source.userId}, ${source.sessionId}, ${source.ipPrefix}, ${source.userAgent})`;
        return inserted;
      });
    },

    /** One page of a parent's responses the viewer may see (shared/visibility.ts), newest first, and the total. */
    async list(tool: ToolRoute, promptId: string, viewer: Viewer, isPublic: boolean | undefined, limit: number, offset: number): Promise<{ rows: ResponseRow[]; total: number }> {
      const where = sql`tool = ${tool} and prompt_id = ${promptId} and deleted_at is null and ${visibleResponsesSql(sql, r, viewer, isPublic)}`;
      const [rows, [counted]] = await Promise.all([
        sql<ResponseRow[]>`select ${columns} from tools_responses where ${where} order by created_at desc, id desc limit ${limit} offset ${offset}`,
        sql<{ n: number }[]>`select count(*)::int as n from tools_responses where ${where}`,
      ]);
      return { rows, total: counted?.n ?? 0 };
    },

    async countView(id: string): Promise<number | undefined> {
      const [counted] = await sql<{ view_count: number }[]>`update tools_responses set view_count = view_count + 1 where id = ${id} returning view_count`;
      return counted?.view_count;
    },

    /** Changed text goes back to moderation and loses its old quality score. */
    async update(id: string, change: ResponseChange): Promise<ResponseRow | null> {
      const content = change.content;
      const [updated] = await sql<ResponseRow[]>`
        update tools_responses set
          title = coalesce(${change.title ?? null}, title),
          is_public = coalesce(${change.isPublic ?? null}, is_public),
          ${
            content !== undefined
              ? sql`content = ${content.text}, word_count = ${content.wordCount}, character_count = ${content.characterCount},
                    moderation_status = case when content = ${content.text} then moderation_status else 'pending' end,
                    quality_score = case when content = ${content.text} then quality_score else null end,`
              : sql``
          }
          updated_at = now()
        where id = ${id} and deleted_at is null
        returning ${columns}`;
      return updated ?? null;
    },

    /** Soft delete; null when it was already gone. */
    async softDelete(id: string, reason: string | null): Promise<string | null> {
      const [deleted] = await sql<{ deleted_at: string }[]>`
        update tools_responses set deleted_at = now(), delete_reason = ${reason}, updated_at = now()
        where id = ${id} and deleted_at is null returning deleted_at`;
      return deleted?.deleted_at ?? null;
    },

    async setQualityScore(id: string, score: number): Promise<void> {
      await sql`update tools_responses set quality_score = ${score} where id = ${id}`;
    },
  };
}

export type ResponsesRepository = ReturnType<typeof createResponsesRepository>;
