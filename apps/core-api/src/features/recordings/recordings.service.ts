// Recordings (spec 000 Recordings and "Recording to story" 1-6): saving an upload with the spec's failure
// semantics, listing, streaming and deleting. A multipart upload (at most 8 MB) is copied to a temp file as
// it streams into storage, and its waveform and duration are computed from that copy before the row is
// written (spec 000 Recording fields: waveform_data "generated on upload"); server transcription, and the
// analysis of direct uploads (stored by the client, up to 50 MB), run in the durable job `recording.process`.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import type { Sql } from 'postgres';
import type { JobRunner } from '@story/jobs';
import { AppError, badRequest, notFound } from '@story/http';
import { isRangeNotSatisfiable, isStorageNotConfigured, newObjectKey, ProviderError, type ByteRange, type ObjectStorage, type StoredObject } from '@story/providers';
import type { AccessPolicy } from '../access/access.policy';
import { assertAllowance, tierOf } from '../tiers/tier-allowances';
import { decodeWaveform, detectMedia, SNIFF_BYTES, type DetectedMedia } from './media-probe';
import { createRecordingsRepository, type NewRecording, type RecordingRow } from './recordings.repository';

export type { RecordingRow } from './recordings.repository';

export const MULTIPART_MAX_BYTES = 8 * 1024 * 1024;
export const MULTIPART_TOO_LARGE = `Recordings larger than ${MULTIPART_MAX_BYTES / 1024 / 1024} MB must use direct upload (POST /api/uploads/presign, then POST /api/uploads/register)`;

/** A local copy of an upload, for the analysis made before the row is written; removed afterwards. */
interface LocalCopy {
  file: string;
  remove: () => Promise<void>;
}

/** A file part streamed into storage (with its local copy), or (storage wholly unconfigured) only inspected. */
export type StoredUpload = { stored: true; key: string; media: DetectedMedia; size: number; copy?: LocalCopy } | { stored: false; media: DetectedMedia; size: number };

/** A temp file the upload is written to as it streams (the part is at most 8 MB). */
async function openLocalCopy(): Promise<{ copy: LocalCopy; write: (chunk: Buffer) => Promise<void>; close: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rec-upload-'));
  const file = path.join(dir, 'media');
  const out = createWriteStream(file);
  const remove = async () => {
    out.destroy();
    await rm(dir, { recursive: true, force: true });
  };
  return {
    copy: { file, remove },
    write: async (chunk) => {
      if (!out.write(chunk)) await once(out, 'drain');
    },
    close: () => new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve()))),
  };
}

/** Waveform peaks and duration of a local file from one ffmpeg decode (both null when ffmpeg cannot read it). */
const analyzeCopy = (copy: LocalCopy) => decodeWaveform(copy.file);

export const PROCESS_JOB = 'recording.process';

/** Spec 000 Limits: voice at most 30 minutes. */
export const MAX_VOICE_SECONDS = 30 * 60;
export const VOICE_TOO_LONG = 'A recording may be at most 30 minutes long (spec 000 Limits: voice at most 30 minutes)';

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MB`;
/** The 413 message for a file over the stored-file limit (MAX_STORED_FILE_BYTES, spec 000: 50 MB). */
export const fileTooLargeMessage = (limitBytes: number) => `A stored file may be at most ${megabytes(limitBytes)} (${limitBytes} bytes)`;

/** 400 naming the 30-minute voice limit when the client's duration is over it (seconds, as sent). */
export function assertVoiceLength(durationSeconds: number | undefined | null, field = 'duration'): void {
  if (durationSeconds !== undefined && durationSeconds !== null && durationSeconds > MAX_VOICE_SECONDS) {
    throw badRequest(`${field}: ${VOICE_TOO_LONG}`, { field });
  }
}

export interface NewRecordingFields {
  title?: string;
  description?: string;
  campaignId?: string;
  transcript?: string;
  duration?: number;
  trialSessionId?: string;
  tags?: string[];
}

export interface RecordingsServiceDeps {
  sql: Sql;
  storage: ObjectStorage;
  access: AccessPolicy;
  /** The core runner, to queue `recording.process` in the transaction that writes the row. */
  jobs: Pick<JobRunner, 'enqueue'>;
  /** Prefix of audio_url, e.g. https://api.example (empty: a path on this service). */
  publicBaseUrl: string;
  /** MAX_STORED_FILE_BYTES (spec 000 Limits: 50 MB). */
  maxStoredFileBytes: number;
}

export function createRecordingsService(deps: RecordingsServiceDeps) {
  const { sql, storage, access, jobs } = deps;
  const repo = createRecordingsRepository(sql);
  const audioUrlOf = (id: string) => `${deps.publicBaseUrl}/api/recordings/${id}/audio`;

  /** The row fields every insert shares, from what the client sent and what the bytes showed. */
  const newRow = (userId: string, fields: NewRecordingFields, media: { mimeType: string; mediaType: string; size: number }): NewRecording => ({
    userId,
    campaignId: fields.campaignId ?? null,
    title: fields.title ?? 'Untitled recording',
    description: fields.description ?? null,
    transcript: fields.transcript ?? null,
    durationSeconds: fields.duration === undefined ? null : Math.round(fields.duration),
    mimeType: media.mimeType,
    mediaType: media.mediaType,
    sizeBytes: media.size,
    transcriptSource: fields.transcript ? 'browser' : null,
    trialSessionId: fields.trialSessionId ?? null,
  });

  /** 400 unless the campaign is the caller's own (a recording is filed under one of their campaigns). */
  async function assertOwnCampaign(userId: string, campaignId: string | undefined) {
    if (!campaignId) return;
    if (!(await repo.isCampaignOf(campaignId, userId))) throw badRequest('campaignId is not one of your campaigns', { field: 'campaignId' });
  }

  /** The tier's voice minutes, counted over the caller's stored recordings. */
  async function assertVoiceMinutes(userId: string, addingSeconds: number | undefined) {
    const [tier, usedSeconds] = await Promise.all([tierOf(sql, userId), repo.storedSeconds(userId)]);
    const usedMinutes = Math.ceil(usedSeconds / 60);
    assertAllowance(tier, 'voiceMinutes', usedMinutes, Math.ceil((addingSeconds ?? 0) / 60));
  }

  /** Insert the row and queue its processing in one transaction; a failed insert removes the stored object. */
  async function insertStored(
    userId: string,
    fields: NewRecordingFields,
    media: { key: string; mimeType: string; mediaType: string; size: number },
    waveform: number[] | null = null,
  ): Promise<RecordingRow> {
    try {
      return await repo.transaction(async (tx) => {
        // The id is made here, so the row is written with its audio URL at once (one statement, not an insert and an update).
        const id = randomUUID();
        const row = await repo.insertStored({ ...newRow(userId, fields, media), id, audioUrl: audioUrlOf(id), storageKey: media.key, tags: fields.tags ?? [], waveformData: waveform }, tx);
        await jobs.enqueue(PROCESS_JOB, { recordingId: row.id, analyze: true }, { dedupeKey: `recording:${row.id}` }, tx);
        return row;
      });
    } catch (err) {
      await storage.delete(media.key).catch(() => undefined);
      throw err;
    }
  }

  async function visible(callerId: string, id: string): Promise<RecordingRow> {
    const row = await repo.findById(id);
    if (!row) throw notFound('Recording');
    await access.require(callerId, row.userId, 'view_stories', 'Recording');
    return row;
  }

  async function owned(callerId: string, id: string): Promise<RecordingRow> {
    const row = await visible(callerId, id);
    if (row.userId !== callerId) throw new AppError('forbidden', 'Only the person who recorded this may change it');
    return row;
  }

  return {
    assertOwnCampaign,
    assertVoiceMinutes,
    insertStored,
    maxStoredFileBytes: deps.maxStoredFileBytes,
    audioUrlOf,

    /**
     * POST /api/recordings, first half: stream the file part straight into storage (never held whole).
     * The first bytes decide the type. A configured store that throws is a 502 and keeps nothing; storage
     * wholly unconfigured is remembered so the second half can keep an upload_failed row and answer 503.
     */
    async storeUpload(userId: string, file: Readable & { truncated?: boolean }, declaredType?: string): Promise<StoredUpload> {
      const iterator = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      const headChunks: Buffer[] = [];
      let headLength = 0;
      let done = false;
      while (headLength < SNIFF_BYTES) {
        const next = await iterator.next();
        if (next.done) {
          done = true;
          break;
        }
        headChunks.push(next.value);
        headLength += next.value.length;
      }
      const head = Buffer.concat(headChunks);
      const drain = async () => {
        if (!done) for (let n = await iterator.next(); !n.done; n = await iterator.next());
      };
      if (head.length === 0) throw badRequest('The audio file is empty', { field: 'audio' });
      const media = await detectMedia(head.subarray(0, SNIFF_BYTES), declaredType);
      if (!media) {
        await drain();
        throw badRequest('The uploaded file is not audio or video (webm, mp3, wav, m4a, ogg or video)', { field: 'audio' });
      }
      let size = 0;
      const local = await openLocalCopy();
      async function* body() {
        size += head.length;
        await local.write(head);
        yield head;
        if (done) return;
        for (let n = await iterator.next(); !n.done; n = await iterator.next()) {
          size += n.value.length;
          await local.write(n.value);
          yield n.value;
        }
      }
      const key = newObjectKey(`recordings/${userId}`, media.extension);
      try {
        await storage.put(key, Readable.from(body(), { objectMode: false }), { contentType: media.mimeType });
        await local.close();
      } catch (err) {
        await local.copy.remove();
        await drain().catch(() => undefined);
        if (isStorageNotConfigured(err)) return { stored: false, media, size };
        throw new AppError('bad_gateway', 'The recording could not be saved to storage', { details: 'Nothing was saved. Keep your local copy and try saving again.', cause: err });
      }
      const refuse = async (error: AppError) => {
        await local.copy.remove();
        await storage.delete(key).catch(() => undefined);
        return error;
      };
      if (file.truncated) throw await refuse(new AppError('payload_too_large', MULTIPART_TOO_LARGE));
      // Only reachable when MAX_STORED_FILE_BYTES is set below the multipart route's 8 MB.
      if (size > deps.maxStoredFileBytes) throw await refuse(new AppError('payload_too_large', fileTooLargeMessage(deps.maxStoredFileBytes)));
      return { stored: true, key, media, size, copy: local.copy };
    },

    /** Remove an object stored by storeUpload when the request fails afterwards (no orphan objects). */
    async discard(upload: StoredUpload | undefined) {
      if (upload?.stored) {
        await upload.copy?.remove();
        await storage.delete(upload.key).catch(() => undefined);
      }
    },

    /** POST /api/recordings, second half: checks that need the text fields, then the row (or the upload_failed row and 503). */
    async finishUpload(userId: string, upload: StoredUpload, fields: NewRecordingFields) {
      try {
        assertVoiceLength(fields.duration);
        await assertOwnCampaign(userId, fields.campaignId);
        await assertVoiceMinutes(userId, fields.duration);
      } catch (err) {
        await this.discard(upload);
        throw err;
      }
      if (!upload.stored) {
        // Kept so the failure is visible in the library; the client still has its local copy to retry.
        const recordingId = await repo.insertFailed({ ...newRow(userId, fields, { mimeType: upload.media.mimeType, mediaType: upload.media.mediaType, size: upload.size }), transcriptStatus: fields.transcript ? 'pending' : null });
        throw new AppError('unavailable', 'Storage is not configured, so the recording could not be saved', {
          details: 'Keep your local copy and try saving again later.',
          extra: { status: 'upload_failed', recordingId },
        });
      }
      // Waveform and duration from the local copy, before the row exists, so the upload's answer and every
      // read after it carry them (spec 000: "generated on upload"). A duration the client sent is kept, as
      // the job keeps it, unless the probe finds the recording over the 30-minute limit: the job then
      // fails it against the probed length.
      let analysis: Awaited<ReturnType<typeof analyzeCopy>> = { waveform: null, durationSeconds: null };
      if (upload.copy) {
        try {
          analysis = await analyzeCopy(upload.copy);
        } finally {
          await upload.copy.remove();
        }
      }
      const probed = analysis.durationSeconds;
      const duration = probed !== null && (fields.duration === undefined || probed > MAX_VOICE_SECONDS) ? probed : fields.duration;
      return insertStored(userId, { ...fields, duration }, { key: upload.key, mimeType: upload.media.mimeType, mediaType: upload.media.mediaType, size: upload.size }, analysis.waveform);
    },

    async list(userId: string, q: { campaignId?: string; search?: string; tags?: string[]; limit: number }) {
      const pattern = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      return repo.list(userId, { campaignId: q.campaignId, pattern, tags: q.tags, limit: q.limit });
    },

    get: visible,

    async remove(userId: string, id: string) {
      const row = await owned(userId, id);
      await repo.delete(row.id);
      // The row goes first: a media object without a row is invisible and harmless; the reverse is a broken page.
      if (row.storageKey) await storage.delete(row.storageKey).catch(() => undefined);
      return { id: row.id };
    },

    /** The stored media, streamed (a range when asked): 404 for a missing object, 416 for a bad range. */
    async media(callerId: string, id: string, range?: ByteRange): Promise<{ row: RecordingRow; object: StoredObject }> {
      const row = await visible(callerId, id);
      if (!row.storageKey) throw notFound('Recording media');
      try {
        return { row, object: await storage.get(row.storageKey, range) };
      } catch (err) {
        if (isRangeNotSatisfiable(err)) throw new AppError('range_not_satisfiable', 'The requested range is not satisfiable', {
            headers: row.originalFileSizeBytes === null ? undefined : { 'Content-Range': `bytes */${row.originalFileSizeBytes}` },
          });
        if (err instanceof ProviderError && err.kind === 'not_found') throw notFound('Recording media');
        throw new AppError('bad_gateway', 'The recording could not be read from storage', { cause: err });
      }
    },

    async waveform(callerId: string, id: string) {
      const row = await visible(callerId, id);
      return { waveform: row.waveformData ?? [], duration: row.durationSeconds ?? 0 };
    },

    async stats(userId: string) {
      const row = await repo.stats(userId);
      const tier = await tierOf(sql, userId);
      const usedMinutes = Math.ceil((row?.['totalDurationSeconds'] ?? 0) / 60);
      return { stats: { ...row, voiceMinutesUsed: usedMinutes, tier } };
    },

    async tags(userId: string) {
      return { tags: await repo.distinctTags(userId) };
    },

    async setTags(userId: string, id: string, tags: string[]) {
      const row = await owned(userId, id);
      return (await repo.setTags(row.id, tags))!;
    },

    /** POST /api/recordings/[id]/transcribe: queue server transcription again (retry after a failure). */
    async queueTranscription(userId: string, id: string) {
      const row = await owned(userId, id);
      if (!row.storageKey || row.status !== 'completed') throw new AppError('conflict', 'This recording has no stored media to transcribe', { code: 'no_media' });
      return repo.transaction(async (tx) => {
        const { created } = await jobs.enqueue(PROCESS_JOB, { recordingId: row.id, analyze: false }, { dedupeKey: `recording:${row.id}` }, tx);
        const updated = await repo.resetTranscript(row.id, tx);
        return { queued: created, alreadyQueued: !created, recording: updated! };
      });
    },
  };
}

export type RecordingsService = ReturnType<typeof createRecordingsService>;
