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
