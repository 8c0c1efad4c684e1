import { loadPlatformConfig } from '@story/config';
import { createTestDatabase, testEnv, type TestDatabase } from '@story/testing';
import { createProviders, describeProviders } from './providers';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

const build = (env: Record<string, string>) => createProviders(loadPlatformConfig(testEnv(env)), { db: t.db, publicBaseUrl: 'http://127.0.0.1:3000' });

it('serves every capability offline with no configuration', () => {
  expect(describeProviders(build({}))).toEqual({ storage: 'local', speechToText: ['local'], textToSpeech: ['local'], llm: 'local', email: 'outbox', billing: 'offline' });
});

it('chooses the real adapters from configuration', async () => {
  const providers = build({
    S3_BUCKET: 'media',
    S3_ENDPOINT: 'http://127.0.0.1:9',
    S3_ACCESS_KEY_ID: 'k',
    S3_SECRET_ACCESS_KEY: 's',
    SMTP_URL: 'smtp://127.0.0.1:9',
    STT_PRIMARY: 'google',
    GOOGLE_SPEECH_API_KEY: 'key',
    STT_FALLBACK: 'deepgram',
    DEEPGRAM_API_KEY: 'dg',
    ELEVENLABS_API_KEY: 'el',
    LLM_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: 'an',
    ANTHROPIC_MODEL: 'claude-test',
  });
  expect(describeProviders(providers)).toEqual({
    storage: 's3',
    speechToText: ['google', 'deepgram'],
    textToSpeech: ['elevenlabs', 'local'],
    llm: 'anthropic:claude-test',
    email: 'smtp',
    billing: 'offline',
  });
  await providers.email.close();
});

it('records usage of the offline LLM in ai_usage_logs', async () => {
  const providers = build({});
  const result = await providers.llm.complete(
    { task: 'clean-transcript', input: { transcript: 'um so we moved to Boston in 1962 and uh my father worked at the docks' }, messages: [{ role: 'user', content: 'clean' }] },
    { feature: 'test', userId: null },
  );
  expect(result.model).toMatch(/^local-/);
  expect(result.text).toContain('Boston');
  expect(result.text).toContain('1962');
  const [row] = await t.sql`select provider, model, operation, llm_cost_usd from ai_usage_logs where feature = 'test'`;
  expect(row).toEqual({ provider: 'local', model: 'local-clean-transcript', operation: 'llm', llm_cost_usd: '0.000000' });
});
