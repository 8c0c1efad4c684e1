// Stories made through the stories API (spec 000 Stories): listing through the access policy, create
// with sanitised content and word count, edit and delete by permission, share links, typography and
// header-footer settings. A story's owner is stories.user_id (the campaign owner for a story written in
// someone's campaign); its author, when another family member wrote it, is metadata.authorId.
import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import { one } from '@story/db';
import { AppError, badRequest, notFound } from '@story/http';
import type { AccessPolicy, Permission } from '../access/access.policy';
import { appendChapters, lockBookForChange, refreshBook, removeChapter, type Tx } from '../books/book-chapters';
import { countWords, MAX_CONTENT, sanitizeContent } from './story-content';
import { headerFooterOf, headerFooterSchema, typographyOf, type HeaderFooter, type Typography } from './story-layout';

export interface StoryView {
  id: string;
  userId: string;
  authorId: string;
  campaignId: string | null;
  title: string;
  type: string;
  content: string;
  metadata: Record<string, unknown>;
  book_id: string | null;
  ai_enhanced: boolean;
  source_recording_ids: string[];
  source_conversation_ids: string[];
  wordCount: number;
  /** text or voice for campaign responses; null for stories made through this API. */
  responseType: string | null;
  provenance?: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
}

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

export function toStoryView(row: StoryRow): StoryView {
  const metadata = row.metadata ?? {};
  const author = typeof metadata['authorId'] === 'string' ? (metadata['authorId'] as string) : row.user_id;
  return {
    id: row.id,
    userId: row.user_id,
    authorId: author,
    campaignId: row.campaign_id,
    title: row.title ?? row.prompt ?? '',
    type: row.type,
    content: row.content ?? row.response_text ?? '',
    metadata,
    book_id: row.book_id,
    ai_enhanced: row.ai_enhanced,
    source_recording_ids: row.source_recording_ids ?? [],
    source_conversation_ids: row.source_conversation_ids ?? [],
    wordCount: row.word_count,
    responseType: row.response_type,
    ...(row.provenance ? { provenance: row.provenance } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface CreateStoryInput {
  title: string;
  campaignId?: string;
  type?: string;
  content?: string;
  metadata?: Record<string, unknown>;
  bookId?: string;
  aiEnhanced?: boolean;
  sourceRecordingIds?: string[];
  sourceConversationIds?: string[];
}

export interface UpdateStoryInput {
  title?: string;
  type?: string;
  content?: string;
  metadata?: Record<string, unknown>;
  bookId?: string | null;
  aiEnhanced?: boolean;
  sourceRecordingIds?: string[];
  sourceConversationIds?: string[];
}

export interface ListInput {
  limit: number;
  cursor?: string;
  page?: number;
}

export interface ShareView {
  id: string;
  shareId: string;
  storyId: string;
  url: string;
  expiresAt: string | null;
  revokedAt: string | null;
  viewCount: number;
  createdAt: string;
}

interface ShareRow {
  id: string;
  share_id: string;
  story_id: string;
  expires_at: string | null;
  revoked_at: string | null;
  view_count: number;
  created_at: string;
}

// Timestamps leave PostgreSQL as ISO 8601 UTC text: the shared client hands timestamps over unparsed
// (drizzle's driver setup), and zone-less columns hold UTC wall time (libs/db _columns).
export const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const COLUMNS = `s.id, s.user_id, s.campaign_id, s.title, s.prompt, s.response_text, s.response_type, s.type, s.content, s.metadata,
  s.book_id, s.ai_enhanced, s.source_recording_ids, s.source_conversation_ids, s.word_count, s.provenance,
  to_char(s.created_at, ${ISO_UTC}) as created_at, to_char(s.updated_at, ${ISO_UTC}) as updated_at`;
const SHARE_COLUMNS = `id, share_id, story_id, to_char(expires_at, ${ISO_UTC}) as expires_at, to_char(revoked_at, ${ISO_UTC}) as revoked_at,
  view_count, to_char(created_at, ${ISO_UTC}) as created_at`;

/** Keyset cursor: the exact (created_at, id) of the last row, microseconds included. */
function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`, 'utf8').toString('base64url');
}
function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/.test(createdAt) || !/^[0-9a-f-]{36}$/i.test(id)) {
    throw badRequest('Invalid query.cursor: not a cursor this API returned', { field: 'query.cursor' });
  }
  return { createdAt, id };
}

function contentOrThrow(raw: string): { content: string; wordCount: number } {
  const content = sanitizeContent(raw);
  // Sanitising can lengthen text (a bare & becomes &amp;): the stored form must meet the limit too.
  if (content.length > MAX_CONTENT) throw badRequest(`Invalid content: at most ${MAX_CONTENT} characters once sanitised`, { field: 'content' });
  return { content, wordCount: countWords(content) };
}

export function createStoriesService({ sql, access, publicBaseUrl }: { sql: Sql; access: AccessPolicy; publicBaseUrl: string }) {
  const shareUrl = (storyId: string, shareId: string) => `${publicBaseUrl}/api/stories/${storyId}/share/${shareId}`;
  const toShareView = (r: ShareRow): ShareView => ({
    id: r.id,
    shareId: r.share_id,
    storyId: r.story_id,
    url: shareUrl(r.story_id, r.share_id),
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    viewCount: r.view_count,
    createdAt: r.created_at,
  });

  async function loadRow(tx: Tx, id: string, lock = false): Promise<StoryRow> {
    const rows = await tx.unsafe<StoryRow[]>(`select ${COLUMNS} from stories s where s.id = $1${lock ? ' for update' : ''}`, [id]);
    const row = rows[0];
    if (!row) throw notFound('Story');
    return row;
  }

  /** Load a story and check the caller's permission on it (404 without a role, 403 without the permission). */
  async function authorised(tx: Tx, callerId: string, id: string, permission: Permission, lock = false): Promise<StoryRow> {
    const row = await loadRow(tx, id, lock);
    await access.require(callerId, row.user_id, permission, 'Story', { isAuthor: toStoryView(row).authorId === callerId });
    return row;
  }

  /** Recording and conversation ids must be the story owner's own. */
  async function assertSources(tx: Tx, ownerId: string, recordingIds: string[] | undefined, conversationIds: string[] | undefined) {
    if (recordingIds?.length) {
      const found = await tx`select id from recordings where id = any(${recordingIds}::uuid[]) and user_id = ${ownerId}`;
      if (found.length !== new Set(recordingIds).size) throw notFound('Recording', { field: 'source_recording_ids' });
    }
    if (conversationIds?.length) {
      const found = await tx`select id from conversations where id = any(${conversationIds}::uuid[]) and user_id = ${ownerId}`;
      if (found.length !== new Set(conversationIds).size) throw notFound('Conversation', { field: 'source_conversation_ids' });
    }
  }

  return {
    /**
     * The caller's stories and those of owners the policy lets them see, newest first, keyset-paged, as
     * the JSON text of {stories, nextCursor, hasMore}. PostgreSQL builds each story's JSON (the shape
     * toStoryView gives), so the hottest list of the API skips decoding rows into objects only to
     * serialise them again.
     */
    async listJson(callerId: string, input: ListInput): Promise<string> {
      const owners = await access.visibleOwners(callerId);
      const after = input.cursor ? decodeCursor(input.cursor) : null;
      const params: unknown[] = [];
      const p = (v: unknown) => {
        params.push(v);
        return `$${params.length}`;
      };
      // One owner (the common case) keeps the plan on stories_user_id_created_idx: an index range read
      // in order, stopping after limit + 1 rows whatever the library's size.
      const ownerClause = owners.length === 1 ? `s.user_id = ${p(owners[0])}` : `s.user_id = any(${p(owners)}::uuid[])`;
      const afterClause = after ? ` and (s.created_at, s.id) < (${p(after.createdAt)}::timestamp, ${p(after.id)}::uuid)` : '';
      const offset = !after && input.page ? ` offset ${p(input.page * input.limit)}` : '';
      const limit = p(input.limit);
      const [row] = await sql.unsafe<{ stories: string; total: number; cursor_ts: string | null; last_id: string | null }[]>(
        `select coalesce(json_agg(x.obj order by x.n) filter (where x.n <= ${limit}), '[]')::text as stories,
                count(*)::int as total,
                (array_agg(x.cursor_ts) filter (where x.n = ${limit}))[1] as cursor_ts,
                (array_agg(x.id) filter (where x.n = ${limit}))[1] as last_id
           from (select page.*, row_number() over (order by page.created_at desc, page.id desc) as n
                   -- The page's ids first, its JSON after: an offset skips rows before anything is built for them.
                   from (select s.id, s.created_at, to_char(s.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.US') as cursor_ts,
                                json_build_object(
                                  'id', s.id, 'userId', s.user_id,
                                  'authorId', case when jsonb_typeof(s.metadata->'authorId') = 'string' then s.metadata->>'authorId' else s.user_id::text end,
                                  'campaignId', s.campaign_id, 'title', coalesce(s.title, s.prompt, ''), 'type', s.type,
                                  'content', coalesce(s.content, s.response_text, ''), 'metadata', s.metadata, 'book_id', s.book_id,
                                  'ai_enhanced', s.ai_enhanced, 'source_recording_ids', s.source_recording_ids,
                                  'source_conversation_ids', s.source_conversation_ids, 'wordCount', s.word_count,
                                  'responseType', s.response_type, 'createdAt', to_char(s.created_at, ${ISO_UTC}),
                                  'updatedAt', to_char(s.updated_at, ${ISO_UTC})
                                ) as obj
                           from (select s.id from stories s where ${ownerClause}${afterClause}
                                  order by s.created_at desc, s.id desc limit ${limit}::int + 1${offset}) ids
                           join stories s on s.id = ids.id) page) x`,
        params as never[],
      );
      const hasMore = (row?.total ?? 0) > input.limit;
      const nextCursor = hasMore && row?.cursor_ts && row.last_id ? encodeCursor(row.cursor_ts, row.last_id) : null;
      return `{"stories":${row?.stories ?? '[]'},"nextCursor":${JSON.stringify(nextCursor)},"hasMore":${hasMore}}`;
    },

    async create(callerId: string, input: CreateStoryInput): Promise<StoryView> {
      const { content, wordCount } = contentOrThrow(input.content ?? '');
      return sql.begin(async (tx) => {
        let ownerId = callerId;
        if (input.campaignId) {
          const [campaign] = await tx<{ userId: string }[]>`select user_id as "userId" from campaigns where id = ${input.campaignId}`;
          if (!campaign) throw notFound('Campaign', { field: 'campaignId' });
          await access.require(callerId, campaign.userId, 'create_stories', 'Campaign');
          // A contributor's story belongs to the campaign's owner; who wrote it is kept as the author.
          ownerId = campaign.userId;
        }
        await assertSources(tx, ownerId, input.sourceRecordingIds, input.sourceConversationIds);
        const metadata = { ...(input.metadata ?? {}), authorId: callerId };
        const created = one(
          await tx<{ id: string }[]>`
          insert into stories (user_id, campaign_id, title, type, content, metadata, ai_enhanced, source_recording_ids, source_conversation_ids, word_count)
          values (${ownerId}, ${input.campaignId ?? null}, ${input.title}, ${input.type ?? 'story'}, ${content}, ${JSON.stringify(metadata)}::jsonb,
                  ${input.aiEnhanced ?? false}, ${input.sourceRecordingIds ?? []}::uuid[], ${input.sourceConversationIds ?? []}::uuid[], ${wordCount})
          returning id`,
        );
        const id = created.id;
        if (input.bookId) {
          const book = await lockBookForChange(tx, access, callerId, input.bookId).catch((err: unknown) => {
            throw err instanceof AppError && err.kind === 'not_found' ? notFound('Book', { field: 'book_id' }) : err;
          });
          await appendChapters(tx, access, callerId, book, [id], 'book_id');
        }
        return toStoryView(await loadRow(tx, id));
      });
    },

    async get(callerId: string, id: string): Promise<StoryView> {
      return toStoryView(await authorised(sql, callerId, id, 'view_stories'));
    },

    async update(callerId: string, id: string, input: UpdateStoryInput): Promise<StoryView> {
      const next = input.content === undefined ? null : contentOrThrow(input.content);
      return sql.begin(async (tx) => {
        const row = await authorised(tx, callerId, id, 'edit_stories', true);
        await assertSources(tx, row.user_id, input.sourceRecordingIds, input.sourceConversationIds);
        // authorId is the server's record of who wrote it: a client's metadata cannot change it.
        const authorId = toStoryView(row).authorId;
        const metadata = input.metadata === undefined ? null : { ...input.metadata, authorId };
        await tx`
          update stories set
            title = coalesce(${input.title ?? null}, title),
            type = coalesce(${input.type ?? null}, type),
            content = case when ${next !== null} then ${next?.content ?? null} else content end,
            word_count = case when ${next !== null} then ${next?.wordCount ?? 0} else word_count end,
            metadata = coalesce(${metadata === null ? null : JSON.stringify(metadata)}::jsonb, metadata),
            ai_enhanced = coalesce(${input.aiEnhanced ?? null}, ai_enhanced),
            source_recording_ids = coalesce(${input.sourceRecordingIds ?? null}::uuid[], source_recording_ids),
            source_conversation_ids = coalesce(${input.sourceConversationIds ?? null}::uuid[], source_conversation_ids),
            updated_at = now()
          where id = ${id}`;
        if (input.bookId !== undefined && input.bookId !== row.book_id) {
          if (row.book_id) await removeChapter(tx, await lockBookForChange(tx, access, callerId, row.book_id), id);
          if (input.bookId) {
            const book = await lockBookForChange(tx, access, callerId, input.bookId).catch((err: unknown) => {
              throw err instanceof AppError && err.kind === 'not_found' ? notFound('Book', { field: 'book_id' }) : err;
            });
            await appendChapters(tx, access, callerId, book, [id], 'book_id');
          }
        } else if (row.book_id && (input.title !== undefined || next !== null)) {
          // The book mirrors chapter titles and word counts.
          await refreshBook(tx, row.book_id);
        }
        return toStoryView(await loadRow(tx, id));
      });
    },

    async remove(callerId: string, id: string): Promise<void> {
      await sql.begin(async (tx) => {
        const row = await authorised(tx, callerId, id, 'delete_stories', true);
        if (row.book_id) await tx`select id from books where id = ${row.book_id} for update`;
        await tx`delete from stories where id = ${id}`;
        // The chapter row went with the story (cascade): close the gap it left in the book.
        if (row.book_id) await refreshBook(tx, row.book_id);
      });
    },

    // Share links: a public, read-only view of one story, revocable, optionally expiring.
    async createShare(callerId: string, id: string, input: { expiresInDays?: number }): Promise<ShareView> {
      await authorised(sql, callerId, id, 'manage_settings');
      // 192 random bits, base64url: unguessable and URL-safe.
      const shareId = randomBytes(24).toString('base64url');
      const days = input.expiresInDays ?? null;
      const row = await sql.unsafe<ShareRow[]>(
        `insert into story_shares (story_id, share_id, created_by, expires_at)
         values ($1, $2, $3, case when $4::int is null then null else now() + make_interval(days => $4::int) end)
         returning ${SHARE_COLUMNS}`,
        [id, shareId, callerId, days] as never[],
      );
      return toShareView(one(row));
    },

    async listShares(callerId: string, id: string): Promise<ShareView[]> {
      await authorised(sql, callerId, id, 'manage_settings');
      const rows = await sql.unsafe<ShareRow[]>(`select ${SHARE_COLUMNS} from story_shares where story_id = $1 order by created_at desc`, [id]);
      return rows.map(toShareView);
    },

    async revokeShare(callerId: string, id: string, shareId: string): Promise<ShareView> {
      await authorised(sql, callerId, id, 'manage_settings');
      const [row] = await sql.unsafe<ShareRow[]>(
        `update story_shares set revoked_at = coalesce(revoked_at, now()) where story_id = $1 and share_id = $2 returning ${SHARE_COLUMNS}`,
        [id, shareId],
      );
      if (!row) throw notFound('Share link');
      return toShareView(row);
    },

    /** The public view: counts the view in the same statement that checks the link is live. */
    async viewShared(storyId: string, shareId: string) {
      const [share] = await sql.unsafe<{ expires_at: string | null; view_count: number }[]>(
        `update story_shares set view_count = view_count + 1, last_viewed_at = now()
          where share_id = $1 and story_id = $2 and revoked_at is null and (expires_at is null or expires_at > now())
         returning to_char(expires_at, ${ISO_UTC}) as expires_at, view_count`,
        [shareId, storyId],
      );
      if (!share) throw notFound('Shared story');
      const [story] = await sql.unsafe<(StoryRow & { typography: unknown })[]>(`select ${COLUMNS}, s.typography from stories s where s.id = $1`, [storyId]);
      if (!story) throw notFound('Shared story');
      const view = toStoryView(story);
      return {
        story: { id: view.id, title: view.title, content: view.content, wordCount: view.wordCount, createdAt: view.createdAt, typography: typographyOf(story.typography) },
        share: { expiresAt: share.expires_at, viewCount: share.view_count },
      };
    },

    async getTypography(callerId: string, id: string): Promise<Typography> {
      await authorised(sql, callerId, id, 'view_stories');
      const [row] = await sql<{ typography: unknown }[]>`select typography from stories where id = ${id}`;
      return typographyOf(row?.typography);
    },

    async putTypography(callerId: string, id: string, input: Typography): Promise<Typography> {
      await authorised(sql, callerId, id, 'edit_stories');
      await sql`update stories set typography = ${JSON.stringify(input)}::jsonb, updated_at = now() where id = ${id}`;
      return input;
    },

    async getHeaderFooter(callerId: string, id: string): Promise<HeaderFooter> {
      await authorised(sql, callerId, id, 'view_stories');
      const [row] = await sql<{ header_footer: unknown }[]>`select header_footer from stories where id = ${id}`;
      return headerFooterOf(row?.header_footer);
    },

    /** Partial update over the current settings; the result is validated whole before it is stored. */
    async putHeaderFooter(callerId: string, id: string, input: Partial<HeaderFooter>): Promise<HeaderFooter> {
      return sql.begin(async (tx) => {
        await authorised(tx, callerId, id, 'edit_stories', true);
        const [row] = await tx<{ header_footer: unknown }[]>`select header_footer from stories where id = ${id}`;
        const merged = headerFooterSchema.parse({ ...headerFooterOf(row?.header_footer), ...input });
        await tx`update stories set header_footer = ${JSON.stringify(merged)}::jsonb, updated_at = now() where id = ${id}`;
        return merged;
      });
    },
  };
}

export type StoriesService = ReturnType<typeof createStoriesService>;
