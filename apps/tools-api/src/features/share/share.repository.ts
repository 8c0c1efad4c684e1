// The SQL of share links and flashcard decks: share and view counters with their analytics events (one
// transaction each), the public responses shown with a shared item, and a deck's update and cascading
// soft delete. Raw postgres.js throughout: the tool's table is chosen at run time.
import type postgres from 'postgres';
import { one, type ShareType, type ToolRoute } from '@story/db';
import { toolTableName } from '../../shared/tool-param';
import { listedResponseSql } from '../../shared/visibility';
import { jsonb } from '../responses/pg-values';

export interface EventSource {
  userId: string | null;
  sessionId: string | null;
  ipPrefix: string | null;
  userAgent: string | null;
}

export interface SharedResponseRow {
  id: string;
  title: string;
  content: string;
  word_count: number;
  is_public: boolean;
  created_at: string;
}

export interface DeckRow {
  id: string;
  share_code: string;
  title: string | null;
  content: Record<string, unknown>;
  is_public: boolean;
  share_type: string;
  updated_at: string;
}

export function createShareRepository(sql: postgres.Sql) {
  const event = (tx: postgres.TransactionSql, tool: ToolRoute, contentId: string, type: 'share' | 'view', data: Record<string, unknown>, source: EventSource) => tx`
    insert into tools_analytics (tool, content_id, event_type, event_data, user_id, session_id, ip_address, user_agent)
    values (${tool}, ${contentId}, ${type}, ${jsonb(data)}::jsonb, ${source.userId}, ${source.sessionId}, ${source.ipPrefix}, ${source.userAgent})`;
  const r = sql`tools_responses`;

  return {
    /** Count one share (setting how the item is shared when `set` is given, by its owner) and record it; the new share_count. */
    async recordShare(
      tool: ToolRoute,
      id: string,
      set: { shareType: ShareType; expiresAt: Date | null } | null,
      data: Record<string, unknown>,
      source: EventSource,
    ): Promise<number> {
      return sql.begin(async (tx) => {
        const rows = set
          ? await tx<{ share_count: number }[]>`
              update ${tx(toolTableName(tool))}
              set share_type = ${set.shareType}, is_public = ${set.shareType !== 'private'}, share_expires_at = ${set.expiresAt ? set.expiresAt.toISOString() : null}, share_count = share_count + 1, updated_at = now()
              where id = ${id} returning share_count`
          : await tx<{ share_count: number }[]>`update ${tx(toolTableName(tool))} set share_count = share_count + 1 where id = ${id} returning share_count`;
        await event(tx, tool, id, 'share', data, source);
        return one(rows).share_count;
      });
    },

    /** Count one view of a shared item and record it; the new view_count. */
    async recordView(tool: ToolRoute, id: string, data: Record<string, unknown>, source: EventSource): Promise<number> {
      return sql.begin(async (tx) => {
        const rows = await tx<{ view_count: number }[]>`update ${tx(toolTableName(tool))} set view_count = view_count + 1 where id = ${id} returning view_count`;
        await event(tx, tool, id, 'view', data, source);
        return one(rows).view_count;
      });
    },

    /** The newest public, not rejected responses of an item (at most `limit`) and how many there are. */
    async publicResponses(tool: ToolRoute, contentId: string, limit: number): Promise<{ rows: SharedResponseRow[]; total: number }> {
      const where = sql`tool = ${tool} and prompt_id = ${contentId} and deleted_at is null and ${listedResponseSql(sql, r)}`;
      const [rows, [counted]] = await Promise.all([
        sql<SharedResponseRow[]>`select id, title, content, word_count, is_public, created_at from tools_responses where ${where} order by created_at desc, id desc limit ${limit}`,
        sql<{ n: number }[]>`select count(*)::int as n from tools_responses where ${where}`,
      ]);
      return { rows, total: counted?.n ?? 0 };
    },

    /** Merge `patch` into the deck's content and set its title and sharing; an expiring link keeps its expiry only while expiring. */
    async updateDeck(id: string, patch: Record<string, unknown>, title: string | null, isPublic: boolean, shareType: string): Promise<DeckRow> {
      return one(
        await sql<DeckRow[]>`
          update tools_flashcards set
            content = content || ${jsonb(patch)}::jsonb,
            title = coalesce(${title}, title),
            is_public = ${isPublic},
            share_type = ${shareType},
            share_expires_at = case when ${shareType} = 'expiring' then share_expires_at else null end,
            updated_at = now()
          where id = ${id}
          returning id, share_code, title, content, is_public, share_type, updated_at`,
      );
    },

    /** Soft-delete the deck with its responses, and drop its collection entries and saved copies, in one transaction. */
    async deleteDeck(id: string): Promise<void> {
      await sql.begin(async (tx) => {
        await tx`update tools_flashcards set deleted_at = now(), updated_at = now() where id = ${id} and deleted_at is null`;
        await tx`update tools_responses set deleted_at = now(), delete_reason = 'deck deleted' where tool = 'flashcards' and prompt_id = ${id} and deleted_at is null`;
        await tx`delete from tools_collection_items where tool = 'flashcards' and content_id = ${id}`;
        await tx`delete from tools_saved_prompts where tool = 'flashcards' and content_id = ${id}`;
      });
    },
  };
}

export type ShareRepository = ReturnType<typeof createShareRepository>;
