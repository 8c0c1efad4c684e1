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
  // The list's JSON is built by PostgreSQL: byte for byte the shape (and createdAt) the create answered.
  expect(list.json()[1]).toEqual(first.json());
  expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
  expect((await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: (await signUp(t.app)).headers })).json()).toEqual([]);

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

it('counts the recordings and conversations of each campaign in the list and in the completed create flow', async () => {
  const user = await signUp(t.app);
  await setTier(t.database.sql, user.userId, 'starter');
  const a = (await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload: { title: 'Alpha' } })).json();
  const b = (await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload: { title: 'Beta' } })).json();
  await t.database.sql`insert into recordings (user_id, campaign_id, title, storage_key) values (${user.userId}, ${a.id}, 'one', 'k1'), (${user.userId}, ${a.id}, 'two', 'k2'), (${user.userId}, ${b.id}, 'three', 'k3'), (${user.userId}, null, 'loose', 'k4')`;
  await t.database.sql`insert into conversations (user_id, campaign_id) values (${user.userId}, ${a.id}), (${user.userId}, ${a.id}), (${user.userId}, ${a.id}), (${user.userId}, ${b.id})`;

  const list = await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: user.headers });
  expect(list.statusCode).toBe(200);
  const counts = Object.fromEntries(list.json().map((c: { title: string; recordingCount: number; conversationCount: number }) => [c.title, [c.recordingCount, c.conversationCount]]));
  expect(counts).toEqual({ Alpha: [2, 3], Beta: [1, 1] });

  // The create flow's completion answers the campaign through the same counts (the service's get).
  const flow = '/api/campaigns/create-flow';
  const started = await t.app.inject({ method: 'POST', url: `${flow}/start`, headers: user.headers, payload: { title: 'Gamma' } });
  const id = started.json().flow.campaignId as string;
  await t.app.inject({ method: 'PUT', url: `${flow}/${id}/step/1`, headers: user.headers, payload: { storytellerName: 'Rose', relationship: 'grandparent' } });
  await t.database.sql`insert into recordings (user_id, campaign_id, storage_key) values (${user.userId}, ${id}, 'k5')`;
  await t.database.sql`insert into conversations (user_id, campaign_id) values (${user.userId}, ${id}), (${user.userId}, ${id})`;
  const done = await t.app.inject({ method: 'POST', url: `${flow}/${id}/complete`, headers: user.headers });
  expect(done.statusCode).toBe(200);
  expect(done.json().campaign).toMatchObject({ id, recordingCount: 1, conversationCount: 2 });
});

it('keeps the stored counts and list items true through moves, deletes, edits and a deleted campaign', async () => {
  const user = await signUp(t.app);
  await setTier(t.database.sql, user.userId, 'starter');
  const a = (await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload: { title: 'Alpha' } })).json();
  const b = (await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: user.headers, payload: { title: 'Beta' } })).json();
  const recs = await t.database.sql<{ id: string }[]>`
    insert into recordings (user_id, campaign_id, storage_key)
    select ${user.userId}, ${a.id}, 'k' || g from generate_series(1, 4) g returning id`;
  const convs = await t.database.sql<{ id: string }[]>`insert into conversations (user_id, campaign_id) values (${user.userId}, ${b.id}), (${user.userId}, ${b.id}) returning id`;
  // Counted the way the list used to count, straight from the tables.
  const truth = async () =>
    Object.fromEntries(
      (
        await t.database.sql<{ title: string; r: number; v: number }[]>`
          select c.title, (select count(*)::int from recordings r where r.campaign_id = c.id) as r,
                 (select count(*)::int from conversations v where v.campaign_id = c.id) as v
            from campaigns c where c.user_id = ${user.userId}`
      ).map((c) => [c.title, [c.r, c.v]]),
    );
  const listed = async () =>
    Object.fromEntries(
      (await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: user.headers }))
        .json()
        .map((c: { title: string; recordingCount: number; conversationCount: number }) => [c.title, [c.recordingCount, c.conversationCount]]),
    );

  // One recording moves, one conversation leaves its campaign, two recordings go in one statement.
  await t.database.sql`update recordings set campaign_id = ${b.id} where id = ${recs[0]!.id}`;
  await t.database.sql`update recordings set title = 'renamed' where id = ${recs[1]!.id}`;
  await t.database.sql`update conversations set campaign_id = null where id = ${convs[0]!.id}`;
  await t.database.sql`delete from recordings where id in ${t.database.sql([recs[2]!.id, recs[3]!.id])}`;
  expect(await listed()).toEqual({ Alpha: [1, 0], Beta: [1, 1] });
  expect(await listed()).toEqual(await truth());

  // A rolled-back insert leaves the count as it was.
  await t.database.sql
    .begin(async (tx) => {
      await tx`insert into recordings (user_id, campaign_id, storage_key) values (${user.userId}, ${a.id}, 'gone')`;
      throw new Error('roll back');
    })
    .catch(() => undefined);
  expect(await listed()).toEqual({ Alpha: [1, 0], Beta: [1, 1] });

  // An edited title shows in the list; a deleted campaign's rows lose it (ON DELETE SET NULL) without error.
  await t.database.sql`update campaigns set title = 'Alpha 2', description = 'new' where id = ${a.id}`;
  const items = (await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: user.headers })).json();
  expect(items.find((c: { id: string }) => c.id === a.id)).toMatchObject({ title: 'Alpha 2', description: 'new', recordingCount: 1, conversationCount: 0 });
  await t.database.sql`delete from campaigns where id = ${b.id}`;
  expect(await listed()).toEqual({ 'Alpha 2': [1, 0] });
  expect(await t.database.sql`select 1 from recordings where id = ${recs[0]!.id} and campaign_id is null`).toHaveLength(1);
});
