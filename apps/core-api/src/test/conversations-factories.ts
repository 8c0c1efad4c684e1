// Test factories for conversations and speech: an app built with injected providers (fake speech
// recognition, failing storage), real media generated with ffmpeg, multipart bodies, and rows.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { conversationMessages, conversations, one } from '@story/db';
import { ffmpegPath, ProviderError, type Providers, type RecognitionOptions, type SpeechRecognition, type Transcription } from '@story/providers';
import { buildTestApp, type TestContext } from './helper';

const exec = promisify(execFile);

/** buildTestApp with some providers replaced (the rest built from config as in production). */
export function buildTestAppWithProviders(override: (base: Providers) => Partial<Providers>, env: Record<string, string | undefined> = {}): Promise<TestContext> {
  return buildTestApp(env, { providers: override });
}

export interface FakeSpeech extends SpeechRecognition {
  /** bytes: the declared size; streamed: what reading the source gave; path: set when the source is a file; buffer: whether a Buffer was passed. */
  calls: { bytes: number; streamed: number; path?: string; buffer: boolean; options: RecognitionOptions }[];
}

/** A configured speech recogniser that answers `result` (or throws what `fail` gives) and records its calls. */
export function fakeSpeech(result: Partial<Transcription> = {}, fail?: () => unknown): FakeSpeech {
  const calls: FakeSpeech['calls'] = [];
  return {
    available: true,
    providers: ['google', 'deepgram'],
    calls,
    async transcribe(media, options) {
      let streamed = 0;
      for await (const chunk of media.open()) streamed += (chunk as Buffer).length;
      calls.push({ bytes: media.size, streamed, path: media.path, buffer: Buffer.isBuffer(media), options });
      if (fail) throw fail();
      if (options.provider === 'stt_fallback' && result.provider === undefined) {
        return { text: 'from the fallback', language: 'en', confidence: 0.8, durationSeconds: 1, provider: 'deepgram', costUsd: 0.0043 };
      }
      return { text: 'We lived on Mill Street in 1952.', language: 'en-US', confidence: 0.93, durationSeconds: 2, provider: 'google', costUsd: 0.016, ...result };
    },
  };
}

/** A fake with only the primary slot configured, answering like the real chooser for the other slot. */
export function primaryOnlySpeech(): FakeSpeech {
  const base = fakeSpeech();
  return {
    ...base,
    providers: ['google'],
    async transcribe(media, options) {
      if (options.provider === 'stt_fallback') throw new ProviderError('unavailable', 'stt_fallback', 'Speech recognition provider stt_fallback is not configured on this server');
      return base.transcribe(media, options);
    },
  };
}

const CODECS = {
  wav: ['-ar', '8000', '-ac', '1', '-c:a', 'pcm_u8', '-f', 'wav'],
  mp3: ['-ar', '16000', '-ac', '1', '-c:a', 'libmp3lame', '-b:a', '16k', '-f', 'mp3'],
  // Written to a pipe, like a browser's MediaRecorder: the container carries no duration.
  webm: ['-ac', '1', '-c:a', 'libopus', '-b:a', '24k', '-f', 'webm'],
};

/** Real media made with ffmpeg (the build shipped in npm): a sine tone of `seconds`, as WAV (8 kHz mono, small), MP3 or streamed WebM/Opus. */
export async function makeTone(seconds: number, format: keyof typeof CODECS = 'wav'): Promise<Buffer> {
  const codec = CODECS[format];
  const { stdout } = await exec(ffmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, ...codec, 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout as Buffer;
}

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body for app.inject. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----story-${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Factory: a conversation of `userId` with the given turns (user, assistant, user, ...). */
export async function newConversation(
  ctx: TestContext,
  userId: string,
  options: { sessionId?: string; turns?: string[]; status?: 'active' | 'completed'; tags?: string[] } = {},
) {
  const turns = options.turns ?? [];
  const row = one(
    await ctx.database.db
      .insert(conversations)
      .values({
        userId,
        sessionId: options.sessionId ?? `session-${randomUUID()}`,
        status: options.status ?? 'active',
        completedAt: options.status === 'completed' ? new Date() : null,
        tags: options.tags ?? [],
        turnCount: turns.length,
      })
      .returning(),
  );
  const messageIds: string[] = [];
  for (const [i, content] of turns.entries()) {
    const message = one(
      await ctx.database.db
        .insert(conversationMessages)
        .values({ conversationId: row.id, role: i % 2 === 0 ? 'user' : 'assistant', content, createdAt: new Date(Date.now() - (turns.length - i) * 1000) })
        .returning({ id: conversationMessages.id }),
    );
    messageIds.push(message.id);
  }
  return { ...row, messageIds };
}
