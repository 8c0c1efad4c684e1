// POST /api/transcribe with a fake recogniser and the real "not configured" default; /api/tts/:provider
// with the real local synthesizer (espeak-ng + ffmpeg).
import { ProviderError } from '@story/providers';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { buildTestAppWithProviders, fakeSpeech, makeTone, multipart, primaryOnlySpeech, type FakeSpeech } from '../../test/conversations-factories';

const isMp3 = (bytes: Buffer) => bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0);

let wav: Buffer;
beforeAll(async () => {
  wav = await makeTone(1, 'wav');
});

describe('POST /api/transcribe with a configured recogniser', () => {
  let t: TestContext;
  let speech: FakeSpeech;
  let failWith: (() => unknown) | undefined;
  let user: SignedUp;

  beforeAll(async () => {
    const ok = fakeSpeech();
    speech = {
      ...ok,
      transcribe: (media, options) => (failWith ? fakeSpeech({}, failWith).transcribe(media, options) : ok.transcribe(media, options)),
    };
    t = await buildTestAppWithProviders(() => ({ speech }));
    user = await signUp(t.app);
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    failWith = undefined;
    speech.calls.length = 0;
  });

  it("answers the spec's shape with the real provider name, passing language, prompt and provider on", async () => {
    const body = multipart([
      { name: 'audio', value: wav, filename: 'turn.wav', contentType: 'audio/wav' },
      { name: 'language', value: 'en-US' },
      { name: 'provider', value: 'stt_primary' },
      { name: 'prompt', value: 'Mill Street, Aunt Edna' },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...user.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      transcript: 'We lived on Mill Street in 1952.',
      provider: 'google',
      confidence: 0.93,
      language: 'en-US',
      cost: 0.016,
      duration: 2,
      metadata: { audioSize: wav.length, audioType: 'audio/wav', processingTime: expect.any(Number) },
    });
    expect(speech.calls).toEqual([
      {
        bytes: wav.length,
        streamed: wav.length,
        buffer: false,
        options: { mimeType: 'audio/wav', language: 'en-US', prompt: 'Mill Street, Aunt Edna', provider: 'stt_primary', userId: user.userId, feature: 'transcribe' },
      },
    ]);
  });

  it('trusts the bytes over the declared type and defaults provider to auto', async () => {
    const mp3 = await makeTone(1, 'mp3');
    const body = multipart([{ name: 'audio', value: mp3, filename: 'x.bin', contentType: 'application/octet-stream' }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...user.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(200);
    expect(res.json().metadata.audioType).toBe('audio/mpeg');
    expect(speech.calls[0]!.options).toMatchObject({ mimeType: 'audio/mpeg', provider: 'auto', language: undefined });
  });

  it('names the fallback provider when the fallback slot is asked for', async () => {
    const body = multipart([
      { name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' },
      { name: 'provider', value: 'stt_fallback' },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...user.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ provider: 'deepgram', transcript: 'from the fallback' });
  });

  it.each([
    ['quota', 429],
    ['timeout', 504],
    ['unavailable', 502],
    ['auth', 502],
    ['rejected_input', 400],
  ] as const)('maps a %s provider failure to %i without the provider text', async (kind, status) => {
    failWith = () => new ProviderError(kind, 'google', 'RAW-PROVIDER-SECRET internal detail');
    const body = multipart([{ name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...user.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(status);
    expect(res.body).not.toContain('RAW-PROVIDER-SECRET');
    expect(res.json().error).toMatch(/speech/i);
  });

  it.each([
    ['no file', [{ name: 'language', value: 'en' }], 'audio'],
    ['an empty file', [{ name: 'audio', value: Buffer.alloc(0), filename: 'a.wav', contentType: 'audio/wav' }], 'audio'],
    ['bytes that are not audio', [{ name: 'audio', value: Buffer.from('%PDF-1.4 not audio at all, just a document'), filename: 'a.wav', contentType: 'audio/wav' }], 'audio'],
    ['an unknown provider', [{ name: 'audio', value: Buffer.alloc(1), filename: 'a.wav' }, { name: 'provider', value: 'whisper' }], 'provider'],
    ['a malformed language', [{ name: 'audio', value: Buffer.alloc(1), filename: 'a.wav' }, { name: 'language', value: 'english please' }], 'language'],
  ])('refuses %s with 400 naming the field, calling no provider', async (_label, parts, field) => {
    const body = multipart(parts as Parameters<typeof multipart>[0]);
    const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...user.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(field);
    expect(speech.calls).toHaveLength(0);
  });

  it('refuses a JSON body with 400 naming audio', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: user.headers, payload: { audio: 'base64...' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('audio');
  });

  it('refuses a file over 8 MB with 413 pointing at direct upload', async () => {
    const big = Buffer.concat([wav, Buffer.alloc(8 * 1024 * 1024)]);
    const body = multipart([{ name: 'audio', value: big, filename: 'big.wav', contentType: 'audio/wav' }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...user.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatch(/8 MB.*direct/);
    expect(speech.calls).toHaveLength(0);
  });

  it('requires a token', async () => {
    const body = multipart([{ name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: body.headers, payload: body.payload });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized' });
  });
});

describe('POST /api/transcribe asking for a slot this server lacks', () => {
  it('answers 400 naming provider', async () => {
    const t = await buildTestAppWithProviders(() => ({ speech: primaryOnlySpeech() }));
    try {
      const user = await signUp(t.app);
      const body = multipart([
        { name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' },
        { name: 'provider', value: 'stt_fallback' },
      ]);
      const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...user.headers, ...body.headers }, payload: body.payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('provider stt_fallback is not configured');
    } finally {
      await t.close();
    }
  });
});

describe('speech with the default (offline) providers', () => {
  let t: TestContext;
  let user: SignedUp;
  beforeAll(async () => {
    t = await buildTestApp({ LOCAL_STT_MODEL: 'tiny' });
    user = await signUp(t.app);
  });
  afterAll(async () => t.close());

  it('transcribes with the local recogniser: a tone holds no speech, so the transcript is empty, never invented words', async () => {
    const body = multipart([{ name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' }]);
    const res = await t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...user.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, transcript: '', provider: 'local', cost: 0, metadata: { model: 'moonshine-tiny' } });
    expect(await t.database.sql`select provider, success from ai_usage_logs where user_id = ${user.userId}`).toEqual([{ provider: 'local', success: true }]);
  });

  it('answers 503 with a plain sentence when speech recognition is switched off (STT_PRIMARY=none), logging nothing', async () => {
    const off = await buildTestApp({ STT_PRIMARY: 'none' });
    try {
      const caller = await signUp(off.app);
      const body = multipart([{ name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' }]);
      const res = await off.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...caller.headers, ...body.headers }, payload: body.payload });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe('Speech recognition is not configured on this server, so audio cannot be transcribed here.');
      expect(await off.database.sql`select 1 from ai_usage_logs where user_id = ${caller.userId}`).toHaveLength(0);
    } finally {
      await off.close();
    }
  });

  it('documents every route of this area in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const ids = Object.values(res.json().paths as Record<string, Record<string, { operationId?: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
    for (const id of [
      'transcribeAudio', 'listTtsVoices', 'synthesizeTtsSpeech', 'streamTtsSpeech', 'conversationChat', 'conversationSpeech', 'assessConversationQuality',
      'listConversations', 'conversationStats', 'conversationTags', 'analyzeConversations', 'uploadConversationAudio', 'getConversation',
      'summarizeConversation', 'completeConversation', 'analyzeConversation', 'analyzeConversationQuality', 'getConversationTags', 'setConversationTags',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it('lists the local voices', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/tts/local', headers: user.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(body.voices.length);
    expect(body.voices[0]).toEqual({ voice_id: 'en-us', name: 'English (America)', category: 'local', gender: 'male', accent: 'american', preview_url: null });
  });

  it.each(['elevenlabs', 'polly'])('answers 404 naming the unavailable provider %s', async (name) => {
    for (const method of ['GET', 'POST', 'PUT'] as const) {
      const res = await t.app.inject({ method, url: `/api/tts/${name}`, headers: user.headers, ...(method === 'GET' ? {} : { payload: { text: 'Hello there.' } }) });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toContain(`"${name}"`);
    }
  });

  it('synthesizes real MP3 with the spec headers, and records the usage', async () => {
    const text = 'Tell me about the house you grew up in.';
    const res = await t.app.inject({ method: 'POST', url: '/api/tts/local', headers: user.headers, payload: { text, voice_id: 'en-gb', voice_settings: { stability: 0.5, similarity_boost: 0.7, style: 0 } } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['x-provider']).toBe('local');
    expect(res.headers['x-voice-id']).toBe('en-gb');
    expect(res.headers['x-character-count']).toBe(String(text.length));
    expect(Number(res.headers['x-estimated-cost'])).toBe(0);
    expect(res.rawPayload.length).toBeGreaterThan(1000);
    expect(isMp3(res.rawPayload)).toBe(true);
    const [usage] = await t.database.sql`select provider, operation, characters, success from ai_usage_logs where user_id = ${user.userId} and operation = 'tts'`;
    expect(usage).toEqual({ provider: 'local', operation: 'tts', characters: text.length, success: true });
  });

  it('streams for real-time playback on PUT: chunked, no Content-Length, not cached', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/tts/local', headers: user.headers, payload: { text: 'What did your kitchen smell like on Sundays?' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-voice-id']).toBe('en-us');
    expect(isMp3(res.rawPayload)).toBe(true);
  });

  it.each([
    ['empty text', { text: '' }, 'text'],
    ['blank text', { text: '   ' }, 'text'],
    ['5001 characters', { text: 'x'.repeat(5001) }, 'text'],
    ['no text', {}, 'text'],
    ['a stability over 1', { text: 'Hello.', voice_settings: { stability: 3 } }, 'voice_settings.stability'],
    ['a malformed output format', { text: 'Hello.', output_format: 'wav; rm -rf' }, 'output_format'],
    ['an unknown voice', { text: 'Hello.', voice_id: 'no-such-voice' }, 'voice_id'],
    ['a non-MP3 output format', { text: 'Hello.', output_format: 'pcm_16000' }, 'output_format'],
  ])('refuses %s with 400 naming the field', async (_label, payload, field) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/tts/local', headers: user.headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(field);
  });
});
