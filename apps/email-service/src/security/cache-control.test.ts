// Personal JSON answers are kept by no cache (RFC 9111 §5.2.2.5): every route of email-service's document,
// called as a user and as an admin, answers JSON with Cache-Control: no-store (libs/http security.ts).
import { cacheControlProblems, routeProbes } from '@story/testing';
import { buildTestApp, sessionFor, type TestContext } from '../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('sends Cache-Control: no-store with every JSON answer to a signed-in caller, on every route', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const probes = routeProbes(doc).filter((p) => p.path !== '/docs' && p.path !== '/api/apply-migration');
  expect(probes.length).toBeGreaterThan(60);
  const problems: string[] = [];
  let json = 0;
  for (const who of [await sessionFor(t), await sessionFor(t, 'admin')]) {
    for (const probe of probes) {
      const res = await t.app.inject({ method: probe.method as 'GET', url: probe.url, headers: who.headers });
      if (/json/.test(String(res.headers['content-type']))) json++;
      for (const p of cacheControlProblems(res)) problems.push(`${probe.method} ${probe.url} ${res.statusCode}: ${p}`);
    }
  }
  expect(problems).toEqual([]);
  expect(json).toBeGreaterThan(100);
  const admin = await sessionFor(t, 'admin');
  expect((await t.app.inject({ method: 'GET', url: '/api/admin/stats/users', headers: admin.headers })).headers['cache-control']).toBe('no-store');
});
