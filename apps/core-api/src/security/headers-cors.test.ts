// The security headers of spec 000 Authentication 8 (with HSTS) on every route of the
// OpenAPI document and on every kind of answer, and CORS of Authentication 7: the configured origins with
// credentials, methods GET POST PUT DELETE, headers Content-Type and Authorization, no other origin, never a
// wildcard. The served story page's own, stricter CSP: content-safety.test.ts.
import { corsProblems, routeProbes, securityHeaderProblems } from '@story/testing';
import { buildTestApp, signUp, type TestContext } from '../test/helper';

const OWN = ['https://app.example.test', 'https://www.example.test'];
const FOREIGN = 'https://evil.example';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ CORS_ORIGINS: OWN.join(',') });
});
afterAll(async () => t.close());

describe('security headers', () => {
  it('are on every route of the OpenAPI document, signed out and signed in, whatever the status', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const probes = routeProbes(doc).filter((p) => p.path !== '/docs');
    expect(probes.length).toBeGreaterThan(150);
    const user = await signUp(t.app);
    const problems: string[] = [];
    const statuses = new Set<number>();
    for (const probe of probes) {
      for (const headers of [{}, user.headers]) {
        const res = await t.app.inject({ method: probe.method as 'GET', url: probe.url, headers: { ...headers, origin: FOREIGN } });
        statuses.add(res.statusCode);
        for (const p of securityHeaderProblems(res)) problems.push(`${probe.method} ${probe.url} ${res.statusCode}: ${p}`);
        for (const p of corsProblems(res, FOREIGN, { origins: OWN })) problems.push(`${probe.method} ${probe.url}: ${p}`);
      }
    }
    expect(problems).toEqual([]);
    // The probes met successes and several kinds of refusal.
    for (const s of [200, 400, 401, 404]) expect(statuses).toContain(s);
  });

  it('are on answers no route produced: unknown routes, malformed JSON, unsupported types, oversized bodies, 500s', async () => {
    const user = await signUp(t.app);
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/nope' }),
      await t.app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'content-type': 'application/json' }, payload: '{"email": ' }),
      await t.app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'content-type': 'application/xml' }, payload: '<a/>' }),
      await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'big@example.test', password: 'abcdefg1', fullName: 'x'.repeat(2 * 1024 * 1024) } }),
    ];
    await t.database.sql`alter table campaigns rename to campaigns_gone`;
    try {
      answers.push(await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: user.headers }));
    } finally {
      await t.database.sql`alter table campaigns_gone rename to campaigns`;
    }
    expect(answers.map((r) => r.statusCode)).toEqual([404, 400, 415, 413, 500]);
    for (const res of answers) expect(securityHeaderProblems(res)).toEqual([]);
  });

  it('keep the fixed values of spec 000 Authentication 8, and a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=()');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['x-request-id']).toBe('trace-123');
    const generated = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('CORS', () => {
  const preflight = (origin: string, method = 'POST', requestHeaders = 'content-type,authorization', url = '/api/campaigns') =>
    t.app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': requestHeaders } });

  it.each(OWN)('allows the configured origin %s with credentials and the spec methods and headers', async (origin) => {
    const res = await preflight(origin);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, DELETE');
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type, Authorization');
    expect(corsProblems(res, origin, { origins: OWN })).toEqual([]);
    const simple = await t.app.inject({ method: 'GET', url: '/health', headers: { origin } });
    expect(simple.headers['access-control-allow-origin']).toBe(origin);
    expect(simple.headers['access-control-allow-credentials']).toBe('true');
    expect(simple.headers['vary']).toMatch(/Origin/);
  });

  it.each([FOREIGN, 'null', 'https://app.example.test.evil.example', 'http://app.example.test', 'https://APP.example.test:443.evil'])(
    'allows no other origin (%s): no Access-Control-Allow-Origin on preflight or request',
    async (origin) => {
      const pre = await preflight(origin);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      const user = await signUp(t.app);
      const res = await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: { origin, ...user.headers } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    },
  );

  it('takes its origins from CORS_ORIGINS only: an app configured with another origin refuses these', async () => {
    const other = await buildTestApp({ CORS_ORIGINS: 'https://other.example.test' });
    try {
      const res = await other.app.inject({ method: 'OPTIONS', url: '/api/campaigns', headers: { origin: OWN[0]!, 'access-control-request-method': 'GET' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const own = await other.app.inject({ method: 'OPTIONS', url: '/api/campaigns', headers: { origin: 'https://other.example.test', 'access-control-request-method': 'GET' } });
      expect(own.headers['access-control-allow-origin']).toBe('https://other.example.test');
    } finally {
      await other.close();
    }
  });

  it('does not offer PATCH or extra request headers beyond the spec', async () => {
    const res = await preflight(OWN[0]!, 'PATCH', 'content-type,authorization,x-custom');
    expect(res.headers['access-control-allow-methods']).not.toContain('PATCH');
    expect(res.headers['access-control-allow-headers']).not.toMatch(/x-custom/i);
  });
});
