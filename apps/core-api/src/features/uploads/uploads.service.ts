// Direct uploads over 8 MB ("Recording to story" 2, CONTRACTS §6): presign issues a ticket for one
// server-generated key; the bytes go straight to storage (S3 presigned PUT, or core-api's own local PUT
// route); register asks storage what arrived and writes the row only for an object of exactly the ticketed
// size. The server never reads the bytes on this path (the local PUT route streams them through to disk).
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import type { Sql } from 'postgres';
import { AppError, badRequest, conflict, isMediaType } from '@story/http';
import { isStorageNotConfigured, newObjectKey, type ObjectStorage } from '@story/providers';
import { detectMedia, SNIFF_BYTES, type DetectedMedia } from '../recordings/media-probe';
import { createRecordingsRepository } from '../recordings/recordings.repository';
import { assertVoiceLength, fileTooLargeMessage, type RecordingsService } from '../recordings/recordings.service';
import type { TicketSigner } from './upload-ticket';
import { createPendingUploadsRepository } from './pending-uploads.repository';

/** At or below this the multipart route takes the file; above it, direct upload (spec 000 Limits). */
export { MULTIPART_MAX_BYTES } from '../recordings/recordings.service';
export const TICKET_TTL_SECONDS = 60 * 60;

const EXTENSIONS: Record<string, string> = {
  'audio/webm': 'webm', 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav',
  'audio/mp4': 'm4a', 'audio/x-m4a': 'm4a', 'audio/m4a': 'm4a', 'audio/aac': 'aac', 'audio/ogg': 'ogg', 'audio/opus': 'ogg', 'audio/flac': 'flac',
  'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/webm': 'webm', 'video/x-matroska': 'mkv', 'video/3gpp': '3gp', 'video/ogg': 'ogv', 'video/x-m4v': 'm4v',
};

const bareType = (t: string) => t.split(';')[0]!.trim().toLowerCase();
const VIDEO_TYPE = /^video\/[a-z0-9][a-z0-9.+-]*$/;
const NOT_MEDIA = 'The uploaded file is not audio or video (webm, mp3, wav, m4a, ogg or video)';

export interface PresignInput {
  fileName: string;
  contentType: string;
  size: number;
  campaignId?: string;
}

export interface RegisterInput {
  key: string;
  ticket: string;
  title?: string;
  campaignId?: string;
  duration?: number;
  transcript?: string;
  mediaType?: 'audio' | 'video';
}

export function createUploadsService(deps: { sql: Sql; storage: ObjectStorage; tickets: TicketSigner; recordings: RecordingsService }) {
  const { storage, tickets, recordings } = deps;
  const recordingRows = createRecordingsRepository(deps.sql);
  const pendingUploads = createPendingUploadsRepository(deps.sql);
  const maxBytes = recordings.maxStoredFileBytes;
  const tooLarge = () => new AppError('payload_too_large', fileTooLargeMessage(maxBytes));

  function prefixOf(userId: string) {
    return `recordings/${userId}/`;
  }

  /** The stored object's first bytes judged like a multipart upload's (null: not audio or video). */
  async function sniffStored(key: string, declared: string): Promise<DetectedMedia | null> {
    let object;
    try {
      object = await storage.get(key, { start: 0, end: SNIFF_BYTES - 1 });
    } catch (err) {
      throw new AppError('bad_gateway', 'Storage could not be read for the upload', { cause: err });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    return detectMedia(Buffer.concat(chunks).subarray(0, SNIFF_BYTES), declared);
  }

  return {
    async presign(userId: string, input: PresignInput) {
      // One well-formed media type (RFC 9110 §8.3.1: no line break or other control character, which would
      // later make every read of the recording fail), of an audio container we take or video.
      const contentType = input.contentType.trim();
      const type = bareType(contentType);
      const ext = isMediaType(contentType) ? (EXTENSIONS[type] ?? (VIDEO_TYPE.test(type) ? 'bin' : undefined)) : undefined;
      if (!ext) throw badRequest('contentType must be one audio (webm, mp3, wav, m4a, ogg) or video media type, such as audio/webm;codecs=opus', { field: 'contentType' });
      if (input.size > maxBytes) throw tooLarge();
      await recordings.assertOwnCampaign(userId, input.campaignId);
      const key = newObjectKey(`recordings/${userId}`, ext);
      const exp = Math.floor(Date.now() / 1000) + TICKET_TTL_SECONDS;
      const ticket = tickets.sign({ key, size: input.size, contentType, userId, exp, ...(input.campaignId ? { campaignId: input.campaignId } : {}) });
      try {
        const signed = await storage.presignUpload(key, { contentType, contentLength: input.size, expiresInSeconds: TICKET_TTL_SECONDS });
        // Written before the URL is handed out: bytes under this key that are never registered are swept
        // once the ticket expires (upload-sweep.ts).
        await pendingUploads.record({ key, userId, sizeBytes: input.size, expiresAt: new Date(exp * 1000) });
        // The local PUT route reads the ticket from this header; S3 ignores it (it is not part of the signature).
        const headers = storage.provider === 'local' ? { ...signed.headers, 'x-upload-ticket': ticket } : signed.headers;
        return { uploadUrl: signed.url, key, ticket, expiresAt: new Date(exp * 1000).toISOString(), headers, method: 'PUT' as const };
      } catch (err) {
        if (isStorageNotConfigured(err)) throw new AppError('unavailable', 'Storage is not configured, so direct uploads are not possible', { extra: { status: 'upload_failed' } });
        throw new AppError('bad_gateway', 'Storage could not authorise the upload', { cause: err });
      }
    },

    /** The local store's PUT /api/uploads/direct/<key>: the ticket is the only credential. */
    async receiveDirect(ticketToken: string | undefined, key: string, body: Readable, declaredLength: number | undefined) {
      if (!ticketToken) throw new AppError('forbidden', 'The upload ticket is missing', { code: 'invalid_ticket' });
      const ticket = tickets.verify(ticketToken);
      if (ticket.key !== key) throw new AppError('forbidden', 'This ticket is for another object key', { code: 'invalid_ticket' });
      // A ticket issued under a higher limit (the setting was lowered since) still may not store more.
      if (declaredLength !== undefined && declaredLength > maxBytes) throw tooLarge();
      if (declaredLength !== undefined && declaredLength > ticket.size) throw new AppError('payload_too_large', 'The upload is larger than its ticket allows');
      const allowed = Math.min(ticket.size, maxBytes);
      let seen = 0;
      // Count as the bytes pass: more than the ticket allows stops the write and nothing is kept.
      const limiter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          seen += chunk.length;
          if (seen > allowed) return done(seen > maxBytes ? tooLarge() : new AppError('payload_too_large', 'The upload is larger than its ticket allows'));
          done(null, chunk);
        },
      });
      body.on('error', (err) => limiter.destroy(err));
      try {
        const stored = await storage.put(key, body.pipe(limiter), { contentType: ticket.contentType });
        return { key, size: stored.size };
      } catch (err) {
        if (seen > maxBytes) throw tooLarge();
        if (seen > ticket.size) throw new AppError('payload_too_large', 'The upload is larger than its ticket allows');
        if (isStorageNotConfigured(err)) throw new AppError('unavailable', 'Storage is not configured', { extra: { status: 'upload_failed' } });
        throw new AppError('bad_gateway', 'The upload could not be written to storage', { cause: err });
      }
    },

    async register(userId: string, input: RegisterInput) {
      const ticket = tickets.verify(input.ticket);
      if (ticket.userId !== userId) throw new AppError('forbidden', 'This upload ticket was issued to someone else', { code: 'invalid_ticket' });
      if (input.key !== ticket.key || !input.key.startsWith(prefixOf(userId))) {
        throw new AppError('forbidden', 'The key is not the one this ticket authorises', { code: 'invalid_ticket' });
      }
      const campaignId = input.campaignId ?? ticket.campaignId;
      await recordings.assertOwnCampaign(userId, campaignId);
      // Registering twice (a retried request) answers with the same row instead of a duplicate.
      const existing = await recordingRows.findIdByStorageKey(userId, input.key);
      if (existing) {
        await pendingUploads.forget(input.key);
        return { recording: await recordings.get(userId, existing), created: false };
      }

      // A recording over the voice limit is refused, and what was uploaded for it is not kept.
      try {
        assertVoiceLength(input.duration);
      } catch (err) {
        await storage.delete(input.key).catch(() => undefined);
        throw err;
      }

      const head = await storage.head(input.key).catch((err: unknown) => {
        throw new AppError('bad_gateway', 'Storage could not be asked about the upload', { cause: err });
      });
      if (!head.exists) throw conflict('Nothing was uploaded under this key', { code: 'upload_missing' });
      // What storage really holds decides (an S3 presigned PUT does not bind the length): over the limit,
      // the object is deleted and no row is written.
      if (head.size > maxBytes) {
        await storage.delete(input.key).catch(() => undefined);
        throw tooLarge();
      }
      if (head.size !== ticket.size) {
        throw conflict(`The uploaded object has ${head.size} bytes, the ticket says ${ticket.size}: the upload was cut short`, {
          code: 'size_mismatch',
          extra: { code: 'size_mismatch', expected: ticket.size, actual: head.size },
        });
      }
      // The bytes decide, as on the multipart route: what is stored must be audio or video, and its type is
      // the declared one only where the bytes agree. Anything else is deleted and no row is written.
      const media = await sniffStored(input.key, ticket.contentType);
      if (!media) {
        await storage.delete(input.key).catch(() => undefined);
        throw badRequest(`${NOT_MEDIA}: it was deleted and no recording was written`, { field: 'key' });
      }
      await recordings.assertVoiceMinutes(userId, input.duration);
      // A video container may hold a voice recording (declared audio); audio bytes are never video.
      const mediaType = input.mediaType === 'audio' ? 'audio' : media.mediaType;
      const row = await recordings.insertStored(
        userId,
        { title: input.title, campaignId, duration: input.duration, transcript: input.transcript },
        { key: input.key, mimeType: media.mimeType, mediaType, size: head.size },
      );
      // The row points at the object now; were this delete lost, the sweep still keeps an object a row names.
      await pendingUploads.forget(input.key);
      return { recording: row, created: true };
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
