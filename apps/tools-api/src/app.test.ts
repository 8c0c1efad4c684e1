// tools-api plumbing: the envelope error shape, open CORS on public GETs only, tokens, health.
import { openApiProblems } from '@story/testing';
import { buildTestApp, sessionFor, type TestContext } from './test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('answers unknown routes in the envelope with request id and timing', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/nope/a/b/c', headers: { 'x-request-id': 'abc-1' } });
  expect(res.statusCode).toBe(404);
  const body = res.json();
  expect(body).toEqual({
    success: false,
    error: { code: 'CONTENT_NOT_FOUND', message: 'Route GET /api/nope/a/b/c not found', timestamp: expect.any(String) },
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

// Security headers and CORS (open on public GETs only): src/security/headers-cors.test.ts.

it('reports health', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/health' });
  expect(res.json()).toEqual({ status: 'ok', service: 'tools-api', version: expect.any(String), checks: { database: 'ok', storage: 'ok', providers: { llm: 'local', storage: 'local', search: 'postgres' } } });
});

describe('routing of the tools routes', () => {
  // Every path below must reach its own handler, not the not-found handler ("Route ... not found") and not a
  // neighbour: static segments and parameters of the generic /api/{tool}/... routes must not shadow each other.
  const id = '00000000-0000-4000-8000-000000000000';
  it.each([
    ['GET', '/api/search?q=tide', [200]],
    ['GET', '/api/plot-twists', [200]],
    ['GET', '/api/plot-twists/browse', [200]],
    ['GET', `/api/plot-twists/${id}`, [404]],
    ['GET', '/api/plot-twists/share/pt_missing00', [404]],
    ['GET', `/api/plot-twists/${id}/responses`, [400, 404]],
    ['GET', `/api/plot-twists/responses/${id}`, [400, 404]],
    ['POST', `/api/plot-twists/${id}/export`, [400, 404]],
    ['GET', `/api/flipbook/${id}/responses`, [400, 404]],
    ['GET', `/api/flipbook/${id}`, [404]],
    ['GET', '/api/flipbook/fb_missing00/pdf', [404]],
    ['POST', '/api/plot-twists/generate', [400]],
    ['POST', '/api/flashcards/generate/upload', [400]],
    ['GET', '/api/admin/plot-twists/browse', [401]],
    ['GET', '/plot-twists/', [200]],
    // Tools with their own static routes (story-prompts, flashcards) still reach the generic ones.
    ['GET', '/api/story-prompts', [200]],
    ['GET', '/api/story-prompts/browse', [200]],
    ['GET', `/api/story-prompts/${id}`, [404]],
    ['POST', '/api/story-prompts/generate', [400]],
    ['GET', '/api/story-prompts/collections', [200]],
    ['GET', '/api/flashcards', [200]],
    ['GET', `/api/flashcards/${id}`, [404]],
    ['POST', '/api/flashcards/generate', [400]],
    ['POST', `/api/flashcards/${id}/export`, [400, 404]],
  ] as const)('%s %s', async (method, url, statuses) => {
    const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    expect(statuses).toContain(res.statusCode);
    if (String(res.headers['content-type'] ?? '').includes('json')) expect(res.json().error?.message ?? '').not.toMatch(/^Route /);
  });
});

it('documents every tools route in the OpenAPI document', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  const doc = res.json();
  const ops = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((p) => Object.values(p).map((o) => o.operationId));
  for (const op of ['generateToolContent', 'browseToolContent', 'getToolContent', 'generateFlashcardsFromFile', 'createFlipbookFromPdf', 'adminBulkGenerate', 'adminToolAnalytics', 'toolItemPage', 'toolItemEmbed']) expect(ops).toContain(op);
});

it('gives every route an operationId and declared success and error responses', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  expect(openApiProblems(doc)).toEqual([]);
});
