// The SQL of the memories archive (raw postgres.js): export_jobs rows of kind archive, the contents of
// each archive folder as of the job's snapshot time, and the checksum cache (CRC-32 and SHA-256) that lets a
// resumed download skip files it does not send and still list their SHA-256 in manifest.json. Folder rows come oldest first with the id as tie-break: file order inside a zip
// and the boundaries of split parts depend on that order never changing.
import type { Sql } from 'postgres';
import { one } from '@story/db';
import type { ArchiveEstimate } from '@story/db';

export const FOLDERS = ['book', 'stories', 'recordings', 'videos', 'photos'] as const;
export type Folder = (typeof FOLDERS)[number];

export interface ArchiveJobRow {
  id: string;
  userId: string;
  storytellerId: string;
  status: string;
  /** ISO UTC with microseconds: the snapshot time (nothing added after it is in the archive). */
  createdAt: string;
  estimate: ArchiveEstimate;
}

/** One item of a folder: enough to name, size and open it. */
export interface FolderItem {
  id: string;
  at: string;
  title: string;
  storageKey: string | null;
  mimeType: string | null;
  /** Size the database recorded (the estimate); the download uses storage's own size. */
  size: number | null;
  transcript?: string | null;
  story?: { content: string | null; responseText: string | null; prompt: string | null; typography: unknown; bookId: string | null; bookTitle: string | null; bookLanguage: string | null; chapterNumber: number | null; sourceRecordingIds: string[] };
  exportKind?: 'interior' | 'cover';
}

const ISO = (sql: Sql, column: string) => sql`to_char(${sql(column)}, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function createArchiveRepository(sql: Sql) {
  const jobColumns = sql`id, user_id as "userId", storyteller_id as "storytellerId", status,
    to_char(created_at, 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAt", estimate`;

  return {
    async insertJob(job: { userId: string; storytellerId: string; estimate: ArchiveEstimate }): Promise<ArchiveJobRow> {
      return one(await sql<ArchiveJobRow[]>`
        insert into export_jobs (user_id, storyteller_id, kind, status, estimate, item_count, size_bytes)
        values (${job.userId}, ${job.storytellerId}, 'archive', 'pending', ${JSON.stringify(job.estimate)}::jsonb, ${job.estimate.itemCount}, ${job.estimate.totalBytes})
        returning ${jobColumns}`);
    },

    async findJob(jobId: string): Promise<ArchiveJobRow | undefined> {
      const [row] = await sql<ArchiveJobRow[]>`select ${jobColumns} from export_jobs where id = ${jobId} and kind = 'archive'`;
      return row;
    },

    /** The snapshot time now, as the job row will record it (rows created up to it are in the archive). */
    async now(): Promise<string> {
      const [row] = await sql<{ now: string }[]>`select to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as now`;
      return row!.now;
    },

    /** A folder's items as of `cutoff`, oldest first. */
    async folder(folder: Folder, storytellerId: string, cutoff: string): Promise<FolderItem[]> {
      switch (folder) {
        case 'recordings':
        case 'videos': {
          const mediaType = folder === 'recordings' ? 'audio' : 'video';
          return sql<FolderItem[]>`
            select id, ${ISO(sql, 'created_at')} as at, title, storage_key as "storageKey", mime_type as "mimeType",
                   original_file_size_bytes::float8 as size, transcript
              from recordings
             where user_id = ${storytellerId} and status = 'completed' and media_type = ${mediaType}
               and (created_at at time zone 'UTC') <= ${cutoff}::timestamptz
             order by (created_at at time zone 'UTC'), id`;
        }
        case 'photos':
          return sql<FolderItem[]>`
            select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
                   coalesce(nullif(title, ''), nullif(caption, ''), case kind when 'art' then 'Picture' else 'Photo' end) as title,
                   storage_key as "storageKey", mime_type as "mimeType", size_bytes::float8 as size
              from images where user_id = ${storytellerId} and created_at <= ${cutoff}::timestamptz
             order by created_at, id`;
        case 'stories': {
          const rows = await sql<(FolderItem & { content: string | null; responseText: string | null; prompt: string | null; typography: unknown; bookId: string | null; bookTitle: string | null; bookLanguage: string | null; chapterNumber: number | null; sourceRecordingIds: string[] })[]>`
            select s.id, ${ISO(sql, 's.created_at')} as at, coalesce(nullif(s.title, ''), s.prompt, 'Untitled story') as title,
                   null as "storageKey", 'text/html' as "mimeType", null::float8 as size,
                   s.content, s.response_text as "responseText", s.prompt, s.typography, s.book_id as "bookId", b.title as "bookTitle", b.language as "bookLanguage",
                   (select c.chapter_number from book_chapters c where c.story_id = s.id and c.book_id = s.book_id limit 1) as "chapterNumber",
                   s.source_recording_ids as "sourceRecordingIds"
              from stories s left join books b on b.id = s.book_id
             where s.user_id = ${storytellerId} and (s.created_at at time zone 'UTC') <= ${cutoff}::timestamptz
             order by (s.created_at at time zone 'UTC'), s.id`;
          return rows.map(({ content, responseText, prompt, typography, bookId, bookTitle, bookLanguage, chapterNumber, sourceRecordingIds, ...item }) => ({
            ...item,
            story: { content, responseText, prompt, typography, bookId, bookTitle, bookLanguage, chapterNumber, sourceRecordingIds },
          }));
        }
        case 'book':
          // Newest completed interior and cover of each book, as of the snapshot (spec: "newest completed").
          return sql<FolderItem[]>`
            select e.id, to_char(e.completed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, b.title,
                   e.storage_key as "storageKey", 'application/pdf' as "mimeType", e.size_bytes::float8 as size, e.kind as "exportKind"
              from books b
              cross join lateral (
                select distinct on (x.kind) x.id, x.kind, x.completed_at, x.storage_key, x.size_bytes
                  from export_jobs x
                 where x.book_id = b.id and x.kind in ('interior', 'cover') and x.status = 'completed'
                   and x.completed_at is not null and x.storage_key is not null and x.completed_at <= ${cutoff}::timestamptz
                 order by x.kind, x.completed_at desc, x.id desc) e
             where b.user_id = ${storytellerId}
             order by b.created_at, b.id, e.kind desc`;
      }
    },

    /** Known CRC-32s and SHA-256s of stored objects, by key (only where the recorded size still matches). */
    async checksums(objects: readonly { key: string; size: number }[]): Promise<Map<string, { crc32: number; sha256: string | null }>> {
      if (!objects.length) return new Map();
      const rows = await sql<{ key: string; size: number; crc32: number; sha256: string | null }[]>`
        select storage_key as key, size_bytes::float8 as size, crc32::float8 as crc32, sha256 from archive_checksums
         where storage_key = any(${objects.map((o) => o.key)}::text[])`;
      const sizes = new Map(objects.map((o) => [o.key, o.size]));
      return new Map(rows.filter((r) => sizes.get(r.key) === Number(r.size)).map((r) => [r.key, { crc32: Number(r.crc32), sha256: r.sha256 }]));
    },

    /** Keep checksums learned while streaming; a SHA-256 already known is never replaced by a missing one. */
    async saveChecksums(rows: readonly { key: string; size: number; crc32: number; sha256: string | null }[]): Promise<void> {
      if (!rows.length) return;
      await sql`
        insert into archive_checksums (storage_key, size_bytes, crc32, sha256)
        select * from unnest(${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.size)}::bigint[], ${rows.map((r) => r.crc32)}::bigint[], ${rows.map((r) => r.sha256)}::text[])
        on conflict (storage_key) do update set size_bytes = excluded.size_bytes, crc32 = excluded.crc32,
               sha256 = coalesce(excluded.sha256, case when archive_checksums.size_bytes = excluded.size_bytes then archive_checksums.sha256 end)`;
    },

    /** The job is being downloaded: pending becomes processing (first time only). */
    async markStarted(jobId: string): Promise<void> {
      await sql`update export_jobs set status = 'processing', started_at = coalesce(started_at, now()), updated_at = now()
                 where id = ${jobId} and status = 'pending'`;
    },

    /**
     * One part went out in full: remember its exact length; when every part offered has, the job is completed
     * with the exact total. One statement, so two parts finishing at once cannot lose either.
     */
    async markPartDone(jobId: string, part: string, bytes: number, partsOffered: readonly string[]): Promise<void> {
      await sql`
        with updated as (
          select jsonb_set(coalesce(estimate, '{}'::jsonb), '{completedParts}',
                 coalesce(estimate->'completedParts', '{}'::jsonb) || jsonb_build_object(${part}::text, ${bytes}::bigint)) as e
            from export_jobs where id = ${jobId})
        update export_jobs j set estimate = u.e,
               status = case when ${part} = 'all' or (select bool_and(u.e->'completedParts' ? p) from unnest(${partsOffered as string[]}::text[]) p)
                             then 'completed' else j.status end,
               completed_at = case when ${part} = 'all' or (select bool_and(u.e->'completedParts' ? p) from unnest(${partsOffered as string[]}::text[]) p)
                             then coalesce(j.completed_at, now()) else j.completed_at end,
               size_bytes = case when ${part} = 'all' then ${bytes}::bigint
                                 else (select coalesce(sum((v)::bigint), 0) from jsonb_each_text(u.e->'completedParts') as t(k, v) where k <> 'all') end,
               updated_at = now()
          from updated u where j.id = ${jobId}`;
    },
  };
}

export type ArchiveRepository = ReturnType<typeof createArchiveRepository>;
