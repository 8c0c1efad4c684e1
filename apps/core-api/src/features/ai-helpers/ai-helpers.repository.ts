// What the AI helpers read: only the caller's own rows, every query keyed by the caller's id, so an id
// of another account finds nothing (and the service answers 404). postgres.js tagged templates.
import type { Sql } from 'postgres';

export interface StoryText {
  id: string;
  title: string;
  content: string;
}
export interface CampaignSummary {
  id: string;
  title: string;
  storytellerName: string;
  relationship: string;
}
export interface ImageInfo {
  id: string;
  title: string | null;
  caption: string | null;
  /** UTC year the photo was taken (EXIF), if known. */
  takenYear: number | null;
  storyId: string | null;
}

/** How many of the caller's stories and recordings a helper reads at most (newest first). */
export const MAX_SOURCES = 200;
/** Images considered for one story (newest first when none are named). */
export const MAX_IMAGES = 50;

export function createAiHelpersRepository(sql: Sql) {
  return {
    async grammarLevel(userId: string): Promise<string | null> {
      const [row] = await sql<{ level: string }[]>`select suggestion_level as level from user_grammar_settings where user_id = ${userId}`;
      return row?.level ?? null;
    },

    /** The caller's conversation of this chat sessionId with its storyteller turns, or null. */
    async conversationTurns(userId: string, sessionId: string): Promise<string[] | null> {
      const [conv] = await sql<{ id: string }[]>`select id from conversations where user_id = ${userId} and session_id = ${sessionId}`;
      if (!conv) return null;
      const rows = await sql<{ content: string }[]>`
        select content from conversation_messages where conversation_id = ${conv.id} and role = 'user'
        order by created_at limit 500`;
      return rows.map((r) => r.content);
    },

    async campaign(userId: string, campaignId: string): Promise<CampaignSummary | null> {
      const [row] = await sql<CampaignSummary[]>`
        select id, title, storyteller_name as "storytellerName", relationship from campaigns where id = ${campaignId} and user_id = ${userId}`;
      return row ?? null;
    },

    async stories(userId: string, opts: { campaignId?: string; ids?: string[] } = {}): Promise<StoryText[]> {
      return sql<StoryText[]>`
        select id, coalesce(title, prompt, 'Untitled story') as title, coalesce(content, response_text, '') as content
        from stories
        where user_id = ${userId}
          ${opts.campaignId ? sql`and campaign_id = ${opts.campaignId}` : sql``}
          ${opts.ids ? sql`and id = any(${opts.ids}::uuid[])` : sql``}
        order by created_at desc limit ${MAX_SOURCES}`;
    },

    async recordingTexts(userId: string, campaignId?: string): Promise<{ title: string; transcript: string }[]> {
      return sql<{ title: string; transcript: string }[]>`
        select title, coalesce(transcript, '') as transcript from recordings
        where user_id = ${userId} ${campaignId ? sql`and campaign_id = ${campaignId}` : sql``}
        order by created_at desc limit ${MAX_SOURCES}`;
    },

    async images(userId: string, ids?: string[]): Promise<ImageInfo[]> {
      return sql<ImageInfo[]>`
        select id, title, caption, extract(year from taken_at at time zone 'UTC')::int as "takenYear", story_id as "storyId" from images
        where user_id = ${userId} ${ids ? sql`and id = any(${ids}::uuid[])` : sql``}
        order by created_at desc limit ${MAX_IMAGES}`;
    },
  };
}

export type AiHelpersRepository = ReturnType<typeof createAiHelpersRepository>;
