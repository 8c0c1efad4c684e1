// `npm run test:fuzz` (CONTRACTS §3: bad input gets a 4xx, never a 500): every email-service route of the
// OpenAPI document, fuzzed as an admin, a plain user, anonymously and with a bad token; see
// libs/testing/src/fuzz.
import { describeFuzz, fuzzBudget, fuzzService } from '@story/testing';
import { buildTestApp, sessionFor, type TestContext } from '../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100000' });
}, 120_000);
afterAll(async () => t.close(), 120_000);

it('answers every hostile request below 500, in its error shape, without SQL or stack traces, and writes nothing when it refuses', async () => {
  const admin = await sessionFor(t, 'admin');
  const user = await sessionFor(t, 'user');
  const [template] = await t.database.sql<{ id: string }[]>`select id from email_templates limit 1`;
  const ids = [admin.userId, user.userId, ...(template ? [template.id] : [])];

  const doc = (await t.app.inject({ url: '/openapi.json' })).json();
  const budget = fuzzBudget();
  const result = await fuzzService({
    app: t.app,
    sql: t.database.sql,
    doc,
    shape: 'email',
    actors: { admin: admin.headers, user: user.headers, anonymous: {}, 'bad token': { authorization: 'Bearer not.a.token' } },
    ids,
    ...budget,
    errorShapeExempt: {
      'GET /api/cron/process-emails': "spec 001: a CRON_SECRET mismatch gives 401 {error: 'Unauthorized'}",
      'POST /api/cron/process-emails': "spec 001: a CRON_SECRET mismatch gives 401 {error: 'Unauthorized'}",
    },
  });
  process.stdout.write(`${describeFuzz('email-service', budget.seed, result)}\n`);
  expect(result.tried).toBeGreaterThan(0);
  expect(result.failures.map((f) => `${f.operation}: ${f.problem}`)).toEqual([]);
}, 3_600_000);
