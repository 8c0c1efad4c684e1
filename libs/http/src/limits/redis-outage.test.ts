// A real Redis (our own redis-server, test/redis-server.ts) stopped and paused mid-run: the limiter keeps
// limiting in-process, a request costs milliseconds rather than a connect timeout, the outage is logged
// once, /health says degraded, and the shared store takes over again when Redis is back. A REDIS_URL that
// does not answer at start stops the service naming it.
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Redis from 'ioredis';
import { createServer, emailErrorRenderer, registerErrorHandling, registerHealth, registerRateLimit, type App } from '../index';
import { freeTcpPort, ownRedis, type OwnRedis } from './test/redis-server';

const MAX = 5;

function logLines() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

async function limitedApp(redisUrl: string, key: string, logStream: Writable): Promise<App> {
  const app = createServer({ name: 'rl-outage', logLevel: 'info', logStream });
  registerErrorHandling(app, { render: emailErrorRenderer });
  const handle = await registerRateLimit(app, {
    redisUrl,
    scale: 1,
    global: { max: MAX, timeWindow: '1 minute', keyGenerator: () => key },
    redisTimings: { retryMs: 300 },
  });
  await registerHealth(app, { service: 'rl', version: '1', checks: { redis: { check: handle.storeCheck ?? (async () => 'no store'), required: false } }, cacheMs: 0 });
  app.get('/ping', async () => ({ ok: true }));
  await app.ready();
  return app;
}

/** Status and wall time of one request. */
async function timed(app: App): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await app.inject({ url: '/ping' });
  return { status: res.statusCode, ms: performance.now() - started };
}

describe('Redis outage under the limiter', () => {
  let redis: OwnRedis;
  let app: App | undefined;
  beforeAll(async () => {
    redis = await ownRedis();
    await redis.start();
  });
  afterAll(async () => {
    await app?.close();
    redis.resume();
    await redis.kill();
  });

  it('counts in-process within milliseconds when Redis is killed, logs it once, and shares limits again when Redis is back', async () => {
    const key = 'outage-key';
    const logs = logLines();
    app = await limitedApp(redis.url, key, logs.stream);
    const probe = new Redis(redis.url, { lazyConnect: true });
    await probe.connect();

    expect((await timed(app)).status).toBe(200);
    expect((await timed(app)).status).toBe(200);
    // The count lives in Redis while it answers.
    expect(await probe.get(`rl:rl-outage:${key}`)).toBe('2');
    probe.disconnect();
    expect((await app.inject({ url: '/health' })).json()).toMatchObject({ status: 'ok', checks: { redis: 'ok' } });

    await redis.kill();
    const during = [];
    for (let i = 0; i < MAX + 2; i++) during.push(await timed(app));
    // Limits still hold (in this process): MAX pass, then 429.
    expect(during.map((r) => r.status)).toEqual([...Array(MAX).fill(200), 429, 429]);
    // Milliseconds, not the 0.7-1.1 s a connect timeout cost before (generous bound for a loaded machine).
    expect(Math.max(...during.map((r) => r.ms))).toBeLessThan(150);
    const warned = logs.lines.filter((l) => l.includes('Redis does not answer'));
    expect(warned).toHaveLength(1);
    expect(JSON.parse(warned[0]!)).toMatchObject({ level: 40, store: 'redis' });

    const health = await app.inject({ url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'degraded', checks: { redis: { status: 'degraded', store: 'in-process' } } });

    await redis.start();
    // ioredis reconnects in the background (backoff up to 2 s); the breaker closes on its ready or the next retry.
    const deadline = Date.now() + 6000;
    let back = false;
    while (!back && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      back = (await app.inject({ url: '/health' })).json().status === 'ok';
    }
    expect(back).toBe(true);
    expect(logs.lines.filter((l) => l.includes('Redis answers again'))).toHaveLength(1);
    // A fresh Redis: the count starts again there, shared by every replica.
    expect((await timed(app)).status).toBe(200);
    const after = new Redis(redis.url, { lazyConnect: true });
    await after.connect();
    expect(await after.get(`rl:rl-outage:${key}`)).toBe('1');
    after.disconnect();
    await app.close();
    app = undefined;
  });

  it('pays one command timeout, not one per request, when Redis stops answering without closing its connections', async () => {
    const logs = logLines();
    app = await limitedApp(redis.url, 'paused-key', logs.stream);
    expect((await timed(app)).status).toBe(200);
    redis.pause();
    try {
      const first = await timed(app);
      expect(first.status).toBe(200);
      // The first request waits out the 250 ms command timeout; every one after it is counted in-process at once.
      expect(first.ms).toBeGreaterThanOrEqual(200);
      const next = [];
      for (let i = 0; i < 5; i++) next.push(await timed(app));
      expect(Math.max(...next.map((r) => r.ms))).toBeLessThan(150);
      expect(logs.lines.filter((l) => l.includes('Redis does not answer'))).toHaveLength(1);
    } finally {
      redis.resume();
    }
    await app.close();
    app = undefined;
  });
});

describe('REDIS_URL at start', () => {
  it('stops with one line naming REDIS_URL when nothing listens there', async () => {
    const port = await freeTcpPort();
    const app = createServer({ name: 'rl-refused', logLevel: 'silent' });
    const error = await registerRateLimit(app, { redisUrl: `redis://:pw-secret@127.0.0.1:${port}`, scale: 1, redisTimings: { startupTimeoutMs: 1000 } }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(new RegExp(`^REDIS_URL: Redis at 127\\.0\\.0\\.1:${port} does not answer \\(`));
    expect((error as Error).message).not.toContain('pw-secret');
    expect((error as Error).message).not.toContain('\n');
    await app.close();
  });

  it('stops naming REDIS_URL when a server accepts the connection and never answers', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    const app = createServer({ name: 'rl-silent', logLevel: 'silent' });
    try {
      const started = Date.now();
      const error = await registerRateLimit(app, { redisUrl: `redis://127.0.0.1:${port}`, scale: 1, redisTimings: { startupTimeoutMs: 800 } }).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/^REDIS_URL: Redis at 127\.0\.0\.1:\d+ does not answer/);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await app.close();
    }
  });
});
