// Fault injection at the routes: every configured provider answering 500 or hanging, through the real
// SDK adapters (OpenAI for the LLM, ElevenLabs for TTS, Google and Deepgram for speech-to-text) pointed at
// one local HTTP fake. Each request ends within a deadline: the AI helpers fall back to their offline
// result (200, labelled offline); TTS and transcription fail cleanly with 502 or 504 in the core error
// shape, without provider text. (ai-helpers.llm.test.ts already covers the LLM 5xx fallback in detail;
// this adds the hang and the other providers.)
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../test/helper';
import { makeTone, multipart } from '../test/conversations-factories';

type Mode = '500' | 'hang';

describe('fault: providers answering 500 or hanging (core-api routes)', () => {
  let mode: Mode = '500';
  let calls = 0;
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      if (mode === 'hang') return void hanging.add(res);
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 500, message: 'RAW-UPSTREAM exploded', status: 'INTERNAL', type: 'server_error' } }));
    });
  });
  let t: TestContext;
  let user: SignedUp;
  let wav: Buffer;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await buildTestApp({
      LLM_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${url}/v1`,
      OPENAI_MODEL: 'gpt-4o-mini',
      ELEVENLABS_API_KEY: 'el-key',
      ELEVENLABS_BASE_URL: url,
      STT_PRIMARY: 'google',
      STT_FALLBACK: 'deepgram',
      GOOGLE_SPEECH_API_KEY: 'g-key',
      GOOGLE_CLOUD_PROJECT: 'fault-project',
      GOOGLE_SPEECH_ENDPOINT: url,
      DEEPGRAM_API_KEY: 'dg-key',
      DEEPGRAM_BASE_URL: url,
      PROVIDER_TIMEOUT_MS: '1000',
    });
    user = await signUp(t.app);
    wav = await makeTone(1);
  });
  afterAll(async () => {
    await t.close();
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function timed<T>(run: () => Promise<T>): Promise<T> {
    const before = calls;
    const started = Date.now();
    const result = await run();
    // Deadline: 1 s per call, with the adapters' retries and the fallback provider.
    expect(Date.now() - started).toBeLessThan(20_000);
    // The provider was really called.
    expect(calls).toBeGreaterThan(before);
    return result;
  }

  const cleanError = (body: string) => {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(typeof parsed['error']).toBe('string');
    expect(body).not.toMatch(/RAW-UPSTREAM|127\.0\.0\.1|ECONN|stack/);
  };

  describe.each<Mode>(['500', 'hang'])('every provider: %s', (m) => {
    beforeAll(() => {
      mode = m;
    });

    it('LLM: the AI helper answers 200 with its offline result, labelled offline', async () => {
      const res = await timed(() => t.app.inject({ method: 'POST', url: '/api/ai/content-refinement', headers: user.headers, payload: { content: 'We did not go.', style: 'casual', preserveVoice: true } }));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ source: 'offline', offline: true, aiGenerated: false });
      expect(res.body).not.toContain('RAW-UPSTREAM');
    }, 30_000);

    it('TTS (ElevenLabs): 502 or 504 in the core error shape', async () => {
      const res = await timed(() => t.app.inject({ method: 'POST', url: '/api/tts/elevenlabs', headers: user.headers, payload: { text: 'Hello there.' } }));
      expect(res.statusCode).toBe(m === 'hang' ? 504 : 502);
      cleanError(res.body);
    }, 30_000);

    it('speech-to-text (Google, then Deepgram): 502 or 504 in the core error shape', async () => {
      const body = multipart([{ name: 'audio', value: wav, filename: 'a.wav', contentType: 'audio/wav' }]);
      const res = await timed(() => t.app.inject({ method: 'POST', url: '/api/transcribe', headers: { ...user.headers, ...body.headers }, payload: body.payload }));
      expect(res.statusCode).toBe(m === 'hang' ? 504 : 502);
      cleanError(res.body);
    }, 30_000);
  });
});
