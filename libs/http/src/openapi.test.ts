// The OpenAPI document every service serves (createServiceApp): what routeMedia declares reaches it (file and
// HTML media types with JSON errors, multipart bodies with their parts and limits, response headers, no-body
// redirects), a body a route does not need is not required, the answers every route can give are declared,
// a body sent to a route that takes none is refused as the document says, and /docs is titled per service
// with a CSP its inline styles pass.
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { coreErrorRenderer, coreErrorSchema, createServiceApp, errorResponses, multipartBody, rangedMedia, routeMedia, type App } from './index';

type Doc = { paths: Record<string, Record<string, { requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> }; responses: Record<string, { $ref?: string; content?: Record<string, unknown>; headers?: Record<string, unknown> }> }>>; components: { responses: Record<string, { content?: Record<string, unknown> }> } };

let app: App;
let doc: Doc;
beforeAll(async () => {
  ({ app } = await createServiceApp({
    name: 'openapi-test',
    logLevel: 'silent',
    render: coreErrorRenderer,
    cors: { origins: [] },
    rateLimit: { scale: 1, global: { max: 10_000, timeWindow: '1 minute' } },
    openapi: { title: 'Test service', version: '1', description: 't' },
  }));
  await app.register(async (scope) => {
    await scope.register(multipart);
    scope.get(
      '/files/:id',
      { schema: { operationId: 'getFile', ...routeMedia(rangedMedia(['audio/*'], 'The audio')), response: { 200: z.any(), 206: z.any(), ...errorResponses(coreErrorSchema, [404] as const) } } },
      async (_req, reply) => reply.type('audio/mpeg').send(Buffer.from('ID3')),
    );
    scope.get(
      '/report.pdf',
      { schema: { operationId: 'getReport', produces: ['application/pdf'], ...routeMedia({ answers: { 200: { types: ['application/pdf'] } } }), response: { 200: z.any(), ...errorResponses(coreErrorSchema, [409] as const) } } },
      async () => 'x',
    );
    scope.post(
      '/upload',
      {
        schema: {
          operationId: 'upload',
          ...routeMedia({ requestBody: multipartBody({ file: { names: ['audio', 'file'], types: ['audio/*'], maxBytes: 1000, description: 'The audio' }, fields: z.object({ title: z.string().max(200).optional(), campaignId: z.uuid() }) }) }),
          response: { 201: z.object({ ok: z.boolean() }), ...errorResponses(coreErrorSchema, [401] as const) },
        },
      },
      async (_req, reply) => reply.status(201).send({ ok: true }),
    );
    scope.delete(
      '/things/:id',
      { schema: { operationId: 'deleteThing', body: z.object({ reason: z.string().max(10).optional() }).nullish(), response: { 200: z.object({ ok: z.boolean() }), ...errorResponses(coreErrorSchema, [404] as const) } } },
      async () => ({ ok: true }),
    );
    scope.post('/signout', { schema: { operationId: 'signout', response: { 200: z.object({ ok: z.boolean() }), ...errorResponses(coreErrorSchema, [401] as const) } } }, async () => ({ ok: true }));
    scope.get(
      '/go',
      { schema: { operationId: 'go', ...routeMedia({ answers: { 302: null }, headers: { 302: { Location: { description: 'next', schema: { type: 'string' } } } } }), response: { 302: z.null(), ...errorResponses(coreErrorSchema, [404] as const) } } },
      async (_req, reply) => reply.redirect('/x', 302),
    );
  });
  await app.ready();
  doc = (await app.inject({ url: '/openapi.json' })).json();
});
afterAll(async () => app.close());

describe('the document', () => {
  it('declares file answers with their media types and headers, and keeps their errors JSON', () => {
    const get = doc.paths['/files/{id}']!['get']!;
    expect(Object.keys(get.responses['200']!.content!)).toEqual(['audio/*']);
    expect(Object.keys(get.responses['206']!.content!)).toEqual(['audio/*']);
    expect(Object.keys(get.responses['206']!.headers!)).toEqual(expect.arrayContaining(['Content-Range', 'Accept-Ranges']));
    expect(Object.keys(get.responses['404']!.content!)).toEqual(['application/json']);
    const report = doc.paths['/report.pdf']!['get']!;
    expect(Object.keys(report.responses['200']!.content!)).toEqual(['application/pdf']);
    // `produces` applied to every status before: the 409 error is JSON.
    expect(Object.keys(report.responses['409']!.content!)).toEqual(['application/json']);
  });

  it('declares a multipart body with its named parts, the file limit and either file name', () => {
    const body = doc.paths['/upload']!['post']!.requestBody!;
    expect(body.required).toBe(true);
    const schema = body.content['multipart/form-data']!.schema as { properties: Record<string, Record<string, unknown>>; required: string[]; anyOf: unknown[] };
    expect(schema.properties['audio']).toMatchObject({ type: 'string', format: 'binary', maxLength: 1000 });
    expect(schema.properties['file']).toMatchObject({ type: 'string', format: 'binary' });
    expect(schema.properties['title']).toMatchObject({ type: 'string', maxLength: 200 });
    expect(schema.required).toEqual(['campaignId']);
    expect(schema.anyOf).toEqual([{ required: ['audio'] }, { required: ['file'] }]);
  });

  it('does not require a body the route does not need', () => {
    expect(doc.paths['/things/{id}']!['delete']!.requestBody!.required).toBe(false);
  });

  it('declares a redirect without a body, with its Location', () => {
    const go = doc.paths['/go']!['get']!.responses['302']!;
    expect(go.content).toBeUndefined();
    expect(go.headers).toHaveProperty('Location');
  });

  it('declares the answers every route can give, in the service’s error shape', () => {
    const signout = doc.paths['/signout']!['post']!.responses;
    for (const status of ['400', '415', '500', '503']) expect(signout[status]!.$ref).toMatch(/^#\/components\/responses\//);
    expect(signout['413']).toBeUndefined();
    expect(doc.paths['/upload']!['post']!.responses['413']!.$ref).toBe('#/components/responses/PayloadTooLarge');
    expect(Object.keys(doc.components.responses['InternalError']!.content!)).toEqual(['application/json']);
  });
});

describe('a body sent to a route that takes none', () => {
  it('is refused with 400 naming body; no body, {} or an empty string pass', async () => {
    const refused = await app.inject({ method: 'POST', url: '/signout', payload: { everything: true } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'Invalid body: this route takes no request body' });
    expect((await app.inject({ method: 'POST', url: '/signout', payload: 'hello', headers: { 'content-type': 'text/plain' } })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/signout' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/signout', payload: {} })).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: '/things/1' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: '/things/1', payload: { reason: 'done' } })).statusCode).toBe(200);
  });
});

describe('/docs', () => {
  it('is titled for the service, and its CSP lets Swagger UI’s inline styles apply while scripts stay same-origin', async () => {
    const page = await app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Test service: API reference</title>');
    const csp = page.headers['content-security-policy'];
    expect(typeof csp).toBe('string');
    const directives = Object.fromEntries(String(csp).split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name, values]));
    // 'unsafe-inline' is ignored by browsers when a hash or nonce sits beside it: none may.
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives).not.toHaveProperty('upgrade-insecure-requests');
    // Every stylesheet and script the page loads is same-origin and served.
    const assets = [...page.body.matchAll(/(?:href|src)="([^"]+\.(?:css|js))"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^https?:/);
      const res = await app.inject({ url: new URL(asset, 'http://x/docs/').pathname });
      expect(res.statusCode).toBe(200);
    }
  });
});
