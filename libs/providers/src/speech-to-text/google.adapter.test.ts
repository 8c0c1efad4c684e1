// Contract tests: the real @google-cloud/speech client (REST transport) against a local fake speaking
// Cloud Speech-to-Text v1's JSON wire format.
import { ProviderError } from '../provider-error';
import { createGoogleSpeechToText, GOOGLE_INLINE_LIMIT_BYTES, type GoogleSpeechConfig } from './google.adapter';
import { mediaFromBuffer, readMedia, type MediaSource } from './speech-to-text.port';
import { json, silentWav, startFakeServer, type FakeServer } from './test/fake-http-server';

const FAST_RETRY = { retries: 2, baseDelayMs: 1, maxDelayMs: 5 };

const recognizeAnswer = {
  results: [
    {
      alternatives: [
        {
          transcript: 'Grandma grew up',
          confidence: 0.9,
          words: [
            { word: 'Grandma', startTime: '0s', endTime: '0.600s' },
            { word: 'grew', startTime: '0.600s', endTime: '0.900s' },
            { word: 'up', startTime: '0.900s', endTime: '1.200s' },
          ],
        },
      ],
      resultEndTime: '1.300s',
      languageCode: 'en-us',
    },
    {
      alternatives: [{ transcript: ' in Ohio.', confidence: 0.7, words: [{ word: 'in', startTime: '1.500s', endTime: '1.700s' }, { word: 'Ohio.', startTime: '1.700s', endTime: '2.250s' }] }],
      resultEndTime: '2.400s',
      languageCode: 'en-us',
    },
  ],
  totalBilledTime: '15s',
  requestId: '7',
};

describe('google speech-to-text adapter (REST contract)', () => {
  let fake: FakeServer;
  const adapter = (extra: Partial<GoogleSpeechConfig> = {}) =>
    createGoogleSpeechToText({ endpoint: fake.url, apiKey: 'test-google-key', projectId: 'test-project', retry: FAST_RETRY, timeoutMs: 2000, ...extra });

  beforeEach(async () => {
    fake = await startFakeServer((_req, res) => json(res, 200, recognizeAnswer));
  });
  afterEach(() => fake.close());

  it('sends inline audio with its config and reads the transcript, words, confidence, duration and cost', async () => {
    const audio = silentWav(1);
    const result = await adapter().transcribe(mediaFromBuffer(audio), { mimeType: 'audio/wav', language: 'en-US', prompt: 'Ohio, Grandma Rose' });

    expect(result).toEqual({
      text: 'Grandma grew up in Ohio.',
      language: 'en-US',
      confidence: 0.8,
      durationSeconds: 2.4,
      provider: 'google',
      costUsd: 0.006, // 15 billed seconds at $0.024 a minute
      words: [
        { word: 'Grandma', start: 0, end: 0.6, confidence: 0.9 },
        { word: 'grew', start: 0.6, end: 0.9, confidence: 0.9 },
        { word: 'up', start: 0.9, end: 1.2, confidence: 0.9 },
        { word: 'in', start: 1.5, end: 1.7, confidence: 0.7 },
        { word: 'Ohio.', start: 1.7, end: 2.25, confidence: 0.7 },
      ],
    });
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/speech:recognize');
    expect(req.headers['x-goog-api-key']).toBe('test-google-key');
    const body = JSON.parse(req.body.toString('utf8'));
    expect(body.config).toEqual({
      encoding: 1, // LINEAR16, as the SDK sends numeric enums over REST
      languageCode: 'en-US',
      enableWordTimeOffsets: true,
      enableAutomaticPunctuation: true,
      speechContexts: [{ phrases: ['Ohio', 'Grandma Rose'] }],
    });
    expect(Buffer.from(body.audio.content, 'base64').equals(audio)).toBe(true);
  });

  it('sends browser webm as WEBM_OPUS at 48 kHz and asks for alternatives when the language is auto', async () => {
    await adapter().transcribe(mediaFromBuffer(Buffer.from('webm-bytes')), { mimeType: 'audio/webm;codecs=opus', language: 'auto' });
    const body = JSON.parse(fake.requests[0].body.toString('utf8'));
    expect(body.config).toMatchObject({ encoding: 9, sampleRateHertz: 48000, languageCode: 'en-US', alternativeLanguageCodes: ['es-ES', 'fr-FR', 'de-DE'] });
  });

  it('sends MP3 through v1p1beta1, the version that reads it', async () => {
    await adapter().transcribe(mediaFromBuffer(Buffer.from('mp3-bytes')), { mimeType: 'audio/mpeg' });
    expect(fake.requests[0].path).toBe('/v1p1beta1/speech:recognize');
    expect(JSON.parse(fake.requests[0].body.toString('utf8')).config.encoding).toBe(8);
  });

  it('refuses media its API cannot read without calling Google', async () => {
    const err = await adapter().transcribe(mediaFromBuffer(Buffer.from('mov')), { mimeType: 'video/mp4' }).catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'rejected_input', provider: 'google' });
    expect(fake.requests).toHaveLength(0);
  });

  it('turns a 400 for corrupt audio into rejected_input in our own words', async () => {
    fake.handle((_req, res) => json(res, 400, { error: { code: 400, message: 'Invalid audio: secret-detail', status: 'INVALID_ARGUMENT' } }));
    const err = await adapter().transcribe(mediaFromBuffer(Buffer.from('junk')), { mimeType: 'audio/wav' }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'rejected_input', provider: 'google', status: 400 });
    expect(err.message).not.toContain('secret-detail');
    expect(fake.requests).toHaveLength(1);
  });

  it.each([401, 403])('turns %i into auth without retrying', async (status) => {
    fake.handle((_req, res) => json(res, status, { error: { code: status, message: 'denied', status: 'PERMISSION_DENIED' } }));
    const err = await adapter().transcribe(mediaFromBuffer(Buffer.from('a')), { mimeType: 'audio/wav' }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'auth', provider: 'google', status });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 429 and then succeeds', async () => {
    let calls = 0;
    fake.handle((_req, res) => (++calls === 1 ? json(res, 429, { error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } }) : json(res, 200, recognizeAnswer)));
    const result = await adapter().transcribe(mediaFromBuffer(Buffer.from('a')), { mimeType: 'audio/wav' });
    expect(result.text).toBe('Grandma grew up in Ohio.');
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up as unavailable after repeated 500s', async () => {
    fake.handle((_req, res) => json(res, 500, { error: { code: 500, message: 'internal', status: 'INTERNAL' } }));
    const err = await adapter().transcribe(mediaFromBuffer(Buffer.from('a')), { mimeType: 'audio/wav' }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'unavailable', provider: 'google', status: 500 });
    expect(fake.requests).toHaveLength(1 + FAST_RETRY.retries);
  });

  it('times out a slow answer', async () => {
    fake.handle((_req, res) => {
      const timer = setTimeout(() => json(res, 200, recognizeAnswer), 1500);
      res.on('close', () => clearTimeout(timer));
    });
    const err = await adapter({ timeoutMs: 100, retry: { ...FAST_RETRY, retries: 0 } }).transcribe(mediaFromBuffer(Buffer.from('a')), { mimeType: 'audio/wav' }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'timeout', provider: 'google' });
  });

  it('reports an unreachable endpoint as unavailable', async () => {
    const url = fake.url;
    await fake.close();
    const err = await createGoogleSpeechToText({ endpoint: url, apiKey: 'k', projectId: 'p', retry: { ...FAST_RETRY, retries: 0 } })
      .transcribe(mediaFromBuffer(Buffer.from('a')), { mimeType: 'audio/wav' })
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'unavailable', provider: 'google' });
    fake = await startFakeServer((_req, res) => json(res, 200, {}));
  });

  it('returns an empty transcript for silence', async () => {
    fake.handle((_req, res) => json(res, 200, { totalBilledTime: '2s' }));
    const result = await adapter().transcribe(mediaFromBuffer(silentWav(2)), { mimeType: 'audio/wav' });
    expect(result).toMatchObject({ text: '', confidence: 0, durationSeconds: 2, language: 'en-US', words: [] });
  });

  describe('media of 14 MB or more', () => {
    it('is refused when no storage bucket is configured for the long-running path', async () => {
      const big = Buffer.alloc(GOOGLE_INLINE_LIMIT_BYTES);
      const err = await adapter().transcribe(mediaFromBuffer(big), { mimeType: 'audio/wav' }).catch((e) => e);
      expect(err).toMatchObject({ kind: 'rejected_input', provider: 'google' });
      expect(err.message).toMatch(/too large for inline recognition/);
      expect(fake.requests).toHaveLength(0);
    });

    it('goes through longrunningrecognize with the gs:// URI and polls the operation', async () => {
      let polls = 0;
      fake.handle((req, res) => {
        if (req.path === '/v1/speech:longrunningrecognize') return json(res, 200, { name: '4242', done: false });
        if (req.path === '/v1/operations/4242') {
          if (++polls < 2) return json(res, 200, { name: '4242', done: false });
          return json(res, 200, {
            name: '4242',
            done: true,
            response: { '@type': 'type.googleapis.com/google.cloud.speech.v1.LongRunningRecognizeResponse', ...recognizeAnswer, totalBilledTime: '900s' },
          });
        }
        json(res, 404, { error: { code: 404, message: 'no', status: 'NOT_FOUND' } });
      });
      const uploads: Array<{ bytes: number; mimeType: string }> = [];
      const gcsUri = async (media: MediaSource, o: { mimeType: string }) => (uploads.push({ bytes: (await readMedia(media)).length, mimeType: o.mimeType }), 'gs://bucket/recordings/r1.webm');
      const media = Buffer.alloc(2048, 1);
      const result = await adapter({ inlineLimitBytes: 1024, gcsUri, pollIntervalMs: 5 }).transcribe(mediaFromBuffer(media), { mimeType: 'audio/webm' });

      expect(uploads).toEqual([{ bytes: 2048, mimeType: 'audio/webm' }]);
      const start = JSON.parse(fake.requests[0].body.toString('utf8'));
      expect(start.audio).toEqual({ uri: 'gs://bucket/recordings/r1.webm' });
      expect(start.config.encoding).toBe(9);
      expect(fake.requests.filter((r) => r.method === 'GET' && r.path === '/v1/operations/4242')).toHaveLength(2);
      expect(result).toMatchObject({ text: 'Grandma grew up in Ohio.', provider: 'google', costUsd: 0.36 });
    });

    it('refuses media over the long-running cap before uploading it', async () => {
      const uploads: number[] = [];
      const google = adapter({ inlineLimitBytes: 10, gcsUri: async (m) => (uploads.push(m.size), 'gs://b/o'), longRunningMaxBytes: 1024 * 1024 });
      expect(google.maxBytes).toBe(1024 * 1024);
      const err = await google.transcribe(mediaFromBuffer(Buffer.alloc(2 * 1024 * 1024)), { mimeType: 'audio/flac' }).catch((e) => e);
      expect(err).toMatchObject({ kind: 'rejected_input', provider: 'google', message: 'The recording is 2 MB, more than the 1 MB google accepts for transcription' });
      expect(uploads).toEqual([]);
      expect(fake.requests).toHaveLength(0);
      // Without a bucket the cap is the inline limit.
      expect(adapter().maxBytes).toBe(GOOGLE_INLINE_LIMIT_BYTES - 1);
    });

    it('translates a failed operation into a ProviderError', async () => {
      fake.handle((req, res) => {
        if (req.path === '/v1/speech:longrunningrecognize') return json(res, 200, { name: 'op-1', done: false });
        json(res, 200, { name: 'op-1', done: true, error: { code: 3, message: 'bad audio secret-detail' } });
      });
      const err = await adapter({ inlineLimitBytes: 10, gcsUri: async () => 'gs://b/o', pollIntervalMs: 5 })
        .transcribe(mediaFromBuffer(Buffer.alloc(20)), { mimeType: 'audio/flac' })
        .catch((e) => e);
      expect(err).toMatchObject({ kind: 'rejected_input', provider: 'google' });
      expect(err.message).not.toContain('secret-detail');
    });
  });
});
