// Books assembled from stories (spec 000 "Book", story = chapter model; the chapter links are in
// book-chapters.ts) and the book and cover templates a book is laid out with. Book rows use zone-less
// timestamps (Memories rule 2).
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { campaigns } from './campaigns';
import { familyGroups } from './family';
import { createdAt, createdAtNoTz, id, oneOf, updatedAt, updatedAtNoTz } from './_columns';

/** Shared shape of book and cover templates: seeded reference data with readable slug ids. */
const templateColumns = () => ({
  /** Slug such as 'classic-memoir': stable across environments, so seeds and clients can name it. */
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  previewUrl: text('preview_url'),
  category: text('category'),
  /** Set for templates offered by GET /api/templates/[relationshipType]. */
  relationshipType: text('relationship_type'),
  /** Layout values (fonts, margins, colours) the renderer reads. */
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  sortOrder: integer('sort_order').notNull().default(0),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const bookTemplates = pgTable('book_templates', templateColumns(), (t) => [
  index('book_templates_category_idx').on(t.category),
  index('book_templates_relationship_type_idx').on(t.relationshipType),
]);

export const coverTemplates = pgTable('cover_templates', templateColumns(), (t) => [
  index('cover_templates_category_idx').on(t.category),
  index('cover_templates_relationship_type_idx').on(t.relationshipType),
]);

/** Trim sizes (inches, width x height) the print-ready PDF can be laid out at. */
export const TRIM_SIZES = ['5x8', '5.25x8', '5.5x8.5', '6x9', '7x10', '8x10', '8.5x11'] as const;
export type TrimSize = (typeof TRIM_SIZES)[number];
export const BOOK_STATUSES = ['draft', 'in_progress', 'completed', 'published'] as const;
export type BookStatus = (typeof BOOK_STATUSES)[number];

/** Chapter summary kept on the book row (spec 000 "Book" chapters). */
export interface BookChapterSummary {
  /** The story id: a chapter is a story. */
  id: string;
  chapter_number: number;
  title: string;
  word_count: number;
  status: string;
}

export const books = pgTable(
  'books',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    subtitle: text('subtitle'),
    authorName: text('author_name'),
    /** Open set (memoir, biography, cookbook, ...): no check. */
    bookType: text('book_type').notNull().default('memoir'),
    status: text('status').$type<BookStatus>().notNull().default('draft'),
    /** Story ids in chapter order, mirrored from book_chapters for the API shape. */
    storyIds: uuid('story_ids').array().notNull().default(sql`'{}'::uuid[]`),
    wordCount: integer('word_count').notNull().default(0),
    chapters: jsonb('chapters').$type<BookChapterSummary[]>().notNull().default([]),
    campaignId: uuid('campaign_id').references(() => campaigns.id, { onDelete: 'set null' }),
    familyGroupId: uuid('family_group_id').references((): AnyPgColumn => familyGroups.id, { onDelete: 'set null' }),
    templateId: text('template_id').references(() => bookTemplates.id, { onDelete: 'set null' }),
    coverTemplateId: text('cover_template_id').references(() => coverTemplates.id, { onDelete: 'set null' }),
    /** Interior layouts are book templates too. */
    interiorTemplateId: text('interior_template_id').references(() => bookTemplates.id, { onDelete: 'set null' }),
    trimSize: text('trim_size').$type<TrimSize>().notNull().default('6x9'),
    keywords: text('keywords').array().notNull().default(sql`'{}'::text[]`),
    categories: text('categories').array().notNull().default(sql`'{}'::text[]`),
    language: text('language').notNull().default('en'),
    kdpEnrolled: boolean('kdp_enrolled').notNull().default(false),
    kdpSelect: boolean('kdp_select').notNull().default(false),
    /**
     * This book as one summary of GET /api/books (JSON text: the Book without its chapters array, with
     * chapter_count), written by a BEFORE trigger from the row itself (migration 0023), so the list joins
     * stored texts instead of building fifty objects per request. Never set by hand.
     */
    summaryJson: text('summary_json'),
    createdAt: createdAtNoTz(),
    updatedAt: updatedAtNoTz(),
  },
  (t) => [
    index('books_user_id_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    index('books_campaign_id_idx').on(t.campaignId),
    // The admin dashboard's feed of published books, newest first.
    index('books_published_updated_idx').on(t.updatedAt.desc().nullsFirst()).where(sql`status = 'published'`),
    // familyBooks of GET /api/books: the books of the caller's family groups.
    index('books_family_group_id_idx').on(t.familyGroupId),
    index('books_template_id_idx').on(t.templateId),
    index('books_cover_template_id_idx').on(t.coverTemplateId),
    index('books_interior_template_id_idx').on(t.interiorTemplateId),
    check('books_status_check', oneOf('status', BOOK_STATUSES)),
    check('books_trim_size_check', oneOf('trim_size', TRIM_SIZES)),
    check('books_word_count_check', sql`word_count >= 0`),
  ],
);
