// `npm run test:fuzz` (issue 17 point 1): every core-api route of the OpenAPI document, fuzzed as an owner,
// a stranger, an admin and anonymously, against ids that exist; see libs/testing/src/fuzz.
import { describeFuzz, fuzzBudget, fuzzService } from '@story/testing';
import { buildTestApp, signUp, type TestContext } from '../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100000' });
}, 120_000);
afterAll(async () => t.close(), 120_000);

it('answers every hostile request below 500, in its error shape, without SQL or stack traces, and writes nothing when it refuses', async () => {
  const owner = await signUp(t.app);
  const stranger = await signUp(t.app);
  const post = async (url: string, payload: unknown) => (await t.app.inject({ method: 'POST', url, headers: owner.headers, payload: payload as object })).json();
  const campaign = await post('/api/campaigns', { title: 'Fuzzed campaign' });
  const story = await post('/api/stories', { title: 'Fuzzed story', campaignId: campaign.id, type: 'story', content: '<p>Once upon a time.</p>' });
  const group = await post('/api/family/groups', { name: 'Fuzzed family', settings: {} });
  const ids = [owner.userId, stranger.userId, campaign.id, story.id ?? story.story?.id, group.data?.id ?? group.id].filter((v): v is string => typeof v === 'string');

  const doc = (await t.app.inject({ url: '/openapi.json' })).json();
  const budget = fuzzBudget();
  const result = await fuzzService({
    app: t.app,
    sql: t.database.sql,
    doc,
    shape: 'core',
    actors: { owner: owner.headers, stranger: stranger.headers, anonymous: {}, 'bad token': { authorization: 'Bearer not.a.token' } },
    ids,
    ...budget,
    writesAllowedOnRefusal: {
      auth_lockouts: 'a refused sign-in is counted towards the lockout (spec 000 Authentication 3)',
    },
  });
  process.stdout.write(`${describeFuzz('core-api', budget.seed, result)}\n`);
  expect(result.tried).toBeGreaterThan(0);
  expect(result.failures.map((f) => `${f.operation}: ${f.problem}`)).toEqual([]);
}, 3_600_000);
