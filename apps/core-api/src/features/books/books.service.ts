// Books (spec 000 Books): the caller's books and their family's, create with selected stories as
// chapters in one transaction, edit, delete, chapters added, removed and reordered later, and the
// content analysis. A book's owner is books.user_id; changing it or its chapters needs create_books
// over that owner (the owner alone), reading it needs view_stories (the owner's family too).
import type { Sql } from 'postgres';
import { AppError, badRequest, notFound } from '@story/http';
import type { LanguageModel } from '@story/providers';
import type { AccessPolicy } from '../access/access.policy';
import type { TemplatesService } from '../templates/templates.service';
import { appendChapters, lockBookForChange, removeChapter, reorderChapters, type LockedBook, type Tx } from './book-chapters';
import type { AddChapterInput, ContentAnalysis, CreateBookInput, UpdateBookInput } from './books.schemas';
import { analyseContent, type ChapterText } from './content-analysis';
import { createBooksListCache } from './books-list-cache';
import { createBooksRepository, type BookView } from './books.repository';

const TEMPLATE_FIELDS = [
  ['template_id', 'book_templates'],
  ['interior_template_id', 'book_templates'],
  ['cover_template_id', 'cover_templates'],
] as const;

export function createBooksService({ sql, access, templates, llm, log }: { sql: Sql; access: AccessPolicy; templates: TemplatesService; llm: LanguageModel; log?: (err: unknown) => void }) {
  const repo = createBooksRepository(sql);
  // 32 MB: about a hundred callers with lists as long as the bench's, many more with ordinary ones.
  const listCache = createBooksListCache({ maxBytes: 32 * 1024 * 1024 });

  async function loadBook(tx: Tx, id: string): Promise<BookView> {
    const row = await repo.findById(id, tx);
    if (!row) throw notFound('Book');
    return row;
  }

  /** Ids a book points at must be the caller's to point at: 404 naming the field otherwise. */
  async function assertReferences(tx: Tx, callerId: string, input: Partial<Pick<CreateBookInput, 'campaign_id' | 'family_group_id' | 'template_id' | 'cover_template_id' | 'interior_template_id'>>) {
    if (input.campaign_id) {
      if (!(await repo.isCampaignOf(input.campaign_id, callerId, tx))) throw notFound('Campaign', { field: 'campaign_id' });
    }
    if (input.family_group_id) {
      if (!(await repo.isActiveMember(input.family_group_id, callerId, tx))) throw notFound('Family group', { field: 'family_group_id' });
    }
    for (const [field, table] of TEMPLATE_FIELDS) {
      const id = input[field];
      if (id && !(await templates.exists(table, id))) throw badRequest(`Invalid ${field}: no template "${id}"`, { field });
    }
  }

  async function storyForSource(tx: Tx, callerId: string, input: AddChapterInput): Promise<string> {
    if (input.storyId) return input.storyId;
    if (input.recordingId) {
      const r = await repo.recordingStory(input.recordingId, tx);
      // Someone else's recording is unknown, whatever state it is in.
      if (!r || !(await access.roleFor(callerId, r.userId))) throw notFound('Recording', { field: 'recordingId' });
      if (!r.storyId) throw new AppError('conflict', 'This recording has not been turned into a story yet: convert it first', { field: 'recordingId' });
      return r.storyId;
    }
    // A conversation's story is the one its conversion produced.
    const conversationId = input.conversationId ?? '';
    const storyId = await repo.conversationStory(conversationId, tx);
    if (!storyId) {
      const owner = await repo.conversationOwner(conversationId, tx);
      if (!owner || !(await access.roleFor(callerId, owner))) throw notFound('Conversation', { field: 'conversationId' });
      throw new AppError('conflict', 'This conversation has not been turned into a story yet: convert it first', { field: 'conversationId' });
    }
    return storyId;
  }

  async function changeChapters(callerId: string, bookId: string, change: (tx: Tx, book: LockedBook) => Promise<void>): Promise<BookView> {
    return repo.transaction(async (tx) => {
      const book = await lockBookForChange(tx, access, callerId, bookId);
      await change(tx, book);
      return loadBook(tx, bookId);
    });
  }

  return {
    loadBook,

    /**
     * {books: the caller's, familyBooks: those of owners the caller shares an active family group with},
     * as JSON text built by PostgreSQL. Fifty books of forty chapters are a third of a megabyte of
     * JSON: parsing the jsonb chapters into objects only to serialise them again cost more than the
     * query itself, so the answer is assembled where the rows are and passed through untouched. The
     * fingerprint (the ETag) says which rows it holds; an unchanged list comes from listCache after one
     * small query, and `body` is null when the caller already holds that version (If-None-Match).
     */
    async listJson(callerId: string, ifNoneMatch?: string): Promise<{ etag: string; body: Buffer | null }> {
      const fingerprint = await repo.listFingerprint(callerId);
      const etag = `"${fingerprint}"`;
      if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return { etag, body: null };
      const cached = listCache.get(callerId, fingerprint);
      if (cached) return { etag, body: cached };
      const fresh = await repo.listJson(callerId);
      listCache.set(callerId, fresh);
      return { etag: `"${fresh.fingerprint}"`, body: fresh.body };
    },

    /** The book, its chapters (selectedStories in order) and the mirror, all or nothing. */
    async create(callerId: string, input: CreateBookInput): Promise<{ book: BookView; message: string; chapters_imported: number }> {
      return repo.transaction(async (tx) => {
        await assertReferences(tx, callerId, input);
        const id = await repo.insert(
          {
            userId: callerId,
            title: input.title,
            subtitle: input.subtitle ?? null,
            authorName: input.author_name,
            bookType: input.book_type,
            campaignId: input.campaign_id ?? null,
            familyGroupId: input.family_group_id ?? null,
            templateId: input.template_id ?? null,
            coverTemplateId: input.cover_template_id ?? null,
            interiorTemplateId: input.interior_template_id ?? null,
            trimSize: input.trim_size,
            keywords: input.keywords,
            categories: input.categories,
            language: input.language,
            kdpEnrolled: input.kdp_enrolled,
            kdpSelect: input.kdp_select,
          },
          tx,
        );
        const book = { id, userId: callerId };
        await appendChapters(tx, access, callerId, book, input.selectedStories, 'selectedStories');
        const view = await loadBook(tx, book.id);
        const n = input.selectedStories.length;
        return { book: view, chapters_imported: n, message: n === 0 ? 'Book created' : `Book created with ${n} chapter${n === 1 ? '' : 's'}` };
      });
    },

    async get(callerId: string, bookId: string): Promise<BookView> {
      const book = await loadBook(sql, bookId);
      await access.require(callerId, book.user_id, 'view_stories', 'Book');
      return book;
    },

    async update(callerId: string, bookId: string, input: UpdateBookInput): Promise<BookView> {
      return repo.transaction(async (tx) => {
        await lockBookForChange(tx, access, callerId, bookId);
        await assertReferences(tx, callerId, input);
        const set: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(input)) if (value !== undefined) set[key] = value;
        await repo.update(bookId, set, tx);
        return loadBook(tx, bookId);
      });
    },

    /** Deletes the book (chapters go with it, stories stay and are unbound); returns the stored export files to remove. */
    async remove(callerId: string, bookId: string): Promise<string[]> {
      return repo.transaction(async (tx) => {
        await lockBookForChange(tx, access, callerId, bookId);
        return repo.delete(bookId, tx);
      });
    },

    addChapter(callerId: string, bookId: string, input: AddChapterInput): Promise<BookView> {
      return changeChapters(callerId, bookId, async (tx, book) => {
        const storyId = await storyForSource(tx, callerId, input);
        const field = input.storyId ? 'storyId' : input.recordingId ? 'recordingId' : 'conversationId';
        await appendChapters(tx, access, callerId, book, [storyId], field);
      });
    },

    removeChapter(callerId: string, bookId: string, storyId: string): Promise<BookView> {
      return changeChapters(callerId, bookId, (tx, book) => removeChapter(tx, book, storyId));
    },

    reorder(callerId: string, bookId: string, storyIds: string[]): Promise<BookView> {
      return changeChapters(callerId, bookId, (tx, book) => reorderChapters(tx, book, storyIds));
    },

    async analyse(callerId: string, input: { bookId?: string; storyIds?: string[] }): Promise<ContentAnalysis> {
      let chapters: ChapterText[];
      if (input.bookId) {
        const book = await loadBook(sql, input.bookId).catch((err: unknown) => {
          throw err instanceof AppError && err.kind === 'not_found' ? notFound('Book', { field: 'bookId' }) : err;
        });
        await access.require(callerId, book.user_id, 'view_stories', 'Book');
        chapters = await repo.chapterTexts(input.bookId);
      } else {
        const ids = [...new Set(input.storyIds ?? [])];
        const rows = await repo.storyTexts(ids);
        const byId = new Map(rows.map((r) => [r.id, r]));
        chapters = [];
        for (const id of ids) {
          const story = byId.get(id);
          if (!story || !(await access.roleFor(callerId, story.userId))) throw notFound(`Story ${id}`, { field: 'storyIds' });
          chapters.push(story);
        }
      }
      return analyseContent(chapters, { llm, userId: callerId, log });
    },
  };
}

export type BooksService = ReturnType<typeof createBooksService>;
