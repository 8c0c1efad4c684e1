// The admin's run-time LLM settings against a real database and a fake OpenAI-compatible server: the
// active prompt template replaces the built-in system prompt (cached for the TTL, built-in when no row),
// and the provider configured for a feature serves that feature's calls.
import { createTestDatabase, type TestDatabase } from '@story/testing';
import { createMemoryUsageRecorder } from '../../shared/usage';
import { createLanguageModel } from '../index';
import { startFakeServer, type FakeServer } from '@story/testing';
import { createFeatureRouter } from './feature-router';
import { createManagedLanguageModel, type ManagedLanguageModel } from './managed-language-model';
import { createPromptStore } from './prompt-store';

const completion = (content: string) => ({
  status: 200,
  body: { id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-test', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
});

let db: TestDatabase;
let server: FakeServer;
let clock = 0;
let llm: ManagedLanguageModel;
const built: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startFakeServer();
  server.reply(completion('What was the house like?'));
  const usage = createMemoryUsageRecorder();
  const base = createLanguageModel({ provider: 'openai', apiKey: 'sk-test', baseUrl: `${server.url}/v1`, model: 'gpt-test' }, { usage, timeoutMs: 2000 });
  llm = createManagedLanguageModel({
    base,
    prompts: createPromptStore(db.db, { ttlMs: 1000, now: () => clock }),
    router: createFeatureRouter(db.db, { ttlMs: 1000, now: () => clock }),
    build: (provider, model) => {
      built.push(`${provider}:${model}`);
      return provider === 'local' ? createLanguageModel({ provider: 'local' }, { usage }) : null;
    },
  });
});
afterAll(async () => {
  await server.close();
  await db.drop();
});

const ask = (feature = 'conversation:chat') =>
  llm.complete({ task: 'interview-question', input: { lastAnswer: 'We lived by the sea.' }, system: 'BUILT-IN interviewer', promptKey: 'conversation.interviewer', messages: [{ role: 'user', content: 'We lived by the sea.' }] }, { feature });
const lastSystem = () => {
  const messages = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
  return messages.find((m) => m.role === 'system')?.content;
};

it('uses the built-in prompt while no template row exists', async () => {
  await ask();
  expect(lastSystem()).toBe('BUILT-IN interviewer');
});

it('reads the active version by key, keeps it for the TTL, and follows a rollback after it', async () => {
  const [tpl] = await db.sql`insert into ai_prompt_templates (key, name, current_version) values ('conversation.interviewer', 'Interviewer', 1) returning id`;
  await db.sql`insert into ai_prompt_template_versions (template_id, version, content) values (${tpl!['id']}, 1, 'Version one'), (${tpl!['id']}, 2, 'Version two')`;
  clock += 1001; // the cached "no row" answer expires
  await ask();
  expect(lastSystem()).toBe('Version one');

  await db.sql`update ai_prompt_templates set current_version = 2 where id = ${tpl!['id']}`;
  await ask();
  expect(lastSystem()).toBe('Version one'); // still cached
  clock += 1001;
  await ask();
  expect(lastSystem()).toBe('Version two');

  await db.sql`update ai_prompt_templates set is_active = false where id = ${tpl!['id']}`;
  llm.clearCache();
  await ask();
  expect(lastSystem()).toBe('BUILT-IN interviewer');
});

it('sends a feature to the provider configured for it; others and unservable choices stay on the default', async () => {
  await db.sql`insert into ai_provider_configs (capability, feature, provider, model) values ('llm', 'story-conversion', 'local', null), ('llm', 'conversation:summarize', 'anthropic', 'claude-x')`;
  llm.clearCache();
  const before = server.requests.length;
  const routed = await ask('story-conversion');
  expect(routed.provider).toBe('local');
  expect(server.requests.length).toBe(before);

  const unservable = await ask('conversation:summarize');
  expect(unservable.provider).toBe('openai');
  expect(built).toEqual(['local:null', 'anthropic:claude-x']);

  expect((await ask('conversation:chat')).provider).toBe('openai');

  // A capability-wide row (feature null) applies to every feature without its own row.
  await db.sql`insert into ai_provider_configs (capability, feature, provider) values ('llm', null, 'local')`;
  llm.clearCache();
  expect((await ask('conversation:chat')).provider).toBe('local');
  expect((await llm.modelFor('conversation:summarize')).provider).toBe('openai');
  expect(await llm.providerFor('story-conversion')).toBe('local');
  expect(await llm.providerFor('conversation:summarize')).toBe('openai');
});
