import { buildTestApp, signUp, type TestContext } from '../../test/helper';
import { setTier } from '../../test/family-factories';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('creates campaigns and lists only the caller\'s, newest first, in the API shape', async () => {
  const alice = await signUp(t.app);
  const bob = await signUp(t.app);
  await setTier(t.database.sql, alice.userId, 'starter');
  const first = await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: alice.headers, payload: { title: "Grandma Rose's stories", description: 'Summers in Maine' } });
  expect(first.statusCode).toBe(201);
  expect(first.json()).toEqual({
    id: expect.any(String),
    title: "Grandma Rose's stories",
    description: 'Summers in Maine',
    recordingCount: 0,
    conversationCount: 0,
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
  });
  await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: alice.headers, payload: { title: 'Grandpa Joe' } });
  await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: bob.headers, payload: { title: "Bob's" } });

  const list = await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: alice.headers });
  expect(list.statusCode).toBe(200);
  expect(list.json().map((c: { title: string }) => c.title)).toEqual(['Grandpa Joe', "Grandma Rose's stories"]);

  const [row] = await t.database.sql`select user_id, storyteller_name, relationship, status from campaigns where id = ${first.json().id}`;
  expect(row).toEqual({ user_id: alice.userId, storyteller_name: "Grandma Rose's stories", relationship: 'other', status: 'active' });
});

it('refuses a missing or too long title with 400 naming title, writing nothing', async () => {
  const user = await signUp(t.app);
  for (const payload of [{}, { title: '' }, { title: 'x'.repeat(201) }]) {
    const res = await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('title');
  }
  expect(await t.database.sql`select 1 from campaigns where user_id = ${user.userId}`).toHaveLength(0);
});

it('requires a token', async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/campaigns', payload: { title: 'x' } });
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ error: 'Unauthorized' });
});

it('enforces the campaigns allowance of the tier with a 403 naming the limit and the tier that lifts it', async () => {
  const user = await signUp(t.app);
  const first = await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload: { title: 'One' } });
  expect(first.statusCode).toBe(201);
  const second = await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload: { title: 'Two' } });
  expect(second.statusCode).toBe(403);
  expect(second.json()).toMatchObject({
    error: 'Your free plan allows 1 campaigns. The starter plan allows 3 campaigns.',
    details: 'tier limit reached: campaigns (1 of 1 used)',
    limit: 'campaigns',
    tier: 'free',
    upgradeTier: 'starter',
  });
  await setTier(t.database.sql, user.userId, 'starter');
  expect((await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload: { title: 'Two' } })).statusCode).toBe(201);
  await setTier(t.database.sql, user.userId, 'family');
  for (let i = 0; i < 4; i++) expect((await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload: { title: `More ${i}` } })).statusCode).toBe(201);
  const [n] = await t.database.sql`select count(*)::int as n from campaigns where user_id = ${user.userId}`;
  expect(n!['n']).toBe(6);
});

it('counts under a row lock: concurrent creates on the last free slot let exactly one through', async () => {
  const user = await signUp(t.app);
  const results = await Promise.all(
    Array.from({ length: 6 }, (_, i) => t.app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload: { title: `Race ${i}` } })),
  );
  expect(results.map((r) => r.statusCode).sort()).toEqual([201, 403, 403, 403, 403, 403]);
  const [n] = await t.database.sql`select count(*)::int as n from campaigns where user_id = ${user.userId}`;
  expect(n!['n']).toBe(1);
});
