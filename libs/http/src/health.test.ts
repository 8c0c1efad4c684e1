import { registerHealth } from './health';
import { createServer } from './server';

describe('GET /health probes', () => {
  async function appWith(check: () => Promise<string>, cacheMs?: number) {
    const app = createServer({ name: 'health-test', logLevel: 'silent' });
    await registerHealth(app, { service: 'test', version: '0', checks: { database: check }, ...(cacheMs === undefined ? {} : { cacheMs }) });
    return app;
  }

  it('shares one probe between concurrent polls and reuses a pass for cacheMs', async () => {
    let calls = 0;
    const app = await appWith(async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 20));
      return 'ok';
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.inject({ method: 'GET', url: '/health' })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(calls).toBe(1);
    await app.inject({ method: 'GET', url: '/health' });
    expect(calls).toBe(1);
    await app.close();
  });

  it('probes again once the pass is older than cacheMs', async () => {
    let calls = 0;
    const app = await appWith(async () => `ok ${++calls}`, 30);
    expect((await app.inject({ method: 'GET', url: '/health' })).json().checks.database).toBe('ok 1');
    await new Promise((r) => setTimeout(r, 50));
    expect((await app.inject({ method: 'GET', url: '/health' })).json().checks.database).toBe('ok 2');
    await app.close();
  });

  it('never caches a failure: the next poll probes again and can recover', async () => {
    let healthy = false;
    let calls = 0;
    const app = await appWith(async () => {
      calls++;
      if (!healthy) throw new Error('database did not answer in time');
      return 'ok';
    });
    const first = await app.inject({ method: 'GET', url: '/health' });
    expect(first.statusCode).toBe(503);
    expect(first.json().checks.database).toEqual({ status: 'error', error: 'database did not answer in time' });
    healthy = true;
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect(calls).toBe(2);
    await app.close();
  });
});

describe('GET /health with optional dependencies, and /health/live', () => {
  const build = async (checks: Parameters<typeof registerHealth>[1]['checks']) => {
    const app = createServer({ name: 'health-deps', logLevel: 'silent' });
    await registerHealth(app, { service: 'svc', version: '1', checks, cacheMs: 0 });
    await app.ready();
    return app;
  };

  it('answers 200 degraded when an optional dependency is down, 503 only for a required one', async () => {
    const redisUp = false;
    let dbUp = true;
    const app = await build({
      database: async () => {
        if (!dbUp) throw new Error('database does not answer');
        return 'ok';
      },
      redis: {
        required: false,
        check: async () => {
          if (!redisUp) throw new Error('Redis does not answer');
          return 'ok';
        },
      },
      search: { required: false, check: async () => ({ status: 'degraded', engine: 'postgres', error: 'Meilisearch does not answer' }) },
    });
    const degraded = await app.inject({ method: 'GET', url: '/health' });
    expect(degraded.statusCode).toBe(200);
    expect(degraded.json()).toEqual({
      status: 'degraded',
      service: 'svc',
      version: '1',
      checks: {
        database: 'ok',
        redis: { status: 'error', error: 'Redis does not answer', required: false },
        search: { status: 'degraded', engine: 'postgres', error: 'Meilisearch does not answer' },
      },
    });
    dbUp = false;
    const down = await app.inject({ method: 'GET', url: '/health' });
    expect(down.statusCode).toBe(503);
    expect(down.json().status).toBe('error');
    // Liveness asks nothing: the process answers while its database is down.
    const live = await app.inject({ method: 'GET', url: '/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok', service: 'svc', version: '1' });
    await app.close();
  });

  it('keeps a costly probe’s failure for its own cacheMs', async () => {
    let calls = 0;
    const app = await build({
      smtp: {
        required: false,
        cacheMs: 60_000,
        check: async () => {
          calls++;
          throw new Error('no greeting');
        },
      },
    });
    for (let i = 0; i < 3; i++) expect((await app.inject({ method: 'GET', url: '/health' })).json().status).toBe('degraded');
    expect(calls).toBe(1);
    await app.close();
  });
});
