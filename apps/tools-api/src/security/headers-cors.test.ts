// The security headers (spec 000 Authentication 8, shared by the three services) on every
// route of tools-api's OpenAPI document, and its CORS: public GET routes readable from any site but never
// with credentials; writes, admin and auth routes only from the configured application origins, with
// credentials. Pages framed on purpose (embed variants, the flipbook PDF) relax framing only there.
import { corsProblems, routeProbes, securityHeaderProblems } from '@story/testing';
import { buildTestApp, generate, newSessionId, sessionFor, type TestContext } from '../test/helper';

const OWN = ['https://app.example.test', 'https://tools.example.test'];
const FOREIGN = 'https://blog.example';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ CORS_ORIGINS: OWN.join(',') });
});
afterAll(async () => t.close());

it('sends the security headers on every route of the document, anonymous, signed in and admin, whatever the status', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const probes = routeProbes(doc, { tool: 'plot-twists' }).filter((p) => p.path !== '/docs');
  expect(probes.length).toBeGreaterThan(40);
  const user = await sessionFor(t);
  const admin = await sessionFor(t, 'admin');
  const problems: string[] = [];
  const statuses = new Set<number>();
  for (const probe of probes) {
    for (const headers of [{}, user.headers, admin.headers]) {
      const res = await t.app.inject({ method: probe.method as 'GET', url: probe.url, headers: { ...headers, 'x-session-id': newSessionId(), origin: FOREIGN } });
      statuses.add(res.statusCode);
      for (const p of securityHeaderProblems(res, { framable: probe.path.startsWith('/embed/') || probe.path.endsWith('/pdf') })) problems.push(`${probe.method} ${probe.url} ${res.statusCode}: ${p}`);
      for (const p of corsProblems(res, FOREIGN, { origins: OWN, publicWildcard: probe.method === 'GET' })) problems.push(`${probe.method} ${probe.url}: ${p}`);
    }
  }
  expect(problems).toEqual([]);
  for (const s of [200, 400, 401, 403, 404]) expect(statuses).toContain(s);
});

it('keeps the headers on public pages, and relaxes framing only on embeds', async () => {
  const { data } = await generate(t, 'plot-twists', { genre: 'mystery' });
  await t.database.sql`update tools_plot_twists set is_public = true where id = ${data.id}`;
  const page = await t.app.inject({ method: 'GET', url: `/plot-twists/${data.shareCode}/` });
  expect(page.statusCode).toBe(200);
  expect(securityHeaderProblems(page)).toEqual([]);
  const embed = await t.app.inject({ method: 'GET', url: `/embed/plot-twists/${data.shareCode}/` });
  expect(embed.statusCode).toBe(200);
  expect(securityHeaderProblems(embed, { framable: true })).toEqual([]);
  expect(embed.headers['x-frame-options']).toBeUndefined();
});

describe('CORS', () => {
  it('lets any site read public GET routes, never with credentials', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/plot-twists', headers: { origin: FOREIGN } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/api/plot-twists', headers: { origin: FOREIGN, 'access-control-request-method': 'GET' } });
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it.each([
    ['POST', '/api/plot-twists/generate'],
    ['PATCH', '/api/plot-twists/responses/00000000-0000-4000-8000-000000000000'],
    ['DELETE', '/api/plot-twists/responses/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/admin/plot-twists/browse'],
    ['GET', '/api/auth/session'],
  ])('keeps %s %s to the application origins', async (method, url) => {
    const foreign = await t.app.inject({ method: 'OPTIONS', url, headers: { origin: FOREIGN, 'access-control-request-method': method } });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    for (const origin of OWN) {
      const own = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'x-session-id,content-type,authorization' },
      });
      expect(own.headers['access-control-allow-origin']).toBe(origin);
      expect(own.headers['access-control-allow-credentials']).toBe('true');
      expect(own.headers['access-control-allow-methods']).toContain(method);
      expect(own.headers['access-control-allow-headers']).toContain('X-Session-ID');
    }
  });

  it('answers a foreign write itself without any Access-Control-Allow-Origin', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/plot-twists/generate', headers: { origin: FOREIGN, 'x-session-id': newSessionId() }, payload: { options: { genre: 'mystery' } } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
