// email-service plumbing: its error shape, tokens issued by core-api accepted, health, docs.
import { createEmailDelivery } from '@story/providers';
import { buildApp } from './app';
import { buildTestApp, sessionFor, type TestContext } from './test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('answers unknown routes with 404 in the email shape', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/email/nothing-here' });
  expect(res.statusCode).toBe(404);
  expect(res.json()).toEqual({ error: 'Route GET /api/admin/email/nothing-here not found', code: 'NOT_FOUND' });
});

it('accepts a core-api session token and refuses it once the session is revoked', async () => {
  const user = await sessionFor(t);
  const ok = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: user.headers });
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toEqual({ user: { id: user.userId, email: user.email, role: 'user' }, sessionId: user.sessionId });
  await t.database.sql`update auth_sessions set revoked_at = now() where id = ${user.sessionId}`;
  const revoked = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: user.headers });
  expect(revoked.statusCode).toBe(401);
  expect(revoked.json()).toEqual({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
});

it('refuses missing and malformed tokens with 401 UNAUTHORIZED', async () => {
  for (const headers of [{}, { authorization: 'Bearer x.y.z' }]) {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
  }
});

// Security headers and CORS on every route: src/security/headers-cors.test.ts.
it('reports health with the delivery adapter', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/health' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({
    status: 'ok',
    service: 'email-service',
    version: expect.any(String),
    checks: { database: 'ok', email: 'ok', providers: { email: 'outbox' }, queue: { pending: 0, processing: 0, overdue: 0, stuck: 0, backlog: false, oldestPendingSince: null } },
  });
});

it('reports stuck and backlogged queue rows in /health', async () => {
  await t.database.sql`insert into email_send_queue (to_email, subject, html_content, status, scheduled_for)
    select 'q' || g || '@example.test', 's', 'h', 'pending', now() - interval '2 hours' from generate_series(1, 101) g`;
  // /health reuses a reading for 1 s (libs/http health.ts): wait out the one the previous test took.
  await new Promise((r) => setTimeout(r, 1100));
  const res = await t.app.inject({ method: 'GET', url: '/health' });
  expect(res.statusCode).toBe(200);
  expect(res.json().checks.queue).toEqual({ pending: 101, processing: 0, overdue: 101, stuck: 101, backlog: true, oldestPendingSince: expect.any(String) });
  await t.database.sql`delete from email_send_queue`;
});

it('says degraded, not 503, when the SMTP server does not answer: the queue keeps the mail', async () => {
  const delivery = createEmailDelivery({ driver: 'smtp', smtpUrl: 'smtp://127.0.0.1:1', from: 'a@stories.example' }, { timeoutMs: 1000 });
  const app = await buildApp({ config: t.config, deps: { database: t.database, delivery } });
  try {
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'degraded', checks: { database: 'ok', email: { status: 'error', required: false }, providers: { email: 'smtp' } } });
    expect(res.json().checks.email.error).toMatch(/ECONNREFUSED/);
  } finally {
    await app.close();
  }
});

it('serves its OpenAPI document', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  expect(doc.info.title).toBe('Family Stories email service');
  expect(doc.paths['/api/auth/session'].get.operationId).toBe('getCurrentSession');
});
