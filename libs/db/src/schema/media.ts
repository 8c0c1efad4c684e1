// Uploaded images (photos, documents, drawn and cover art) and public share links to recordings'
// audio (spec 000 images and audio routes). Images use timestamps with zone (Memories rule 2).
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { recordings } from './recordings';
import { stories } from './stories';
import { createdAt, id, oneOf, updatedAt } from './_columns';

/** photo and document file under Photos on the memories page; art under Pictures. */
export const IMAGE_KINDS = ['photo', 'document', 'art'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

export const images = pgTable(
  'images',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The story the photo illustrates (at most 10 per story, checked by the service). */
    storyId: uuid('story_id').references(() => stories.id, { onDelete: 'set null' }),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    kind: text('kind').$type<ImageKind>().notNull().default('photo'),
    mimeType: text('mime_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    width: integer('width'),
    height: integer('height'),
    title: text('title'),
    caption: text('caption'),
    /** When the photo was taken (EXIF), if known. */
    takenAt: timestamp('taken_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Gallery and memories merge: the user's images, newest first.
    index('images_user_id_created_idx').on(t.userId, t.createdAt.desc().nullsFirst()),
    // Memories merge and cursor: newest first with the id as tie-break, so a page boundary is one index position.
    index('images_memories_idx').on(t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('images_story_id_idx').on(t.storyId),
    check('images_kind_check', oneOf('kind', IMAGE_KINDS)),
    check(
      'images_dimensions_check',
      sql`(width IS NULL OR width > 0) AND (height IS NULL OR height > 0) AND (size_bytes IS NULL OR size_bytes >= 0)`,
    ),
  ],
);

/** POST /api/audio/[fileId]/share: a link that plays one recording without signing in. */
export const audioShares = pgTable(
  'audio_shares',
  {
    id: id(),
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The [token] of GET /api/share/[token]: random, at least 128 bits. */
    token: text('token').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    playCount: integer('play_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('audio_shares_token_key').on(t.token),
    index('audio_shares_recording_id_idx').on(t.recordingId),
    index('audio_shares_created_by_idx').on(t.createdBy),
  ],
);

/**
 * Objects uploaded through POST /api/upload-url (presigned, bytes straight to storage): the row is what
 * the stored-file quota counts and what DELETE /api/upload/delete may remove (only the owner's own).
 * size_bytes is the size the upload was authorised for until storage reports the real one.
 */
export const userFiles = pgTable(
  'user_files',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    folder: text('folder').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('user_files_storage_key_key').on(t.storageKey),
    index('user_files_user_id_idx').on(t.userId),
    check('user_files_size_check', sql`size_bytes >= 0`),
  ],
);
