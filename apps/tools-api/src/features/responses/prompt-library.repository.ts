// The SQL of the story-prompt library: saved prompts (tools_saved_prompts) and published collections
// (tools_collections with their items). Raw postgres.js throughout.
import type postgres from 'postgres';
import { one, type ToolRoute } from '@story/db';
import { listedContentSql, liveContentSql } from '../../shared/visibility';

export interface SavedRow {
  id: string;
  notes: string | null;
  created_at: string;
  inserted: boolean;
}

export interface SavedListRow {
  id: string;
  content_id: string;
  share_code: string;
  title: string | null;
  prompt: string | null;
  notes: string | null;
  created_at: string;
}

export interface CollectionRow {
  id: string;
  title: string;
  description: string | null;
  slug: string;
  is_featured: boolean;
  seo_title: string | null;
  seo_description: string | null;
  keywords: string[] | null;
  item_count: number;
  prompts: { id: string; shareCode: string; title: string; prompt: string | null; position: number }[];
  created_at: string;
  updated_at: string;
}

type Owner = { sessionId: string; userId: string | null };

export function createPromptLibraryRepository(sql: postgres.Sql) {
  const p = sql`p`;
  /** Prompts shown in a public collection: live, public, and not behind an expired link. */
  const publicPrompt = sql`${liveContentSql(sql, p)} and ${listedContentSql(sql, p)}`;
  const savedBy = (owner: Owner) => sql`(s.session_id = ${owner.sessionId} ${owner.userId ? sql`or s.user_id = ${owner.userId}` : sql``})`;

  return {
    /** Save once per session; saving again keeps the row and updates the notes when sent. `inserted` tells which. */
    async upsertSaved(tool: ToolRoute, contentId: string, owner: Owner, notes: string | null): Promise<SavedRow> {
      return one(
        await sql<SavedRow[]>`
        insert into tools_saved_prompts (tool, content_id, session_id, user_id, notes)
        values (${tool}, ${contentId}, ${owner.sessionId}, ${owner.userId}, ${notes})
        on conflict (session_id, tool, content_id) do update
          set notes = coalesce(excluded.notes, tools_saved_prompts.notes), user_id = coalesce(excluded.user_id, tools_saved_prompts.user_id)
        returning id, notes, created_at, (xmax = 0) as inserted`,
      );
    },

    async deleteSaved(contentId: string, owner: Owner): Promise<boolean> {
      const rows = await sql`
        delete from tools_saved_prompts where tool = 'story-prompts' and content_id = ${contentId}
          and (session_id = ${owner.sessionId} ${owner.userId ? sql`or user_id = ${owner.userId}` : sql``}) returning id`;
      return rows.length > 0;
    },

    /** Saved prompts whose prompt still exists, newest first, and their total. */
    async listSaved(owner: Owner, limit: number, offset: number): Promise<{ rows: SavedListRow[]; total: number }> {
      const where = sql`s.tool = 'story-prompts' and ${savedBy(owner)} and ${liveContentSql(sql, p)}`;
      const [rows, [counted]] = await Promise.all([
        sql<SavedListRow[]>`
          select s.id, s.content_id, p.share_code, p.title, p.content->>'prompt' as prompt, s.notes, s.created_at
          from tools_saved_prompts s join tools_story_prompts p on p.id = s.content_id
          where ${where} order by s.created_at desc, s.id limit ${limit} offset ${offset}`,
        sql<{ n: number }[]>`select count(*)::int as n from tools_saved_prompts s join tools_story_prompts p on p.id = s.content_id where ${where}`,
      ]);
      return { rows, total: counted?.n ?? 0 };
    },

    /** Published collections, featured first, each with its first `previewSize` public prompts and their count. */
    async listCollections(limit: number, offset: number, previewSize: number): Promise<{ rows: CollectionRow[]; total: number }> {
      const [rows, [counted]] = await Promise.all([
        sql<CollectionRow[]>`
          select c.*, coalesce(items.list, '[]'::jsonb) as prompts, coalesce(items.n, 0)::int as item_count
          from tools_collections c
          left join lateral (
            select count(*) as n, (jsonb_agg(x.item order by x.position, x.created_at) filter (where x.rn <= ${previewSize})) as list
            from (select jsonb_build_object('id', p.id, 'shareCode', p.share_code, 'title', coalesce(p.title, ''), 'prompt', p.content->>'prompt', 'position', i.position) as item,
                         i.position, p.created_at, row_number() over (order by i.position, p.created_at) as rn
                  from tools_collection_items i join tools_story_prompts p on p.id = i.content_id and i.tool = 'story-prompts'
                  where i.collection_id = c.id and ${publicPrompt}) x
          ) items on true
          where c.tool = 'story-prompts' and c.is_published
          order by c.is_featured desc, c.created_at desc, c.id
          limit ${limit} offset ${offset}`,
        sql<{ n: number }[]>`select count(*)::int as n from tools_collections where tool = 'story-prompts' and is_published`,
      ]);
      return { rows, total: counted?.n ?? 0 };
    },

    /** One published collection by slug with up to 500 of its public prompts. */
    async findCollection(slug: string): Promise<CollectionRow | null> {
      const [row] = await sql<CollectionRow[]>`
        select c.*, coalesce(items.list, '[]'::jsonb) as prompts, coalesce(items.n, 0)::int as item_count
        from tools_collections c
        left join lateral (
          select count(*) as n, jsonb_agg(x.item order by x.position, x.created_at) as list
          from (select jsonb_build_object('id', p.id, 'shareCode', p.share_code, 'title', coalesce(p.title, ''), 'prompt', p.content->>'prompt', 'position', i.position) as item,
                       i.position, p.created_at
                from tools_collection_items i join tools_story_prompts p on p.id = i.content_id and i.tool = 'story-prompts'
                where i.collection_id = c.id and ${publicPrompt}
                order by i.position, p.created_at limit 500) x
        ) items on true
        where c.slug = ${slug} and c.tool = 'story-prompts' and c.is_published`;
      return row ?? null;
    },
  };
}
