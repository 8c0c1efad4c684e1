import { z } from 'zod';
import { ProviderError } from '../provider-error';
import { createMemoryUsageRecorder } from '../shared/usage';
import { createLanguageModel } from './index';
import type { LanguageModel } from './llm.port';
import { startFakeServer, type FakeServer } from '@story/testing';

const RAW = 'RAW-UPSTREAM-DETAIL do-not-leak';
const message = (text: string, usage = { input_tokens: 20, output_tokens: 10 }) => ({
  status: 200,
  body: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-3-5-haiku-20241022',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  },
});
const apiError = (status: number, type: string) => ({ status, body: { type: 'error', error: { type, message: RAW } } });

const Readiness = z.object({ ready: z.boolean(), reasons: z.array(z.string()) });
const request = { task: 'readiness-assessment', system: 'You judge stories.', messages: [{ role: 'user' as const, content: 'Is this ready?' }] };
const ctx = { feature: 'story-conversion', userId: null };

let server: FakeServer;
let usage: ReturnType<typeof createMemoryUsageRecorder>;
let llm: LanguageModel;

beforeEach(async () => {
  server = await startFakeServer();
  usage = createMemoryUsageRecorder();
  llm = createLanguageModel(
    { provider: 'anthropic', apiKey: 'sk-ant-test', baseUrl: server.url, model: 'claude-3-5-haiku-latest' },
    { usage, timeoutMs: 300, retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 5 } },
  );
});
afterEach(() => server.close());

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('anthropic adapter against the Messages API wire format', () => {
  it('sends model, system, max_tokens and messages and reports text, usage and cost', async () => {
    server.reply({ ...message('It is ready.'), body: { ...message('').body, content: [{ type: 'text', text: 'It is ' }, { type: 'text', text: 'ready.' }] } });
    const result = await llm.complete(request, ctx);

    expect(result).toMatchObject({ text: 'It is ready.', provider: 'anthropic', model: 'claude-3-5-haiku-20241022', usage: { inputTokens: 20, outputTokens: 10 } });
    expect(result.costUsd).toBeCloseTo((20 * 0.8 + 10 * 4) / 1e6, 12);
    const sent = server.requests[0];
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/messages');
    // the installed SDK (1.x) sends the key as a bearer token; older ones used x-api-key
    expect(`${sent.headers['x-api-key'] ?? ''} ${sent.headers.authorization ?? ''}`).toContain('sk-ant-test');
    expect(sent.headers['anthropic-version']).toBeDefined();
    expect(sent.body).toMatchObject({ model: 'claude-3-5-haiku-latest', system: 'You judge stories.', messages: [{ role: 'user', content: 'Is this ready?' }] });
    expect(sent.body.max_tokens).toBeGreaterThan(0);
    expect(usage.entries).toEqual([expect.objectContaining({ operation: 'llm', provider: 'anthropic', feature: 'story-conversion', userId: null, inputTokens: 20, outputTokens: 10, success: true })]);
  });

  it('completeJson instructs JSON in the system prompt and parses the first object of the text', async () => {
    server.reply(message('Here is my assessment: {"ready": true, "reasons": ["has names {and} places"]} Hope that helps.'));
    const result = await llm.completeJson(request, Readiness, ctx);
    expect(result.data).toEqual({ ready: true, reasons: ['has names {and} places'] });
    expect(server.requests[0].body.system).toContain('You judge stories.');
    expect(server.requests[0].body.system).toContain('JSON Schema');
    expect(server.requests[0].body.system).toContain('"reasons"');
  });

  it('completeJson repairs a wrong-shaped answer once and sends the problems back', async () => {
    server.reply(message('{"ready": "yes"}'), message('{"ready": false, "reasons": ["too short"]}'));
    const result = await llm.completeJson(request, Readiness, ctx);
    expect(result.data).toEqual({ ready: false, reasons: ['too short'] });
    expect(server.requests).toHaveLength(2);
    const messages = server.requests[1].body.messages;
    expect(messages).toHaveLength(3);
    expect(messages[1]).toEqual({ role: 'assistant', content: '{"ready": "yes"}' });
    expect(messages[2].content).toMatch(/ready/);
    expect(messages[2].content).toMatch(/reasons/);
  });

  it('completeJson fails with kind failed after two invalid answers', async () => {
    server.reply(message('nope'), message('{"ready": 1}'));
    const err = await failure(llm.completeJson(request, Readiness, ctx));
    expect(err.kind).toBe('failed');
    expect(server.requests).toHaveLength(2);
    expect(usage.entries).toHaveLength(2);
  });

  it('retries a 429 then succeeds', async () => {
    server.reply(apiError(429, 'rate_limit_error'), message('fine'));
    const result = await llm.complete(request, ctx);
    expect(result.text).toBe('fine');
    expect(server.requests).toHaveLength(2);
    expect(usage.entries.map((e) => e.success)).toEqual([false, true]);
  });

  it('gives up after three 500s as unavailable, without the provider text', async () => {
    server.reply(apiError(500, 'api_error'));
    const err = await failure(llm.complete(request, ctx));
    expect(err).toMatchObject({ kind: 'unavailable', provider: 'anthropic', status: 500 });
    expect(err.message).not.toContain('RAW-UPSTREAM');
    expect(server.requests).toHaveLength(3);
    expect(usage.entries).toHaveLength(3);
  });

  it('treats 529 overloaded as unavailable and retries it', async () => {
    server.reply(apiError(529, 'overloaded_error'), message('back'));
    const result = await llm.complete(request, ctx);
    expect(result.text).toBe('back');
    expect(server.requests).toHaveLength(2);
  });

  it('maps 401 to auth without retrying', async () => {
    server.reply(apiError(401, 'authentication_error'));
    const err = await failure(llm.complete(request, ctx));
    expect(err).toMatchObject({ kind: 'auth', status: 401 });
    expect(err.message).not.toContain('RAW-UPSTREAM');
    expect(server.requests).toHaveLength(1);
    expect(usage.entries).toEqual([expect.objectContaining({ success: false, errorCode: 'auth' })]);
  });

  it('turns an answer slower than the timeout into a timeout', async () => {
    server.reply({ ...message('too late'), delayMs: 1000 });
    const err = await failure(llm.complete(request, ctx));
    expect(err.kind).toBe('timeout');
    expect(server.requests).toHaveLength(3);
  });
});
