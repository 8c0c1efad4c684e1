// The image gallery (spec 000 Uploads/images, CONTRACTS §9): uploads of JPEG, PNG, WebP or HEIC judged
// from the bytes (file-type), at most 5 MB; the stored copy loses its GPS location unless the owner's
// privacy setting user_privacy_settings.keep_photo_location is on (default off); width, height and a
// WebP thumbnail come from sharp (HEIC, which this sharp build cannot decode, is stored without them).
// Family members who may see the owner's content may view an image; only the owner deletes it.
import type { Sql } from 'postgres';
import { AppError, badRequest, notFound } from '@story/http';
import { isRangeNotSatisfiable, isStorageNotConfigured, newObjectKey, ProviderError, type ByteRange, type ObjectStorage, type StoredObject } from '@story/providers';
import type { AccessPolicy } from '../access/access.policy';
import { assertStorageQuota, quotaFor, storedBytes } from '../upload-url/storage-quota';
import { exifTakenAt, stripLocation } from './exif-gps';
import { createImagesRepository, type ImageKind, type ImageRow } from './images.repository';

/** Spec 000 Limits: photos at most 5 MB. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const THUMBNAIL_SIZE = 400;

const ACCEPTED: Record<string, { mime: string; ext: string }> = {
  'image/jpeg': { mime: 'image/jpeg', ext: 'jpg' },
  'image/png': { mime: 'image/png', ext: 'png' },
  'image/webp': { mime: 'image/webp', ext: 'webp' },
  'image/heic': { mime: 'image/heic', ext: 'heic' },
  'image/heif': { mime: 'image/heic', ext: 'heic' },
};

export interface ImageView {
  id: string;
  kind: ImageKind;
  title: string | null;
  caption: string | null;
  mimeType: string;
  sizeBytes: number | null;
  width: number | null;
  height: number | null;
  url: string;
  thumbnailUrl: string | null;
  storyId: string | null;
  userId: string;
  /** When the photo was taken (EXIF DateTimeOriginal), if it says. */
  takenAt: string | null;
  createdAt: string;
}

export interface UploadInput {
  bytes: Buffer;
  fileName: string;
  kind: ImageKind;
  title?: string;
  caption?: string;
}

type SharpFactory = typeof import('sharp');
let sharpModule: SharpFactory | undefined;
// sharp (libvips) loads at the first image, not at start.
const loadSharp = () => (sharpModule ??= require('sharp') as SharpFactory);

const cursorOf = (row: ImageRow) => Buffer.from(`${row.cursorTs}|${row.id}`, 'utf8').toString('base64url');
function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(createdAt) || !/^[0-9a-f-]{36}$/i.test(id)) {
    throw badRequest('cursor is not one this API returned', { field: 'cursor' });
  }
  return { createdAt, id };
}

/** Width, height (as displayed, EXIF orientation applied) and a thumbnail; nulls when sharp cannot decode it. */
async function analyse(bytes: Buffer): Promise<{ width: number | null; height: number | null; thumbnail: Buffer | null }> {
  const sharp = loadSharp();
  try {
    const meta = await sharp(bytes).metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const width = (turned ? meta.height : meta.width) ?? null;
    const height = (turned ? meta.width : meta.height) ?? null;
    const thumbnail = await sharp(bytes)
      .rotate()
      .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    return { width, height, thumbnail };
  } catch {
    return { width: null, height: null, thumbnail: null };
  }
}

export function createImagesService(deps: { sql: Sql; storage: Pick<ObjectStorage, 'put' | 'get' | 'delete'>; access: AccessPolicy; publicBaseUrl: string }) {
  const { sql, storage, access } = deps;
  const repo = createImagesRepository(sql);

  const toView = (r: ImageRow): ImageView => ({
    id: r.id,
    kind: r.kind,
    title: r.title,
    caption: r.caption,
    mimeType: r.mimeType,
    sizeBytes: r.sizeBytes,
    width: r.width,
    height: r.height,
    url: `${deps.publicBaseUrl}/api/images/${r.id}/file`,
    thumbnailUrl: r.thumbnailKey ? `${deps.publicBaseUrl}/api/images/${r.id}/file?variant=thumbnail` : null,
    storyId: r.storyId,
    userId: r.userId,
    takenAt: r.takenAt,
    createdAt: r.createdAt,
  });

  async function visible(callerId: string, id: string): Promise<ImageRow> {
    const row = await repo.find(id);
    if (!row) throw notFound('Image');
    await access.require(callerId, row.userId, 'view_stories', 'Image');
    return row;
  }

  return {
    toView,

    async upload(userId: string, input: UploadInput): Promise<{ image: ImageView; locationRemoved: boolean }> {
      if (input.bytes.length === 0) throw badRequest('file is empty', { field: 'file' });
      const { fromBuffer } = require('file-type') as typeof import('file-type');
      const detected = await fromBuffer(input.bytes);
      const type = detected ? ACCEPTED[detected.mime] : undefined;
      if (!type) throw badRequest('file must be a JPEG, PNG, WebP or HEIC image (judged from its contents, not its name)', { field: 'file' });

      const keep = await repo.keepsPhotoLocation(userId);
      const { buffer, removed } = keep ? { buffer: input.bytes, removed: 0 } : stripLocation(input.bytes);
      const { width, height, thumbnail } = await analyse(buffer);
      // Only HEIC may go undecoded here (HEVC is not in this sharp build); anything else must decode.
      if (width === null && type.ext !== 'heic') throw badRequest('file could not be read as an image (it may be damaged)', { field: 'file' });

      const { tier, used } = await storedBytes(sql, userId);
      if (used + buffer.length > quotaFor(tier)) await assertStorageQuota(sql, userId, buffer.length);
      const key = newObjectKey(`images/${userId}`, type.ext);
      const thumbKey = thumbnail ? key.replace(/\.[a-z]+$/, '.thumb.webp') : null;
      const written: string[] = [];
      try {
        await storage.put(key, buffer, { contentType: type.mime, contentLength: buffer.length });
        written.push(key);
        if (thumbnail && thumbKey) {
          await storage.put(thumbKey, thumbnail, { contentType: 'image/webp', contentLength: thumbnail.length });
          written.push(thumbKey);
        }
      } catch (err) {
        await Promise.all(written.map((k) => storage.delete(k).catch(() => undefined)));
        if (isStorageNotConfigured(err)) throw new AppError('unavailable', 'Storage is not configured, so images cannot be uploaded', { extra: { status: 'upload_failed' } });
        throw new AppError('bad_gateway', 'The image could not be written to storage', { cause: err });
      }
      try {
        const row = await repo.transaction(async (tx) => {
          await assertStorageQuota(tx, userId, buffer.length);
          return repo.insert(
            { userId, storageKey: key, thumbnailKey: thumbKey, kind: input.kind, mimeType: type.mime, sizeBytes: buffer.length, width, height, title: input.title ?? null, caption: input.caption ?? null, takenAt: exifTakenAt(input.bytes) },
            tx,
          );
        });
        return { image: toView(row), locationRemoved: removed > 0 };
      } catch (err) {
        // No row, no object.
        await Promise.all(written.map((k) => storage.delete(k).catch(() => undefined)));
        throw err;
      }
    },

    async gallery(userId: string, query: { limit: number; kind?: ImageKind; cursor?: string }) {
      const before = query.cursor ? decodeCursor(query.cursor) : undefined;
      const rows = await repo.gallery(userId, { limit: query.limit + 1, kind: query.kind, before });
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      return { images: page.map(toView), nextCursor: rows.length > query.limit && last ? cursorOf(last) : null };
    },

    async get(callerId: string, id: string): Promise<ImageView> {
      return toView(await visible(callerId, id));
    },

    async file(callerId: string, id: string, variant: 'original' | 'thumbnail', range?: ByteRange): Promise<{ row: ImageRow; object: StoredObject; contentType: string }> {
      const row = await visible(callerId, id);
      const key = variant === 'thumbnail' ? row.thumbnailKey : row.storageKey;
      if (!key) throw notFound('Thumbnail');
      try {
        return { row, object: await storage.get(key, range), contentType: variant === 'thumbnail' ? 'image/webp' : row.mimeType };
      } catch (err) {
        if (isRangeNotSatisfiable(err)) throw new AppError('range_not_satisfiable', 'The requested range is not satisfiable');
        if (err instanceof ProviderError && err.kind === 'not_found') throw notFound('Image file');
        throw new AppError('bad_gateway', 'The image could not be read from storage', { cause: err });
      }
    },

    async remove(callerId: string, id: string): Promise<{ id: string }> {
      const row = await repo.transaction(async (tx) => {
        const found = await repo.find(id, { lock: true }, tx);
        if (!found) throw notFound('Image');
        await access.require(callerId, found.userId, 'delete_stories', 'Image');
        await repo.delete(id, tx);
        return found;
      });
      // The row goes first: an object without a row is invisible; a row without its object is a broken page.
      await Promise.all([row.storageKey, row.thumbnailKey].filter((k): k is string => !!k).map((k) => storage.delete(k).catch(() => undefined)));
      return { id: row.id };
    },
  };
}

export type ImagesService = ReturnType<typeof createImagesService>;
