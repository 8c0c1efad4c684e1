import { z } from 'zod';
import { AppError, coreErrorRenderer, createServer, emailErrorRenderer, registerErrorHandling, toolsErrorRenderer, type ErrorRenderer } from './index';

async function appWith(render: ErrorRenderer) {
  const app = createServer({ name: 'test', logLevel: 'silent', bodyLimit: 1024 });
  registerErrorHandling(app, { render });
  app.post('/things', { schema: { body: z.object({ name: z.string().min(1), count: z.number().int() }) } }, async () => ({ ok: true }));
  app.get('/boom', async () => {
    throw new Error('SELECT secret FROM internal_table failed at /srv/app.js:10');
  });
  app.get('/missing-template', async () => {
    throw new AppError('not_found', 'Template not found', { code: 'TEMPLATE_NOT_FOUND', details: { template_id: 't1' } });
  });
  app.get('/too-many', async () => {
    throw new AppError('rate_limited', 'Try again later.', { retryAfter: 3600 });
  });
  await app.ready();
  return app;
}

describe('core shape', () => {
  it('names the field of a validation error', async () => {
    const app = await appWith(coreErrorRenderer);
    const res = await app.inject({ method: 'POST', url: '/things', payload: { name: '', count: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^Invalid name: /);
    expect(res.json().details).toContain('name');
  });

  it('hides unexpected errors', async () => {
    const app = await appWith(coreErrorRenderer);
    const res = await app.inject({ url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).toBe(JSON.stringify({ error: 'Internal server error' }));
  });

  it("sends an AppError's retryAfter as Retry-After, and not in the body", async () => {
    const app = await appWith(coreErrorRenderer);
    const res = await app.inject({ url: '/too-many' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('3600');
    expect(res.json()).toEqual({ error: 'Try again later.' });
  });
});

describe('email shape', () => {
  it('lists missing fields in details.missing_fields with VALIDATION_ERROR', async () => {
    const app = await appWith(emailErrorRenderer);
    const res = await app.inject({ method: 'POST', url: '/things', payload: { name: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { missing_fields: ['count'] } });
  });

  it('keeps a domain code and its details', async () => {
    const app = await appWith(emailErrorRenderer);
    const res = await app.inject({ url: '/missing-template' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Template not found', code: 'TEMPLATE_NOT_FOUND', details: { template_id: 't1' } });
  });

  it('answers 404, 413 and 415 in the shape', async () => {
    const app = await appWith(emailErrorRenderer);
    expect((await app.inject({ url: '/nope' })).json()).toMatchObject({ code: 'NOT_FOUND' });
    const big = await app.inject({ method: 'POST', url: '/things', payload: { name: 'x'.repeat(5000), count: 1 } });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('PAYLOAD_TOO_LARGE');
    const xml = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'text/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(415);
  });
});

describe('tools envelope', () => {
  it('wraps errors with code, field, timestamp and meta', async () => {
    const app = await appWith(toolsErrorRenderer);
    const res = await app.inject({ method: 'POST', url: '/things', headers: { 'x-request-id': 'req-1' }, payload: { name: 'ok', count: 1.5 } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ success: false, error: { code: 'INVALID_INPUT', field: 'count', timestamp: expect.any(String) }, meta: { requestId: 'req-1' } });
    expect(typeof body.meta.processingTime).toBe('number');
    const malformed = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: '{' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toMatchObject({ code: 'INVALID_INPUT', message: 'Malformed JSON body' });
  });
});
