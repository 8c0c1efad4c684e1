// The shared HTTP plumbing as core-api serves it: error shapes, health, OpenAPI (headers and CORS: src/security).
import { createDbClient } from '@story/db';
import { openApiProblems, testEnv } from '@story/testing';
import { buildApp } from './app';
import { loadConfig } from './config';
import { buildTestApp, signUp, type TestContext } from './test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('error shapes', () => {
  it('answers unknown routes with 404 in the core shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Route GET /api/nope not found' });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { 'content-type': 'application/json' }, payload: '{"email": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Malformed JSON body');
    expect(res.body).not.toMatch(/at .*\.js|stack/i);
  });

  it('answers a wrong content type with 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: 'Unsupported Content-Type' });
  });

  it('answers an oversized body with 413 and writes nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'big@example.test', password: 'abcdefg1', fullName: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'Request body is too large' });
    expect(await t.database.sql`select 1 from accounts where email = 'big@example.test'`).toHaveLength(0);
  });

  it('answers unexpected failures with a generic 500 and no internals', async () => {
    const user = await signUp(t.app);
    await t.database.sql`alter table campaigns rename to campaigns_gone`;
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: user.headers });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: 'Internal server error' });
    } finally {
      await t.database.sql`alter table campaigns_gone rename to campaigns`;
    }
  });
});

// Security headers and CORS: src/security/headers-cors.test.ts.

describe('health and docs', () => {
  it('reports ok with a real database check', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      service: 'core-api',
      version: expect.any(String),
      checks: {
        database: 'ok',
        storage: 'ok',
        // No keys in tests: offline defaults, the local (Moonshine) recogniser as stt_primary (CONTRACTS §4).
        providers: { storage: 'local', speechToText: ['local'], textToSpeech: ['local'], llm: 'local', email: 'outbox', billing: 'offline' },
        // Social sign-in providers configured (CONTRACTS §10): none without OAUTH_* variables.
        oauth: [],
      },
    });
  });

  it('reports 503 naming the database when it does not answer', async () => {
    const dead = createDbClient('postgres://postgres:x@127.0.0.1:1/none', { max: 1 });
    const app = await buildApp({ config: loadConfig(testEnv()), deps: { database: dead } });
    try {
      const res = await app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'error', service: 'core-api', checks: { database: { status: 'error' } } });
    } finally {
      await app.close();
      await dead.close();
    }
  });

  it('reports the shared Redis store in /health when REDIS_URL is set, and refuses to start when it does not answer', async () => {
    const redisUrl = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
    const app = await buildApp({ config: loadConfig(testEnv({ REDIS_URL: redisUrl })), deps: { database: t.database } });
    try {
      const res = await app.inject({ method: 'GET', url: '/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'ok', checks: { database: 'ok', storage: 'ok', redis: 'ok' } });
      expect((await app.inject({ method: 'GET', url: '/health/live' })).json()).toEqual({ status: 'ok', service: 'core-api', version: expect.any(String) });
    } finally {
      await app.close();
    }
    // Nothing listens on port 1: the start fails with one line naming the variable (runService prints it).
    const refused = await buildApp({ config: loadConfig(testEnv({ REDIS_URL: 'redis://:secret-pw@127.0.0.1:1' })), deps: { database: t.database } }).catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/^REDIS_URL: Redis at 127\.0\.0\.1:1 does not answer/);
    expect((refused as Error).message).not.toContain('secret-pw');
  });

  it('serves an OpenAPI 3 document with an operationId on every route, and /docs', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((p) => Object.values(p));
    expect(ops.length).toBeGreaterThan(4);
    for (const op of ops) expect(op.operationId).toEqual(expect.any(String));
    expect(doc.paths['/api/auth/signup'].post.requestBody).toBeDefined();
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });

  it('gives every route an operationId and declared success and error responses', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(openApiProblems(doc)).toEqual([]);
  });
});
