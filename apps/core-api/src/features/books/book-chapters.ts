// The story = chapter model (spec 000 Book): book_chapters rows give the order, stories.book_id points
// at the book, and the book row mirrors story_ids, chapters and word_count for the API shape. Every
// change goes through these functions inside the caller's transaction, with the book row locked, so
// chapter_number stays contiguous and the mirror never drifts.
import { AppError, badRequest, conflict, notFound } from '@story/http';
import type { AccessPolicy } from '../access/access.policy';
import type { SqlOrTx } from '../sql-fragments';
import { createBookChaptersRepository } from './book-chapters.repository';

/** A transaction or the pool itself: the helpers run in either. */
export type Tx = SqlOrTx;

export interface LockedBook {
  id: string;
  userId: string;
}

/** Lock the book row for a chapter change and check the caller may change the owner's books. */
export async function lockBookForChange(tx: Tx, access: AccessPolicy, callerId: string, bookId: string): Promise<LockedBook> {
  const book = await createBookChaptersRepository(tx).lockBook(bookId);
  if (!book) throw notFound('Book');
  await access.require(callerId, book.userId, 'create_books', 'Book');
  return book;
}

/**
 * Add stories as the next chapters of a locked book, in the given order. Every story must be visible
 * to the caller (else 404 naming it, never more) and owned by the book's owner (a book binds one
 * storyteller's stories); a story already bound to another book is a 409.
 */
export async function appendChapters(tx: Tx, access: AccessPolicy, callerId: string, book: LockedBook, storyIds: readonly string[], field = 'storyId'): Promise<void> {
  if (storyIds.length === 0) return;
  if (new Set(storyIds).size !== storyIds.length) throw badRequest(`Invalid ${field}: a story can appear only once`, { field });
  const repo = createBookChaptersRepository(tx);
  const rows = await repo.lockStories(storyIds);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of storyIds) {
    const story = byId.get(id);
    const role = story ? await access.roleFor(callerId, story.userId) : null;
    if (!story || !role) throw notFound(`Story ${id}`, { field });
    if (story.userId !== book.userId) throw badRequest(`Invalid ${field}: story ${id} belongs to another storyteller than the book`, { field });
    if (story.bookId && story.bookId !== book.id) throw conflict(`Story ${id} is already a chapter of another book; remove it there first`, { field });
  }
  const max = await repo.lastChapterNumber(book.id);
  const already = new Set(await repo.chapterStoryIds(book.id));
  const fresh = storyIds.filter((id) => !already.has(id));
  if (fresh.length > 0) await repo.insertChapters(book.id, fresh, fresh.map((_, i) => max + i + 1));
  await repo.bindStories(book.id, storyIds);
  await repo.refreshBook(book.id);
}

/** Remove one chapter; the story stays in the library, unbound. */
export async function removeChapter(tx: Tx, book: LockedBook, storyId: string): Promise<void> {
  const repo = createBookChaptersRepository(tx);
  if (!(await repo.deleteChapter(book.id, storyId))) throw notFound('Chapter');
  await repo.refreshBook(book.id);
}

/** Put the chapters in exactly this order: the list must be the book's chapters, each once. */
export async function reorderChapters(tx: Tx, book: LockedBook, storyIds: readonly string[]): Promise<void> {
  const repo = createBookChaptersRepository(tx);
  const current = await repo.chapterStoryIds(book.id);
  const wanted = new Set(storyIds);
  if (wanted.size !== storyIds.length || wanted.size !== current.length || current.some((id) => !wanted.has(id))) {
    throw new AppError('validation', 'Invalid storyIds: list every chapter of the book exactly once', { field: 'storyIds' });
  }
  await repo.renumber(book.id, storyIds, storyIds.map((_, i) => i + 1));
  await repo.refreshBook(book.id);
}

/**
 * Renumber chapters 1..n and rewrite the book's mirror columns. Called after every chapter change and
 * after a chapter's story changes title or words.
 */
export async function refreshBook(tx: Tx, bookId: string): Promise<void> {
  await createBookChaptersRepository(tx).refreshBook(bookId);
}
