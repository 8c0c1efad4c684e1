// Hostile input gets a 4xx naming the field, never a 500 (CONTRACTS §3), through the plumbing every
// service is built on (createServiceApp). One test per cause; the apps' own tests hit real routes.
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { coreErrorRenderer, createServiceApp, emailErrorRenderer, toolsErrorRenderer, type App, type ErrorRenderer } from './index';

const seen: unknown[] = [];

async function serviceWith(render: ErrorRenderer = coreErrorRenderer): Promise<App> {
  const { app } = await createServiceApp({
    name: 'hostile-test',
    logLevel: 'silent',
    render,
    cors: { origins: [] },
    rateLimit: { scale: 1, global: { max: 10_000, timeWindow: '1 minute' } },
    openapi: { title: 't', version: '1', description: 't' },
  });
  await app.register(async (scope) => {
    scope.post('/things', { schema: { body: z.object({ name: z.string(), settings: z.record(z.string(), z.unknown()).optional() }) } }, async (req) => {
      seen.push(req.body);
      return { ok: true };
    });
    scope.get('/things/:code', { schema: { params: z.object({ code: z.string() }), querystring: z.object({ search: z.string().optional(), limit: z.coerce.number().int().min(1).max(100).default(20) }) } }, async (req) => {
      seen.push({ params: req.params, query: req.query });
      return { ok: true, limit: (req.query as { limit: number }).limit };
    });
    scope.get('/pg/:code', async (req) => {
      // What postgres.js throws (wrapped by drizzle in `cause`) for a refused value.
      throw Object.assign(new Error('Failed query: insert into secret_table ...'), { cause: Object.assign(new Error('invalid byte sequence'), { code: (req.params as { code: string }).code }) });
    });
  });
  await app.register(async (scope) => {
    await scope.register(multipart);
    scope.post('/upload', async (req) => {
      const fields: Record<string, string> = {};
      for await (const part of req.parts()) {
        if (part.type === 'file') await part.toBuffer();
        else fields[part.fieldname] = String(part.value);
      }
      seen.push(fields);
      return { ok: true };
    });
  });
  await app.ready();
  return app;
}

let app: App;
beforeAll(async () => {
  app = await serviceWith();
});
afterAll(async () => app.close());
beforeEach(() => {
  seen.length = 0;
});

describe('text PostgreSQL cannot store', () => {
  it.each([
    ['a NUL character in a body field', { name: 'a\u0000b' }, 'name'],
    ['a lone surrogate in a body field', { name: 'a\ud800b' }, 'name'],
    ['a NUL character deep in a free-form field', { name: 'ok', settings: { theme: { colour: 'x\u0000' } } }, 'settings.theme.colour'],
    ['a NUL character in a key of a free-form field', { name: 'ok', settings: { 'a\u0000': 1 } }, 'settings', 'has a key that contains'],
  ])('refuses %s with 400 naming the field', async (_label, payload, field, problem = 'contains') => {
    const res = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(`Invalid ${field}: ${problem} a NUL character or an unpaired surrogate`);
    expect(seen).toEqual([]);
  });

  it('refuses a NUL character in a query value and in a path parameter with 400 naming it', async () => {
    const query = await app.inject({ url: '/things/abc?search=a%00b' });
    expect(query.statusCode).toBe(400);
    expect(query.json().error).toBe('Invalid query.search: contains a NUL character or an unpaired surrogate');
    const path = await app.inject({ url: '/things/a%00b' });
    expect(path.statusCode).toBe(400);
    expect(path.json().error).toBe('Invalid params.code: contains a NUL character or an unpaired surrogate');
    expect(seen).toEqual([]);
  });

  it('keeps well-formed text, emoji (surrogate pairs) included', async () => {
    const res = await app.inject({ method: 'POST', url: '/things', payload: { name: 'Zażółć 😀 日本' } });
    expect(res.statusCode).toBe(200);
    expect(seen).toEqual([{ name: 'Zażółć 😀 日本' }]);
  });

  it('renders the same refusal in the email and tools shapes', async () => {
    for (const [render, check] of [
      [emailErrorRenderer, (b: Record<string, unknown>) => expect(b).toMatchObject({ code: 'VALIDATION_ERROR' })],
      [toolsErrorRenderer, (b: Record<string, unknown>) => expect(b).toMatchObject({ success: false, error: { code: 'INVALID_INPUT', field: 'name' } })],
    ] as const) {
      const other = await serviceWith(render);
      const res = await other.inject({ method: 'POST', url: '/things', payload: { name: 'a\u0000' } });
      expect(res.statusCode).toBe(400);
      check(res.json());
      await other.close();
    }
  });
});

describe('deeply nested JSON', () => {
  it('refuses a body nested 5,000 deep with 400 naming the field, before the route runs', async () => {
    const deep = `{"name":"x","settings":{"a":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    const res = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: deep });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Invalid settings: is nested deeper than 32 levels');
    expect(seen).toEqual([]);
  });

  it('accepts nesting up to the limit and still refuses prototype poisoning', async () => {
    let nested: unknown = 1;
    for (let i = 0; i < 30; i++) nested = { n: nested };
    const ok = await app.inject({ method: 'POST', url: '/things', payload: { name: 'x', settings: { deep: nested } } });
    expect(ok.statusCode).toBe(200);
    const poisoned = await app.inject({ method: 'POST', url: '/things', headers: { 'content-type': 'application/json' }, payload: '{"name":"x","__proto__":{"admin":true}}' });
    expect(poisoned.statusCode).toBe(400);
  });
});

describe('multipart body without its closing boundary', () => {
  it('answers 400, not 500', async () => {
    const boundary = 'xyzBOUNDARY';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nhello\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\nabcdef`;
    const res = await app.inject({ method: 'POST', url: '/upload', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Malformed multipart body');
    expect(seen).toEqual([]);
  });
});

describe('errors PostgreSQL raises for bad values', () => {
  it.each(['22021', '22P05', '22P02', '23514'])('maps %s to 400 without the SQL text', async (code) => {
    const res = await app.inject({ url: `/pg/${code}` });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toMatch(/secret_table|insert/i);
  });

  it('answers a database going away (57P01, admin shutdown) 503, and keeps other database failures a 500', async () => {
    expect((await app.inject({ url: '/pg/57P01' })).statusCode).toBe(503);
    const res = await app.inject({ url: '/pg/XX000' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/secret_table|insert/i);
  });
});

describe('integer query values', () => {
  it.each(['0x10', '1e1', ' 16', '0b1', 'Infinity'])('refuses %j with 400 naming the parameter', async (value) => {
    const res = await app.inject({ url: `/things/abc?limit=${encodeURIComponent(value)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Invalid query.limit: must be a number written in decimal digits');
    expect(seen).toEqual([]);
  });

  it('accepts decimal digits', async () => {
    const res = await app.inject({ url: '/things/abc?limit=16' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, limit: 16 });
  });
});

describe('a body over the route limit on a real socket', () => {
  // The client runs in its own process (as a real one would) and pauses once its socket buffer is full,
  // the way a busy client does: then a server that closes on unread bytes resets it before it reads.
  const CLIENT = `
    const http = require('node:http');
    const [port, size] = process.argv.slice(1).map(Number);
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/things', agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(size) } }, (res) => {
      res.resume();
      res.on('end', () => process.stdout.write(String(res.statusCode)));
    });
    req.on('error', (err) => process.stdout.write(err.code || err.message));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0, paused = false;
    const write = () => {
      while (sent < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          if (!paused) { paused = true; Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200); }
          return void req.once('drain', write);
        }
      }
      req.end();
    };
    write();`;

  const post = (port: number, size: number) =>
    new Promise<string>((resolve) => execFile(process.execPath, ['-e', CLIENT, String(port), String(size)], (err, stdout) => resolve(err ? err.message : stdout.trim())));

  it('lets the client read 413 for 3-8 MB bodies sent to a 1 MB JSON route', async () => {
    const server = await serviceWith();
    await server.listen({ host: '127.0.0.1', port: 0 });
    try {
      const port = (server.server.address() as AddressInfo).port;
      const results: string[] = [];
      for (const mb of [3, 4, 5, 6, 7, 8]) results.push(await post(port, mb * 1024 * 1024));
      expect(results).toEqual(results.map(() => '413'));
      expect(seen).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('errors Fastify raises before routing', () => {
  it.each([
    ['core', coreErrorRenderer, (b: Record<string, unknown>) => typeof b['error'] === 'string'],
    ['tools', toolsErrorRenderer, (b: Record<string, unknown>) => b['success'] === false && typeof (b['error'] as Record<string, unknown>)['code'] === 'string'],
  ] as const)('answers a bad percent-encoding and an over-long segment in the %s shape, echoing neither', async (_name, render, shaped) => {
    const app = await serviceWith(render);
    const bad = await app.inject({ url: '/things/%ED%A0%80' });
    expect(bad.statusCode).toBe(400);
    expect(shaped(bad.json())).toBe(true);
    const long = await app.inject({ url: `/things/${'a'.repeat(5000)}` });
    expect(long.statusCode).toBe(414);
    expect(shaped(long.json())).toBe(true);
    expect(long.body).not.toContain('aaaa');
    await app.close();
  });
});
