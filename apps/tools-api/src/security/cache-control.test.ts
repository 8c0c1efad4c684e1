// Personal JSON answers are kept by no cache (RFC 9111 §5.2.2.5): every route of tools-api's document, called
// with a Bearer token or only a tools session (X-Session-ID unlocks the session's own private items), answers
// JSON with Cache-Control: no-store (libs/http security.ts). Public pages keep their own caching.
import { cacheControlProblems, routeProbes } from '@story/testing';
import { buildTestApp, generate, newSessionId, sessionFor, type TestContext } from '../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('sends Cache-Control: no-store with every JSON answer to a signed-in caller or a session, on every route', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const probes = routeProbes(doc, { tool: 'plot-twists' }).filter((p) => p.path !== '/docs');
  expect(probes.length).toBeGreaterThan(40);
  const user = await sessionFor(t);
  const problems: string[] = [];
  let json = 0;
  for (const headers of [{ ...user.headers, 'x-session-id': newSessionId() }, { 'x-session-id': newSessionId() }]) {
    for (const probe of probes) {
      const res = await t.app.inject({ method: probe.method as 'GET', url: probe.url, headers });
      if (/json/.test(String(res.headers['content-type']))) json++;
      for (const p of cacheControlProblems(res)) problems.push(`${probe.method} ${probe.url} ${res.statusCode}: ${p}`);
    }
  }
  expect(problems).toEqual([]);
  expect(json).toBeGreaterThan(60);
});

it('marks a session’s own item and ?sessionId reads no-store; an anonymous public page keeps its cache policy', async () => {
  const sessionId = newSessionId();
  const { data } = await generate(t, 'plot-twists', { genre: 'noir' }, { sessionId });
  expect((await t.app.inject({ method: 'GET', url: `/api/plot-twists/${data.id}`, headers: { 'x-session-id': sessionId } })).headers['cache-control']).toBe('no-store');
  expect((await t.app.inject({ method: 'GET', url: `/api/plot-twists?sessionId=${sessionId}` })).headers['cache-control']).toBe('no-store');
  expect((await t.app.inject({ method: 'GET', url: `/plot-twists/${data.shareCode}/` })).headers['cache-control']).toBe('public, max-age=60');
});
