// The security headers (spec 000 Authentication 8, shared by the three services) on every
// route of email-service's OpenAPI document and on answers no route produced, and CORS limited to the
// configured application origins with credentials, never a wildcard.
import { corsProblems, routeProbes, securityHeaderProblems } from '@story/testing';
import { buildTestApp, sessionFor, type TestContext } from '../test/helper';

const OWN = ['https://admin.example.test', 'https://app.example.test'];
const FOREIGN = 'https://evil.example';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ CORS_ORIGINS: OWN.join(',') });
});
afterAll(async () => t.close());

it('sends the security headers on every route of the document, as anonymous, user and admin, whatever the status', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const probes = routeProbes(doc).filter((p) => p.path !== '/docs' && p.path !== '/api/apply-migration');
  expect(probes.length).toBeGreaterThan(60);
  const user = await sessionFor(t);
  const admin = await sessionFor(t, 'admin');
  const problems: string[] = [];
  const statuses = new Set<number>();
  for (const probe of probes) {
    for (const headers of [{}, user.headers, admin.headers]) {
      const res = await t.app.inject({ method: probe.method as 'GET', url: probe.url, headers: { ...headers, origin: FOREIGN } });
      statuses.add(res.statusCode);
      for (const p of securityHeaderProblems(res)) problems.push(`${probe.method} ${probe.url} ${res.statusCode}: ${p}`);
      for (const p of corsProblems(res, FOREIGN, { origins: OWN })) problems.push(`${probe.method} ${probe.url}: ${p}`);
    }
  }
  expect(problems).toEqual([]);
  for (const s of [200, 400, 401, 403, 404]) expect(statuses).toContain(s);
});

it('sends them on unknown routes, malformed JSON and wrong content types too', async () => {
  const answers = [
    await t.app.inject({ method: 'GET', url: '/api/nope' }),
    await t.app.inject({ method: 'POST', url: '/api/waitlist', headers: { 'content-type': 'application/json' }, payload: '{"email": ' }),
    await t.app.inject({ method: 'POST', url: '/api/waitlist', headers: { 'content-type': 'application/xml' }, payload: '<a/>' }),
  ];
  expect(answers.map((r) => r.statusCode)).toEqual([404, 400, 415]);
  for (const res of answers) expect(securityHeaderProblems(res)).toEqual([]);
});

it.each(OWN)('allows the configured origin %s with credentials, the spec methods and headers', async (origin) => {
  const res = await t.app.inject({
    method: 'OPTIONS',
    url: '/api/admin/email/templates',
    headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type,authorization' },
  });
  expect(res.statusCode).toBe(204);
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  expect(res.headers['access-control-allow-credentials']).toBe('true');
  expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, DELETE');
  expect(res.headers['access-control-allow-headers']).toBe('Content-Type, Authorization');
});

it.each([FOREIGN, 'null', 'https://admin.example.test.evil.example', 'http://admin.example.test'])('allows no other origin (%s)', async (origin) => {
  const admin = await sessionFor(t, 'admin');
  const pre = await t.app.inject({ method: 'OPTIONS', url: '/api/admin/email/templates', headers: { origin, 'access-control-request-method': 'GET' } });
  expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/email/templates', headers: { origin, ...admin.headers } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['access-control-allow-origin']).toBeUndefined();
});
