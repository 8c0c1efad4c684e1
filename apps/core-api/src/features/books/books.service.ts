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
import { one, type BookChapterSummary } from '@story/db';
import { ISO_UTC } from '../sql-fragments';

export interface BookView {
  id: string;
  user_id: string;
  title: string;
  subtitle: string | null;
  author_name: string | null;
  book_type: string;
  status: string;
  story_ids: string[];
  word_count: number;
  chapters: BookChapterSummary[];
  campaign_id: string | null;
  family_group_id: string | null;
  template_id: string | null;
  cover_template_id: string | null;
  interior_template_id: string | null;
  trim_size: string;
  keywords: string[];
  categories: string[];
  language: string;
  kdp_enrolled: boolean;
  kdp_select: boolean;
  created_at: string;
  updated_at: string;
}


// Timestamps leave PostgreSQL as ISO 8601 UTC text (zone-less columns hold UTC wall time).
export const BOOK_COLUMNS = `b.id, b.user_id, b.title, b.subtitle, b.author_name, b.book_type, b.status, b.story_ids, b.word_count, b.chapters,
  b.campaign_id, b.family_group_id, b.template_id, b.cover_template_id, b.interior_template_id, b.trim_size, b.keywords, b.categories,
  b.language, b.kdp_enrolled, b.kdp_select, to_char(b.created_at, ${ISO_UTC}) as created_at, to_char(b.updated_at, ${ISO_UTC}) as updated_at`;

const TEMPLATE_FIELDS = [
  ['template_id', 'book_templates'],
  ['interior_template_id', 'book_templates'],
  ['cover_template_id', 'cover_templates'],
] as const;

export function createBooksService({ sql, access, templates, llm, log }: { sql: Sql; access: AccessPolicy; templates: TemplatesService; llm: LanguageModel; log?: (err: unknown) => void }) {
  async function loadBook(tx: Tx, id: string): Promise<BookView> {
    const [row] = await tx.unsafe<BookView[]>(`select ${BOOK_COLUMNS} from books b where b.id = $1`, [id]);
    if (!row) throw notFound('Book');
    return row;
  }

  /** Ids a book points at must be the caller's to point at: 404 naming the field otherwise. */
  async function assertReferences(tx: Tx, callerId: string, input: Partial<Pick<CreateBookInput, 'campaign_id' | 'family_group_id' | 'template_id' | 'cover_template_id' | 'interior_template_id'>>) {
    if (input.campaign_id) {
      const [c] = await tx`select 1 from campaigns where id = ${input.campaign_id} and user_id = ${callerId}`;
      if (!c) throw notFound('Campaign', { field: 'campaign_id' });
    }
    if (input.family_group_id) {
      const [g] = await tx`select 1 from family_members where family_group_id = ${input.family_group_id} and user_id = ${callerId} and status = 'active'`;
      if (!g) throw notFound('Family group', { field: 'family_group_id' });
    }
    for (const [field, table] of TEMPLATE_FIELDS) {
      const id = input[field];
      if (id && !(await templates.exists(table, id))) throw badRequest(`Invalid ${field}: no template "${id}"`, { field });
    }
  }

  async function storyForSource(tx: Tx, callerId: string, input: AddChapterInput): Promise<string> {
    if (input.storyId) return input.storyId;
    if (input.recordingId) {
      const [r] = await tx<{ storyId: string | null; userId: string }[]>`select story_id as "storyId", user_id as "userId" from recordings where id = ${input.recordingId}`;
      // Someone else's recording is unknown, whatever state it is in.
      if (!r || !(await access.roleFor(callerId, r.userId))) throw notFound('Recording', { field: 'recordingId' });
      if (!r.storyId) throw new AppError('conflict', 'This recording has not been turned into a story yet: convert it first', { field: 'recordingId' });
      return r.storyId;
    }
    // A conversation's story is the one its conversion produced.
    const conversationId = input.conversationId ?? '';
    const [c] = await tx<{ storyId: string }[]>`
      select story_id as "storyId" from story_conversions where source_type = 'conversation' and source_id = ${conversationId}`;
    if (!c) {
      const [conversation] = await tx<{ userId: string }[]>`select user_id as "userId" from conversations where id = ${conversationId}`;
      if (!conversation || !(await access.roleFor(callerId, conversation.userId))) throw notFound('Conversation', { field: 'conversationId' });
      throw new AppError('conflict', 'This conversation has not been turned into a story yet: convert it first', { field: 'conversationId' });
    }
    return c.storyId;
  }

  async function changeChapters(callerId: string, bookId: string, change: (tx: Tx, book: LockedBook) => Promise<void>): Promise<BookView> {
    return sql.begin(async (tx) => {
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
     * query itself, so the answer is assembled where the rows are and passed through untouched.
     */
    async listJson(callerId: string): Promise<string> {
      const owners = await access.visibleOwners(callerId);
      const row = one(
        await sql.unsafe<{ body: string }[]>(
        `select json_build_object(
                  'books', coalesce(json_agg(x.obj order by x.created_at desc, x.id desc) filter (where x.user_id = $1), '[]'::json),
                  'familyBooks', coalesce(json_agg(x.obj order by x.created_at desc, x.id desc) filter (where x.user_id <> $1), '[]'::json)
                )::text as body
           from (select b.id, b.user_id, b.created_at, json_build_object(
                   'id', b.id, 'user_id', b.user_id, 'title', b.title, 'subtitle', b.subtitle, 'author_name', b.author_name,
                   'book_type', b.book_type, 'status', b.status, 'story_ids', b.story_ids, 'word_count', b.word_count, 'chapters', b.chapters,
                   'campaign_id', b.campaign_id, 'family_group_id', b.family_group_id, 'template_id', b.template_id,
                   'cover_template_id', b.cover_template_id, 'interior_template_id', b.interior_template_id, 'trim_size', b.trim_size,
                   'keywords', b.keywords, 'categories', b.categories, 'language', b.language, 'kdp_enrolled', b.kdp_enrolled,
                   'kdp_select', b.kdp_select, 'created_at', to_char(b.created_at, ${ISO_UTC}), 'updated_at', to_char(b.updated_at, ${ISO_UTC})
                 ) as obj
                   from books b where b.user_id = any($2::uuid[])
                  order by b.created_at desc, b.id desc limit 1000) x`,
        [callerId, owners] as never[],
        ),
      );
      return row.body;
    },

    /** The book, its chapters (selectedStories in order) and the mirror, all or nothing. */
    async create(callerId: string, input: CreateBookInput): Promise<{ book: BookView; message: string; chapters_imported: number }> {
      return sql.begin(async (tx) => {
        await assertReferences(tx, callerId, input);
        const row = one(
          await tx<{ id: string }[]>`
          insert into books (user_id, title, subtitle, author_name, book_type, campaign_id, family_group_id, template_id, cover_template_id,
                             interior_template_id, trim_size, keywords, categories, language, kdp_enrolled, kdp_select)
          values (${callerId}, ${input.title}, ${input.subtitle ?? null}, ${input.author_name}, ${input.book_type}, ${input.campaign_id ?? null},
                  ${input.family_group_id ?? null}, ${input.template_id ?? null}, ${input.cover_template_id ?? null}, ${input.interior_template_id ?? null},
                  ${input.trim_size}, ${input.keywords}::text[], ${input.categories}::text[], ${input.language}, ${input.kdp_enrolled}, ${input.kdp_select})
          returning id`,
        );
        const book = { id: row.id, userId: callerId };
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
      return sql.begin(async (tx) => {
        await lockBookForChange(tx, access, callerId, bookId);
        await assertReferences(tx, callerId, input);
        const set: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(input)) if (value !== undefined) set[key] = value;
        if (Object.keys(set).length > 0) {
          await tx`update books set ${tx(set as never, ...(Object.keys(set) as never[]))}, updated_at = now() where id = ${bookId}`;
        }
        return loadBook(tx, bookId);
      });
    },

    /** Deletes the book (chapters go with it, stories stay and are unbound); returns the stored export files to remove. */
    async remove(callerId: string, bookId: string): Promise<string[]> {
      return sql.begin(async (tx) => {
        await lockBookForChange(tx, access, callerId, bookId);
        const files = await tx<{ key: string }[]>`select storage_key as key from export_jobs where book_id = ${bookId} and storage_key is not null`;
        await tx`update stories set book_id = null, updated_at = now() where book_id = ${bookId}`;
        await tx`delete from books where id = ${bookId}`;
        return files.map((f) => f.key);
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
        chapters = await sql<ChapterText[]>`
          select s.id, coalesce(c.title, s.title, s.prompt, '') as title, coalesce(s.content, s.response_text, '') as content, s.word_count as "wordCount"
            from book_chapters c join stories s on s.id = c.story_id
           where c.book_id = ${input.bookId} order by c.chapter_number`;
      } else {
        const ids = [...new Set(input.storyIds ?? [])];
        const rows = await sql<(ChapterText & { userId: string })[]>`
          select s.id, coalesce(s.title, s.prompt, '') as title, coalesce(s.content, s.response_text, '') as content, s.word_count as "wordCount", s.user_id as "userId"
            from stories s where s.id = any(${ids}::uuid[])`;
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
