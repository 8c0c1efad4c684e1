// /api/ai/* with a model configured: the real OpenAI adapter (LLM_PROVIDER=openai) against the scripted
// local fake server of @story/testing. The model's answer is labelled AI-generated with its model id, its
// tokens and cost land in ai_usage_logs; a provider error (5xx after retries, or an answer of the wrong
// shape) falls back to the offline result, labelled offline with the reason, and still answers 200.
import { startFakeServer, type FakeServer } from '@story/testing';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newStory } from '../../test/stories-books-factories';

let server: FakeServer;
let t: TestContext;
let user: SignedUp;

const completion = (content: unknown, usage = { prompt_tokens: 120, completion_tokens: 40 }) => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(content) }, finish_reason: 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  },
});

beforeAll(async () => {
  server = await startFakeServer();
  t = await buildTestApp({ LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_MODEL: 'gpt-4o-mini', PROVIDER_TIMEOUT_MS: '5000' });
  user = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
  await server.close();
});

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/ai/${url}`, headers: user.headers, payload });
const logsFor = (feature: string) =>
  t.database.sql<{ provider: string; model: string; input_tokens: number; output_tokens: number; llm_cost_usd: number; success: boolean }[]>`
    select provider, model, input_tokens, output_tokens, llm_cost_usd::float8 as llm_cost_usd, success from ai_usage_logs
    where user_id = ${user.userId} and feature = ${feature} order by created_at`;

it('grammar: the model’s corrections, located in the text, labelled AI-generated, tokens and cost logged', async () => {
  server.reply(completion({ correctedText: 'I ate an apple.', corrections: [{ original: 'a apple', suggestion: 'an apple', type: 'Grammar', message: 'Use “an” before a vowel sound.' }, { original: 'not in the text', suggestion: 'x' }] }));
  const res = await post('grammar', { text: 'I ate a apple.', userId: user.userId });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ success: true, source: 'llm', offline: false, aiGenerated: true, model: 'gpt-4o-mini-2024-07-18', correctedText: 'I ate an apple.' });
  expect(body.corrections).toEqual([{ start: 6, end: 13, original: 'a apple', suggestion: 'an apple', type: 'Grammar', message: 'Use “an” before a vowel sound.' }]);
  const sent = server.requests.at(-1)!;
  expect(sent.path).toBe('/v1/chat/completions');
  expect(sent.body.response_format).toEqual({ type: 'json_object' });
  expect(JSON.stringify(sent.body.messages)).toContain('I ate a apple.');
  const logs = await logsFor('ai:grammar');
  expect(logs).toEqual([expect.objectContaining({ provider: 'openai', input_tokens: 120, output_tokens: 40, success: true })]);
  expect(logs[0]!.llm_cost_usd).toBeCloseTo((120 * 0.15 + 40 * 0.6) / 1e6, 6);
});

it('content-analysis: model themes and recommendations over the locally computed measures, capped at maxRecommendations', async () => {
  server.reply(completion({ themes: ['moving house'], recommendations: ['One', 'Two', 'Three', 'Four'], summary: 'A move to Leeds.' }));
  const res = await post('content-analysis', { prompt: 'In 1962 we moved to Leeds.', analysisDepth: 'basic', maxRecommendations: 2 });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ source: 'llm', aiGenerated: true, recommendations: ['One', 'Two'] });
  expect(body.analysis).toMatchObject({ themes: ['moving house'], mentions: { years: ['1962'] }, summary: 'A move to Leeds.' });
});

it('story-connections: the model’s numbered pairs are mapped back to the caller’s story ids; invented numbers are dropped', async () => {
  const a = await newStory(t.database.sql, user.userId, { title: 'Leeds', content: '<p>Uncle Harry in Leeds.</p>' });
  const b = await newStory(t.database.sql, user.userId, { title: 'Market', content: '<p>Uncle Harry at the market.</p>' });
  server.reply(completion({ connections: [{ a: 1, b: 2, explanation: 'Both are about Uncle Harry.' }, { a: 1, b: 9, explanation: 'invented' }] }));
  const res = await post('story-connections', { storyIds: [a.id, b.id] });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.source).toBe('llm');
  expect(body.connections).toHaveLength(1);
  expect([...body.connections[0].storyIds].sort()).toEqual([a.id, b.id].sort());
  expect(body.connections[0].shared.people).toEqual(['Uncle Harry']);
});

it('grammar-analysis, memory-prompts and photo-suggestions map the model’s answer onto the caller’s text and rows', async () => {
  server.reply(completion({ issues: [{ original: 'dont', type: 'Spelling', suggestions: ["don't"], explanation: 'Missing apostrophe.' }, { original: 'absent', type: 'x' }] }));
  const text = 'She dont like it.';
  const analysis = (await post('grammar-analysis', { text, includeExplanations: true })).json();
  expect(analysis).toMatchObject({ source: 'llm', issues: [{ start: 4, end: 8, text: 'dont', type: 'Spelling', suggestions: ["don't"], explanation: 'Missing apostrophe.' }] });
  expect(analysis.readability.words).toBe(4);

  server.reply(completion({ prompts: [1, 2, 3].map((n) => ({ prompt: `Question ${n}?`, reason: 'r', category: 'people' })) }));
  const prompts = (await post('memory-prompts', { count: 2 })).json();
  expect(prompts).toMatchObject({ source: 'llm', aiGenerated: true, prompts: [{ prompt: 'Question 1?' }, { prompt: 'Question 2?' }] });
  expect(prompts.prompts).toHaveLength(2);

  const story = await newStory(t.database.sql, user.userId, { title: 'Pier', content: '<p>First paragraph.</p><p>The pier at Bognor.</p>' });
  const [img] = await t.database.sql<{ id: string }[]>`insert into images (user_id, storage_key, mime_type, title) values (${user.userId}, 'images/p.jpg', 'image/jpeg', 'Bognor pier') returning id`;
  server.reply(completion({ placements: [{ photo: 1, paragraph: 2, reason: 'The pier.' }, { photo: 7, paragraph: 1, reason: 'invented photo' }] }));
  const photos = (await post('photo-suggestions', { storyId: story.id, imageIds: [img!.id] })).json();
  expect(photos).toMatchObject({ source: 'llm', storyId: story.id, paragraphs: 2, suggestions: [{ imageId: img!.id, paragraphIndex: 1, reasons: ['The pier.'] }], unplaced: [] });
  expect(server.requests.at(-1)!.body.messages.at(-1).content).toContain('Bognor pier');
});

it('a provider error (5xx after the retries) falls back to the offline result, labelled offline with the reason', async () => {
  server.reply({ status: 503, body: { error: { message: 'RAW-UPSTREAM overloaded', type: 'server_error' } } });
  const before = server.requests.length;
  const res = await post('content-refinement', { content: 'We did not go.', style: 'casual', preserveVoice: true });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ success: true, source: 'offline', offline: true, aiGenerated: false, model: 'local-content-refinement', refinedContent: "We didn't go." });
  expect(body.fallback).toMatch(/openai model could not answer/);
  expect(res.body).not.toContain('RAW-UPSTREAM');
  expect(server.requests.length - before).toBe(3); // one call and two retries
  const logs = await logsFor('ai:content-refinement');
  // The adapter logs each failed attempt; the offline answer is logged once, at cost 0.
  expect(logs.map((l) => [l.provider, l.success])).toEqual([
    ['openai', false],
    ['openai', false],
    ['openai', false],
    ['local', true],
  ]);
  expect(logs.at(-1)!.llm_cost_usd).toBe(0);
});

it('an answer of the wrong shape (after the adapter’s one repair retry) also falls back offline', async () => {
  server.reply(completion({ nonsense: true }));
  const res = await post('template-refinement', { template: 'what is {name}.', templateType: 'prompt' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ source: 'offline', aiGenerated: false, refinedTemplate: 'What is {{name}}?' });
});
