// The limits of spec 002 Limits at their real values (RATE_LIMIT_SCALE=1).
// Already held elsewhere, not repeated here: the generic hourly generate limit by tier (anonymous 5 per
// session and per address, authenticated 50, premium 500), the 429 body, atomic counting under concurrency
// (features/generate/limits.test.ts); responses 5 a day anonymous, 50 signed in
// (features/responses/responses.test.ts). Here: the per-tool daily table for every tool and both tiers, the
// service-wide window (300 per minute per caller), and both kinds across two replicas (Redis for the window,
// the shared database for the persisted counters).
import type { InjectOptions } from 'fastify';
import { limitSpec, toolsDailyLimit, windowOf, type App } from '@story/http';
import { TOOL_ROUTES } from '@story/db';
import { testEnv } from '@story/testing';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildTestApp, installPdfWorkerForJest, makePdf, multipartBody, newIp, newSessionId, SAMPLE_OPTIONS, sessionFor, type TestContext } from '../test/helper';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

type Inject = InjectOptions & { method: string; url: string };

const generateRequest = (tool: string, sessionId: string, ip: string, headers: Record<string, string> = {}): Inject => ({
  method: 'POST',
  url: `/api/${tool}/generate`,
  headers: { 'x-session-id': sessionId, 'user-agent': 'jest', ...headers },
  remoteAddress: ip,
  payload: { sessionId, options: SAMPLE_OPTIONS[tool] ?? {} },
});

async function exhaust(apps: App[], max: number, request: (i: number) => Inject) {
  const statuses: number[] = [];
  let last;
  for (let i = 0; i <= max; i++) {
    last = await apps[i % apps.length]!.inject(request(i));
    statuses.push(last.statusCode);
  }
  return { statuses, last: last! };
}

const generatingTools = TOOL_ROUTES.filter((tool) => tool !== 'flipbook');

describe('one app', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '1' });
  });
  afterAll(async () => t.close());

  // The hourly limit (5 anonymous, 50 signed in) is reached first within one hour, so the day's earlier
  // uses are put in the stored counter, as earlier hours (or another replica) would have left them.
  it.each(generatingTools.flatMap((tool) => (['anonymous', 'authenticated'] as const).map((tier) => [tool, tier] as const)))(
    '%s, %s: the daily limit of the table passes, the next generation is 429 RATE_LIMIT_EXCEEDED (scope daily)',
    async (tool, tier) => {
      const max = toolsDailyLimit(tool, tier).max;
      const sessionId = newSessionId();
      const user = tier === 'authenticated' ? await sessionFor(t) : undefined;
      const key = user ? `user:${user.userId}` : `sess:${sessionId}`;
      await t.database.sql`insert into tools_rate_limits (key, scope, tool, window_start, count) values (${key}, 'daily', ${tool}, ${windowOf('daily').windowStart.toISOString()}, ${max - 1})`;
      const last = await t.app.inject(generateRequest(tool, sessionId, newIp(), user?.headers));
      expect(last.statusCode).toBe(201);
      const refused = await t.app.inject(generateRequest(tool, sessionId, newIp(), user?.headers));
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({
        success: false,
        error: { code: 'RATE_LIMIT_EXCEEDED', details: { currentUsage: max, dailyLimit: max, scope: 'daily' } },
        meta: { rateLimit: { limit: max, remaining: 0, retryAfter: expect.any(Number) }, conversionOpportunity: true },
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    },
  );

  it.each(['anonymous', 'authenticated'] as const)('flipbook, %s: POST /api/flipbook/create counts against the daily row of the table (5 / 50)', async (tier) => {
    installPdfWorkerForJest();
    const max = toolsDailyLimit('flipbook', tier).max;
    expect(max).toBe(tier === 'anonymous' ? 5 : 50);
    const sessionId = newSessionId();
    const user = tier === 'authenticated' ? await sessionFor(t) : undefined;
    const key = user ? `user:${user.userId}` : `sess:${sessionId}`;
    await t.database.sql`insert into tools_rate_limits (key, scope, tool, window_start, count) values (${key}, 'daily', 'flipbook', ${windowOf('daily').windowStart.toISOString()}, ${max - 1})`;
    const pdf = await makePdf(['One page.'], 'Limits');
    const create = () => {
      const body = multipartBody({ filename: 'a.pdf', type: 'application/pdf', data: pdf });
      return t.app.inject({ method: 'POST', url: '/api/flipbook/create', remoteAddress: newIp(), headers: { ...body.headers, 'x-session-id': sessionId, ...(user?.headers ?? {}) }, payload: body.payload });
    };
    expect((await create()).statusCode).toBe(201);
    const refused = await create();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', details: { dailyLimit: max, scope: 'daily' } });
  });

  it('every route: 300 requests a minute per caller, the 301st is 429 in the envelope with Retry-After', async () => {
    const ip = newIp();
    const max = limitSpec('tools.general').max;
    const { statuses, last } = await exhaust([t.app], max, () => ({ method: 'GET', url: '/api/plot-twists', remoteAddress: ip }));
    expect(statuses.slice(0, max).every((s) => s === 200)).toBe(true);
    expect(statuses[max]).toBe(429);
    expect(last.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED', details: { limit: max } }, meta: { requestId: expect.any(String) } });
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.headers['x-ratelimit-limit']).toBe(String(max));
    // Another address is served.
    expect((await t.app.inject({ method: 'GET', url: '/api/plot-twists', remoteAddress: newIp() })).statusCode).toBe(200);
  });
});

describe('two replicas sharing Redis (REDIS_URL) and the database', () => {
  let t: TestContext;
  let second: App;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_SCALE: '1', REDIS_URL });
    second = await buildApp({ config: loadConfig(testEnv({ RATE_LIMIT_SCALE: '1', REDIS_URL })), deps: { database: t.database } });
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('the 300-a-minute window is shared: alternating requests get exactly 300 together', async () => {
    const ip = newIp();
    const { statuses } = await exhaust([t.app, second], 300, () => ({ method: 'GET', url: '/api/plot-twists', remoteAddress: ip }));
    expect(statuses.filter((s) => s === 200)).toHaveLength(300);
    expect(statuses[300]).toBe(429);
    expect((await second.inject({ method: 'GET', url: '/api/plot-twists', remoteAddress: ip })).statusCode).toBe(429);
  });

  it('the anonymous hourly generate limit (5) is shared through the database', async () => {
    const sessionId = newSessionId();
    const ip = newIp();
    const { statuses } = await exhaust([t.app, second], 5, () => generateRequest('plot-twists', sessionId, ip));
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect(await t.database.sql`select count(*)::int as n from tools_plot_twists where session_id = ${sessionId}`).toEqual([{ n: 5 }]);
  });

  it('signed-in callers: 50 an hour across both replicas', async () => {
    const user = await sessionFor(t);
    const { statuses } = await exhaust([t.app, second], 50, () => generateRequest('memory-prompts', newSessionId(), newIp(), user.headers));
    expect(statuses.filter((s) => s === 201)).toHaveLength(50);
    expect(statuses[50]).toBe(429);
  });
});
