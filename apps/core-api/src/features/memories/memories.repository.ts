// The SQL of the memories page (spec 000 "Memories and archive"), raw postgres.js. One storyteller's
// content from five sources: recordings split by media type (audio, video), images, stories, and the
// newest completed interior/cover export of each of the storyteller's books.
//
// Why the page query is shaped so: every branch yields only (source, id, at) straight from an index that is
// ordered exactly as the page (at desc, id desc; zone-less columns read as UTC by the immutable
// `AT TIME ZONE 'UTC'`, which the indexes of migration 0009 carry), each branch limited, then merged. With
// `page` the branches take (page + 1) x 24 + 1 rows each (spec rule 1) and the merge skips page x 24; with
// a cursor they start after the (at, id) of the last card (a row comparison the index seeks to) and take 25.
// Details are read afterwards for the 25 ids only.
import type { Fragment, Sql } from 'postgres';

export const SOURCES = ['recording', 'video', 'image', 'story', 'book'] as const;
export type Source = (typeof SOURCES)[number];

export interface PageKey {
  source: Source;
  id: string;
  /** ISO 8601 UTC with microseconds: the cursor must keep the full precision of the sort key. */
  at: string;
}

export interface After {
  at: string;
  id: string;
}

export interface MemoryDetail {
  id: string;
  source: Source;
  kind: 'recording' | 'video' | 'photo' | 'picture' | 'book' | 'story';
  title: string;
  addedById: string | null;
  addedBy: string | null;
  length: number | null;
  size: number | null;
  mimeType: string | null;
  hasThumbnail: boolean;
  transcriptStatus: string | null;
  bookId: string | null;
}

export interface MediaRow {
  id: string;
  ownerId: string;
  title: string;
  storageKey: string | null;
  thumbnailKey: string | null;
  mimeType: string | null;
  at: string;
  /** Set for a story: what the standalone page is made of. */
  story?: StoryPageRow;
}

export interface StoryPageRow {
  title: string;
  content: string | null;
  responseText: string | null;
  prompt: string | null;
  typography: unknown;
  bookTitle: string | null;
  bookLanguage: string | null;
}

/** Display name of an account for "added by": profile names first, else the part of the email before @. */
export const NAME_OF = (sql: Sql, accountId: Fragment) =>
  sql`(select coalesce(nullif(np.display_name, ''), nullif(np.full_name, ''), split_part(na.email, '@', 1))
         from accounts na left join profiles np on np.id = na.id where na.id = ${accountId})`;

export function createMemoriesRepository(sql: Sql) {
  const UTC = sql`'UTC'`;

  /** One branch of the merge: its source's rows of this storyteller, in page order, after the cursor, limited. */
  function branch(source: Source, storytellerId: string, after: After | undefined, take: number): Fragment {
    const cut = (at: Fragment, id: Fragment) => (after ? sql`and (${at}, ${id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``);
    switch (source) {
      case 'recording':
      case 'video': {
        const mediaType = source === 'recording' ? 'audio' : 'video';
        const at = sql`(r.created_at at time zone ${UTC})`;
        return sql`(select ${source}::text as source, r.id, ${at} as at from recordings r
          where r.user_id = ${storytellerId} and r.status = 'completed' and r.media_type = ${mediaType} ${cut(at, sql`r.id`)}
          order by ${at} desc, r.id desc limit ${take})`;
      }
      case 'image':
        return sql`(select 'image'::text as source, i.id, i.created_at as at from images i
          where i.user_id = ${storytellerId} ${cut(sql`i.created_at`, sql`i.id`)}
          order by i.created_at desc, i.id desc limit ${take})`;
      case 'story': {
        const at = sql`(s.created_at at time zone ${UTC})`;
        return sql`(select 'story'::text as source, s.id, ${at} as at from stories s
          where s.user_id = ${storytellerId} ${cut(at, sql`s.id`)}
          order by ${at} desc, s.id desc limit ${take})`;
      }
      case 'book':
        // Per book, the newest completed export of each kind (one index probe each); a storyteller has few
        // books, so this branch costs the same on every page.
        return sql`(select 'book'::text as source, e.id, e.completed_at as at from books b
          cross join lateral (
            (select x.id, x.completed_at from export_jobs x where x.book_id = b.id and x.kind = 'interior' and x.status = 'completed' and x.completed_at is not null
              order by x.completed_at desc, x.id desc limit 1)
            union all
            (select x.id, x.completed_at from export_jobs x where x.book_id = b.id and x.kind = 'cover' and x.status = 'completed' and x.completed_at is not null
              order by x.completed_at desc, x.id desc limit 1)) e
          where b.user_id = ${storytellerId} ${cut(sql`e.completed_at`, sql`e.id`)}
          order by e.completed_at desc, e.id desc limit ${take})`;
    }
  }

  return {
    /** Up to `limit` keys in page order: the spec's exact merge (offset) or the keyset continuation (after). */
    async pageKeys(storytellerId: string, sources: readonly Source[], q: { take: number; offset: number; limit: number; after?: After }): Promise<PageKey[]> {
      const branches = sources.map((s) => branch(s, storytellerId, q.after, q.take));
      const merged = branches.slice(1).reduce((acc, b) => sql`${acc} union all ${b}`, branches[0]!);
      // The text form of `at` is made for the page's rows only, outside the offset: computed inside, it ran
      // for every skipped row too and cost more than the whole merge on deep pages.
      return sql<PageKey[]>`
        select p.source, p.id, to_char(p.at at time zone ${UTC}, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
          from (select m.source, m.id, m.at from (${merged}) m order by m.at desc, m.id desc offset ${q.offset} limit ${q.limit}) p
         order by p.at desc, p.id desc`;
    },

    /** Card details of the given ids, by source (at most 25 ids in all). */
    async details(keys: readonly PageKey[]): Promise<MemoryDetail[]> {
      const ids = (source: Source) => keys.filter((k) => k.source === source).map((k) => k.id);
      const reads: Promise<MemoryDetail[]>[] = [];
      const recordingIds = [...ids('recording'), ...ids('video')];
      // The sources are read in parallel (one pool connection each): a page costs one round trip, not four.
      if (recordingIds.length) {
        reads.push(sql<MemoryDetail[]>`
          select r.id, case r.media_type when 'video' then 'video' else 'recording' end as source,
                 case r.media_type when 'video' then 'video' else 'recording' end as kind,
                 r.title, r.user_id as "addedById", ${NAME_OF(sql, sql`r.user_id`)} as "addedBy",
                 r.duration_seconds as length, r.original_file_size_bytes::float8 as size, r.mime_type as "mimeType",
                 false as "hasThumbnail", r.transcript_status as "transcriptStatus", null::uuid as "bookId"
            from recordings r where r.id = any(${recordingIds}::uuid[])`);
      }
      if (ids('image').length) {
        reads.push(sql<MemoryDetail[]>`
          select i.id, 'image' as source, case i.kind when 'art' then 'picture' else 'photo' end as kind,
                 coalesce(nullif(i.title, ''), nullif(i.caption, ''), case i.kind when 'art' then 'Picture' else 'Photo' end) as title,
                 i.user_id as "addedById", ${NAME_OF(sql, sql`i.user_id`)} as "addedBy", null::int as length, i.size_bytes::float8 as size,
                 i.mime_type as "mimeType", i.thumbnail_key is not null as "hasThumbnail", null as "transcriptStatus", null::uuid as "bookId"
            from images i where i.id = any(${ids('image')}::uuid[])`);
      }
      if (ids('story').length) {
        reads.push(sql<MemoryDetail[]>`
          select s.id, 'story' as source, 'story' as kind, coalesce(nullif(s.title, ''), s.prompt, 'Untitled story') as title,
                 coalesce(case when s.metadata->>'authorId' ~* '^[0-9a-f-]{36}$' then (s.metadata->>'authorId')::uuid end, s.user_id) as "addedById",
                 ${NAME_OF(sql, sql`coalesce(case when s.metadata->>'authorId' ~* '^[0-9a-f-]{36}$' then (s.metadata->>'authorId')::uuid end, s.user_id)`)} as "addedBy",
                 s.word_count as length, null::float8 as size, 'text/html' as "mimeType", false as "hasThumbnail", null as "transcriptStatus", s.book_id as "bookId"
            from stories s where s.id = any(${ids('story')}::uuid[])`);
      }
      if (ids('book').length) {
        reads.push(sql<MemoryDetail[]>`
          select e.id, 'book' as source, 'book' as kind, b.title || case e.kind when 'cover' then ' (cover)' else ' (interior)' end as title,
                 e.user_id as "addedById", ${NAME_OF(sql, sql`e.user_id`)} as "addedBy", e.item_count as length, e.size_bytes::float8 as size,
                 'application/pdf' as "mimeType", false as "hasThumbnail", null as "transcriptStatus", b.id as "bookId"
            from export_jobs e join books b on b.id = e.book_id where e.id = any(${ids('book')}::uuid[])`);
      }
      return (await Promise.all(reads)).flat();
    },

    /** The row behind a media request, whoever owns it (the service checks access to the owner). */
    async media(type: 'recording' | 'image' | 'export' | 'story', id: string): Promise<MediaRow | undefined> {
      const iso = (col: Fragment) => sql`to_char(${col}, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
      switch (type) {
        case 'recording': {
          const [row] = await sql<MediaRow[]>`
            select id, user_id as "ownerId", title, storage_key as "storageKey", null as "thumbnailKey", mime_type as "mimeType", ${iso(sql`created_at`)} as at
              from recordings where id = ${id} and status = 'completed'`;
          return row;
        }
        case 'image': {
          const [row] = await sql<MediaRow[]>`
            select id, user_id as "ownerId", coalesce(nullif(title, ''), nullif(caption, ''), case kind when 'art' then 'Picture' else 'Photo' end) as title,
                   storage_key as "storageKey", thumbnail_key as "thumbnailKey", mime_type as "mimeType", ${iso(sql`created_at at time zone ${UTC}`)} as at
              from images where id = ${id}`;
          return row;
        }
        case 'export': {
          // Only an export the page lists: completed, interior or cover; its owner is the book's owner.
          const [row] = await sql<MediaRow[]>`
            select e.id, b.user_id as "ownerId", b.title || '-' || e.kind as title, e.storage_key as "storageKey", null as "thumbnailKey",
                   'application/pdf' as "mimeType", ${iso(sql`e.completed_at at time zone ${UTC}`)} as at
              from export_jobs e join books b on b.id = e.book_id
             where e.id = ${id} and e.kind in ('interior', 'cover') and e.status = 'completed'`;
          return row;
        }
        case 'story': {
          const [row] = await sql<(MediaRow & StoryPageRow)[]>`
            select s.id, s.user_id as "ownerId", coalesce(nullif(s.title, ''), s.prompt, 'Untitled story') as title, null as "storageKey",
                   null as "thumbnailKey", 'text/html' as "mimeType", ${iso(sql`s.created_at`)} as at,
                   s.content, s.response_text as "responseText", s.prompt, s.typography, b.title as "bookTitle", b.language as "bookLanguage"
              from stories s left join books b on b.id = s.book_id where s.id = ${id}`;
          if (!row) return undefined;
          const { content, responseText, prompt, typography, bookTitle, bookLanguage, ...media } = row;
          return { ...media, story: { title: row.title, content, responseText, prompt, typography, bookTitle, bookLanguage } };
        }
      }
    },

    /** The storyteller's zone and family-download switch (profiles), and display name. */
    async storyteller(id: string): Promise<{ id: string; name: string; timezone: string; familyDownload: boolean } | undefined> {
      const [row] = await sql<{ id: string; name: string; timezone: string; familyDownload: boolean }[]>`
        select a.id, ${NAME_OF(sql, sql`a.id`)} as name, coalesce(p.timezone, 'UTC') as timezone, coalesce(p.memories_family_download, true) as "familyDownload"
          from accounts a left join profiles p on p.id = a.id where a.id = ${id}`;
      return row;
    },

    async storytellers(ids: readonly string[]): Promise<{ id: string; name: string; familyDownload: boolean }[]> {
      if (!ids.length) return [];
      return sql<{ id: string; name: string; familyDownload: boolean }[]>`
        select a.id, ${NAME_OF(sql, sql`a.id`)} as name, coalesce(p.memories_family_download, true) as "familyDownload"
          from accounts a left join profiles p on p.id = a.id where a.id = any(${ids as string[]}::uuid[])`;
    },
  };
}

export type MemoriesRepository = ReturnType<typeof createMemoriesRepository>;
