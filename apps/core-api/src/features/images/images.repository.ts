// The images table and the one privacy switch image uploads read (CONVENTIONS 7): raw postgres.js, every
// method taking an optional transaction.
import type { Sql } from 'postgres';
import { one } from '@story/db';
import { isoUtc, type SqlOrTx } from '../sql-fragments';

export type ImageKind = 'photo' | 'document' | 'art';

export interface ImageRow {
  id: string;
  userId: string;
  storyId: string | null;
  storageKey: string;
  thumbnailKey: string | null;
  kind: ImageKind;
  mimeType: string;
  sizeBytes: number | null;
  width: number | null;
  height: number | null;
  title: string | null;
  caption: string | null;
  takenAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** created_at to the microsecond (UTC), for the gallery's keyset cursor. */
  cursorTs: string;
}

export interface NewImage {
  userId: string;
  storageKey: string;
  thumbnailKey: string | null;
  kind: ImageKind;
  mimeType: string;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  title: string | null;
  caption: string | null;
  takenAt: Date | null;
}

const columns = (tx: SqlOrTx) => tx`
  i.id, i.user_id as "userId", i.story_id as "storyId", i.storage_key as "storageKey", i.thumbnail_key as "thumbnailKey", i.kind,
  i.mime_type as "mimeType", i.size_bytes::float8 as "sizeBytes", i.width, i.height, i.title, i.caption,
  case when i.taken_at is null then null else ${isoUtc(tx, 'i.taken_at')} end as "takenAt",
  ${isoUtc(tx, 'i.created_at')} as "createdAt", ${isoUtc(tx, 'i.updated_at')} as "updatedAt",
  to_char(i.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorTs"`;

export function createImagesRepository(sql: Sql) {
  return {
    transaction: <T>(work: (tx: SqlOrTx) => Promise<T>): Promise<T> => sql.begin(work) as Promise<T>,

    async insert(row: NewImage, tx: SqlOrTx = sql): Promise<ImageRow> {
      const { id } = one(
        await tx<{ id: string }[]>`
          insert into images (user_id, storage_key, thumbnail_key, kind, mime_type, size_bytes, width, height, title, caption, taken_at)
          values (${row.userId}, ${row.storageKey}, ${row.thumbnailKey}, ${row.kind}, ${row.mimeType}, ${row.sizeBytes}, ${row.width}, ${row.height},
                  ${row.title}, ${row.caption}, ${row.takenAt ? row.takenAt.toISOString() : null}::timestamptz)
          returning id`,
      );
      return one(await tx<ImageRow[]>`select ${columns(tx)} from images i where i.id = ${id}`);
    },

    async find(id: string, options: { lock?: boolean } = {}, tx: SqlOrTx = sql): Promise<ImageRow | undefined> {
      const [row] = await tx<ImageRow[]>`select ${columns(tx)} from images i where i.id = ${id}${options.lock ? tx` for update` : tx``}`;
      return row;
    },

    /** The owner's images, newest first, keyset-paged on (created_at, id) over images_user_id_created_idx. */
    async gallery(userId: string, page: { limit: number; kind?: ImageKind; before?: { createdAt: string; id: string } }, tx: SqlOrTx = sql): Promise<ImageRow[]> {
      return tx<ImageRow[]>`
        select ${columns(tx)} from images i
         where i.user_id = ${userId}
           ${page.kind ? tx`and i.kind = ${page.kind}` : tx``}
           ${page.before ? tx`and (i.created_at, i.id) < (${page.before.createdAt}::timestamptz, ${page.before.id}::uuid)` : tx``}
         order by i.created_at desc, i.id desc
         limit ${page.limit}`;
    },

    async delete(id: string, tx: SqlOrTx = sql): Promise<void> {
      await tx`delete from images where id = ${id}`;
    },

    /** user_privacy_settings.keep_photo_location; false (strip) when the account has no settings row. */
    async keepsPhotoLocation(userId: string, tx: SqlOrTx = sql): Promise<boolean> {
      const [row] = await tx<{ keep: boolean }[]>`select keep_photo_location as keep from user_privacy_settings where user_id = ${userId}`;
      return row?.keep ?? false;
    },
  };
}
