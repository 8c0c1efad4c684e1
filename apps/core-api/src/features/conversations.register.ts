// Conversations (AI interviewer), POST /api/transcribe and /api/tts/{provider} (spec 000 Conversations;
// Transcription and speech). Every route here needs a signed-in caller, so all of them sit in one scope with
// the auth hook; the multipart plugin is registered in that scope too, with this area's limits (the
// recordings area registers its own in its own scope).
import multipart from '@fastify/multipart';
import { postgresTransactionOf } from '@story/db';
import type { App } from '@story/http';
import { createConversationsService } from './conversations/conversations.service';
import { conversationsRoutes } from './conversations/conversations.routes';
import type { CoreFeatureDeps } from './feature-deps';
import { MULTIPART_BUFFERS } from './multipart-file';
import { MULTIPART_LIMITS } from './speech/audio-upload';
import { probeDurationSeconds } from './speech/media-probe';
import { createSpeechRepository } from './speech/speech.repository';
import { createSpeechService } from './speech/speech.service';
import { speechRoutes } from './speech/speech.routes';
import { TRANSCRIBE_TURN_JOB, turnTranscriptionJob } from '../workers/turn-transcription.worker';

export async function registerConversationsAndSpeech(app: App, deps: CoreFeatureDeps): Promise<void> {
  const speech = createSpeechService({
    speech: deps.providers.speech,
    tts: deps.providers.tts,
    preferredLanguage: createSpeechRepository(deps.sql).preferredLanguage,
  });
  deps.jobs.define(turnTranscriptionJob({ sql: deps.sql, storage: deps.providers.storage, speech: deps.providers.speech }));
  const conversations = createConversationsService({
    db: deps.db,
    llm: deps.providers.llm,
    storage: deps.providers.storage,
    access: deps.access,
    probeDuration: probeDurationSeconds,
    // Turns stored without a transcript are written down by the job runner, queued in the same transaction.
    queueTranscription: deps.providers.speech.available
      ? async (messageId, audioKey, tx) => {
          await deps.jobs.enqueue(TRANSCRIBE_TURN_JOB, { messageId, audioKey }, { dedupeKey: `turn:${messageId}:${audioKey}` }, postgresTransactionOf(tx));
        }
      : undefined,
    wakeRunner: () => deps.jobs.wake(),
  });

  await app.register(async (scope) => {
    scope.addHook('onRequest', deps.authHook);
    // Registered here unless an enclosing scope already did (its parser is then inherited); the
    // limits are also passed on every read, so they hold either way.
    if (!scope.hasContentTypeParser('multipart/form-data')) {
      await scope.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true, ...MULTIPART_BUFFERS });
    }
    await scope.register(speechRoutes({ speech, rateLimit: deps.rateLimit }));
    await scope.register(conversationsRoutes({ conversations, speech, rateLimit: deps.rateLimit }));
  });
}
