// Voices, provider configuration per feature, the conversation tester and the debug routes against a real
// database, with the offline LLM (labelled local) as the provider.
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';

let t: TestContext;
let admin: Awaited<ReturnType<typeof sessionFor>>;
let support: Awaited<ReturnType<typeof sessionFor>>;
let user: Awaited<ReturnType<typeof sessionFor>>;
beforeAll(async () => {
  t = await buildTestApp();
  [admin, support, user] = [await sessionFor(t, 'admin'), await sessionFor(t, 'support'), await sessionFor(t, 'user')];
});
afterAll(async () => t.close());

const auditCount = async () => Number((await t.database.sql`select count(*)::int as n from admin_audit_log`)[0]!['n']);
const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = admin.headers) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

it('voices: create, duplicate 409, support reads but cannot change', async () => {
  const created = await inject('POST', '/api/admin/ai/voices', { voice_id: 'en-gb-1', provider: 'local', name: 'Margaret', accent: 'British' });
  expect(created.statusCode).toBe(201);
  expect(created.json().item).toMatchObject({ voice_id: 'en-gb-1', provider: 'local', name: 'Margaret', is_active: true });
  expect((await inject('POST', '/api/admin/ai/voices', { voice_id: 'en-gb-1', provider: 'local', name: 'Again' })).json()).toMatchObject({ code: 'CONFLICT', details: { field: 'voice_id' } });
  expect((await inject('POST', '/api/admin/ai/voices', { voice_id: 'x', provider: 'polly', name: 'X' })).statusCode).toBe(400);
  expect((await inject('GET', '/api/admin/ai/voices?search=marg', undefined, support.headers)).json().items).toHaveLength(1);
  expect((await inject('PUT', `/api/admin/ai/voices/${created.json().item.id}`, { is_active: false }, support.headers)).statusCode).toBe(403);
  expect((await inject('GET', '/api/admin/ai/voices', undefined, user.headers)).statusCode).toBe(403);
});

it('provider configs: the provider must fit the capability; debug-ai shows the provider in force per feature (an unconfigured provider falls back to the default)', async () => {
  const before = await auditCount();
  const bad = await inject('POST', '/api/admin/ai/provider-configs', { capability: 'tts', provider: 'openai' });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().details).toMatchObject({ field: 'provider', allowed: ['elevenlabs', 'local'] });
  expect((await inject('POST', '/api/admin/ai/provider-configs', { capability: 'llm', feature: 'story-conversion', provider: 'openai' }, support.headers)).statusCode).toBe(403);
  expect(await auditCount()).toBe(before);

  // OpenAI is not configured in tests: the row is kept but the feature stays on the default (local).
  const created = await inject('POST', '/api/admin/ai/provider-configs', { capability: 'llm', feature: 'story-conversion', provider: 'openai', model: 'gpt-4o' });
  expect(created.statusCode).toBe(201);
  expect(created.json().item).toMatchObject({ capability: 'llm', feature: 'story-conversion', provider: 'openai', model: 'gpt-4o', updated_by: admin.userId });
  const [row] = await t.database.sql`select action, data from admin_audit_log where target_id = ${created.json().item.id}`;
  expect(row).toMatchObject({ action: 'ai_provider_config.create', data: { before: null, after: { provider: 'openai' } } });
  const change = await inject('PUT', `/api/admin/ai/provider-configs/${created.json().item.id}`, { capability: 'tts' });
  expect(change.statusCode).toBe(400); // openai is no tts provider: the merged row is checked

  const debug = (await inject('GET', '/api/debug-ai', undefined, support.headers)).json();
  expect(debug.llm).toEqual({ provider: 'local', model: 'local' });
  expect(debug.feature_routing).toEqual([{ feature: 'story-conversion', provider: 'local', model: 'local' }]);
  expect(debug.provider_configs).toHaveLength(1);
  expect(debug.prompts.find((p: { key: string }) => p.key === 'conversation.interviewer')).toEqual({ key: 'conversation.interviewer', source: 'builtin', version: null, characters: null });
});

it('conversation tests: a run against a prompt version is checked turn by turn, stored, and shows up in results, analytics and debug data', async () => {
  const missing = await inject('POST', '/api/admin/test-conversations', { answers: ['I grew up by the sea.'] });
  expect(missing.statusCode).toBe(404);
  expect(missing.json().details.field).toBe('prompt_key');

  await inject('POST', '/api/admin/ai/prompts', { key: 'conversation.interviewer', name: 'Interviewer', content: 'Ask exactly one question.' });
  expect((await inject('POST', '/api/admin/test-conversations', { answers: ['x'] }, support.headers)).statusCode).toBe(403);
  const run = await inject('POST', '/api/admin/test-conversations', { name: 'smoke', answers: ['My father worked at the harbour in Whitby.', 'We had a small boat called Mary.'] });
  expect(run.statusCode).toBe(201);
  const test = run.json().test;
  expect(test).toMatchObject({ name: 'smoke', prompt_key: 'conversation.interviewer', prompt_version: 1, provider: 'local', turn_count: 2, checks_total: 8 });
  expect(['passed', 'failed']).toContain(test.status);
  expect(test.turns[0]).toMatchObject({ turn: 1, answer: 'My father worked at the harbour in Whitby.', model: 'local-interview-question' });
  expect(test.turns[0].question).toMatch(/\?$/);
  expect(test.turns[0].checks.map((c: { name: string }) => c.name)).toEqual(['one_question', 'short', 'not_repeated', 'builds_on_answer']);
  const [stored] = await t.database.sql`select status, checks_passed, checks_total, jsonb_array_length(turns) as turns from ai_conversation_tests where id = ${test.id}`;
  expect(stored).toEqual({ status: test.status, checks_passed: test.checks_passed, checks_total: 8, turns: 2 });
  const usage = await t.database.sql`select feature, provider from ai_usage_logs where feature = 'admin:conversation-test'`;
  expect(usage).toHaveLength(2);

  const listed = (await inject('GET', '/api/admin/test-conversations', undefined, support.headers)).json();
  expect(listed).toMatchObject({ success: true, total: 1 });
  expect(listed.tests[0].id).toBe(test.id);
  const results = (await inject('GET', `/api/admin/conversation-test-results?test_id=${test.id}`)).json();
  expect(results.results[0].turns).toHaveLength(2);
  expect((await inject('GET', '/api/admin/conversation-test-results?test_id=00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  const analytics = (await inject('GET', '/api/admin/test-analytics?days=7')).json();
  expect(analytics.totals).toMatchObject({ runs: 1 });
  expect(analytics.totals.check_pass_rate).toBeCloseTo(test.checks_passed / 8);
  expect(analytics.by_prompt_version[0]).toMatchObject({ prompt_key: 'conversation.interviewer', prompt_version: 1, provider: 'local', runs: 1 });
  const debugData = (await inject('GET', '/api/admin/debug-test-data')).json();
  expect(debugData.runs[0].id).toBe(test.id);
  expect(debugData.usage_logs).toHaveLength(2);
});

it('test-provider makes one real call (admin only); debug-usage sums ai_usage_logs', async () => {
  expect((await inject('GET', '/api/admin/test-provider', undefined, support.headers)).statusCode).toBe(403);
  const probe = (await inject('GET', '/api/admin/test-provider?feature=conversation:chat')).json();
  expect(probe).toMatchObject({ success: true, ok: true, feature: 'conversation:chat', provider: 'local', model: 'local-interview-question', error: null });
  expect(probe.sample).toMatch(/\?/);

  await t.database.sql`insert into ai_usage_logs (user_id, feature, provider, model, operation, input_tokens, output_tokens, llm_cost_usd, success)
    values (${user.userId}, 'story-conversion', 'openai', 'gpt-4o-mini', 'llm', 100, 50, 0.25, true),
           (${user.userId}, 'story-conversion', 'openai', 'gpt-4o-mini', 'llm', 10, 0, 0.5, false),
           (null, 'transcription', 'google', null, 'stt', null, null, 0, true)`;
  await t.database.sql`update ai_usage_logs set stt_cost_usd = 1.0 where feature = 'transcription'`;
  const usage = (await inject('GET', '/api/debug-usage?days=1', undefined, support.headers)).json();
  const conversion = usage.by_feature.find((f: { feature: string }) => f.feature === 'story-conversion');
  expect(conversion).toEqual({ feature: 'story-conversion', calls: 2, failures: 1, cost_usd: 0.75 });
  expect(usage.by_feature.find((f: { feature: string }) => f.feature === 'transcription').cost_usd).toBe(1);
  expect(usage.top_users[0]).toEqual({ user_id: user.userId, calls: 2, cost_usd: 0.75 });
  expect(usage.totals.input_tokens).toBeGreaterThanOrEqual(110);
  expect(usage.daily).toHaveLength(1);
  expect((await inject('GET', '/api/debug-usage?days=999')).statusCode).toBe(400);
  expect((await t.app.inject({ method: 'GET', url: '/api/debug-usage' })).statusCode).toBe(401);
  const debug = (await inject('GET', '/api/debug-ai')).json();
  expect(debug.recent_errors[0]).toMatchObject({ feature: 'story-conversion', provider: 'openai' });
});
