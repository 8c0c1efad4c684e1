// Contract tests: the real @deepgram/sdk against a local fake speaking Deepgram's /v1/listen wire format.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeepgramSpeechToText, DEEPGRAM_MAX_BYTES, type DeepgramSpeechConfig } from './deepgram.adapter';
import { mediaFromBuffer, mediaFromFile } from './speech-to-text.port';
import { json, silentWav, startFakeServer, type FakeServer } from './test/fake-http-server';

const FAST_RETRY = { retries: 2, baseDelayMs: 1, maxDelayMs: 5 };

const listenAnswer = {
  metadata: { request_id: 'req-1', sha256: 'x', created: '2024-01-01T00:00:00Z', duration: 90, channels: 1, models: ['nova-2'], model_info: {} },
  results: {
    channels: [
      {
        detected_language: 'en',
        alternatives: [
          {
            transcript: 'We moved to Ohio in 1952.',
            confidence: 0.94,
            words: [
              { word: 'we', punctuated_word: 'We', start: 0.1, end: 0.3, confidence: 0.99 },
              { word: 'moved', punctuated_word: 'moved', start: 0.3, end: 0.7, confidence: 0.95 },
              { word: 'ohio', punctuated_word: 'Ohio', start: 0.9, end: 1.4, confidence: 0.9 },
            ],
          },
        ],
      },
    ],
  },
};

describe('deepgram speech-to-text adapter (REST contract)', () => {
  let fake: FakeServer;
  const adapter = (extra: Partial<DeepgramSpeechConfig> = {}) => createDeepgramSpeechToText({ apiKey: 'dg-test-key', baseUrl: fake.url, retry: FAST_RETRY, timeoutMs: 2000, ...extra });

  beforeEach(async () => {
    fake = await startFakeServer((_req, res) => json(res, 200, listenAnswer));
  });
  afterEach(() => fake.close());

  it('posts the audio bytes with the key and options and reads transcript, words, duration and cost', async () => {
    const audio = silentWav(1);
    const result = await adapter().transcribe(mediaFromBuffer(audio), { mimeType: 'audio/wav', language: 'en-US', prompt: 'Ohio, Grandma Rose' });

    expect(result).toEqual({
      text: 'We moved to Ohio in 1952.',
      language: 'en',
      confidence: 0.94,
      durationSeconds: 90,
      provider: 'deepgram',
      costUsd: 0.00645, // 1.5 minutes at $0.0043
      words: [
        { word: 'We', start: 0.1, end: 0.3, confidence: 0.99 },
        { word: 'moved', start: 0.3, end: 0.7, confidence: 0.95 },
        { word: 'Ohio', start: 0.9, end: 1.4, confidence: 0.9 },
      ],
    });
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/listen');
    expect(req.headers['authorization']).toBe('Token dg-test-key');
    expect(req.headers['content-type']).toBe('audio/wav');
    expect(req.query.get('model')).toBe('nova-2');
    expect(req.query.get('smart_format')).toBe('true');
    expect(req.query.get('punctuate')).toBe('true');
    expect(req.query.get('language')).toBe('en-US');
    expect(req.query.getAll('keywords')).toEqual(['Ohio', 'Grandma', 'Rose']);
    expect(req.body.equals(audio)).toBe(true);
  });

  it('asks Deepgram to detect the language for auto', async () => {
    await adapter().transcribe(mediaFromBuffer(Buffer.from('webm')), { mimeType: 'audio/webm;codecs=opus', language: 'auto' });
    expect(fake.requests[0].query.get('detect_language')).toBe('true');
    expect(fake.requests[0].query.has('language')).toBe(false);
    expect(fake.requests[0].headers['content-type']).toBe('audio/webm');
  });

  it('turns a 400 for corrupt media into rejected_input in our own words', async () => {
    fake.handle((_req, res) => json(res, 400, { err_code: 'Bad Request', err_msg: 'corrupt data secret-detail', request_id: 'r' }));
    const err = await adapter().transcribe(mediaFromBuffer(Buffer.from('junk')), { mimeType: 'audio/wav' }).catch((e) => e);
    expect(err).toMatchObject({ name: 'ProviderError', kind: 'rejected_input', provider: 'deepgram', status: 400 });
    expect(err.message).not.toContain('secret-detail');
    expect(fake.requests).toHaveLength(1);
  });

  it.each([401, 403])('turns %i into auth without retrying', async (status) => {
    fake.handle((_req, res) => json(res, status, { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.' }));
    const err = await adapter().transcribe(mediaFromBuffer(Buffer.from('a')), { mimeType: 'audio/wav' }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'auth', provider: 'deepgram', status });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 429 and then succeeds', async () => {
    let calls = 0;
    fake.handle((_req, res) => (++calls === 1 ? json(res, 429, { err_code: 'TOO_MANY_REQUESTS', err_msg: 'slow down' }) : json(res, 200, listenAnswer)));
    const result = await adapter().transcribe(mediaFromBuffer(Buffer.from('a')), { mimeType: 'audio/wav' });
    expect(result.text).toBe('We moved to Ohio in 1952.');
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up as unavailable after repeated 500s', async () => {
    fake.handle((_req, res) => json(res, 500, { err_code: 'INTERNAL', err_msg: 'boom' }));
    const err = await adapter().transcribe(mediaFromBuffer(Buffer.from('a')), { mimeType: 'audio/wav' }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'unavailable', provider: 'deepgram', status: 500 });
    expect(fake.requests).toHaveLength(1 + FAST_RETRY.retries);
  });

  it('treats a 5xx with a non-JSON body as unavailable too', async () => {
    fake.handle((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    });
    const err = await adapter({ retry: { ...FAST_RETRY, retries: 0 } }).transcribe(mediaFromBuffer(Buffer.from('a')), { mimeType: 'audio/wav' }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'unavailable', provider: 'deepgram' });
  });

  it('times out a slow answer', async () => {
    fake.handle((_req, res) => {
      const timer = setTimeout(() => json(res, 200, listenAnswer), 1500);
      res.on('close', () => clearTimeout(timer));
    });
    const err = await adapter({ timeoutMs: 100, retry: { ...FAST_RETRY, retries: 0 } }).transcribe(mediaFromBuffer(Buffer.from('a')), { mimeType: 'audio/wav' }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'timeout', provider: 'deepgram' });
  });

  it('stops when the caller cancels', async () => {
    fake.handle((_req, res) => {
      const timer = setTimeout(() => json(res, 200, listenAnswer), 1500);
      res.on('close', () => clearTimeout(timer));
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await adapter({ timeoutMs: 400 }).transcribe(mediaFromBuffer(Buffer.from('a')), { mimeType: 'audio/wav', signal: controller.signal }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'failed', provider: 'deepgram', message: 'deepgram transcription was cancelled' });
    expect(fake.requests).toHaveLength(1);
  });

  it('streams a file from disk with its length, and opens it again for a retry', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dg-file-'));
    try {
      const file = join(dir, 'media.wav');
      const audio = silentWav(3);
      await writeFile(file, audio);
      let calls = 0;
      fake.handle((_req, res) => (++calls === 1 ? json(res, 503, { err_code: 'BUSY', err_msg: 'later' }) : json(res, 200, listenAnswer)));
      const opened: number[] = [];
      const source = mediaFromFile(file, audio.length);
      const counted = { ...source, open: () => (opened.push(1), source.open()) };
      const result = await adapter().transcribe(counted, { mimeType: 'audio/wav' });
      expect(result.text).toBe('We moved to Ohio in 1952.');
      expect(opened).toHaveLength(2);
      expect(fake.requests).toHaveLength(2);
      for (const req of fake.requests) {
        expect(req.body.equals(audio)).toBe(true);
        expect(req.headers['content-length']).toBe(String(audio.length));
        expect(req.headers['transfer-encoding']).toBeUndefined();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses media over its cap before sending anything, naming both sizes', async () => {
    expect(createDeepgramSpeechToText({ apiKey: 'k' }).maxBytes).toBe(DEEPGRAM_MAX_BYTES);
    const tooBig = { size: 3 * 1024 * 1024, open: () => { throw new Error('must not be read'); } };
    const err = await adapter({ maxBytes: 2 * 1024 * 1024 }).transcribe(tooBig, { mimeType: 'audio/wav' }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'rejected_input', provider: 'deepgram', message: 'The recording is 3 MB, more than the 2 MB deepgram accepts for transcription' });
    expect(err.retryable).toBe(false);
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses to start without an API key', () => {
    expect(() => createDeepgramSpeechToText({ apiKey: '' })).toThrow(/DEEPGRAM_API_KEY/);
  });
});
