// The embedded defaults transcribe (CONTRACTS §4): with no cloud provider configured, every way a recording
// reaches the server ends with a transcript from the local recogniser (transcript_source local, status done,
// transcript_model naming the model), through the app's own job runner and real PostgreSQL, storage,
// ffmpeg and Moonshine (tiny here; base is covered by the word error rates in libs/providers). Recordings
// known not to be English and bad media fail with a reason, and the worker goes on to the next one.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { ffmpegPath } from '@story/providers';
import { JFK_SPEECH, wordErrorRate } from '@story/testing';
import { signUp, type SignedUp, type TestContext } from '../../test/helper';
import { buildTestAppWithProviders, multipart, newConversation, type Part } from '../../test/conversations-factories';
import { VOICE_TOO_LONG } from './recordings.service';

const exec = promisify(execFile);

jest.setTimeout(180_000);

/** Media made with the project's ffmpeg: [ffmpeg input and output arguments]. */
async function make(args: string[]): Promise<Buffer> {
  const { stdout } = await exec(ffmpegPath(), ['-v', 'error', ...args, 'pipe:1'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return stdout as Buffer;
}

describe('recordings on the embedded defaults: the local recogniser', () => {
  let t: TestContext;
  let user: SignedUp;
  let jfk: Buffer;

  beforeAll(async () => {
    t = await buildTestAppWithProviders(() => ({}), { LOCAL_STT_MODEL: 'tiny' });
    user = await signUp(t.app);
    jfk = await readFile(JFK_SPEECH.file);
  });
  afterAll(() => t.close());

  const upload = async (who: SignedUp, parts: Part[]) => {
    const { payload, headers } = multipart(parts);
    return t.app.inject({ method: 'POST', url: '/api/recordings', headers: { ...who.headers, ...headers }, payload });
  };
  /** A direct upload (presign, PUT to storage, register): the bytes are not inspected on the way in. */
  const direct = async (bytes: Buffer, fileName: string, contentType: string) => {
    const presign = await t.app.inject({ method: 'POST', url: '/api/uploads/presign', headers: user.headers, payload: { fileName, contentType, size: bytes.length } });
    expect(presign.statusCode).toBe(200);
    const p = presign.json() as { uploadUrl: string; key: string; ticket: string; headers: Record<string, string> };
    expect((await t.app.inject({ method: 'PUT', url: new URL(p.uploadUrl).pathname, headers: p.headers, payload: bytes })).statusCode).toBe(200);
    const reg = await t.app.inject({ method: 'POST', url: '/api/uploads/register', headers: user.headers, payload: { key: p.key, ticket: p.ticket, title: fileName } });
    expect(reg.statusCode).toBe(201);
    return reg.json().recording.id as string;
  };
  const drain = () => t.app.coreJobs.drain();
  const get = async (who: SignedUp, id: string) => (await t.app.inject({ method: 'GET', url: `/api/recordings/${id}`, headers: who.headers })).json().recording;
  const words = async (id: string) => (await t.database.sql`select transcript_words as w from recordings where id = ${id}`)[0]!['w'] as { word: string; start: number; end: number }[] | null;

  it('reports local as the speech provider in /health', async () => {
    const health = (await t.app.inject({ method: 'GET', url: '/health' })).json();
    expect(JSON.stringify(health)).toContain('"speechToText":["local"]');
  });

  it('an upload without a caption is transcribed: transcript_source local, done, the model named, seconds per word', async () => {
    const res = await upload(user, [
      { name: 'title', value: 'Ask not' },
      { name: 'audio', value: jfk, filename: 'jfk.wav', contentType: 'audio/wav' },
    ]);
    expect(res.statusCode).toBe(201);
    const id = res.json().recording.id as string;
    await drain();
    const rec = await get(user, id);
    expect(rec).toMatchObject({ transcript_status: 'done', transcript_source: 'local', transcript_model: 'moonshine-tiny', transcript_error: null, duration_seconds: 11 });
    expect(wordErrorRate(JFK_SPEECH.text, rec.transcript)).toBeLessThanOrEqual(0.15);
    const timed = await words(id);
    expect(timed!.map((w) => w.word).join(' ')).toBe(rec.transcript);
    expect(timed!.every((w) => w.start === 0 && w.end === 11)).toBe(true);
    // Usage is logged with the model.
    const [usage] = await t.database.sql`select provider, success, metadata->>'model' as model from ai_usage_logs where user_id = ${user.userId} and feature = 'recording-transcription'`;
    expect(usage).toMatchObject({ provider: 'local', success: true, model: 'moonshine-tiny' });
  });

  it('an upload with a browser caption gets the server transcript in its place; POST /transcribe queues it again', async () => {
    const res = await upload(user, [
      { name: 'transcript', value: 'and so my fellow americans' },
      { name: 'audio', value: jfk, filename: 'jfk.wav', contentType: 'audio/wav' },
    ]);
    const id = res.json().recording.id as string;
    expect(res.json().recording).toMatchObject({ transcript_source: 'browser', transcript_status: 'pending' });
    await drain();
    expect(await get(user, id)).toMatchObject({ transcript_source: 'local', transcript_status: 'done' });
    await t.database.sql`update recordings set transcript = 'edited', transcript_status = 'failed' where id = ${id}`;
    const again = await t.app.inject({ method: 'POST', url: `/api/recordings/${id}/transcribe`, headers: user.headers });
    expect(again.statusCode).toBeLessThan(300);
    await drain();
    const rec = await get(user, id);
    expect(rec).toMatchObject({ transcript_source: 'local', transcript_status: 'done' });
    expect(wordErrorRate(JFK_SPEECH.text, rec.transcript)).toBeLessThanOrEqual(0.15);
  });

  it('a direct upload (presign, PUT, register) is transcribed after register', async () => {
    const mp3 = await make(['-i', JFK_SPEECH.file, '-ac', '1', '-c:a', 'libmp3lame', '-b:a', '32k', '-f', 'mp3']);
    const id = await direct(mp3, 'jfk.mp3', 'audio/mpeg');
    await drain();
    const rec = await get(user, id);
    expect(rec).toMatchObject({ transcript_source: 'local', transcript_status: 'done', transcript_model: 'moonshine-tiny' });
    expect(wordErrorRate(JFK_SPEECH.text, rec.transcript)).toBeLessThanOrEqual(0.15);
  });

  it('a phone video is transcribed from its audio track', async () => {
    const mp4 = await make(['-i', JFK_SPEECH.file, '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-map', '1:v', '-map', '0:a', '-shortest', '-c:v', 'mpeg4', '-c:a', 'aac', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4']);
    const res = await upload(user, [{ name: 'audio', value: mp4, filename: 'clip.mp4', contentType: 'video/mp4' }]);
    expect(res.statusCode).toBe(201);
    const id = res.json().recording.id as string;
    await drain();
    const rec = await get(user, id);
    expect(rec).toMatchObject({ media_type: 'video', transcript_source: 'local', transcript_status: 'done' });
    expect(wordErrorRate(JFK_SPEECH.text, rec.transcript)).toBeLessThanOrEqual(0.15);
  });

  it('POST /api/transcribe (also how a conversation audio turn is written down) answers with the local transcript', async () => {
    const webm = await make(['-i', JFK_SPEECH.file, '-ac', '1', '-c:a', 'libopus', '-b:a', '24k', '-f', 'webm']);
    const { payload, headers } = multipart([{ name: 'audio', value: webm, filename: 'turn.webm', contentType: 'audio/webm' }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...user.headers, ...headers }, payload });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, provider: 'local', language: 'en', cost: 0, metadata: { model: 'moonshine-tiny', audioType: 'audio/webm' } });
    expect(wordErrorRate(JFK_SPEECH.text, body.transcript)).toBeLessThanOrEqual(0.15);
    expect(body.duration).toBeCloseTo(11, 0);
  });

  it('POST /api/transcribe refuses a video without sound with a 400 naming audio and the reason, logging the failed attempt', async () => {
    const silentVideo = await make(['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '2', '-c:v', 'mpeg4', '-an', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4']);
    const { payload, headers } = multipart([{ name: 'audio', value: silentVideo, filename: 'v.mp4', contentType: 'video/mp4' }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...user.headers, ...headers }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('audio: This recording has no audio track, so there is no speech to transcribe');
    const [usage] = await t.database.sql`select provider, success, error_code from ai_usage_logs where user_id = ${user.userId} and feature = 'transcribe' order by created_at desc limit 1`;
    expect(usage).toMatchObject({ provider: 'local', success: false, error_code: 'rejected_input' });
  });

  it('a conversation turn uploaded without a transcript is written down by the job runner: its content, transcriptSource local, done', async () => {
    const c = await newConversation(t, user.userId, { turns: ['What do you remember of 1961?'] });
    const webm = await make(['-i', JFK_SPEECH.file, '-ac', '1', '-c:a', 'libopus', '-b:a', '24k', '-f', 'webm']);
    const { payload, headers } = multipart([
      { name: 'conversationId', value: c.id },
      { name: 'audio', value: webm, filename: 'turn.webm', contentType: 'audio/webm' },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/conversations/upload-audio', headers: { ...user.headers, ...headers }, payload });
    expect(res.statusCode).toBe(201);
    const messageId = res.json().messageId as string;
    await drain();
    const [message] = await t.database.sql`select content, metadata from conversation_messages where id = ${messageId}`;
    expect(message!['metadata']).toMatchObject({ transcriptPending: false, transcriptStatus: 'done', transcriptSource: 'local', transcriptModel: 'moonshine-tiny', transcriptError: null });
    expect(wordErrorRate(JFK_SPEECH.text, message!['content'] as string)).toBeLessThanOrEqual(0.15);
    // The conversation shows it as the turn's text.
    const conversation = (await t.app.inject({ method: 'GET', url: `/api/conversations/${c.id}`, headers: user.headers })).json().conversation;
    expect(conversation.messages.find((m: { id: string }) => m.id === messageId).content).toBe(message!['content']);
  });

  describe('a speaker whose language is not English', () => {
    let french: SignedUp;
    beforeAll(async () => {
      french = await signUp(t.app);
      await t.database.sql`update user_voice_settings set preferred_language = 'fr' where user_id = ${french.userId}`;
    });

    it('their recording fails with a transcript_error saying English only and naming the setting; nothing is written over', async () => {
      const res = await upload(french, [
        { name: 'transcript', value: 'nous avions trois vaches' },
        { name: 'audio', value: jfk, filename: 'a.wav', contentType: 'audio/wav' },
      ]);
      const id = res.json().recording.id as string;
      await drain();
      const rec = await get(french, id);
      expect(rec).toMatchObject({ transcript_status: 'failed', transcript: 'nous avions trois vaches', transcript_source: 'browser', transcript_model: null });
      expect(rec.transcript_error).toMatch(/understands English only.*"fr".*STT_PRIMARY=google/);
      expect(await words(id)).toBeNull();
      // A refusal is final: the job is not retried.
      const [job] = await t.database.sql`select status from jobs where payload->>'recordingId' = ${id}`;
      expect(job!['status']).toBe('failed');
    });

    it('their conversation turn is not fed to the English model: transcriptStatus failed with the reason', async () => {
      const c = await newConversation(t, french.userId);
      const { payload, headers } = multipart([
        { name: 'conversationId', value: c.id },
        { name: 'audio', value: jfk, filename: 'turn.wav', contentType: 'audio/wav' },
      ]);
      const res = await t.app.inject({ method: 'POST', url: '/api/conversations/upload-audio', headers: { ...french.headers, ...headers }, payload });
      expect(res.statusCode).toBe(201);
      await drain();
      const [message] = await t.database.sql`select content, metadata from conversation_messages where id = ${res.json().messageId}`;
      expect(message!['content']).toBe('');
      expect(message!['metadata']).toMatchObject({ transcriptPending: false, transcriptStatus: 'failed', transcriptError: expect.stringMatching(/English only.*STT_PRIMARY=google/) });
    });

    it('POST /api/transcribe answers 400 naming language; the request naming English is transcribed', async () => {
      const send = async (parts: Part[]) => {
        const { payload, headers } = multipart(parts);
        return t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...french.headers, ...headers }, payload });
      };
      const refused = await send([{ name: 'audio', value: jfk, filename: 'a.wav', contentType: 'audio/wav' }]);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatch(/^language: The local speech recogniser understands English only, .*"fr".*STT_PRIMARY=google/);
      const named = await send([
        { name: 'language', value: 'en-US' },
        { name: 'audio', value: jfk, filename: 'a.wav', contentType: 'audio/wav' },
      ]);
      expect(named.statusCode).toBe(200);
      expect(wordErrorRate(JFK_SPEECH.text, named.json().transcript)).toBeLessThanOrEqual(0.15);
    });
  });

  it('bad media (corrupt, a video without sound, over 30 minutes) fails with the reason, and the next recording is transcribed', async () => {
    // A WAV header whose format says nothing playable (no channels, sample rate 0) over bytes that are no
    // samples: audio by its signature, so the upload routes take it, unreadable to a decoder.
    const corrupt = Buffer.alloc(44 + 60_000, 0x5a);
    corrupt.write('RIFF', 0, 'latin1');
    corrupt.writeUInt32LE(36 + 60_000, 4);
    corrupt.write('WAVEfmt ', 8, 'latin1');
    corrupt.writeUInt32LE(16, 16);
    corrupt.fill(0, 20, 36);
    corrupt.writeUInt16LE(0x1234, 20);
    corrupt.write('data', 36, 'latin1');
    corrupt.writeUInt32LE(60_000, 40);
    const silentVideo = await make(['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-t', '3', '-c:v', 'mpeg4', '-an', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4']);
    const long = await make(['-f', 'lavfi', '-i', 'anoisesrc=r=8000:a=0.01', '-t', '1805', '-ac', '1', '-c:a', 'libmp3lame', '-b:a', '8k', '-f', 'mp3']);
    // The 30-minute file counts its minutes at upload: a plan with room for it and for the next recording.
    await t.database.sql`update profiles set subscription_tier = 'family' where id = ${user.userId}`;
    const ids: [string, string, RegExp | string][] = [['corrupt', await direct(corrupt, 'c.wav', 'audio/wav'), /could not read this media/]];
    const cases: [string, Part, RegExp | string][] = [
      ['silent video', { name: 'audio', value: silentVideo, filename: 'v.mp4', contentType: 'video/mp4' }, /no audio track/],
      ['30 minutes', { name: 'audio', value: long, filename: 'long.mp3', contentType: 'audio/mpeg' }, VOICE_TOO_LONG],
    ];
    for (const [name, part, reason] of cases) {
      const res = await upload(user, [part]);
      expect({ name, status: res.statusCode }).toEqual({ name, status: 201 });
      ids.push([name, res.json().recording.id, reason]);
    }
    const next = await upload(user, [{ name: 'audio', value: jfk, filename: 'next.wav', contentType: 'audio/wav' }]);
    await drain();
    for (const [name, id, reason] of ids) {
      const rec = await get(user, id);
      expect({ name, status: rec.transcript_status, transcript: rec.transcript, model: rec.transcript_model }).toEqual({ name, status: 'failed', transcript: null, model: null });
      expect({ name, error: rec.transcript_error }).toEqual({ name, error: typeof reason === 'string' ? reason : expect.stringMatching(reason) });
      expect(await words(id)).toBeNull();
    }
    const after = await get(user, next.json().recording.id);
    expect(after).toMatchObject({ transcript_status: 'done', transcript_source: 'local' });
    expect(wordErrorRate(JFK_SPEECH.text, after.transcript)).toBeLessThanOrEqual(0.15);
  });
});
