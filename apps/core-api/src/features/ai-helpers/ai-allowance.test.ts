// The tier's AI allowance: past it every helper answers 429 {success: false, error, limits, usage} with
// Retry-After and counts nothing; concurrent calls never pass it (atomic counter); a helper that fails
// gives its request back.
import { createMemoryUsageRecorder, createLocalLanguageModel } from '@story/providers';
import { setTier } from '../../test/family-factories';
import { newStory } from '../../test/stories-books-factories';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { TIER_AI_ALLOWANCES } from '../tiers/tier-allowances';
import { createAiHelpersRepository } from './ai-helpers.repository';
import { createAiHelpersService } from './ai-helpers.service';
import type { GrammarChecker } from './harper-checker';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const today = () => new Date().toISOString().slice(0, 10);
const thisMonth = () => `${today().slice(0, 8)}01`;

async function setCount(userId: string, period: 'day' | 'month', count: number) {
  const windowStart = period === 'day' ? today() : thisMonth();
  await t.database.sql`
    insert into ai_request_counters (user_id, period, window_start, count) values (${userId}, ${period}, ${windowStart}, ${count})
    on conflict (user_id, period, window_start) do update set count = ${count}`;
}
async function counts(userId: string) {
  const rows = await t.database.sql<{ period: string; count: number }[]>`select period, count from ai_request_counters where user_id = ${userId}`;
  return Object.fromEntries(rows.map((r) => [r.period, r.count]));
}
const logCount = async (userId: string) => (await t.database.sql<{ n: number }[]>`select count(*)::int as n from ai_usage_logs where user_id = ${userId}`)[0]!.n;

const refine = (who: SignedUp) => t.app.inject({ method: 'POST', url: '/api/ai/content-refinement', headers: who.headers, payload: { content: 'We did not go.', style: 'casual' } });

it('answers 429 with exactly {success: false, error, limits, usage} past the daily allowance, for every helper, changing nothing', async () => {
  const user = await signUp(t.app);
  const perDay = TIER_AI_ALLOWANCES.free.aiRequestsPerDay!;
  await setCount(user.userId, 'day', perDay - 1);
  expect((await refine(user)).statusCode).toBe(200); // the last one of the day
  expect(await counts(user.userId)).toMatchObject({ day: perDay });
  const logsBefore = await logCount(user.userId);

  const bodies: Record<string, unknown> = {
    grammar: { text: 'Hi there.' },
    'grammar-analysis': { text: 'Hi there.' },
    'content-analysis': { prompt: 'Hi there.' },
    'content-refinement': { content: 'Hi there.', style: 'formal' },
    'memory-prompts': {},
    'story-connections': {},
    'template-refinement': { template: 'Tell us about {{name}}.' },
    'photo-suggestions': { storyId: (await newStory(t.database.sql, user.userId)).id },
  };
  for (const [helper, payload] of Object.entries(bodies)) {
    const res = await t.app.inject({ method: 'POST', url: `/api/ai/${helper}`, headers: user.headers, payload: payload as object });
    expect(res.statusCode).toBe(429);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['error', 'limits', 'success', 'usage']);
    expect(body).toEqual({
      success: false,
      error: expect.stringMatching(/free plan allows 20 AI requests per day/),
      limits: { tier: 'free', aiRequestsPerDay: perDay, aiRequestsPerMonth: TIER_AI_ALLOWANCES.free.aiRequestsPerMonth },
      usage: { aiRequestsToday: perDay, aiRequestsThisMonth: 1, exceeded: 'aiRequestsPerDay', resetsAt: expect.any(String) },
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(86_400);
  }
  expect(await counts(user.userId)).toMatchObject({ day: perDay, month: 1 });
  expect(await logCount(user.userId)).toBe(logsBefore);
});

it('a higher tier has a higher allowance (the tier table decides)', async () => {
  const user = await signUp(t.app);
  await setTier(t.database.sql, user.userId, 'starter');
  await setCount(user.userId, 'day', TIER_AI_ALLOWANCES.free.aiRequestsPerDay!);
  expect((await refine(user)).statusCode).toBe(200);
  await setCount(user.userId, 'day', TIER_AI_ALLOWANCES.starter.aiRequestsPerDay!);
  const res = await refine(user);
  expect(res.statusCode).toBe(429);
  expect(res.json().limits).toMatchObject({ tier: 'starter', aiRequestsPerDay: TIER_AI_ALLOWANCES.starter.aiRequestsPerDay });
});

it('the monthly allowance refuses too, and the refused request leaves the day count as it was', async () => {
  const user = await signUp(t.app);
  await setCount(user.userId, 'month', TIER_AI_ALLOWANCES.free.aiRequestsPerMonth!);
  const res = await refine(user);
  expect(res.statusCode).toBe(429);
  expect(res.json().usage).toMatchObject({ aiRequestsToday: 0, aiRequestsThisMonth: TIER_AI_ALLOWANCES.free.aiRequestsPerMonth, exceeded: 'aiRequestsPerMonth' });
  expect((await counts(user.userId))['day'] ?? 0).toBe(0);
});

it('concurrent calls never pass the allowance: with 3 left, 8 at once give exactly 3 answers', async () => {
  const user = await signUp(t.app);
  const perDay = TIER_AI_ALLOWANCES.free.aiRequestsPerDay!;
  await setCount(user.userId, 'day', perDay - 3);
  const results = await Promise.all(Array.from({ length: 8 }, () => refine(user)));
  const statuses = results.map((r) => r.statusCode).sort();
  expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
  expect(await counts(user.userId)).toMatchObject({ day: perDay, month: 3 });
  expect(await logCount(user.userId)).toBe(3);
});

it('a helper that fails after taking its place gives the request back', async () => {
  const user = await signUp(t.app);
  const broken: GrammarChecker = {
    name: 'broken',
    check: async () => {
      throw new Error('checker crashed');
    },
    close: async () => undefined,
  };
  const usage = createMemoryUsageRecorder();
  const ai = createAiHelpersService({ sql: t.database.sql, repo: createAiHelpersRepository(t.database.sql), llm: createLocalLanguageModel({ usage }), usage, checker: broken });
  await expect(ai.grammar(user.userId, { text: 'Hello.' })).rejects.toThrow('checker crashed');
  expect(await counts(user.userId)).toMatchObject({ day: 0, month: 0 });
  expect(usage.entries).toHaveLength(0);
});
