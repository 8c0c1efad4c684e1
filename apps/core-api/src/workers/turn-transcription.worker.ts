// `conversation.transcribe-turn`, a job kind of the core queue: the audio of a conversation turn uploaded
// without a transcript (POST /api/conversations/upload-audio) is written down through the speech chooser,
// as recordings are (CONTRACTS §4: the local recogniser on the embedded defaults). The turn's metadata
// says how it went: transcriptPending while queued, then transcriptStatus done with transcriptSource and
// transcriptModel (the text becomes the turn's content unless someone wrote one meanwhile), or failed with
// transcriptError. One UPDATE writes the outcome, and only while the turn still holds the same audio (a
// replaced recording queues its own job).
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Sql } from 'postgres';
import { z } from 'zod';
import { defineJob, StuckJobError } from '@story/jobs';
import { mediaFromFile, ProviderError, type ObjectStorage, type SpeechRecognition } from '@story/providers';

export const TRANSCRIBE_TURN_JOB = 'conversation.transcribe-turn';

const payloadSchema = z.object({ messageId: z.uuid(), audioKey: z.string().min(1) });

interface TurnForJob {
  userId: string;
  audioKey: string | null;
  audioType: string | null;
  preferredLanguage: string | null;
}

function failureMessage(err: unknown): string {
  if (err instanceof StuckJobError) return 'Transcription stopped repeatedly before finishing; try again';
  return err instanceof ProviderError ? err.message : 'Transcription failed unexpectedly';
}

export function turnTranscriptionJob(deps: { sql: Sql; storage: Pick<ObjectStorage, 'get'>; speech: SpeechRecognition }) {
  const { sql, storage, speech } = deps;

  async function forJob(messageId: string): Promise<TurnForJob | undefined> {
    const [row] = await sql<TurnForJob[]>`
      select c.user_id as "userId", m.audio_storage_key as "audioKey", m.metadata->>'audioType' as "audioType", v.preferred_language as "preferredLanguage"
        from conversation_messages m join conversations c on c.id = m.conversation_id
        left join user_voice_settings v on v.user_id = c.user_id
       where m.id = ${messageId}`;
    return row;
  }

  /** Merge the outcome into the turn's metadata, only while it still holds the audio that was transcribed. */
  async function record(messageId: string, audioKey: string, outcome: Record<string, string | null>, text?: string): Promise<void> {
    await sql`
      update conversation_messages
         set content = case when ${text ?? null}::text is not null and content = '' then ${text ?? null}::text else content end,
             metadata = metadata || ${JSON.stringify({ transcriptPending: false, ...outcome })}::jsonb
       where id = ${messageId} and audio_storage_key = ${audioKey}`;
  }

  return defineJob({
    kind: TRANSCRIBE_TURN_JOB,
    parse: (p) => payloadSchema.parse(p),
    // A turn is at most 5 minutes of audio.
    leaseSeconds: 10 * 60,
    maxAttempts: 5,
    retryable: (err) => (err instanceof ProviderError ? err.retryable : true),
    async run({ payload, signal }) {
      const turn = await forJob(payload.messageId);
      if (!turn || turn.audioKey !== payload.audioKey) return { skipped: 'turn gone or its audio replaced' };
      if (!speech.available) {
        await record(payload.messageId, payload.audioKey, { transcriptStatus: 'failed', transcriptError: 'Speech recognition is not configured on this server' });
        return { transcribed: false };
      }
      const dir = await mkdtemp(path.join(tmpdir(), 'turn-job-'));
      try {
        const file = path.join(dir, 'media');
        const object = await storage.get(payload.audioKey);
        await pipeline(object.body, createWriteStream(file));
        const result = await speech.transcribe(mediaFromFile(file, (await stat(file)).size), {
          mimeType: turn.audioType ?? 'application/octet-stream',
          language: 'auto',
          preferredLanguage: turn.preferredLanguage ?? undefined,
          userId: turn.userId,
          feature: 'conversation-transcription',
          signal,
        });
        await record(
          payload.messageId,
          payload.audioKey,
          { transcriptStatus: 'done', transcriptSource: result.provider, ...(result.model ? { transcriptModel: result.model } : {}), transcriptError: null },
          result.text,
        );
        return { transcribed: true };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async onGiveUp({ messageId, audioKey }, err) {
      await record(messageId, audioKey, { transcriptStatus: 'failed', transcriptError: failureMessage(err) });
    },
  });
}
