// The audio of one conversation turn: measured, capped at 5 minutes, stored under a server key and
// attached to its message (or to a new answer) in one transaction. Storage that throws answers 502 and
// nothing is written; a failed write removes the stored object, so no orphan stays behind.
import type { DbOrTx } from '@story/db';
import { AppError, badRequest, conflict, notFound } from '@story/http';
import { newObjectKey, ProviderError, type ObjectStorage } from '@story/providers';
import type { UploadedAudio } from '../speech/audio-upload';
import type { ConversationRow, ConversationsRepository, MessageRow } from './conversations.repository';
import { MAX_TURN_SECONDS } from './conversations.views';

export interface TurnAudioDeps {
  repo: ConversationsRepository;
  storage: Pick<ObjectStorage, 'put' | 'delete'>;
  /** Seconds of media in the bytes, or null when they cannot be read. */
  probeDuration: (media: Buffer, signal?: AbortSignal) => Promise<number | null>;
  /**
   * Queue server transcription of a turn stored without a transcript, in the transaction that stores it
   * (absent when no speech recogniser is configured: the turn then waits for a typed transcript).
   */
  queueTranscription?: (messageId: string, audioKey: string, tx: DbOrTx) => Promise<void>;
  /** Wake the job runner once the transaction has committed. */
  wakeRunner?: () => void;
}

export interface TurnAudioInput {
  messageId?: string;
  audio: UploadedAudio;
  durationSeconds?: number;
  transcript?: string;
}

export function createTurnAudio({ repo, storage, probeDuration, queueTranscription, wakeRunner }: TurnAudioDeps) {
  async function storeObject(conversation: ConversationRow, audio: UploadedAudio): Promise<string> {
    const key = newObjectKey(`conversations/${conversation.userId}/${conversation.id}`, audio.extension);
    try {
      await storage.put(key, audio.buffer, { contentType: audio.mimeType, contentLength: audio.buffer.length });
    } catch (err) {
      if (err instanceof ProviderError && err.provider === 'none') {
        throw new AppError('unavailable', 'Audio storage is not configured on this server, so the audio was not saved', { cause: err });
      }
      throw new AppError('bad_gateway', 'Saving the audio to storage failed; nothing was saved. Try again.', { cause: err });
    }
    return key;
  }

  /** `conversation` is one the caller may edit (the service has checked). */
  return async function uploadAudio(conversation: ConversationRow, input: TurnAudioInput, signal: AbortSignal) {
    let target: MessageRow | undefined;
    if (input.messageId) {
      target = await repo.findMessage(conversation.id, input.messageId);
      if (!target) throw notFound('Message');
    } else if (conversation.status === 'completed') {
      throw conflict('This conversation is completed; new turns cannot be added');
    }

    const measured = input.durationSeconds ?? (await probeDuration(input.audio.buffer, signal));
    if (measured === null) throw badRequest('audio: the length of this recording could not be read; send duration (seconds) with it', { field: 'audio' });
    const seconds = Math.round(measured);
    if (seconds > MAX_TURN_SECONDS) {
      const shown = `${Math.floor(measured / 60)}:${String(Math.round(measured % 60)).padStart(2, '0')}`;
      throw badRequest(`duration: a conversation turn is at most 5 minutes; this one is ${shown}`, { field: 'duration' });
    }
    if (signal.aborted) throw new AppError('timeout', 'The upload ran out of time');

    const key = await storeObject(conversation, input.audio);
    const audioMeta = { audioType: input.audio.mimeType, audioBytes: input.audio.buffer.length };
    try {
      if (signal.aborted) throw new AppError('timeout', 'The upload ran out of time');
      // A turn without words of its own is written down by the server (spec 000 Conversations, CONTRACTS §4).
      const transcribe = !!queueTranscription && !input.transcript && (!target || target.content.trim() === '');
      const saved = await repo.transaction(async (tx) => {
        let messageId: string;
        let added = seconds;
        if (target) {
          added = seconds - (target.durationSeconds ?? 0);
          await repo.updateMessage(
            target.id,
            {
              audioStorageKey: key,
              durationSeconds: seconds,
              ...(target.content.trim() === '' && input.transcript ? { content: input.transcript } : {}),
              metadata: { ...target.metadata, ...audioMeta, ...(transcribe ? { transcriptPending: true, transcriptStatus: 'pending' } : {}) },
            },
            tx,
          );
          messageId = target.id;
        } else {
          messageId = await repo.insertMessage(
            {
              conversationId: conversation.id,
              role: 'user',
              content: input.transcript ?? '',
              audioStorageKey: key,
              durationSeconds: seconds,
              metadata: { ...audioMeta, transcriptPending: !input.transcript, ...(transcribe ? { transcriptStatus: 'pending' } : {}) },
            },
            tx,
          );
        }
        if (transcribe) await queueTranscription(messageId, key, tx);
        const totals = await repo.addAudio(conversation.id, { addedSeconds: added, newTurn: !target }, tx);
        return { messageId, ...totals };
      });
      if (transcribe) wakeRunner?.();
      // The replaced recording of this turn is no longer referenced.
      if (target?.audioStorageKey) await storage.delete(target.audioStorageKey).catch(() => undefined);
      return {
        conversationId: conversation.id,
        messageId: saved.messageId,
        audioKey: key,
        durationSeconds: seconds,
        size: input.audio.buffer.length,
        mimeType: input.audio.mimeType,
        turnCount: saved.turnCount,
        totalDurationSeconds: saved.totalDurationSeconds,
      };
    } catch (err) {
      // No orphan: the object is removed when its row could not be written.
      await storage.delete(key).catch(() => undefined);
      throw err;
    }
  };
}
