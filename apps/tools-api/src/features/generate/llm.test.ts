// The LLM path with a fake LanguageModel: the tool's prompts and schema go to completeJson, tokens, cost and
// model are recorded; when the provider fails, the offline generator answers and the result says so.
import { ProviderError, type LanguageModel, type LlmRequest } from '@story/providers';
import { buildTestApp, generate, type TestContext } from '../../test/helper';

const calls: { request: LlmRequest; feature?: string }[] = [];
let failNext = false;
const fake: LanguageModel = {
  provider: 'openai',
  model: 'gpt-test',
  complete: async () => {
    throw new Error('not used');
  },
  async completeJson(request, schema, ctx) {
    calls.push({ request, feature: ctx?.feature });
    if (failNext) {
      failNext = false;
      throw new ProviderError('timeout', 'openai', 'timed out');
    }
    const data = schema.parse({
      title: 'Three Twists in the Fog',
      genre: 'noir',
      storyType: 'novel',
      intensity: 'subtle',
      twists: [{ twist: 'The detective hired himself.', setup: 'Plant the invoice.', foreshadowing: ['A familiar signature.'], impact: 'Reframes act one.' }],
    });
    return { data, text: JSON.stringify(data), model: 'gpt-test', provider: 'openai', usage: { inputTokens: 120, outputTokens: 80 }, costUsd: 0.0123, latencyMs: 5 };
  },
};

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({}, { llm: fake });
});
afterAll(async () => t.close());

it('generates through the model with the tool’s prompt and records tokens, cost and model', async () => {
  const { data } = await generate(t, 'plot-twists', { genre: 'noir', intensity: 'subtle', plotElements: ['a fog horn'] });
  expect(calls[0]!.request.system).toMatch(/plot twists/);
  expect(calls[0]!.request.messages[0]!.content).toMatch(/3 subtle plot twists for a novel in the noir genre.*a fog horn/);
  expect(calls[0]!.feature).toBe('tools:plot-twists');
  expect(data['aiMetadata']).toMatchObject({ model: 'gpt-test', provider: 'openai', tokensUsed: 200, confidenceScore: null, isAiGenerated: true, fallback: false });
  expect(data.title).toBe('Three Twists in the Fog');
  const [row] = await t.database.sql`select ai_model, is_ai_generated, ai_tokens_used, ai_cost_usd::float8 as cost, ai_confidence::float8 as confidence from tools_plot_twists where id = ${data.id}`;
  expect(row).toEqual({ ai_model: 'gpt-test', is_ai_generated: true, ai_tokens_used: 200, cost: 0.0123, confidence: null });
  const [usage] = await t.database.sql`select provider, model, input_tokens, output_tokens, cost_usd::float8 as cost, success from tools_ai_usage where content_id = ${data.id}`;
  expect(usage).toEqual({ provider: 'openai', model: 'gpt-test', input_tokens: 120, output_tokens: 80, cost: 0.0123, success: true });
});

it('falls back to the offline generator when the provider fails, and says so', async () => {
  failNext = true;
  const { data } = await generate(t, 'plot-twists', { genre: 'noir' });
  expect(data['aiMetadata']).toMatchObject({ model: 'local-plot-twists', provider: 'local', isAiGenerated: false, tokensUsed: null, fallback: true, note: expect.stringMatching(/openai.*timeout/) });
  const usage = await t.database.sql`select provider, success, error_code, content_id from tools_ai_usage where session_id = (select session_id from tools_plot_twists where id = ${data.id}) order by success`;
  expect(usage).toEqual([
    { provider: 'openai', success: false, error_code: 'timeout', content_id: null },
    { provider: 'local', success: true, error_code: null, content_id: data.id },
  ]);
  const [row] = await t.database.sql`select metadata, is_ai_generated, ai_confidence, ai_tokens_used from tools_plot_twists where id = ${data.id}`;
  expect(row!['metadata']).toMatchObject({ fallback: { provider: 'openai', errorCode: 'timeout' } });
  expect(row).toMatchObject({ is_ai_generated: false, ai_confidence: null, ai_tokens_used: null });
});
