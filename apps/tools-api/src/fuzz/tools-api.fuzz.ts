// `npm run test:fuzz` (CONTRACTS §3: bad input gets a 4xx, never a 500): every tools-api route of the OpenAPI
// document, fuzzed as an anonymous session, another session, a signed-in user, an admin and with bad
// credentials; see libs/testing/src/fuzz.
import { describeFuzz, fuzzBudget, fuzzService } from '@story/testing';
import { buildTestApp, generate, newSessionId, SAMPLE_OPTIONS, sessionFor, type TestContext } from '../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100000' });
}, 120_000);
afterAll(async () => t.close(), 120_000);

it('answers every hostile request below 500, in its error shape, without SQL or stack traces, and writes nothing when it refuses', async () => {
  const admin = await sessionFor(t, 'admin');
  const user = await sessionFor(t, 'user');
  const [tool, options] = Object.entries(SAMPLE_OPTIONS)[0]!;
  const { sessionId: session, data: item } = await generate(t, tool, options);
  const ids = [admin.userId, user.userId, item.id, item.shareCode];

  const doc = (await t.app.inject({ url: '/openapi.json' })).json();
  const budget = fuzzBudget();
  const result = await fuzzService({
    app: t.app,
    sql: t.database.sql,
    doc,
    shape: 'tools',
    actors: {
      'anonymous session': { 'x-session-id': session },
      'other session': { 'x-session-id': newSessionId() },
      user: user.headers,
      admin: admin.headers,
      'bad session': { 'x-session-id': '../../etc' },
      'bad token': { authorization: 'Bearer not.a.token' },
    },
    ids,
    ...budget,
    writesAllowedOnRefusal: {
      tools_sessions: 'every request carrying X-Session-ID starts or touches its session (spec 002 session lifetime); the row holds nothing of the refused request',
    },
  });
  process.stdout.write(`${describeFuzz('tools-api', budget.seed, result)}\n`);
  expect(result.tried).toBeGreaterThan(0);
  expect(result.failures.map((f) => `${f.operation}: ${f.problem}`)).toEqual([]);
}, 3_600_000);
