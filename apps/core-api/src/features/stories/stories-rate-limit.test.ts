import { buildTestApp, signUp, type TestContext } from '../../test/helper';

let t: TestContext;
beforeAll(async () => {
  // Real limits: spec 000 story creation 10 per minute.
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1' });
});
afterAll(async () => t.close());

it('allows 10 story creations a minute per caller and answers the 11th with 429, writing nothing', async () => {
  const user = await signUp(t.app);
  for (let i = 1; i <= 10; i++) {
    const res = await t.app.inject({ method: 'POST', url: '/api/stories', headers: user.headers, payload: { title: `Story ${i}` } });
    expect(res.statusCode).toBe(201);
  }
  const eleventh = await t.app.inject({ method: 'POST', url: '/api/stories', headers: user.headers, payload: { title: 'Story 11' } });
  expect(eleventh.statusCode).toBe(429);
  expect(eleventh.headers['retry-after']).toBeDefined();
  expect(await t.database.sql`select 1 from stories where user_id = ${user.userId}`).toHaveLength(10);
  // Another caller has a budget of their own, and reads are not counted against creation.
  const other = await signUp(t.app);
  expect((await t.app.inject({ method: 'POST', url: '/api/stories', headers: other.headers, payload: { title: 'Mine' } })).statusCode).toBe(201);
  expect((await t.app.inject({ method: 'GET', url: '/api/stories', headers: user.headers })).statusCode).toBe(200);
});
