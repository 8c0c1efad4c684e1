// The SQL of stories and their share links (CONVENTIONS 7), raw postgres.js throughout. Methods take
// plain values and an optional transaction and return plain rows; the service holds the decisions.
import type { Sql } from 'postgres';
import { one } from '@story/db';
import { isoUtc, type SqlOrTx } from '../sql-fragments';
import { coMemberIds } from '../access/access.repository';

export interface StoryRow {
  id: string;
  user_id: string;
  campaign_id: string | null;
  title: string | null;
  prompt: string | null;
  response_text: string | null;
  response_type: string | null;
  type: string;
  content: string | null;
  metadata: Record<string, unknown> | null;
  book_id: string | null;
  ai_enhanced: boolean;
  source_recording_ids: string[];
  source_conversation_ids: string[];
  word_count: number;
  provenance?: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export interface ShareRow {
  id: string;
  share_id: string;
  story_id: string;
  expires_at: string | null;
  revoked_at: string | null;
  view_count: number;
  created_at: string;
}

export interface NewStory {
  ownerId: string;
  campaignId: string | null;
  title: string;
  type: string;
  content: string;
  wordCount: number;
  metadata: Record<string, unknown>;
  aiEnhanced: boolean;
  sourceRecordingIds: string[];
  sourceConversationIds: string[];
}

/** Only the fields given change; `content` always comes with its word count. */
export interface StoryChanges {
  title?: string;
  type?: string;
  content?: { content: string; wordCount: number };
  metadata?: Record<string, unknown>;
  aiEnhanced?: boolean;
  sourceRecordingIds?: string[];
  sourceConversationIds?: string[];
}

export interface StoryListPage {
  /** JSON text of the page's stories, in order. */
  stories: string;
  /** Rows read: limit + 1 means there is a next page. */
  total: number;
  cursor_ts: string | null;
  last_id: string | null;
}

export function createStoriesRepository(sql: Sql) {
  const columns = (q: SqlOrTx) => q`s.id, s.user_id, s.campaign_id, s.title, s.prompt, s.response_text, s.response_type, s.type, s.content, s.metadata,
    s.book_id, s.ai_enhanced, s.source_recording_ids, s.source_conversation_ids, s.word_count, s.provenance,
    ${isoUtc(q, 's.created_at')} as created_at, ${isoUtc(q, 's.updated_at')} as updated_at`;
  const shareColumns = (q: SqlOrTx) => q`id, share_id, story_id, ${isoUtc(q, 'expires_at')} as expires_at, ${isoUtc(q, 'revoked_at')} as revoked_at,
    view_count, ${isoUtc(q, 'created_at')} as created_at`;

  return {
    transaction: <T>(work: (tx: SqlOrTx) => Promise<T>): Promise<T> => sql.begin(work) as Promise<T>,

    async findById(id: string, options: { lock?: boolean } = {}, tx: SqlOrTx = sql): Promise<StoryRow | undefined> {
      const [row] = await tx<StoryRow[]>`select ${columns(tx)} from stories s where s.id = ${id}${options.lock ? tx` for update` : tx``}`;
      return row;
    },

    async findWithTypography(id: string, tx: SqlOrTx = sql): Promise<(StoryRow & { typography: unknown }) | undefined> {
      const [row] = await tx<(StoryRow & { typography: unknown })[]>`select ${columns(tx)}, s.typography from stories s where s.id = ${id}`;
      return row;
    },

    /**
     * One page of the stories the caller may see (their own and those of every account sharing an active
     * family group with them), newest first, keyset-paged (or offset-paged without a cursor), with each
     * story's JSON built by PostgreSQL in the shape toStoryView gives. One statement: the family is read
     * by the same query (coMemberIds), not by a round trip before it.
     */
    async listPage(callerId: string, page: { limit: number; after: { createdAt: string; id: string } | null; offset: number | null }, tx: SqlOrTx = sql): Promise<StoryListPage | undefined> {
      // One statement text for the first page, a cursor page and an offset page (the first page's cursor is
      // "before everything", its offset 0), so PostgreSQL keeps one generic plan for it. Three texts each got
      // a custom plan, planned again on every request (0.3 ms, as much as running it).
      const start = page.after ?? { createdAt: 'infinity', id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' };
      const after = () => tx` and (s.created_at, s.id) < (${start.createdAt}::timestamp, ${start.id}::uuid)`;
      const limit = page.limit;
      // Rows each owner can contribute at most: the page, the row that says there is more, and the offset.
      const take = limit + 1 + (page.offset ?? 0);
      // Each owner's rows come from stories_user_id_created_id_idx as an ordered index-only range read that
      // stops after `take` entries (the caller's branch on its own, so the common case of no family costs
      // one probe of family_members more); only the ids are merged, offset and cut before any JSON is built.
      const [row] = await tx<StoryListPage[]>`
        select coalesce(json_agg(x.obj order by x.n) filter (where x.n <= ${limit}), '[]')::text as stories,
               count(*)::int as total,
               (array_agg(x.cursor_ts) filter (where x.n = ${limit}))[1] as cursor_ts,
               (array_agg(x.id) filter (where x.n = ${limit}))[1] as last_id
          from (select page.*, row_number() over (order by page.created_at desc, page.id desc) as n
                  from (select s.id, s.created_at, to_char(s.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.US') as cursor_ts,
                               json_build_object(
                                 'id', s.id, 'userId', s.user_id,
                                 'authorId', case when jsonb_typeof(s.metadata->'authorId') = 'string' then s.metadata->>'authorId' else s.user_id::text end,
                                 'campaignId', s.campaign_id, 'title', coalesce(s.title, s.prompt, ''), 'type', s.type,
                                 'content', coalesce(s.content, s.response_text, ''), 'metadata', s.metadata, 'book_id', s.book_id,
                                 'ai_enhanced', s.ai_enhanced, 'source_recording_ids', s.source_recording_ids,
                                 'source_conversation_ids', s.source_conversation_ids, 'wordCount', s.word_count,
                                 'responseType', s.response_type, 'createdAt', ${isoUtc(tx, 's.created_at')},
                                 'updatedAt', ${isoUtc(tx, 's.updated_at')}
                               ) as obj
                          from (select u.id
                                  from ((select s.id, s.created_at from stories s
                                          where s.user_id = ${callerId}${after()}
                                          order by s.created_at desc, s.id desc limit ${take}::int)
                                        union all
                                        (select o.id, o.created_at
                                           from (${coMemberIds(tx, callerId)}) m
                                           cross join lateral (select s.id, s.created_at from stories s
                                                                where s.user_id = m.user_id${after()}
                                                                order by s.created_at desc, s.id desc limit ${take}::int) o)) u
                                 order by u.created_at desc, u.id desc limit ${limit}::int + 1 offset ${page.offset ?? 0}::int) ids
                          join stories s on s.id = ids.id) page) x`;
      return row;
    },

    /** How many of `ids` are recordings (or conversations) of `ownerId`. */
    async countOwnedSources(table: 'recordings' | 'conversations', ownerId: string, ids: string[], tx: SqlOrTx = sql): Promise<number> {
      const found = await tx`select id from ${tx(table)} where id = any(${ids}::uuid[]) and user_id = ${ownerId}`;
      return found.length;
    },

    async campaignOwner(campaignId: string, tx: SqlOrTx = sql): Promise<string | undefined> {
      const [campaign] = await tx<{ userId: string }[]>`select user_id as "userId" from campaigns where id = ${campaignId}`;
      return campaign?.userId;
    },

    async insert(story: NewStory, tx: SqlOrTx = sql): Promise<string> {
      const created = one(
        await tx<{ id: string }[]>`
        insert into stories (user_id, campaign_id, title, type, content, metadata, ai_enhanced, source_recording_ids, source_conversation_ids, word_count)
        values (${story.ownerId}, ${story.campaignId}, ${story.title}, ${story.type}, ${story.content}, ${JSON.stringify(story.metadata)}::jsonb,
                ${story.aiEnhanced}, ${story.sourceRecordingIds}::uuid[], ${story.sourceConversationIds}::uuid[], ${story.wordCount})
        returning id`,
      );
      return created.id;
    },

    async update(id: string, changes: StoryChanges, tx: SqlOrTx = sql): Promise<void> {
      const next = changes.content ?? null;
      await tx`
        update stories set
          title = coalesce(${changes.title ?? null}, title),
          type = coalesce(${changes.type ?? null}, type),
          content = case when ${next !== null} then ${next?.content ?? null} else content end,
          word_count = case when ${next !== null} then ${next?.wordCount ?? 0} else word_count end,
          metadata = coalesce(${changes.metadata === undefined ? null : JSON.stringify(changes.metadata)}::jsonb, metadata),
          ai_enhanced = coalesce(${changes.aiEnhanced ?? null}, ai_enhanced),
          source_recording_ids = coalesce(${changes.sourceRecordingIds ?? null}::uuid[], source_recording_ids),
          source_conversation_ids = coalesce(${changes.sourceConversationIds ?? null}::uuid[], source_conversation_ids),
          updated_at = now()
        where id = ${id}`;
    },

    async delete(id: string, tx: SqlOrTx = sql): Promise<void> {
      await tx`delete from stories where id = ${id}`;
    },

    /** Lock a book row (a story leaving it changes its chapters). */
    async lockBook(bookId: string, tx: SqlOrTx = sql): Promise<void> {
      await tx`select id from books where id = ${bookId} for update`;
    },

    async getSetting(id: string, column: 'typography' | 'header_footer', tx: SqlOrTx = sql): Promise<unknown> {
      const [row] = await tx<{ value: unknown }[]>`select ${tx(column)} as value from stories where id = ${id}`;
      return row?.value;
    },

    async putSetting(id: string, column: 'typography' | 'header_footer', value: unknown, tx: SqlOrTx = sql): Promise<void> {
      await tx`update stories set ${tx(column)} = ${JSON.stringify(value)}::jsonb, updated_at = now() where id = ${id}`;
    },

    async insertShare(share: { storyId: string; shareId: string; createdBy: string; expiresInDays: number | null }, tx: SqlOrTx = sql): Promise<ShareRow> {
      const rows = await tx<ShareRow[]>`
        insert into story_shares (story_id, share_id, created_by, expires_at)
        values (${share.storyId}, ${share.shareId}, ${share.createdBy},
                case when ${share.expiresInDays}::int is null then null else now() + make_interval(days => ${share.expiresInDays}::int) end)
        returning ${shareColumns(tx)}`;
      return one(rows);
    },

    listShares: (storyId: string, tx: SqlOrTx = sql): Promise<ShareRow[]> =>
      tx<ShareRow[]>`select ${shareColumns(tx)} from story_shares where story_id = ${storyId} order by created_at desc`.then((rows) => [...rows]),

    async revokeShare(storyId: string, shareId: string, tx: SqlOrTx = sql): Promise<ShareRow | undefined> {
      const [row] = await tx<ShareRow[]>`
        update story_shares set revoked_at = coalesce(revoked_at, now()) where story_id = ${storyId} and share_id = ${shareId} returning ${shareColumns(tx)}`;
      return row;
    },

    /** Counts the view in the same statement that checks the link is live; undefined when it is not. */
    async countShareView(storyId: string, shareId: string, tx: SqlOrTx = sql): Promise<{ expires_at: string | null; view_count: number } | undefined> {
      const [share] = await tx<{ expires_at: string | null; view_count: number }[]>`
        update story_shares set view_count = view_count + 1, last_viewed_at = now()
         where share_id = ${shareId} and story_id = ${storyId} and revoked_at is null and (expires_at is null or expires_at > now())
        returning ${isoUtc(tx, 'expires_at')} as expires_at, view_count`;
      return share;
    },
  };
}

export type StoriesRepository = ReturnType<typeof createStoriesRepository>;
