// Factories for the memories and archive tests (CONVENTIONS 12): rows of the five sources inserted
// directly with chosen times, their media stored through the real storage adapter.
import type { Sql } from 'postgres';
import type { ObjectStorage } from '@story/providers';

const utcWall = (at: Date) => at.toISOString().replace('T', ' ').replace('Z', '');

export async function newRecordingRow(
  sql: Sql,
  storage: Pick<ObjectStorage, 'put'>,
  ownerId: string,
  f: { title?: string; at: Date; mediaType?: 'audio' | 'video'; data?: Buffer; mimeType?: string; transcript?: string | null; store?: boolean; duration?: number },
): Promise<{ id: string; key: string; data: Buffer }> {
  const data = f.data ?? Buffer.from(`audio bytes of ${f.title ?? 'a recording'} `.repeat(50));
  const key = `recordings/${ownerId}/${Math.random().toString(36).slice(2)}.bin`;
  if (f.store !== false) await storage.put(key, data);
  const [row] = await sql<{ id: string }[]>`
    insert into recordings (user_id, title, storage_key, mime_type, media_type, original_file_size_bytes, transcript, duration_seconds, status, created_at, updated_at)
    values (${ownerId}, ${f.title ?? 'A recording'}, ${key}, ${f.mimeType ?? (f.mediaType === 'video' ? 'video/mp4' : 'audio/mpeg')}, ${f.mediaType ?? 'audio'},
            ${data.length}, ${f.transcript ?? null}, ${f.duration ?? 42}, 'completed', ${utcWall(f.at)}, ${utcWall(f.at)})
    returning id`;
  return { id: row!.id, key, data };
}

export async function newImageRow(
  sql: Sql,
  storage: Pick<ObjectStorage, 'put'>,
  ownerId: string,
  f: { title?: string; at: Date; kind?: 'photo' | 'document' | 'art'; data?: Buffer; thumbnail?: Buffer },
): Promise<{ id: string; key: string; data: Buffer }> {
  const data = f.data ?? Buffer.from(`\xff\xd8\xff photo ${f.title ?? ''}`.repeat(40), 'latin1');
  const key = `images/${ownerId}/${Math.random().toString(36).slice(2)}.jpg`;
  await storage.put(key, data);
  let thumbKey: string | null = null;
  if (f.thumbnail) {
    thumbKey = `${key}.thumb.jpg`;
    await storage.put(thumbKey, f.thumbnail);
  }
  const [row] = await sql<{ id: string }[]>`
    insert into images (user_id, storage_key, thumbnail_key, kind, mime_type, size_bytes, title, created_at, updated_at)
    values (${ownerId}, ${key}, ${thumbKey}, ${f.kind ?? 'photo'}, 'image/jpeg', ${data.length}, ${f.title ?? null}, ${f.at.toISOString()}, ${f.at.toISOString()})
    returning id`;
  return { id: row!.id, key, data };
}

export async function newStoryRow(sql: Sql, ownerId: string, f: { title?: string; at: Date; content?: string; authorId?: string; bookId?: string }): Promise<{ id: string }> {
  const [row] = await sql<{ id: string }[]>`
    insert into stories (user_id, title, content, word_count, metadata, book_id, created_at, updated_at)
    values (${ownerId}, ${f.title ?? 'A story'}, ${f.content ?? '<p>Once upon a time.</p>'}, 4, ${JSON.stringify({ authorId: f.authorId ?? ownerId })}::jsonb,
            ${f.bookId ?? null}, ${utcWall(f.at)}, ${utcWall(f.at)})
    returning id`;
  return row!;
}

export async function newBookWithExport(
  sql: Sql,
  storage: Pick<ObjectStorage, 'put'>,
  ownerId: string,
  f: { title?: string; at: Date; kind?: 'interior' | 'cover'; data?: Buffer; bookId?: string },
): Promise<{ bookId: string; exportId: string; key: string; data: Buffer }> {
  let bookId = f.bookId;
  if (!bookId) {
    const [book] = await sql<{ id: string }[]>`insert into books (user_id, title) values (${ownerId}, ${f.title ?? 'Our book'}) returning id`;
    bookId = book!.id;
  }
  const data = f.data ?? Buffer.from(`%PDF-1.4 ${f.title ?? ''} ${f.kind ?? 'interior'}\n%%EOF\n`);
  const key = `exports/books/${bookId}/${Math.random().toString(36).slice(2)}.pdf`;
  await storage.put(key, data);
  const [row] = await sql<{ id: string }[]>`
    insert into export_jobs (user_id, book_id, kind, status, storage_key, size_bytes, item_count, completed_at, created_at)
    values (${ownerId}, ${bookId}, ${f.kind ?? 'interior'}, 'completed', ${key}, ${data.length}, 3, ${f.at.toISOString()}, ${f.at.toISOString()})
    returning id`;
  return { bookId, exportId: row!.id, key, data };
}

export async function setMemoriesProfile(sql: Sql, userId: string, f: { timezone?: string; familyDownload?: boolean; name?: string }): Promise<void> {
  if (f.timezone !== undefined) await sql`update profiles set timezone = ${f.timezone} where id = ${userId}`;
  if (f.familyDownload !== undefined) await sql`update profiles set memories_family_download = ${f.familyDownload} where id = ${userId}`;
  if (f.name !== undefined) await sql`update profiles set full_name = ${f.name}, display_name = null where id = ${userId}`;
}
