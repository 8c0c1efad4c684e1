import { createTestDatabase, type TestDatabase } from '@story/testing';
import { createDbUsageRecorder } from './usage';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.drop());

it('writes one ai_usage_logs row per call with the cost in the column of its operation', async () => {
  const [account] = await t.sql`insert into accounts (email) values ('usage@example.test') returning id`;
  const recorder = createDbUsageRecorder(t.db);
  await recorder.record({ userId: account!['id'], feature: 'transcription', provider: 'deepgram', model: 'nova-2', operation: 'stt', audioSeconds: 90, costUsd: 0.00645, latencyMs: 812.4, success: true });
  await recorder.record({ userId: account!['id'], feature: 'story-conversion', provider: 'openai', model: 'gpt-4o-mini', operation: 'llm', inputTokens: 1200, outputTokens: 300, costUsd: 0.00036, latencyMs: 1500, success: true });
  await recorder.record({ feature: 'tts', provider: 'elevenlabs', operation: 'tts', characters: 1000, costUsd: 0.3, latencyMs: 300, success: false, errorCode: 'quota' });
  const rows = await t.sql`select feature, provider, operation, stt_cost_usd, llm_cost_usd, tts_cost_usd, audio_seconds, input_tokens, characters, latency_ms, success, error_code, user_id is null as anonymous from ai_usage_logs order by created_at, feature`;
  expect(rows).toEqual([
    expect.objectContaining({ feature: 'transcription', operation: 'stt', stt_cost_usd: '0.006450', llm_cost_usd: '0.000000', audio_seconds: '90.00', latency_ms: 812, anonymous: false }),
    expect.objectContaining({ feature: 'story-conversion', operation: 'llm', llm_cost_usd: '0.000360', input_tokens: 1200 }),
    expect.objectContaining({ feature: 'tts', operation: 'tts', tts_cost_usd: '0.300000', characters: 1000, success: false, error_code: 'quota', anonymous: true }),
  ]);
});

it('never throws into the caller when the insert fails', async () => {
  const errors: unknown[] = [];
  const recorder = createDbUsageRecorder(t.db, (err) => errors.push(err));
  await expect(recorder.record({ feature: 'x', provider: 'p', operation: 'llm', costUsd: -1, latencyMs: 1, success: true })).resolves.toBeUndefined();
  expect(errors).toHaveLength(1);
});
