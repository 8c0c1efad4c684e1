// The story = chapter model (spec 000 Book): book_chapters rows give the order, stories.book_id points
// at the book, and the book row mirrors story_ids, chapters and word_count for the API shape. Every
// change goes through these functions inside the caller's transaction, with the book row locked, so
// chapter_number stays contiguous and the mirror never drifts.
import type { Sql, TransactionSql } from 'postgres';
import { AppError, badRequest, conflict, notFound } from '@story/http';
import type { AccessPolicy } from '../access/access.policy';

/** A transaction or the pool itself: the helpers run in either. */
export type Tx = Sql | TransactionSql;

export interface LockedBook {
  id: string;
  userId: string;
}

/** Lock the book row for a chapter change and check the caller may change the owner's books. */
export async function lockBookForChange(tx: Tx, access: AccessPolicy, callerId: string, bookId: string): Promise<LockedBook> {
  const [book] = await tx<{ id: string; userId: string }[]>`select id, user_id as "userId" from books where id = ${bookId} for update`;
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
  // Lock the stories too: a concurrent move to another book must not interleave with this one.
  const rows = await tx<{ id: string; userId: string; bookId: string | null }[]>`
    select id, user_id as "userId", book_id as "bookId" from stories where id = any(${storyIds}::uuid[]) for update`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of storyIds) {
    const story = byId.get(id);
    const role = story ? await access.roleFor(callerId, story.userId) : null;
    if (!story || !role) throw notFound(`Story ${id}`, { field });
    if (story.userId !== book.userId) throw badRequest(`Invalid ${field}: story ${id} belongs to another storyteller than the book`, { field });
    if (story.bookId && story.bookId !== book.id) throw conflict(`Story ${id} is already a chapter of another book; remove it there first`, { field });
  }
  const [{ max } = { max: 0 }] = await tx<{ max: number }[]>`select coalesce(max(chapter_number), 0)::int as max from book_chapters where book_id = ${book.id}`;
  const already = new Set((await tx<{ storyId: string }[]>`select story_id as "storyId" from book_chapters where book_id = ${book.id}`).map((r) => r.storyId));
  const fresh = storyIds.filter((id) => !already.has(id));
  if (fresh.length > 0) {
    const numbers = fresh.map((_, i) => max + i + 1);
    await tx`
      insert into book_chapters (book_id, story_id, chapter_number)
      select ${book.id}, s, n from unnest(${fresh}::uuid[], ${numbers}::int[]) as t(s, n)`;
  }
  await tx`update stories set book_id = ${book.id}, updated_at = now() where id = any(${storyIds}::uuid[]) and book_id is distinct from ${book.id}`;
  await refreshBook(tx, book.id);
}

/** Remove one chapter; the story stays in the library, unbound. */
export async function removeChapter(tx: Tx, book: LockedBook, storyId: string): Promise<void> {
  const removed = await tx`delete from book_chapters where book_id = ${book.id} and story_id = ${storyId} returning id`;
  if (removed.length === 0) throw notFound('Chapter');
  await tx`update stories set book_id = null, updated_at = now() where id = ${storyId} and book_id = ${book.id}`;
  await refreshBook(tx, book.id);
}

/** Put the chapters in exactly this order: the list must be the book's chapters, each once. */
export async function reorderChapters(tx: Tx, book: LockedBook, storyIds: readonly string[]): Promise<void> {
  const current = (await tx<{ storyId: string }[]>`select story_id as "storyId" from book_chapters where book_id = ${book.id}`).map((r) => r.storyId);
  const wanted = new Set(storyIds);
  if (wanted.size !== storyIds.length || wanted.size !== current.length || current.some((id) => !wanted.has(id))) {
    throw new AppError('validation', 'Invalid storyIds: list every chapter of the book exactly once', { field: 'storyIds' });
  }
  const numbers = storyIds.map((_, i) => i + 1);
  await tx`
    update book_chapters c set chapter_number = t.n, updated_at = now()
      from unnest(${[...storyIds]}::uuid[], ${numbers}::int[]) as t(s, n)
     where c.book_id = ${book.id} and c.story_id = t.s`;
  await refreshBook(tx, book.id);
}

/**
 * Renumber chapters 1..n (closing gaps left by deleted stories) and rewrite the book's mirror columns
 * from book_chapters joined to stories. Called after every chapter change and after a chapter's story
 * changes title or words.
 */
export async function refreshBook(tx: Tx, bookId: string): Promise<void> {
  await tx`
    with ordered as (
      select id, row_number() over (order by chapter_number, created_at, id)::int as n from book_chapters where book_id = ${bookId}
    )
    update book_chapters c set chapter_number = o.n, updated_at = now()
      from ordered o where c.id = o.id and c.chapter_number <> o.n`;
  await tx`
    update books b set
      story_ids = coalesce(agg.ids, '{}'::uuid[]),
      chapters = coalesce(agg.chapters, '[]'::jsonb),
      word_count = coalesce(agg.words, 0),
      updated_at = now()
    from (
      select array_agg(c.story_id order by c.chapter_number) as ids,
             jsonb_agg(jsonb_build_object(
               'id', s.id, 'chapter_number', c.chapter_number, 'title', coalesce(c.title, s.title, s.prompt, ''),
               'word_count', s.word_count, 'status', case when s.word_count > 0 then 'completed' else 'draft' end
             ) order by c.chapter_number) as chapters,
             sum(s.word_count)::int as words
        from book_chapters c join stories s on s.id = c.story_id
       where c.book_id = ${bookId}
    ) agg
    where b.id = ${bookId}`;
}
