// `npm run test:fuzz` (CONTRACTS §3: bad input gets a 4xx, never a 500): every core-api route of the OpenAPI
// document, fuzzed as an owner, a stranger, an admin and anonymously, against ids that exist; see
// libs/testing/src/fuzz.
import { describeFuzz, fuzzBudget, fuzzService } from '@story/testing';
import { buildTestApp, signUp, PASSWORD, type SignedUp, type TestContext } from '../test/helper';

let t: TestContext;

/** A fresh session for an account whose session a fuzzed request ended; null when the account is gone. */
async function signIn(app: TestContext['app'], who: SignedUp): Promise<SignedUp | null> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: who.email, password: PASSWORD } });
  if (res.statusCode !== 200) return null;
  const token = res.json().session.access_token as string;
  return { ...who, accessToken: token, headers: { authorization: `Bearer ${token}` } };
}
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100000' });
}, 120_000);
afterAll(async () => t.close(), 120_000);

it('answers every hostile request below 500, in its error shape, without SQL or stack traces, and writes nothing when it refuses', async () => {
  let owner = await signUp(t.app);
  let stranger = await signUp(t.app);
  // Fuzzed sign-outs end these sessions, and DELETE /api/user/account ends the account itself: sign in again,
  // or sign a new account up, so later routes are still reached as a signed-in caller.
  const live = async (who: typeof owner) =>
    (await t.app.inject({ url: '/api/campaigns', headers: who.headers })).statusCode === 401 ? ((await signIn(t.app, who)) ?? (await signUp(t.app))) : who;
  const actors = async () => {
    [owner, stranger] = [await live(owner), await live(stranger)];
    return { owner: owner.headers, stranger: stranger.headers, anonymous: {}, 'bad token': { authorization: 'Bearer not.a.token' } };
  };
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
    actors,
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
