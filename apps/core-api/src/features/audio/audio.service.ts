// Audio by recording id (spec 000: GET /api/audio/[fileId], POST /api/audio/[fileId]/share). fileId is a
// recording's id: the audio is that recording's stored media, seen by whoever may see the recording (its
// owner and family members of the owner's groups); share links (audio_shares) are made by the owner only
// and are played through GET /api/share/[token] without signing in.
import { randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import { one } from '@story/db';
import { AppError, notFound } from '@story/http';
import { isRangeNotSatisfiable, ProviderError, type ByteRange, type ObjectStorage, type StoredObject } from '@story/providers';
import type { AccessPolicy } from '../access/access.policy';
import { createRecordingsRepository, type RecordingRow } from '../recordings/recordings.repository';
import { isoUtc } from '../sql-fragments';

export interface AudioShareView {
  id: string;
  recordingId: string;
  token: string;
  url: string;
  expiresAt: string | null;
  createdAt: string;
}

export function createAudioService(deps: { sql: Sql; storage: Pick<ObjectStorage, 'get'>; access: AccessPolicy; publicBaseUrl: string }) {
  const { sql, storage, access } = deps;
  const recordings = createRecordingsRepository(sql);

  async function recording(callerId: string, id: string, permission: 'view_stories' | 'manage_settings'): Promise<RecordingRow> {
    const row = await recordings.findById(id);
    if (!row) throw notFound('Audio file');
    await access.require(callerId, row.userId, permission, 'Audio file');
    if (!row.storageKey) throw notFound('Audio file');
    return row;
  }

  return {
    async stream(callerId: string, id: string, range?: ByteRange): Promise<{ object: StoredObject; contentType?: string }> {
      const row = await recording(callerId, id, 'view_stories');
      try {
        return { object: await storage.get(row.storageKey!, range), contentType: row.mimeType ?? undefined };
      } catch (err) {
        if (isRangeNotSatisfiable(err)) throw new AppError('range_not_satisfiable', 'The requested range is not satisfiable');
        if (err instanceof ProviderError && err.kind === 'not_found') throw notFound('Audio file');
        throw new AppError('bad_gateway', 'The audio could not be read from storage', { cause: err });
      }
    },

    async share(callerId: string, id: string, input: { expiresInDays?: number }): Promise<AudioShareView> {
      const row = await recording(callerId, id, 'manage_settings');
      // 192 random bits, base64url: unguessable and URL-safe (the schema asks for at least 128).
      const token = randomBytes(24).toString('base64url');
      const expires = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000).toISOString() : null;
      const created = one(
        await sql<{ id: string; expiresAt: string | null; createdAt: string }[]>`
          insert into audio_shares (recording_id, created_by, token, expires_at)
          values (${row.id}, ${callerId}, ${token}, ${expires}::timestamptz)
          returning id, case when expires_at is null then null else ${isoUtc(sql, 'expires_at')} end as "expiresAt", ${isoUtc(sql, 'created_at')} as "createdAt"`,
      );
      return { id: created.id, recordingId: row.id, token, url: `${deps.publicBaseUrl}/api/share/${token}`, expiresAt: created.expiresAt, createdAt: created.createdAt };
    },
  };
}

export type AudioService = ReturnType<typeof createAudioService>;
