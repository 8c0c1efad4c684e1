// Presigned uploads of any stored-file type (spec 000: POST /api/upload-url {fileName, fileType, folder} ->
// {uploadUrl, fileUrl}), reading them back, and DELETE /api/upload/delete. The bytes go straight to
// storage (an S3 presigned PUT, or core-api's own ticket-checked PUT /api/uploads/direct/<key> with local
// storage), so the server writes a user_files row at presign time: it is what the stored-file quota
// counts (the declared fileSize, or the 50 MB per-file maximum when none is declared) and what only its
// owner may read or delete.
import type { Sql } from 'postgres';
import { one } from '@story/db';
import { AppError, badRequest, isUuid, notFound } from '@story/http';
import { isStorageNotConfigured, newObjectKey, ProviderError, type ByteRange, type ObjectStorage, type StoredObject } from '@story/providers';
import { isoUtc } from '../sql-fragments';
import type { TicketSigner } from '../uploads/upload-ticket';
import { assertStorageQuota } from './storage-quota';

export const PRESIGN_TTL_SECONDS = 60 * 60;

/** Spec 000 Limits "Stored file": voice .mp3 .wav .m4a, photos .jpg .jpeg .png .heic (and WebP, as photos per story), documents .pdf .docx. */
export const STORED_FILE_TYPES: Record<string, string> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/m4a': 'm4a',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/heic': 'heic',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

export interface FileRow {
  id: string;
  userId: string;
  storageKey: string;
  folder: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  createdAt: string;
}

export function createUploadUrlService(deps: {
  sql: Sql;
  storage: Pick<ObjectStorage, 'provider' | 'presignUpload' | 'get' | 'delete'>;
  tickets: TicketSigner;
  publicBaseUrl: string;
  maxStoredFileBytes: number;
}) {
  const { sql, storage, tickets } = deps;
  const fileUrl = (id: string) => `${deps.publicBaseUrl}/api/upload/files/${id}`;

  async function ownedFile(userId: string, where: { id?: string; key?: string }): Promise<FileRow> {
    const [row] = await sql<FileRow[]>`
      select id, user_id as "userId", storage_key as "storageKey", folder, file_name as "fileName", content_type as "contentType",
             size_bytes::float8 as "sizeBytes", ${isoUtc(sql, 'created_at')} as "createdAt"
        from user_files
       where user_id = ${userId} and ${where.id ? sql`id = ${where.id}` : sql`storage_key = ${where.key ?? ''}`}`;
    if (!row) throw notFound('File');
    return row;
  }

  return {
    async presign(userId: string, input: { fileName: string; fileType: string; folder: string; fileSize?: number }) {
      const type = input.fileType.split(';')[0]!.trim().toLowerCase();
      const ext = STORED_FILE_TYPES[type];
      if (!ext) throw badRequest('fileType must be one of the stored file types: mp3, wav, m4a audio; jpeg, png, heic, webp images; pdf or docx documents', { field: 'fileType' });
      if (input.fileSize !== undefined && input.fileSize > deps.maxStoredFileBytes) {
        throw new AppError('payload_too_large', `fileSize is over ${Math.round(deps.maxStoredFileBytes / 1024 / 1024)} MB, the most a stored file can be`, { field: 'fileSize' });
      }
      const size = input.fileSize ?? deps.maxStoredFileBytes;
      const key = newObjectKey(`uploads/${userId}/${input.folder}`, ext);
      let signed: Awaited<ReturnType<ObjectStorage['presignUpload']>>;
      try {
        signed = await storage.presignUpload(key, { contentType: type, contentLength: size, expiresInSeconds: PRESIGN_TTL_SECONDS });
      } catch (err) {
        if (isStorageNotConfigured(err)) throw new AppError('unavailable', 'Storage is not configured, so uploads are not possible', { extra: { status: 'upload_failed' } });
        throw new AppError('bad_gateway', 'Storage could not authorise the upload', { cause: err });
      }
      const row = await sql.begin(async (tx) => {
        await assertStorageQuota(tx, userId, size);
        return one(
          await tx<{ id: string }[]>`
            insert into user_files (user_id, storage_key, folder, file_name, content_type, size_bytes)
            values (${userId}, ${key}, ${input.folder}, ${input.fileName}, ${type}, ${size}) returning id`,
        );
      });
      const exp = Math.floor(signed.expiresAt.getTime() / 1000);
      // The local PUT route reads its ticket from this header (S3 ignores it: it is not part of the signature).
      const headers = storage.provider === 'local' ? { ...signed.headers, 'x-upload-ticket': tickets.sign({ key, size, contentType: type, userId, exp }) } : signed.headers;
      return { uploadUrl: signed.url, fileUrl: fileUrl(row.id), id: row.id, key, method: 'PUT' as const, headers, expiresAt: signed.expiresAt.toISOString(), maxBytes: size };
    },

    async read(userId: string, id: string, range?: ByteRange): Promise<{ row: FileRow; object: StoredObject }> {
      const row = await ownedFile(userId, { id });
      try {
        return { row, object: await storage.get(row.storageKey, range) };
      } catch (err) {
        if (err instanceof ProviderError && err.kind === 'not_found') throw notFound('File (nothing was uploaded yet)');
        throw new AppError('bad_gateway', 'The file could not be read from storage', { cause: err });
      }
    },

    /** DELETE /api/upload/delete: by id, key or fileUrl; only the caller's own files, else 404 and nothing changes. */
    async remove(userId: string, input: { id?: string; key?: string; fileUrl?: string }): Promise<{ id: string; key: string }> {
      let id = input.id;
      if (!id && input.fileUrl) {
        const match = /\/api\/upload\/files\/([0-9a-f-]{36})$/i.exec(input.fileUrl);
        if (!match) throw badRequest('fileUrl is not a file URL this API returned', { field: 'fileUrl' });
        id = match[1];
      }
      if (id && !isUuid(id)) throw badRequest('id is not a file id this API returned', { field: input.id ? 'id' : 'fileUrl' });
      const row = await ownedFile(userId, { id, key: input.key });
      await sql`delete from user_files where id = ${row.id} and user_id = ${userId}`;
      await storage.delete(row.storageKey).catch(() => undefined);
      return { id: row.id, key: row.storageKey };
    },
  };
}

export type UploadUrlService = ReturnType<typeof createUploadUrlService>;
