// The SQL of the story = chapter model (book_chapters, stories.book_id and the book's mirror columns).
// Always run inside the caller's transaction with the book row locked (see book-chapters.ts).
import { type SqlOrTx } from '../sql-fragments';

export function createBookChaptersRepository(tx: SqlOrTx) {
  return {
    /** Lock the book row; undefined when there is no such book. */
    async lockBook(bookId: string): Promise<{ id: string; userId: string } | undefined> {
      const [book] = await tx<{ id: string; userId: string }[]>`select id, user_id as "userId" from books where id = ${bookId} for update`;
      return book;
    },

    /** Lock the stories too: a concurrent move to another book must not interleave with this one. */
    lockStories: (storyIds: readonly string[]) =>
      tx<{ id: string; userId: string; bookId: string | null }[]>`
        select id, user_id as "userId", book_id as "bookId" from stories where id = any(${storyIds}::uuid[]) for update`,

    async lastChapterNumber(bookId: string): Promise<number> {
      const [{ max } = { max: 0 }] = await tx<{ max: number }[]>`select coalesce(max(chapter_number), 0)::int as max from book_chapters where book_id = ${bookId}`;
      return max;
    },

    async chapterStoryIds(bookId: string): Promise<string[]> {
      return (await tx<{ storyId: string }[]>`select story_id as "storyId" from book_chapters where book_id = ${bookId}`).map((r) => r.storyId);
    },

    async insertChapters(bookId: string, storyIds: string[], numbers: number[]): Promise<void> {
      await tx`
        insert into book_chapters (book_id, story_id, chapter_number)
        select ${bookId}, s, n from unnest(${storyIds}::uuid[], ${numbers}::int[]) as t(s, n)`;
    },

    async bindStories(bookId: string, storyIds: readonly string[]): Promise<void> {
      await tx`update stories set book_id = ${bookId}, updated_at = now() where id = any(${storyIds}::uuid[]) and book_id is distinct from ${bookId}`;
    },

    /** Delete one chapter and unbind its story; false when it was not a chapter of the book. */
    async deleteChapter(bookId: string, storyId: string): Promise<boolean> {
      const removed = await tx`delete from book_chapters where book_id = ${bookId} and story_id = ${storyId} returning id`;
      if (removed.length === 0) return false;
      await tx`update stories set book_id = null, updated_at = now() where id = ${storyId} and book_id = ${bookId}`;
      return true;
    },

    async renumber(bookId: string, storyIds: readonly string[], numbers: number[]): Promise<void> {
      await tx`
        update book_chapters c set chapter_number = t.n, updated_at = now()
          from unnest(${[...storyIds]}::uuid[], ${numbers}::int[]) as t(s, n)
         where c.book_id = ${bookId} and c.story_id = t.s`;
    },

    /**
     * Renumber chapters 1..n (closing gaps left by deleted stories) and rewrite the book's mirror columns
     * from book_chapters joined to stories.
     */
    async refreshBook(bookId: string): Promise<void> {
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
    },
  };
}
