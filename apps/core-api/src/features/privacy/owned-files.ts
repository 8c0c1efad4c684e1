// Every stored object an account owns, found from the rows that point at storage. One list, used twice:
// the erasure sweeps these keys, and the data export zip carries the media among them. A new table that
// keeps a storage key must be added here, and to referencedKeys below (the erasure test lists storage
// afterwards and would catch the first; the bucket sweep's test the second).
import type { Sql, TransactionSql } from 'postgres';

export type OwnedFileKind = 'recording' | 'image' | 'thumbnail' | 'import' | 'upload' | 'conversation-audio' | 'family-memory' | 'flipbook' | 'book-export' | 'data-export';

export interface OwnedFile {
  key: string;
  kind: OwnedFileKind;
  /** A title to name the file by in a zip (may be empty). */
  title: string;
  createdAt: string;
}

/** Kinds that are the account's media (what a data export zip carries); the rest are files made from them. */
export const MEDIA_KINDS: readonly OwnedFileKind[] = ['recording', 'image', 'import', 'upload', 'conversation-audio', 'family-memory', 'flipbook'];

type Db = Sql | TransactionSql;

/**
 * Folders of the bucket that only ever hold one account's objects: every key the services write for a user
 * is `newObjectKey('<folder>/<user id>/...')` (recordings and direct uploads, uploads, images with their
 * thumbnails, imports, conversation audio, data exports). A new per-account folder must be added here.
 */
export const ACCOUNT_FOLDERS = ['recordings', 'uploads', 'images', 'imports', 'conversations', 'data-exports'] as const;

/**
 * Every storage prefix erasure empties whole, whatever rows point into it (an upload never registered, a
 * file whose row was lost): the account's folders, and the exports folder of each of its books.
 */
export async function accountStoragePrefixes(db: Db, userId: string): Promise<string[]> {
  const books = await db<{ id: string }[]>`select id from books where user_id = ${userId}`;
  return [...ACCOUNT_FOLDERS.map((folder) => `${folder}/${userId}`), ...books.map((b) => `exports/books/${b.id}`)];
}

/**
 * The account's stored objects, oldest first. Export files (book PDFs, data exports, archives) of other
 * accounts about this storyteller are included: they hold this account's content.
 */
export async function ownedFiles(db: Db, userId: string): Promise<OwnedFile[]> {
  const rows = await db<{ key: string; kind: OwnedFileKind; title: string | null; created_at: string }[]>`
    select storage_key as key, 'recording' as kind, title, created_at::text from recordings where user_id = ${userId} and storage_key is not null
    union all
    select storage_key, 'image', coalesce(title, caption), created_at::text from images where user_id = ${userId}
    union all
    select thumbnail_key, 'thumbnail', coalesce(title, caption), created_at::text from images where user_id = ${userId} and thumbnail_key is not null
    union all
    select storage_key, 'import', coalesce(title, file_name), created_at::text from imports where user_id = ${userId} and storage_key is not null
    union all
    select storage_key, 'upload', file_name, created_at::text from user_files where user_id = ${userId}
    union all
    select m.audio_storage_key, 'conversation-audio', c.title, m.created_at::text
      from conversation_messages m join conversations c on c.id = m.conversation_id
     where c.user_id = ${userId} and m.audio_storage_key is not null
    union all
    select item ->> 'storageKey', 'family-memory', fm.title, fm.created_at::text
      from family_memories fm cross join lateral jsonb_array_elements(fm.media) item
     where (fm.created_by = ${userId} or fm.family_group_id in (select id from family_groups where created_by = ${userId}))
       and item ->> 'storageKey' is not null
    union all
    select k.key, 'flipbook', f.title, p.created_at::text
      from tools_flipbook_pages p join tools_flipbooks f on f.id = p.flipbook_id
      cross join lateral (values (p.storage_key), (p.thumbnail_key)) k(key)
     where f.user_id = ${userId} and k.key is not null
    union all
    select storage_key, 'book-export', kind, created_at::text from export_jobs
     where (user_id = ${userId} or storyteller_id = ${userId} or book_id in (select id from books where user_id = ${userId})) and storage_key is not null
    union all
    select storage_key, 'data-export', export_type, created_at::text from user_data_exports where user_id = ${userId} and storage_key is not null
    order by 4, 1`;
  return rows.map((r) => ({ key: r.key, kind: r.kind, title: r.title ?? '', createdAt: r.created_at }));
}

/**
 * Which of `keys` some row still points to (any account), or that a direct-upload ticket still covers
 * (unexpired, or expired less than `graceSeconds` ago: its register may be finishing). The bucket sweep
 * (storage-sweep.ts) deletes the rest. One statement per page of keys: each table is read once.
 */
export async function referencedKeys(db: Db, keys: readonly string[], graceSeconds = 600): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const list = [...keys];
  const rows = await db<{ key: string }[]>`
    select storage_key as key from recordings where storage_key = any(${list})
    union select storage_key from images where storage_key = any(${list})
    union select thumbnail_key from images where thumbnail_key = any(${list})
    union select storage_key from imports where storage_key = any(${list})
    union select storage_key from user_files where storage_key = any(${list})
    union select audio_storage_key from conversation_messages where audio_storage_key = any(${list})
    union select item ->> 'storageKey' from family_memories cross join lateral jsonb_array_elements(media) item where item ->> 'storageKey' = any(${list})
    union select storage_key from tools_flipbook_pages where storage_key = any(${list})
    union select thumbnail_key from tools_flipbook_pages where thumbnail_key = any(${list})
    union select storage_key from export_jobs where storage_key = any(${list})
    union select storage_key from user_data_exports where storage_key = any(${list})
    union select storage_key from resources where storage_key = any(${list})
    union select key from direct_uploads where key = any(${list}) and expires_at > now() - make_interval(secs => ${graceSeconds})`;
  return new Set(rows.map((r) => r.key));
}
