// Provider order with fake adapters: primary first, fallback on failure, never the fallback for QuickTime.
import { ProviderError } from '../provider-error';
import { createMemoryUsageRecorder } from '../shared/usage';
import { createSpeechRecognition } from './chooser';
import { assertWithinCap, mediaFromBuffer, type MediaSource, type SpeechToText, type SttProviderName, type TranscribeOptions, type Transcription } from './speech-to-text.port';

function fakeAdapter(provider: SttProviderName, behaviour: Transcription | ProviderError | Error) {
  const calls: Array<{ media: MediaSource; options: TranscribeOptions }> = [];
  const adapter: SpeechToText & { calls: typeof calls } = {
    provider,
    maxBytes: Number.MAX_SAFE_INTEGER,
    calls,
    async transcribe(media, options) {
      calls.push({ media, options });
      if (behaviour instanceof Error) throw behaviour;
      return behaviour;
    },
  };
  return adapter;
}

const transcript = (provider: SttProviderName, extra: Partial<Transcription> = {}): Transcription => ({
  text: `from ${provider}`,
  language: 'en-US',
  confidence: 0.9,
  durationSeconds: 30,
  provider,
  costUsd: provider === 'google' ? 0.012 : 0.00215,
  ...extra,
});

const audio = mediaFromBuffer(Buffer.from('audio-bytes'));

describe('speech recognition chooser', () => {
  it('falls back when the media is over the primary\'s cap, and fails with the cap when it is over both', async () => {
    const capped = (provider: SttProviderName, maxBytes: number): SpeechToText => ({
      provider,
      maxBytes,
      transcribe: async (media) => (assertWithinCap(provider, media, maxBytes), transcript(provider)),
    });
    const media = { size: 20 * 1024 * 1024, open: () => mediaFromBuffer(Buffer.alloc(0)).open() };
    const stt = createSpeechRecognition({ primary: capped('google', 14 * 1024 * 1024 - 1), fallback: capped('deepgram', 2e9), usage: createMemoryUsageRecorder() });
    await expect(stt.transcribe(media, { mimeType: 'audio/webm' })).resolves.toMatchObject({ provider: 'deepgram' });
    const small = createSpeechRecognition({ primary: capped('google', 1024), fallback: capped('deepgram', 10 * 1024 * 1024), usage: createMemoryUsageRecorder() });
    await expect(small.transcribe(media, { mimeType: 'audio/webm' })).rejects.toMatchObject({
      kind: 'rejected_input',
      provider: 'deepgram',
      message: 'The recording is 20 MB, more than the 10 MB deepgram accepts for transcription',
    });
  });

  it('uses the primary and records one usage entry', async () => {
    const usage = createMemoryUsageRecorder();
    const google = fakeAdapter('google', transcript('google'));
    const deepgram = fakeAdapter('deepgram', transcript('deepgram'));
    const stt = createSpeechRecognition({ primary: google, fallback: deepgram, usage });

    expect(stt.available).toBe(true);
    expect(stt.providers).toEqual(['google', 'deepgram']);
    const result = await stt.transcribe(audio, { mimeType: 'audio/webm', language: 'en-US', prompt: 'Ohio', userId: 'u1' });

    expect(result.provider).toBe('google');
    expect(google.calls).toEqual([{ media: audio, options: { mimeType: 'audio/webm', language: 'en-US', prompt: 'Ohio' } }]);
    expect(deepgram.calls).toHaveLength(0);
    expect(usage.entries).toEqual([
      expect.objectContaining({
        userId: 'u1',
        feature: 'transcription',
        provider: 'google',
        operation: 'stt',
        audioSeconds: 30,
        costUsd: 0.012,
        success: true,
        metadata: { slot: 'stt_primary', audioBytes: audio.size, mimeType: 'audio/webm' },
      }),
    ]);
    expect(usage.entries[0].latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('falls back when the primary fails, and records both attempts', async () => {
    const usage = createMemoryUsageRecorder();
    const google = fakeAdapter('google', new ProviderError('unavailable', 'google', 'google speech recognition is unavailable'));
    const deepgram = fakeAdapter('deepgram', transcript('deepgram'));
    const stt = createSpeechRecognition({ primary: google, fallback: deepgram, usage });

    const result = await stt.transcribe(audio, { mimeType: 'audio/webm', feature: 'recording-transcript' });

    expect(result).toMatchObject({ provider: 'deepgram', text: 'from deepgram' });
    expect(usage.entries.map((e) => [e.provider, e.success, e.errorCode, e.feature, e.costUsd])).toEqual([
      ['google', false, 'unavailable', 'recording-transcript', 0],
      ['deepgram', true, undefined, 'recording-transcript', 0.00215],
    ]);
  });

  it('falls back when Google cannot read the media type (rejected_input)', async () => {
    const usage = createMemoryUsageRecorder();
    const google = fakeAdapter('google', new ProviderError('rejected_input', 'google', 'google cannot read video/mp4 media'));
    const deepgram = fakeAdapter('deepgram', transcript('deepgram'));
    const result = await createSpeechRecognition({ primary: google, fallback: deepgram, usage }).transcribe(audio, { mimeType: 'video/mp4' });
    expect(result.provider).toBe('deepgram');
  });

  it('never sends QuickTime media to the fallback: the primary error is thrown', async () => {
    const usage = createMemoryUsageRecorder();
    const failure = new ProviderError('rejected_input', 'google', 'google cannot read video/quicktime media');
    const google = fakeAdapter('google', failure);
    const deepgram = fakeAdapter('deepgram', transcript('deepgram'));
    const stt = createSpeechRecognition({ primary: google, fallback: deepgram, usage });

    await expect(stt.transcribe(audio, { mimeType: 'video/quicktime' })).rejects.toBe(failure);
    expect(deepgram.calls).toHaveLength(0);
    expect(usage.entries).toHaveLength(1);
  });

  it('refuses QuickTime media when only the fallback is configured', async () => {
    const deepgram = fakeAdapter('deepgram', transcript('deepgram'));
    const stt = createSpeechRecognition({ fallback: deepgram, usage: createMemoryUsageRecorder() });
    await expect(stt.transcribe(audio, { mimeType: 'video/quicktime' })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(deepgram.calls).toHaveLength(0);
  });

  it('uses the fallback directly when no primary is configured', async () => {
    const deepgram = fakeAdapter('deepgram', transcript('deepgram'));
    const stt = createSpeechRecognition({ fallback: deepgram, usage: createMemoryUsageRecorder() });
    expect(stt.providers).toEqual(['deepgram']);
    await expect(stt.transcribe(audio, { mimeType: 'audio/mpeg' })).resolves.toMatchObject({ provider: 'deepgram' });
  });

  it('throws the fallback error when both fail', async () => {
    const usage = createMemoryUsageRecorder();
    const google = fakeAdapter('google', new ProviderError('timeout', 'google', 'google did not answer in time'));
    const deepgram = fakeAdapter('deepgram', new ProviderError('quota', 'deepgram', 'deepgram rate limit or quota reached'));
    const stt = createSpeechRecognition({ primary: google, fallback: deepgram, usage });
    await expect(stt.transcribe(audio, { mimeType: 'audio/webm' })).rejects.toMatchObject({ kind: 'quota', provider: 'deepgram' });
    expect(usage.entries.map((e) => e.errorCode)).toEqual(['timeout', 'quota']);
  });

  it('wraps an unexpected adapter error as a ProviderError without its text', async () => {
    const google = fakeAdapter('google', new Error('socket detail 10.0.0.1'));
    const stt = createSpeechRecognition({ primary: google, usage: createMemoryUsageRecorder() });
    const err = await stt.transcribe(audio, { mimeType: 'audio/webm' }).catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).not.toContain('10.0.0.1');
  });

  it('does not fall back after the caller cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const google = fakeAdapter('google', new ProviderError('failed', 'google', 'google transcription was cancelled'));
    const deepgram = fakeAdapter('deepgram', transcript('deepgram'));
    const stt = createSpeechRecognition({ primary: google, fallback: deepgram, usage: createMemoryUsageRecorder() });
    await expect(stt.transcribe(audio, { mimeType: 'audio/webm', signal: controller.signal })).rejects.toMatchObject({ kind: 'failed' });
    expect(deepgram.calls).toHaveLength(0);
  });

  describe('by name', () => {
    const setup = () => {
      const google = fakeAdapter('google', transcript('google'));
      const deepgram = fakeAdapter('deepgram', transcript('deepgram'));
      return { google, deepgram, stt: createSpeechRecognition({ primary: google, fallback: deepgram, usage: createMemoryUsageRecorder() }) };
    };

    it.each([
      ['deepgram', 'deepgram'],
      ['stt_fallback', 'deepgram'],
      ['google', 'google'],
      ['stt_primary', 'google'],
    ] as const)('%s selects %s only', async (choice, expected) => {
      const { stt, google, deepgram } = setup();
      const result = await stt.transcribe(audio, { mimeType: 'audio/webm', provider: choice });
      expect(result.provider).toBe(expected);
      expect(google.calls.length + deepgram.calls.length).toBe(1);
    });

    it('does not fall back when the named provider fails', async () => {
      const google = fakeAdapter('google', new ProviderError('unavailable', 'google', 'down'));
      const deepgram = fakeAdapter('deepgram', transcript('deepgram'));
      const stt = createSpeechRecognition({ primary: google, fallback: deepgram, usage: createMemoryUsageRecorder() });
      await expect(stt.transcribe(audio, { mimeType: 'audio/webm', provider: 'google' })).rejects.toMatchObject({ kind: 'unavailable', provider: 'google' });
      expect(deepgram.calls).toHaveLength(0);
    });

    it('reports a provider that is not configured as unavailable', async () => {
      const stt = createSpeechRecognition({ primary: fakeAdapter('google', transcript('google')), usage: createMemoryUsageRecorder() });
      await expect(stt.transcribe(audio, { mimeType: 'audio/webm', provider: 'deepgram' })).rejects.toMatchObject({ kind: 'unavailable', provider: 'deepgram' });
      await expect(stt.transcribe(audio, { mimeType: 'audio/webm', provider: 'stt_fallback' })).rejects.toMatchObject({ kind: 'unavailable' });
    });
  });

  it('with nothing configured is unavailable and says so', async () => {
    const usage = createMemoryUsageRecorder();
    const stt = createSpeechRecognition({ usage });
    expect(stt.available).toBe(false);
    expect(stt.providers).toEqual([]);
    const err = await stt.transcribe(audio, { mimeType: 'audio/webm' }).catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'unavailable', provider: 'none', message: 'Speech recognition is not configured on this server' });
    expect(usage.entries).toHaveLength(0);
  });
});
