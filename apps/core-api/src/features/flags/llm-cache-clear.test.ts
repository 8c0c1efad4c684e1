// POST /api/clear-cache (email-service) reaches core-api's LLM too: its prompt and provider-choice caches
// answer to the `ai` scope of the cache bus, through PostgreSQL NOTIFY from any process.
import { CACHE_CHANNEL } from '@story/flags';
import { buildTestApp, type TestContext } from '../../test/helper';

const cleared = jest.fn();
let t: TestContext;
beforeAll(async () => {
  // The configured (managed) LLM, with its clearCache observed.
  t = await buildTestApp({}, { providers: (base) => ({ llm: Object.assign(Object.create(base.llm) as typeof base.llm, { clearCache: cleared }) }) });
});
afterAll(async () => t.close());

async function within(ms: number, done: () => boolean): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (done()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return done();
}

it('clears the LLM caches within a second when any process publishes the ai scope or all caches, and not for other scopes', async () => {
  await t.database.sql`select pg_notify(${CACHE_CHANNEL}, 'flags')`;
  await new Promise((r) => setTimeout(r, 200));
  expect(cleared).not.toHaveBeenCalled();
  await t.database.sql`select pg_notify(${CACHE_CHANNEL}, 'ai')`;
  expect(await within(1000, () => cleared.mock.calls.length === 1)).toBe(true);
  await t.database.sql`select pg_notify(${CACHE_CHANNEL}, 'all')`;
  expect(await within(1000, () => cleared.mock.calls.length === 2)).toBe(true);
});
