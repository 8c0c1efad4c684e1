// The ElevenLabs adapter with the real SDK against a local fake server that speaks ElevenLabs' wire
// format (GET /v1/voices, POST /v1/text-to-speech/{voice_id}/stream, errors as {detail: {status, message}}).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ProviderError } from '../provider-error';
import { createMemoryUsageRecorder } from '../shared/usage';
import { createElevenLabsTextToSpeech, estimateElevenLabsCost } from './elevenlabs.adapter';
import { createTextToSpeech } from './index';

const API_KEY = 'xi-test-key';
const RAW_ERROR_TEXT = 'internal-fake-detail-7f3a';
const AUDIO_CHUNKS = [Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(4096, 1), Buffer.alloc(4096, 2), Buffer.from('tail-of-the-mp3')];
const FAST_RETRY = { retries: 2, baseDelayMs: 5, maxDelayMs: 20 };

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | null;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown> | null) => void | Promise<void>;

let server: Server;
let baseUrl: string;
let received: Received[];
let handlers: Handler[];

function sendError(res: ServerResponse, status: number) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ detail: { status: `fake_${status}`, message: RAW_ERROR_TEXT } }));
}

async function streamAudio(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'audio/mpeg', 'transfer-encoding': 'chunked' });
  for (const chunk of AUDIO_CHUNKS) {
    res.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  res.end();
}

const voicesPayload = {
  voices: [
    { voice_id: 'voice-rachel', name: 'Rachel', category: 'premade', labels: { gender: 'female', accent: 'american' }, preview_url: 'https://example.test/rachel.mp3' },
    { voice_id: 'voice-clone', name: 'Grandpa', category: 'cloned', labels: {}, preview_url: null },
  ],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString();
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.headers['xi-api-key'] !== API_KEY) return sendError(res, 401);
      const handler = handlers.shift();
      if (handler) return void handler(req, res, body);
      if (req.method === 'GET' && req.url?.startsWith('/v1/voices')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(voicesPayload));
      }
      if (req.method === 'POST' && /^\/v1\/text-to-speech\/[^/]+\/stream/.test(req.url ?? '')) return void streamAudio(res);
      sendError(res, 404);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
  handlers = [];
});

const adapter = (overrides: { apiKey?: string; timeoutMs?: number } = {}) =>
  createElevenLabsTextToSpeech({ apiKey: API_KEY, baseUrl, retry: FAST_RETRY, timeoutMs: 2000, ...overrides });

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  const providerError = err as ProviderError;
  expect(providerError.provider).toBe('elevenlabs');
  expect(providerError.message).not.toContain(RAW_ERROR_TEXT);
  expect(providerError.message).not.toContain(API_KEY);
  return providerError;
}

describe('ElevenLabs text-to-speech (real SDK, fake server)', () => {
  it('lists voices mapped to the API shape', async () => {
    const voices = await adapter().listVoices();
    expect(voices).toEqual([
      { voice_id: 'voice-rachel', name: 'Rachel', category: 'premade', gender: 'female', accent: 'american', preview_url: 'https://example.test/rachel.mp3' },
      { voice_id: 'voice-clone', name: 'Grandpa', category: 'cloned', gender: null, accent: null, preview_url: null },
    ]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'GET', headers: { 'xi-api-key': API_KEY } });
    expect(received[0].url).toMatch(/^\/v1\/voices/);
  });

  it('streams exactly the bytes the server sent and sends the request in the wire format', async () => {
    const text = 'Grandma kept bees behind the barn.';
    const synthesis = await adapter().synthesize(text, {
      voiceId: 'voice-rachel',
      modelId: 'eleven_turbo_v2_5',
      outputFormat: 'mp3_22050_32',
      voiceSettings: { stability: 0.4, similarity_boost: 0.8, style: 0.1 },
    });
    expect(synthesis).toMatchObject({
      contentType: 'audio/mpeg',
      provider: 'elevenlabs',
      voiceId: 'voice-rachel',
      characters: text.length,
      estimatedCostUsd: estimateElevenLabsCost(text.length),
    });
    expect(synthesis.estimatedCostUsd).toBeCloseTo((text.length / 1000) * 0.3, 6);
    expect(await collect(synthesis.audio)).toEqual(Buffer.concat(AUDIO_CHUNKS));

    expect(received).toHaveLength(1);
    const request = received[0];
    expect(request.method).toBe('POST');
    expect(request.headers['xi-api-key']).toBe(API_KEY);
    const url = new URL(request.url, baseUrl);
    expect(url.pathname).toBe('/v1/text-to-speech/voice-rachel/stream');
    expect(url.searchParams.get('output_format')).toBe('mp3_22050_32');
    expect(request.body).toMatchObject({
      text,
      model_id: 'eleven_turbo_v2_5',
      voice_settings: { stability: 0.4, similarity_boost: 0.8, style: 0.1 },
    });
  });

  it('refuses empty text, over-long text and non-MP3 formats without calling the server', async () => {
    await expect(adapter().synthesize('  ')).rejects.toMatchObject({ kind: 'rejected_input' });
    await expect(adapter().synthesize('x'.repeat(5001))).rejects.toMatchObject({ kind: 'rejected_input' });
    await expect(adapter().synthesize('Hello', { outputFormat: 'pcm_16000' })).rejects.toMatchObject({ kind: 'rejected_input' });
    expect(received).toHaveLength(0);
  });

  it('maps 401 to auth without retrying', async () => {
    const err = await failure(adapter({ apiKey: 'wrong-key' }).synthesize('Hello'));
    expect(err.kind).toBe('auth');
    expect(err.status).toBe(401);
    expect(received).toHaveLength(1);
    const listErr = await failure(adapter({ apiKey: 'wrong-key' }).listVoices());
    expect(listErr.kind).toBe('auth');
  });

  it('maps 422 to rejected_input and 404 to not_found', async () => {
    handlers.push((_req, res) => sendError(res, 422));
    expect((await failure(adapter().synthesize('Hello'))).kind).toBe('rejected_input');
    handlers.push((_req, res) => sendError(res, 404));
    expect((await failure(adapter().synthesize('Hello', { voiceId: 'nobody' }))).kind).toBe('not_found');
    expect(received).toHaveLength(2);
  });

  it('retries a 429 and then streams the audio', async () => {
    handlers.push((_req, res) => sendError(res, 429));
    const synthesis = await adapter().synthesize('Hello again');
    expect(await collect(synthesis.audio)).toEqual(Buffer.concat(AUDIO_CHUNKS));
    expect(received).toHaveLength(2);
  });

  it('retries voice listing on 5xx', async () => {
    handlers.push((_req, res) => sendError(res, 503));
    await expect(adapter().listVoices()).resolves.toHaveLength(2);
    expect(received).toHaveLength(2);
  });

  it('gives up with unavailable after repeated 500s', async () => {
    handlers.push(...Array.from({ length: 5 }, (): Handler => (_req, res) => sendError(res, 500)));
    const err = await failure(adapter().synthesize('Hello'));
    expect(err.kind).toBe('unavailable');
    expect(err.status).toBe(500);
    expect(received).toHaveLength(3);
  });

  it('times out when the server is slow to answer', async () => {
    handlers.push(...Array.from({ length: 3 }, (): Handler => () => undefined)); // never answers
    const started = Date.now();
    const err = await failure(adapter({ timeoutMs: 200 }).synthesize('Hello'));
    expect(err.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports a server that cannot be reached as unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const tts = createElevenLabsTextToSpeech({
      apiKey: API_KEY,
      baseUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 500,
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    });
    expect((await failure(tts.listVoices())).kind).toBe('unavailable');
  });

  it('destroys the stream with a ProviderError when the download breaks part-way', async () => {
    handlers.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'transfer-encoding': 'chunked' });
      res.write(AUDIO_CHUNKS[0]);
      setTimeout(() => res.socket?.destroy(), 30);
    });
    const synthesis = await adapter().synthesize('Hello');
    const err = await collect(synthesis.audio).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProviderError);
    expect(received).toHaveLength(1);
  });

  it('stops the download when the consumer aborts', async () => {
    let serverSawClose!: () => void;
    const closedOnServer = new Promise<void>((resolve) => (serverSawClose = resolve));
    handlers.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'transfer-encoding': 'chunked' });
      const timer = setInterval(() => res.write(Buffer.alloc(1024, 7)), 10);
      res.on('close', () => {
        clearInterval(timer);
        serverSawClose();
      });
    });
    const controller = new AbortController();
    const synthesis = await adapter().synthesize('Hello', { signal: controller.signal });
    synthesis.audio.once('error', () => undefined);
    synthesis.audio.destroy();
    await closedOnServer;
  });

  it('records usage with the ElevenLabs cost through createTextToSpeech', async () => {
    const usage = createMemoryUsageRecorder();
    const providers = createTextToSpeech({ ELEVENLABS_API_KEY: API_KEY, ELEVENLABS_BASE_URL: baseUrl }, { usage, retry: FAST_RETRY });
    const text = 'a'.repeat(1000);
    const synthesis = await providers.default.synthesize(text, { userId: 'user-9', feature: 'story-playback' });
    expect(await collect(synthesis.audio)).toEqual(Buffer.concat(AUDIO_CHUNKS));
    handlers.push((_req, res) => sendError(res, 401));
    await expect(providers.default.synthesize('Hello')).rejects.toMatchObject({ kind: 'auth' });
    expect(usage.entries).toEqual([
      expect.objectContaining({ provider: 'elevenlabs', operation: 'tts', feature: 'story-playback', userId: 'user-9', characters: 1000, costUsd: 0.3, success: true }),
      expect.objectContaining({ provider: 'elevenlabs', operation: 'tts', costUsd: 0, success: false, errorCode: 'auth' }),
    ]);
  });
});
