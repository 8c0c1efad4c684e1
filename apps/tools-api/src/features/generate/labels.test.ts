// Honest labels (spec 002 Content record, its ai_* fields) with a real model adapter: the openai adapter
// talks to a local OpenAI-compatible server, so what is stored and exported comes from the model's own answer
// (model name, token usage).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, generate, type TestContext } from '../../test/helper';
import { parseCsv } from '../../test/export-readers';

const twists = {
  title: 'Three Twists in the Fog',
  genre: 'noir',
  storyType: 'novel',
  intensity: 'subtle',
  twists: [{ twist: 'The detective hired himself.', setup: 'Plant the invoice.', foreshadowing: ['A familiar signature.'], impact: 'Reframes act one.' }],
};

/** A chat-completions endpoint answering every request with the twists above and a fixed usage. */
let server: Server;
const requests: { path: string; body: { model?: string } }[] = [];
async function startFakeOpenAi(): Promise<string> {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: 'gpt-4o-mini-2024-07-18',
          choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(twists) }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 321, completion_tokens: 123, total_tokens: 444 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

let t: TestContext;
beforeAll(async () => {
  const baseUrl = await startFakeOpenAi();
  t = await buildTestApp({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: 'gpt-4o-mini' });
});
afterAll(async () => {
  await t.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('labels a model’s content as AI-generated with the model’s own token usage and no invented confidence', async () => {
  const { sessionId, data } = await generate(t, 'plot-twists', { genre: 'noir', intensity: 'subtle' });
  expect(requests.at(-1)).toMatchObject({ path: '/v1/chat/completions', body: { model: 'gpt-4o-mini' } });
  expect(data.title).toBe('Three Twists in the Fog');
  expect(data['aiMetadata']).toEqual({ model: 'gpt-4o-mini-2024-07-18', provider: 'openai', tokensUsed: 444, processingTime: expect.any(Number), confidenceScore: null, isAiGenerated: true, fallback: false });

  const [row] = await t.database.sql`select is_ai_generated, ai_model, ai_tokens_used, ai_confidence from tools_plot_twists where id = ${data.id}`;
  expect(row).toEqual({ is_ai_generated: true, ai_model: 'gpt-4o-mini-2024-07-18', ai_tokens_used: 444, ai_confidence: null });
  const usage = await t.database.sql`select provider, model, input_tokens, output_tokens, tokens_used, success from tools_ai_usage where content_id = ${data.id}`;
  expect(usage).toEqual([{ provider: 'openai', model: 'gpt-4o-mini-2024-07-18', input_tokens: 321, output_tokens: 123, tokens_used: 444, success: true }]);

  const csv = await t.app.inject({ method: 'POST', url: `/api/plot-twists/${data.id}/export`, headers: { 'x-session-id': sessionId }, payload: { format: 'csv' } });
  const rows = parseCsv(csv.payload);
  expect(rows).toContainEqual(['AI Generated', 'yes']);
  expect(rows).toContainEqual(['Made By', 'AI model gpt-4o-mini-2024-07-18']);
  const page = await t.app.inject({ method: 'GET', url: `/plot-twists/${data.shareCode}/` });
  expect(page.body).toContain('written by the AI model gpt-4o-mini-2024-07-18');
});
