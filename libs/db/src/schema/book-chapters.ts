// The chapter links of books (spec 000 Book: chapters, story = chapter model): one row per story in a book.
// Apart from books.ts because it points at both books and stories, and stories.book_id points at books.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { books } from './books';
import { stories } from './stories';
import { createdAtNoTz, id, updatedAtNoTz } from './_columns';

/** Links a story to a book as one chapter. */
export const bookChapters = pgTable(
  'book_chapters',
  {
    id: id(),
    bookId: uuid('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    storyId: uuid('story_id')
      .notNull()
      .references(() => stories.id, { onDelete: 'cascade' }),
    chapterNumber: integer('chapter_number').notNull(),
    /** Chapter title when it differs from the story title. */
    title: text('title'),
    createdAt: createdAtNoTz(),
    updatedAt: updatedAtNoTz(),
  },
  (t) => [
    // A story appears once per book. chapter_number is not unique: reordering rewrites many rows and
    // a non-deferrable unique would trip mid-update; the service renumbers in one transaction.
    uniqueIndex('book_chapters_book_story_key').on(t.bookId, t.storyId),
    index('book_chapters_book_number_idx').on(t.bookId, t.chapterNumber),
    index('book_chapters_story_id_idx').on(t.storyId),
    check('book_chapters_number_check', sql`chapter_number > 0`),
  ],
);
