// tools-api plumbing: the envelope error shape, open CORS on public GETs only, tokens, health.
import { buildTestApp, sessionFor, type TestContext } from './test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('answers unknown routes in the envelope with request id and timing', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/nope', headers: { 'x-request-id': 'abc-1' } });
  expect(res.statusCode).toBe(404);
  const body = res.json();
  expect(body).toEqual({
    success: false,
    error: { code: 'CONTENT_NOT_FOUND', message: 'Route GET /api/nope not found', timestamp: expect.any(String) },
    meta: { requestId: 'abc-1', processingTime: expect.any(Number) },
  });
  expect(new Date(body.error.timestamp).toString()).not.toBe('Invalid Date');
});

it('answers a bad token with 401 in the envelope', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { authorization: 'Bearer nope' } });
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
  const user = await sessionFor(t);
  expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: user.headers })).json().user.id).toBe(user.userId);
});

describe('CORS', () => {
  it('lets any site read public GET routes, without credentials', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://blog.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/api/plot-twists', headers: { origin: 'https://blog.example', 'access-control-request-method': 'GET' } });
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });

  it('keeps writes and admin reads to the application origins', async () => {
    const write = await t.app.inject({ method: 'OPTIONS', url: '/api/plot-twists/generate', headers: { origin: 'https://blog.example', 'access-control-request-method': 'POST' } });
    expect(write.headers['access-control-allow-origin']).toBeUndefined();
    const admin = await t.app.inject({ method: 'OPTIONS', url: '/api/admin/plot-twists/browse', headers: { origin: 'https://blog.example', 'access-control-request-method': 'GET' } });
    expect(admin.headers['access-control-allow-origin']).toBeUndefined();
    const own = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/plot-twists/generate',
      headers: { origin: 'https://app.example.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-session-id,content-type' },
    });
    expect(own.headers['access-control-allow-origin']).toBe('https://app.example.test');
    expect(own.headers['access-control-allow-credentials']).toBe('true');
    expect(own.headers['access-control-allow-headers']).toContain('X-Session-ID');
  });
});

it('reports health', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/health' });
  expect(res.json()).toEqual({ status: 'ok', service: 'tools-api', version: expect.any(String), checks: { database: 'ok', storage: 'ok', providers: { llm: 'local', storage: 'local' } } });
});
