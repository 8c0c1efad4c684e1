// createSpeechToText wiring: config picks adapters, and a configured pair works end to end against fakes
// (and against the real local recogniser as the fallback).
import { stat } from 'node:fs/promises';
import { JFK_SPEECH, wordErrorRate } from '@story/testing';
import { closeSharedProcessSpawner } from '../process-spawner';
import { createMemoryUsageRecorder } from '../shared/usage';
import { createSpeechToText } from './index';
import { mediaFromBuffer, mediaFromFile } from './speech-to-text.port';
import { json, startFakeServer, type FakeServer } from './test/fake-http-server';

describe('createSpeechToText', () => {
  it('is unavailable with both slots set to none', () => {
    const stt = createSpeechToText({ STT_PRIMARY: 'none', STT_FALLBACK: 'none' }, { usage: createMemoryUsageRecorder() });
    expect(stt.available).toBe(false);
  });

  it('needs a Deepgram key when deepgram is the fallback', () => {
    expect(() => createSpeechToText({ STT_PRIMARY: 'none', STT_FALLBACK: 'deepgram' }, { usage: createMemoryUsageRecorder() })).toThrow(/DEEPGRAM_API_KEY/);
  });

  it('makes local the primary, or the fallback of a cloud primary, never both', async () => {
    const usage = createMemoryUsageRecorder();
    const alone = createSpeechToText({ STT_PRIMARY: 'local', STT_FALLBACK: 'none' }, { usage });
    expect(alone.providers).toEqual(['local']);
    const behindGoogle = createSpeechToText({ STT_PRIMARY: 'google', STT_FALLBACK: 'local', GOOGLE_SPEECH_API_KEY: 'k' }, { usage });
    expect(behindGoogle.providers).toEqual(['google', 'local']);
    expect(() => createSpeechToText({ STT_PRIMARY: 'local', STT_FALLBACK: 'local' }, { usage })).toThrow(/cannot be local/);
    await Promise.all([alone.close?.(), behindGoogle.close?.()]);
  });

  it('rejects an unknown provider name', () => {
    const config = { STT_PRIMARY: 'whisper', STT_FALLBACK: 'none' } as unknown as Parameters<typeof createSpeechToText>[0];
    expect(() => createSpeechToText(config, { usage: createMemoryUsageRecorder() })).toThrow(/STT_PRIMARY/);
  });

  describe('with google failing and deepgram answering', () => {
    let google: FakeServer;
    let deepgram: FakeServer;
    beforeAll(async () => {
      google = await startFakeServer((_req, res) => json(res, 503, { error: { code: 503, message: 'down', status: 'UNAVAILABLE' } }));
      deepgram = await startFakeServer((_req, res) =>
        json(res, 200, { metadata: { duration: 60 }, results: { channels: [{ alternatives: [{ transcript: 'hello there', confidence: 0.9, words: [] }] }] } }),
      );
    });
    afterAll(async () => {
      await google.close();
      await deepgram.close();
      await closeSharedProcessSpawner();
    });


    it('transcribes through the fallback and records both attempts', async () => {
      const usage = createMemoryUsageRecorder();
      const stt = createSpeechToText(
        {
          STT_PRIMARY: 'google',
          STT_FALLBACK: 'deepgram',
          GOOGLE_SPEECH_API_KEY: 'g-key',
          GOOGLE_CLOUD_PROJECT: 'test-project',
          GOOGLE_SPEECH_ENDPOINT: google.url,
          DEEPGRAM_API_KEY: 'dg-key',
          DEEPGRAM_BASE_URL: deepgram.url,
        },
        { usage, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 }, timeoutMs: 2000 },
      );
      expect(stt.providers).toEqual(['google', 'deepgram']);
      const result = await stt.transcribe(mediaFromBuffer(Buffer.from('audio')), { mimeType: 'audio/webm;codecs=opus', language: 'en' });
      expect(result).toMatchObject({ text: 'hello there', provider: 'deepgram', durationSeconds: 60, costUsd: 0.0043 });
      expect(google.requests).toHaveLength(1);
      expect(deepgram.requests).toHaveLength(1);
      expect(usage.entries.map((e) => [e.provider, e.success, e.errorCode])).toEqual([
        ['google', false, 'unavailable'],
        ['deepgram', true, undefined],
      ]);
    });

    it('STT_FALLBACK=local: the local recogniser writes the recording down when google fails, and says which model did', async () => {
      const usage = createMemoryUsageRecorder();
      const stt = createSpeechToText(
        { STT_PRIMARY: 'google', STT_FALLBACK: 'local', LOCAL_STT_MODEL: 'tiny', GOOGLE_SPEECH_API_KEY: 'g-key', GOOGLE_CLOUD_PROJECT: 'test-project', GOOGLE_SPEECH_ENDPOINT: google.url },
        { usage, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 }, timeoutMs: 2000 },
      );
      try {
        const result = await stt.transcribe(mediaFromFile(JFK_SPEECH.file, (await stat(JFK_SPEECH.file)).size), { mimeType: 'audio/wav', language: 'auto' });
        expect(result).toMatchObject({ provider: 'local', model: 'moonshine-tiny', costUsd: 0 });
        expect(wordErrorRate(JFK_SPEECH.text, result.text)).toBeLessThanOrEqual(0.15);
        expect(usage.entries.map((e) => [e.provider, e.success, e.metadata?.['slot'], e.metadata?.['model']])).toEqual([
          ['google', false, 'stt_primary', undefined],
          ['local', true, 'stt_fallback', 'moonshine-tiny'],
        ]);
      } finally {
        await stt.close?.();
      }
    }, 60_000);
  });
});
