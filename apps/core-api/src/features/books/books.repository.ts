// The SQL of books (CONVENTIONS 7): book rows in the API's shape, the references a book may point at,
// and the chapter texts the content analysis reads. Raw postgres.js; the chapter writes are in
// book-chapters.repository.ts.
import type { Sql } from 'postgres';
import { one, type BookChapterSummary } from '@story/db';
import { isoUtc, type SqlOrTx } from '../sql-fragments';
import { coMemberIds } from '../access/access.repository';
import type { ChapterText } from './content-analysis';

/** A book in the API's shape (spec 000 Book), as every query here returns it. */
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

/** The columns a book is created with (the rest have defaults or are the chapter mirror). */
export interface NewBook {
  userId: string;
  title: string;
  subtitle: string | null;
  authorName: string;
  bookType: string;
  campaignId: string | null;
  familyGroupId: string | null;
  templateId: string | null;
  coverTemplateId: string | null;
  interiorTemplateId: string | null;
  trimSize: string;
  keywords: string[];
  categories: string[];
  language: string;
  kdpEnrolled: boolean;
  kdpSelect: boolean;
}

/** The books the list shows: the caller's and their co-members', newest first (at most 1,000). */
const listedBooks = (tx: SqlOrTx, callerId: string) => tx`
  select b.id, b.user_id, b.created_at, b.summary_json, b.xmin
    from books b where b.user_id = any(array(select ${callerId}::uuid union all ${coMemberIds(tx, callerId)}))
   order by b.created_at desc, b.id desc limit 1000`;

/** md5 of the listed books' ids and row versions (a scalar subquery, usable beside the list itself). */
const fingerprintOf = (tx: SqlOrTx, callerId: string) =>
  tx`(select md5(coalesce(string_agg(f.id::text || ':' || f.xmin::text, ',' order by f.created_at desc, f.id desc), '')) from (${listedBooks(tx, callerId)}) f)`;

export function createBooksRepository(sql: Sql) {
  // Timestamps leave PostgreSQL as ISO 8601 UTC text (zone-less columns hold UTC wall time).
  const bookColumns = (q: SqlOrTx) => q`b.id, b.user_id, b.title, b.subtitle, b.author_name, b.book_type, b.status, b.story_ids, b.word_count, b.chapters,
    b.campaign_id, b.family_group_id, b.template_id, b.cover_template_id, b.interior_template_id, b.trim_size, b.keywords, b.categories,
    b.language, b.kdp_enrolled, b.kdp_select, ${isoUtc(q, 'b.created_at')} as created_at, ${isoUtc(q, 'b.updated_at')} as updated_at`;

  return {
    transaction: <T>(work: (tx: SqlOrTx) => Promise<T>): Promise<T> => sql.begin(work) as Promise<T>,

    async findById(id: string, tx: SqlOrTx = sql): Promise<BookView | undefined> {
      const [row] = await tx<BookView[]>`select ${bookColumns(tx)} from books b where b.id = ${id}`;
      return row;
    },

    /**
     * A fingerprint of exactly the rows the list reads: md5 over each book's id and row version (xmin, new on
     * every insert and update; a deleted book leaves the set), for the caller and every co-member. Reads the
     * index and 50 small heap tuples, never the stored JSON, so validating a cached list costs about as
     * much as a primary-key select.
     */
    async listFingerprint(callerId: string, tx: SqlOrTx = sql): Promise<string> {
      const [row] = await tx<{ fp: string }[]>`select ${fingerprintOf(tx, callerId)} as fp`;
      return row!.fp;
    },

    /**
     * {books: the caller's, familyBooks: the other owners'} as JSON text with the list's fingerprint, read in
     * one statement (one snapshot, so the two agree). Each book is the row's stored summary_json (written by
     * a trigger from the row), so PostgreSQL only joins texts; the owners are the caller and every account
     * sharing an active family group with them (coMemberIds, an init plan whose array drives
     * books_user_id_created_idx), read by the same statement.
     */
    async listJson(callerId: string, tx: SqlOrTx = sql): Promise<{ fingerprint: string; body: Buffer }> {
      // .raw(): the body stays the bytes PostgreSQL sent (376 KB for 50 books of 40 chapters), never decoded to
      // a string only to be encoded again for the socket.
      const [row] = await tx`
        select ${fingerprintOf(tx, callerId)} as fp,
               '{"books":[' || coalesce(string_agg(x.summary_json, ',' order by x.created_at desc, x.id desc) filter (where x.user_id = ${callerId}), '')
               || '],"familyBooks":[' || coalesce(string_agg(x.summary_json, ',' order by x.created_at desc, x.id desc) filter (where x.user_id <> ${callerId}), '')
               || ']}' as body
          from (${listedBooks(tx, callerId)}) x`.raw();
      const [fp, body] = [row?.[0], row?.[1]];
      if (!(body instanceof Buffer) || !(fp instanceof Buffer)) throw new Error('the books list query answered no body');
      return { fingerprint: fp.toString('latin1'), body };
    },

    async isCampaignOf(campaignId: string, userId: string, tx: SqlOrTx = sql): Promise<boolean> {
      const [c] = await tx`select 1 from campaigns where id = ${campaignId} and user_id = ${userId}`;
      return c !== undefined;
    },

    async isActiveMember(familyGroupId: string, userId: string, tx: SqlOrTx = sql): Promise<boolean> {
      const [g] = await tx`select 1 from family_members where family_group_id = ${familyGroupId} and user_id = ${userId} and status = 'active'`;
      return g !== undefined;
    },

    async recordingStory(recordingId: string, tx: SqlOrTx = sql): Promise<{ storyId: string | null; userId: string } | undefined> {
      const [r] = await tx<{ storyId: string | null; userId: string }[]>`select story_id as "storyId", user_id as "userId" from recordings where id = ${recordingId}`;
      return r;
    },

    /** The story a conversation's conversion produced, if any. */
    async conversationStory(conversationId: string, tx: SqlOrTx = sql): Promise<string | undefined> {
      const [c] = await tx<{ storyId: string }[]>`
        select story_id as "storyId" from story_conversions where source_type = 'conversation' and source_id = ${conversationId}`;
      return c?.storyId;
    },

    async conversationOwner(conversationId: string, tx: SqlOrTx = sql): Promise<string | undefined> {
      const [conversation] = await tx<{ userId: string }[]>`select user_id as "userId" from conversations where id = ${conversationId}`;
      return conversation?.userId;
    },

    async insert(book: NewBook, tx: SqlOrTx = sql): Promise<string> {
      const row = one(
        await tx<{ id: string }[]>`
        insert into books (user_id, title, subtitle, author_name, book_type, campaign_id, family_group_id, template_id, cover_template_id,
                           interior_template_id, trim_size, keywords, categories, language, kdp_enrolled, kdp_select)
        values (${book.userId}, ${book.title}, ${book.subtitle}, ${book.authorName}, ${book.bookType}, ${book.campaignId},
                ${book.familyGroupId}, ${book.templateId}, ${book.coverTemplateId}, ${book.interiorTemplateId},
                ${book.trimSize}, ${book.keywords}::text[], ${book.categories}::text[], ${book.language}, ${book.kdpEnrolled}, ${book.kdpSelect})
        returning id`,
      );
      return row.id;
    },

    /** Set the given columns (API field names are column names); nothing when `set` is empty. */
    async update(bookId: string, set: Record<string, unknown>, tx: SqlOrTx = sql): Promise<void> {
      if (Object.keys(set).length === 0) return;
      await tx`update books set ${tx(set as never, ...(Object.keys(set) as never[]))}, updated_at = now() where id = ${bookId}`;
    },

    /** Deletes the book (chapters go with it by cascade, stories stay and are unbound); returns its stored export files. */
    async delete(bookId: string, tx: SqlOrTx = sql): Promise<string[]> {
      const files = await tx<{ key: string }[]>`select storage_key as key from export_jobs where book_id = ${bookId} and storage_key is not null`;
      await tx`update stories set book_id = null, updated_at = now() where book_id = ${bookId}`;
      await tx`delete from books where id = ${bookId}`;
      return files.map((f) => f.key);
    },

    chapterTexts: (bookId: string, tx: SqlOrTx = sql) =>
      tx<ChapterText[]>`
        select s.id, coalesce(c.title, s.title, s.prompt, '') as title, coalesce(s.content, s.response_text, '') as content, s.word_count as "wordCount"
          from book_chapters c join stories s on s.id = c.story_id
         where c.book_id = ${bookId} order by c.chapter_number`,

    storyTexts: (storyIds: string[], tx: SqlOrTx = sql) =>
      tx<(ChapterText & { userId: string })[]>`
        select s.id, coalesce(s.title, s.prompt, '') as title, coalesce(s.content, s.response_text, '') as content, s.word_count as "wordCount", s.user_id as "userId"
          from stories s where s.id = any(${storyIds}::uuid[])`,
  };
}
