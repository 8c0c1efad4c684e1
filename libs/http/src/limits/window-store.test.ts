// Rate limits shared through Redis hold across replicas (this machine runs Redis on 6379).
import { randomUUID } from 'node:crypto';
import { createServer, emailErrorRenderer, registerErrorHandling, registerRateLimit, type App } from '../index';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

async function replica(key: string, redisUrl?: string): Promise<App> {
  const app = createServer({ name: `rl-${key}`, logLevel: 'silent' });
  registerErrorHandling(app, { render: emailErrorRenderer });
  await registerRateLimit(app, { redisUrl, scale: 1, global: { max: 3, timeWindow: '1 minute', keyGenerator: () => key } });
  app.get('/ping', async () => ({ ok: true }));
  await app.ready();
  return app;
}

it('counts requests of every replica against one limit when REDIS_URL is set', async () => {
  const key = `test-${randomUUID()}`;
  const a = await replica(key, REDIS_URL);
  const b = await replica(key, REDIS_URL);
  try {
    const statuses = [];
    for (const app of [a, b, a, b]) statuses.push((await app.inject({ url: '/ping' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await b.inject({ url: '/ping' });
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  } finally {
    await a.close();
    await b.close();
  }
});

it('keeps limits per process without Redis', async () => {
  const key = `local-${randomUUID()}`;
  const a = await replica(key);
  const b = await replica(key);
  try {
    for (let i = 0; i < 3; i++) expect((await a.inject({ url: '/ping' })).statusCode).toBe(200);
    expect((await a.inject({ url: '/ping' })).statusCode).toBe(429);
    expect((await b.inject({ url: '/ping' })).statusCode).toBe(200);
  } finally {
    await a.close();
    await b.close();
  }
});
