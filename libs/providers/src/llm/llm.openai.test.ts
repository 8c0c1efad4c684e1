import { z } from 'zod';
import { ProviderError } from '../provider-error';
import { createMemoryUsageRecorder } from '../shared/usage';
import { createLanguageModel } from './index';
import type { LanguageModel } from './llm.port';
import { startFakeServer, type FakeServer } from '@story/testing';

const RAW = 'RAW-UPSTREAM-DETAIL do-not-leak';
const completion = (content: string, usage = { prompt_tokens: 12, completion_tokens: 5 }, model = 'gpt-4o-mini-2024-07-18') => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  },
});
const apiError = (status: number, type: string) => ({ status, body: { error: { message: RAW, type, code: type } } });

const TitleSchema = z.object({ title: z.string(), summary: z.string() });
const request = { task: 'title-summary', system: 'You title memories.', messages: [{ role: 'user' as const, content: 'We moved to Leeds in 1962.' }] };
const ctx = { feature: 'story-conversion', userId: 'user-1' };

let server: FakeServer;
let usage: ReturnType<typeof createMemoryUsageRecorder>;
let llm: LanguageModel;

beforeEach(async () => {
  server = await startFakeServer();
  usage = createMemoryUsageRecorder();
  llm = createLanguageModel(
    { provider: 'openai', apiKey: 'sk-test', baseUrl: `${server.url}/v1`, model: 'gpt-4o-mini' },
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

describe('openai adapter against an OpenAI-compatible server', () => {
  it('sends model, system and messages and reports text, usage and cost', async () => {
    server.reply(completion('Moving to Leeds'));
    const result = await llm.complete(request, ctx);

    expect(result).toMatchObject({ text: 'Moving to Leeds', provider: 'openai', model: 'gpt-4o-mini-2024-07-18', usage: { inputTokens: 12, outputTokens: 5 } });
    expect(result.costUsd).toBeCloseTo((12 * 0.15 + 5 * 0.6) / 1e6, 12);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0];
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body.model).toBe('gpt-4o-mini');
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'You title memories.' },
      { role: 'user', content: 'We moved to Leeds in 1962.' },
    ]);
    expect(sent.body.response_format).toBeUndefined();
    expect(usage.entries).toEqual([
      expect.objectContaining({ operation: 'llm', provider: 'openai', feature: 'story-conversion', userId: 'user-1', inputTokens: 12, outputTokens: 5, success: true, costUsd: result.costUsd }),
    ]);
    expect(usage.entries[0].metadata).toMatchObject({ priced: true });
  });

  it('prices an unknown model at 0 and flags it', async () => {
    server.reply(completion('hi', undefined, 'llama3.1:8b'));
    const result = await llm.complete(request, ctx);
    expect(result.costUsd).toBe(0);
    expect(usage.entries[0].metadata).toMatchObject({ priced: false });
  });

  it('completeJson asks for json_object with the schema and returns validated data', async () => {
    server.reply(completion('{"title":"Leeds","summary":"We moved to Leeds in 1962."}'));
    const result = await llm.completeJson(request, TitleSchema, ctx);

    expect(result.data).toEqual({ title: 'Leeds', summary: 'We moved to Leeds in 1962.' });
    const sent = server.requests[0].body;
    expect(sent.response_format).toEqual({ type: 'json_object' });
    expect(sent.messages[0].role).toBe('system');
    expect(sent.messages[0].content).toContain('You title memories.');
    expect(sent.messages[0].content).toContain('JSON Schema');
    expect(sent.messages[0].content).toContain('"summary"');
  });

  it.each([
    ['not JSON', 'Sure! Here is your title: Leeds'],
    ['the wrong shape', '{"title": 5}'],
  ])('completeJson repairs an answer that is %s with one repair request', async (_label, bad) => {
    server.reply(completion(bad), completion('```json\n{"title":"Leeds","summary":"A move."}\n```', { prompt_tokens: 30, completion_tokens: 9 }));
    const result = await llm.completeJson(request, TitleSchema, ctx);

    expect(result.data).toEqual({ title: 'Leeds', summary: 'A move.' });
    expect(result.usage).toEqual({ inputTokens: 42, outputTokens: 14 });
    expect(server.requests).toHaveLength(2);
    const repair = server.requests[1].body.messages;
    expect(repair.slice(-2)[0]).toEqual({ role: 'assistant', content: bad });
    expect(repair.slice(-1)[0].role).toBe('user');
    expect(repair.slice(-1)[0].content).toMatch(/not valid/);
    expect(usage.entries.map((e) => [e.success, e.errorCode])).toEqual([
      [false, 'invalid_output'],
      [true, undefined],
    ]);
  });

  it('completeJson fails with kind failed after a second invalid answer, never returning partial data', async () => {
    server.reply(completion('{"title":"Leeds"}'), completion('still no JSON'));
    const err = await failure(llm.completeJson(request, TitleSchema, ctx));
    expect(err.kind).toBe('failed');
    expect(server.requests).toHaveLength(2);
    expect(usage.entries).toHaveLength(2);
    expect(usage.entries.every((e) => !e.success && e.errorCode === 'invalid_output')).toBe(true);
  });

  it('retries a 429 and then succeeds', async () => {
    server.reply(apiError(429, 'rate_limit_exceeded'), completion('ok'));
    const result = await llm.complete(request, ctx);
    expect(result.text).toBe('ok');
    expect(server.requests).toHaveLength(2);
    expect(usage.entries.map((e) => [e.success, e.errorCode])).toEqual([
      [false, 'quota'],
      [true, undefined],
    ]);
  });

  it('gives up after three 500s as unavailable, in its own words', async () => {
    server.reply(apiError(500, 'server_error'));
    const err = await failure(llm.complete(request, ctx));
    expect(err).toMatchObject({ kind: 'unavailable', provider: 'openai', status: 500 });
    expect(err.message).not.toContain('RAW-UPSTREAM');
    expect(server.requests).toHaveLength(3);
    expect(usage.entries).toHaveLength(3);
    expect(usage.entries.every((e) => !e.success && e.errorCode === 'unavailable')).toBe(true);
  });

  it('maps 401 to auth without retrying', async () => {
    server.reply(apiError(401, 'invalid_api_key'));
    const err = await failure(llm.complete(request, ctx));
    expect(err).toMatchObject({ kind: 'auth', status: 401 });
    expect(err.message).not.toContain('RAW-UPSTREAM');
    expect(server.requests).toHaveLength(1);
    expect(usage.entries).toEqual([expect.objectContaining({ success: false, errorCode: 'auth', provider: 'openai' })]);
  });

  it('maps 400 to rejected_input without retrying', async () => {
    server.reply(apiError(400, 'invalid_request_error'));
    const err = await failure(llm.complete(request, ctx));
    expect(err.kind).toBe('rejected_input');
    expect(err.message).not.toContain('RAW-UPSTREAM');
    expect(server.requests).toHaveLength(1);
  });

  it('turns an answer slower than the timeout into a timeout (retried, then given up)', async () => {
    server.reply({ ...completion('too late'), delayMs: 1000 });
    const err = await failure(llm.complete(request, ctx));
    expect(err.kind).toBe('timeout');
    expect(server.requests).toHaveLength(3);
    expect(usage.entries.every((e) => e.errorCode === 'timeout')).toBe(true);
  });

  it('stops when the caller cancels, without retrying', async () => {
    server.reply({ ...completion('too late'), delayMs: 250 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await failure(llm.complete(request, { ...ctx, signal: controller.signal }));
    expect(err.kind).toBe('failed');
    expect(server.requests).toHaveLength(1);
  });

  it('maps a refused connection to unavailable', async () => {
    await server.close();
    const err = await failure(llm.complete(request, ctx));
    expect(err.kind).toBe('unavailable');
  });
});
