// The limiter's two stores, one table of cases each: a named limit allows up to its max, refuses max+1 with
// the headers and the 429 body in each service's shape, and a new window allows again.
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@story/db/testing';
import { coreErrorRenderer, createServer, emailErrorRenderer, registerErrorHandling, toolsErrorRenderer, type App, type ErrorRenderer } from '../index';
import { consumeCounters, countedLimit, windowOf, type CounterHit } from './counter-store';
import { toolsGenerateLimit, toolsResponseLimit } from './limit-table';
import { registerRateLimit, type RouteLimit, type RateLimitHandle } from './window-store';

async function server(render: ErrorRenderer, routes: (app: App, handle: RateLimitHandle) => void, global?: RouteLimit): Promise<App> {
  const app = createServer({ name: `limits-${randomUUID()}`, logLevel: 'silent' });
  registerErrorHandling(app, { render });
  const handle = await registerRateLimit(app, { scale: 1, ...(global ? { global } : {}) });
  routes(app, handle);
  await app.ready();
  return app;
}

describe('window store (@fastify/rate-limit, in-process)', () => {
  it.each([
    ['core', coreErrorRenderer, { error: 'Too many requests. Try again in 1 minute.' }],
    ['email', emailErrorRenderer, { error: 'Too many requests. Try again in 1 minute.', code: 'RATE_LIMITED', details: { limit: 5, retryAfter: 60 } }],
    ['tools', toolsErrorRenderer, { success: false, error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests. Try again in 1 minute.', details: { limit: 5, retryAfter: 60 } } }],
  ])('%s: core.auth allows 5 a minute per address, then 429 with headers', async (_service, render, body) => {
    const app = await server(render, (a, handle) => a.get('/signin', { config: { rateLimit: handle.route('core.auth') } }, async () => ({ ok: true })));
    try {
      const remaining: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await app.inject({ url: '/signin', remoteAddress: '203.0.113.9' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('5');
        remaining.push(String(res.headers['x-ratelimit-remaining']));
      }
      expect(remaining).toEqual(['4', '3', '2', '1', '0']);
      const refused = await app.inject({ url: '/signin', remoteAddress: '203.0.113.9' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject(body);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      const reset = Number(refused.headers['x-ratelimit-reset']);
      expect(Math.abs(reset - (Math.floor(Date.now() / 1000) + 60))).toBeLessThanOrEqual(2);
      // Another address has its own bucket.
      expect((await app.inject({ url: '/signin', remoteAddress: '203.0.113.10' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('allows again once the window has passed', async () => {
    const app = await server(emailErrorRenderer, (a) => a.get('/ping', async () => ({ ok: true })), { max: 2, timeWindow: 300 });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await app.inject({ url: '/ping' })).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await app.inject({ url: '/ping' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('postgres store: tools_rate_limits counters', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.drop());

  const now = new Date('2026-03-10T10:20:00Z');

  it.each([
    ['tools.generate.anonymous', toolsGenerateLimit('anonymous'), 5, 'hourly', 3600],
    ['tools.responses.anonymous', toolsResponseLimit('anonymous'), 5, 'responses', 86_400],
  ])('%s: up to max, refuses max+1 with the 429 of spec 002, and a new window allows again', async (_name, limit, max, scope, windowSeconds) => {
    const key = `sess:${randomUUID()}`;
    const checks = [{ limit, key, tool: 'flashcards' }];
    const remaining: number[] = [];
    for (let i = 0; i < max; i++) remaining.push((await consumeCounters(t.sql, checks, { scale: 1, now })).rateLimit.remaining);
    expect(remaining).toEqual([4, 3, 2, 1, 0]);

    const hits: CounterHit[] = [];
    const refused = await consumeCounters(t.sql, checks, { scale: 1, now, onRefused: async (hit) => void hits.push(hit) }).catch((e: unknown) => e);
    const resetTime = Math.floor(windowOf(scope as 'hourly', now).windowEnd.getTime() / 1000);
    expect(refused).toMatchObject({
      kind: 'rate_limited',
      code: 'RATE_LIMIT_EXCEEDED',
      details: { currentUsage: 5, dailyLimit: 5, resetTime, scope },
      extra: { meta: { rateLimit: { limit: 5, remaining: 0, resetTime }, conversionOpportunity: true } },
    });
    expect(hits).toEqual([{ scope, key, tool: 'flashcards', limit: 5, current: 5 }]);

    const next = new Date(now.getTime() + windowSeconds * 1000);
    const again = await consumeCounters(t.sql, checks, { scale: 1, now: next });
    expect(again.rateLimit).toEqual({ limit: 5, remaining: 4, resetTime: resetTime + windowSeconds });
  });

  it('counts all checks or none, gives uses back on refund, and applies the scale', async () => {
    const key = `sess:${randomUUID()}`;
    const hourly = { limit: toolsGenerateLimit('anonymous'), key };
    const daily = { limit: toolsResponseLimit('anonymous'), key, tool: 'flashcards' };
    for (let i = 0; i < 5; i++) await consumeCounters(t.sql, [daily], { scale: 1, now });
    await expect(consumeCounters(t.sql, [hourly, daily], { scale: 1, now })).rejects.toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    const taken = await consumeCounters(t.sql, [hourly], { scale: 1, now });
    expect(taken.rateLimit.remaining).toBe(4);
    await taken.refund();
    expect((await consumeCounters(t.sql, [hourly], { scale: 1, now })).rateLimit.remaining).toBe(4);
    expect((await consumeCounters(t.sql, [{ ...hourly, key: `sess:${randomUUID()}` }], { scale: 10, now })).rateLimit).toMatchObject({ limit: 50, remaining: 49 });
  });

  it('never lets concurrent requests past the max, and a refused one leaves the other windows as they were', async () => {
    const key = `sess:${randomUUID()}`;
    const ip = `ip:${randomUUID()}`;
    const checks = [
      { limit: toolsGenerateLimit('anonymous'), key },
      { limit: toolsGenerateLimit('anonymous'), key: ip },
    ];
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => consumeCounters(t.sql, checks, { scale: 1, now })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(Array(7).fill('RATE_LIMIT_EXCEEDED'));
    const counts = await t.sql<{ key: string; count: number }[]>`select key, count from tools_rate_limits where key in (${key}, ${ip}) order by key`;
    expect(counts.map((c) => c.count)).toEqual([5, 5]);
    // The address is full through another session: the new session's window is not charged for the refusal.
    const other = `sess:${randomUUID()}`;
    await expect(consumeCounters(t.sql, [{ ...checks[0]!, key: other }, checks[1]!], { scale: 1, now })).rejects.toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    expect((await t.sql<{ count: number }[]>`select count from tools_rate_limits where key = ${other}`)[0]?.count).toBe(0);
  });

  it('renders a counter refusal in the tools envelope with Retry-After', async () => {
    const key = `sess:${randomUUID()}`;
    const app = await server(toolsErrorRenderer, (a) =>
      a.post('/generate', async () => consumeCounters(t.sql, [{ limit: toolsGenerateLimit('anonymous'), key }], { scale: 1 }).then((c) => c.rateLimit)),
    );
    try {
      for (let i = 0; i < 5; i++) expect((await app.inject({ method: 'POST', url: '/generate' })).statusCode).toBe(200);
      const refused = await app.inject({ method: 'POST', url: '/generate' });
      expect(refused.statusCode).toBe(429);
      const body = refused.json();
      expect(body).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED', details: { currentUsage: 5, dailyLimit: 5 } }, meta: { conversionOpportunity: true } });
      expect(Number(refused.headers['retry-after'])).toBe(body.meta.rateLimit.retryAfter);
    } finally {
      await app.close();
    }
  });
});

describe('postgres store: limits counted over the feature rows', () => {
  it.each([
    ['core.invites', 1, 5, 'You can send 5 family invitations per hour. Try again later.'],
    ['core.invites', 3, 15, 'You can send 15 family invitations per hour. Try again later.'],
    ['core.resend-verification', 1, 3, 'At most 3 verification emails per hour. Please try again later.'],
    ['core.resend-verification', 100, 3, 'At most 3 verification emails per hour. Please try again later.'],
  ] as const)('%s at scale %d allows %d, then refuses in the core shape', async (name, scale, max, message) => {
    const limit = countedLimit(name, scale);
    expect(limit.max).toBe(max);
    expect(() => limit.assert(max - 1, 60)).not.toThrow();
    const app = await server(coreErrorRenderer, (a) => a.post('/invite', async () => limit.assert(max, 1234)));
    try {
      const refused = await app.inject({ method: 'POST', url: '/invite' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: message });
      expect(refused.headers['retry-after']).toBe('1234');
    } finally {
      await app.close();
    }
  });
});
