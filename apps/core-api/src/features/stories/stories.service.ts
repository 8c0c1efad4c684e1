// Stories made through the stories API (spec 000 Stories): listing through the access policy, create
// with sanitised content and word count, edit and delete by permission, share links, typography and
// header-footer settings. A story's owner is stories.user_id (the campaign owner for a story written in
// someone's campaign); its author, when another family member wrote it, is metadata.authorId.
import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import { AppError, badRequest, notFound } from '@story/http';
import type { AccessPolicy, Permission } from '../access/access.policy';
import { appendChapters, lockBookForChange, refreshBook, removeChapter, type Tx } from '../books/book-chapters';
import { createStoriesRepository, type ShareRow, type StoryRow } from './stories.repository';
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
  const repo = createStoriesRepository(sql);
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
    const row = await repo.findById(id, { lock }, tx);
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
      const found = await repo.countOwnedSources('recordings', ownerId, recordingIds, tx);
      if (found !== new Set(recordingIds).size) throw notFound('Recording', { field: 'source_recording_ids' });
    }
    if (conversationIds?.length) {
      const found = await repo.countOwnedSources('conversations', ownerId, conversationIds, tx);
      if (found !== new Set(conversationIds).size) throw notFound('Conversation', { field: 'source_conversation_ids' });
    }
  }

  /** The book to bind a story to, locked; an unknown book is a 404 naming book_id. */
  const lockTargetBook = (tx: Tx, callerId: string, bookId: string) =>
    lockBookForChange(tx, access, callerId, bookId).catch((err: unknown) => {
      throw err instanceof AppError && err.kind === 'not_found' ? notFound('Book', { field: 'book_id' }) : err;
    });

  return {
    /**
     * The caller's stories and those of owners the policy lets them see, newest first, keyset-paged, as
     * the JSON text of {stories, nextCursor, hasMore}. PostgreSQL builds each story's JSON (the shape
     * toStoryView gives), so the hottest list of the API skips decoding rows into objects only to
     * serialise them again.
     */
    async listJson(callerId: string, input: ListInput): Promise<string> {
      const after = input.cursor ? decodeCursor(input.cursor) : null;
      const offset = !after && input.page ? input.page * input.limit : null;
      const row = await repo.listPage(callerId, { limit: input.limit, after, offset });
      const hasMore = (row?.total ?? 0) > input.limit;
      const nextCursor = hasMore && row?.cursor_ts && row.last_id ? encodeCursor(row.cursor_ts, row.last_id) : null;
      return `{"stories":${row?.stories ?? '[]'},"nextCursor":${JSON.stringify(nextCursor)},"hasMore":${hasMore}}`;
    },

    async create(callerId: string, input: CreateStoryInput): Promise<StoryView> {
      const { content, wordCount } = contentOrThrow(input.content ?? '');
      return repo.transaction(async (tx) => {
        let ownerId = callerId;
        if (input.campaignId) {
          const campaignOwner = await repo.campaignOwner(input.campaignId, tx);
          if (!campaignOwner) throw notFound('Campaign', { field: 'campaignId' });
          await access.require(callerId, campaignOwner, 'create_stories', 'Campaign');
          // A contributor's story belongs to the campaign's owner; who wrote it is kept as the author.
          ownerId = campaignOwner;
        }
        await assertSources(tx, ownerId, input.sourceRecordingIds, input.sourceConversationIds);
        const id = await repo.insert(
          {
            ownerId,
            campaignId: input.campaignId ?? null,
            title: input.title,
            type: input.type ?? 'story',
            content,
            wordCount,
            metadata: { ...(input.metadata ?? {}), authorId: callerId },
            aiEnhanced: input.aiEnhanced ?? false,
            sourceRecordingIds: input.sourceRecordingIds ?? [],
            sourceConversationIds: input.sourceConversationIds ?? [],
          },
          tx,
        );
        if (input.bookId) await appendChapters(tx, access, callerId, await lockTargetBook(tx, callerId, input.bookId), [id], 'book_id');
        return toStoryView(await loadRow(tx, id));
      });
    },

    async get(callerId: string, id: string): Promise<StoryView> {
      return toStoryView(await authorised(sql, callerId, id, 'view_stories'));
    },

    async update(callerId: string, id: string, input: UpdateStoryInput): Promise<StoryView> {
      const next = input.content === undefined ? null : contentOrThrow(input.content);
      return repo.transaction(async (tx) => {
        const row = await authorised(tx, callerId, id, 'edit_stories', true);
        await assertSources(tx, row.user_id, input.sourceRecordingIds, input.sourceConversationIds);
        // authorId is the server's record of who wrote it: a client's metadata cannot change it.
        const authorId = toStoryView(row).authorId;
        await repo.update(
          id,
          {
            title: input.title,
            type: input.type,
            content: next ?? undefined,
            metadata: input.metadata === undefined ? undefined : { ...input.metadata, authorId },
            aiEnhanced: input.aiEnhanced,
            sourceRecordingIds: input.sourceRecordingIds,
            sourceConversationIds: input.sourceConversationIds,
          },
          tx,
        );
        if (input.bookId !== undefined && input.bookId !== row.book_id) {
          if (row.book_id) await removeChapter(tx, await lockBookForChange(tx, access, callerId, row.book_id), id);
          if (input.bookId) await appendChapters(tx, access, callerId, await lockTargetBook(tx, callerId, input.bookId), [id], 'book_id');
        } else if (row.book_id && (input.title !== undefined || next !== null)) {
          // The book mirrors chapter titles and word counts.
          await refreshBook(tx, row.book_id);
        }
        return toStoryView(await loadRow(tx, id));
      });
    },

    async remove(callerId: string, id: string): Promise<void> {
      await repo.transaction(async (tx) => {
        const row = await authorised(tx, callerId, id, 'delete_stories', true);
        if (row.book_id) await repo.lockBook(row.book_id, tx);
        await repo.delete(id, tx);
        // The chapter row went with the story (cascade): close the gap it left in the book.
        if (row.book_id) await refreshBook(tx, row.book_id);
      });
    },

    // Share links: a public, read-only view of one story, revocable, optionally expiring.
    async createShare(callerId: string, id: string, input: { expiresInDays?: number }): Promise<ShareView> {
      await authorised(sql, callerId, id, 'manage_settings');
      // 192 random bits, base64url: unguessable and URL-safe.
      const shareId = randomBytes(24).toString('base64url');
      return toShareView(await repo.insertShare({ storyId: id, shareId, createdBy: callerId, expiresInDays: input.expiresInDays ?? null }));
    },

    async listShares(callerId: string, id: string): Promise<ShareView[]> {
      await authorised(sql, callerId, id, 'manage_settings');
      return (await repo.listShares(id)).map(toShareView);
    },

    async revokeShare(callerId: string, id: string, shareId: string): Promise<ShareView> {
      await authorised(sql, callerId, id, 'manage_settings');
      const row = await repo.revokeShare(id, shareId);
      if (!row) throw notFound('Share link');
      return toShareView(row);
    },

    /** The public view: counts the view in the same statement that checks the link is live. */
    async viewShared(storyId: string, shareId: string) {
      const share = await repo.countShareView(storyId, shareId);
      if (!share) throw notFound('Shared story');
      const story = await repo.findWithTypography(storyId);
      if (!story) throw notFound('Shared story');
      const view = toStoryView(story);
      return {
        story: { id: view.id, title: view.title, content: view.content, wordCount: view.wordCount, createdAt: view.createdAt, typography: typographyOf(story.typography) },
        share: { expiresAt: share.expires_at, viewCount: share.view_count },
      };
    },

    async getTypography(callerId: string, id: string): Promise<Typography> {
      await authorised(sql, callerId, id, 'view_stories');
      return typographyOf(await repo.getSetting(id, 'typography'));
    },

    async putTypography(callerId: string, id: string, input: Typography): Promise<Typography> {
      await authorised(sql, callerId, id, 'edit_stories');
      await repo.putSetting(id, 'typography', input);
      return input;
    },

    async getHeaderFooter(callerId: string, id: string): Promise<HeaderFooter> {
      await authorised(sql, callerId, id, 'view_stories');
      return headerFooterOf(await repo.getSetting(id, 'header_footer'));
    },

    /** Partial update over the current settings; the result is validated whole before it is stored. */
    async putHeaderFooter(callerId: string, id: string, input: Partial<HeaderFooter>): Promise<HeaderFooter> {
      return repo.transaction(async (tx) => {
        await authorised(tx, callerId, id, 'edit_stories', true);
        const merged = headerFooterSchema.parse({ ...headerFooterOf(await repo.getSetting(id, 'header_footer', tx)), ...input });
        await repo.putSetting(id, 'header_footer', merged, tx);
        return merged;
      });
    },
  };
}

export type StoriesService = ReturnType<typeof createStoriesService>;
