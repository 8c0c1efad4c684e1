// Personal JSON answers are kept by no cache (RFC 9111 §5.2.2.5): every route of the OpenAPI document, called
// with a Bearer token, answers JSON (successes and refusals alike) with Cache-Control: no-store, whatever the
// route set itself; the sign-in routes, which hand out tokens, do so without one too (RFC 6749 §5.1).
// The rule lives in libs/http security.ts, shared by the three services.
import { cacheControlProblems, routeProbes } from '@story/testing';
import { buildTestApp, signUp, type TestContext } from '../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('sends Cache-Control: no-store with every JSON answer to a signed-in caller, on every route', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const probes = routeProbes(doc).filter((p) => p.path !== '/docs');
  expect(probes.length).toBeGreaterThan(150);
  const user = await signUp(t.app);
  const problems: string[] = [];
  let json = 0;
  for (const probe of probes) {
    const res = await t.app.inject({ method: probe.method as 'GET', url: probe.url, headers: user.headers });
    if (/json/.test(String(res.headers['content-type']))) json++;
    for (const p of cacheControlProblems(res)) problems.push(`${probe.method} ${probe.url} ${res.statusCode}: ${p}`);
  }
  expect(problems).toEqual([]);
  expect(json).toBeGreaterThan(150);
  // Named cases: a list of one's own data, a fixed list that used to be cacheable, a refusal.
  for (const url of ['/api/campaigns', '/api/reference-data/emotions', '/api/stories/00000000-0000-4000-8000-000000000000']) {
    expect((await t.app.inject({ method: 'GET', url, headers: user.headers })).headers['cache-control']).toBe('no-store');
  }
});

it('sends it with the sign-in answers that carry tokens, and not on public documents', async () => {
  const email = `cache.${Date.now()}@example.test`;
  const signup = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: 'correct horse 9 battery' } });
  expect(signup.statusCode).toBe(201);
  expect(signup.headers['cache-control']).toBe('no-store');
  const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: 'correct horse 9 battery' } });
  expect(signin.headers['cache-control']).toBe('no-store');
  expect((await t.app.inject({ method: 'GET', url: '/openapi.json' })).headers['cache-control']).toBeUndefined();
});
