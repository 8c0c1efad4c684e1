// Generation limits at their real values (RATE_LIMIT_SCALE=1): hourly generic limits per session and per
// address, daily per-tool limits, the 429 body of spec 002, persisted counters and hits, and atomic counting
// under concurrency.
import { buildTestApp, newIp, newSessionId, sessionFor, type TestContext } from '../../test/helper';
import { windowOf } from '@story/http';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1' });
});
afterAll(async () => t.close());

const post = (tool: string, sessionId: string, ip: string, headers: Record<string, string> = {}, options: Record<string, unknown> = { genre: 'mystery' }) =>
  t.app.inject({ method: 'POST', url: `/api/${tool}/generate`, headers: { 'x-session-id': sessionId, ...headers }, remoteAddress: ip, payload: { options } });

it('lets an anonymous session generate 5 times an hour, then answers the 429 of the spec', async () => {
  const sessionId = newSessionId();
  const ip = newIp();
  const remaining: number[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await post('plot-twists', sessionId, ip);
    expect(res.statusCode).toBe(201);
    remaining.push(res.json().meta.rateLimit.remaining);
  }
  expect(remaining).toEqual([4, 3, 2, 1, 0]);
  const refused = await post('plot-twists', sessionId, ip);
  expect(refused.statusCode).toBe(429);
  const body = refused.json();
  const resetTime = Math.floor(windowOf('hourly').windowEnd.getTime() / 1000);
  expect(body).toMatchObject({
    success: false,
    error: { code: 'RATE_LIMIT_EXCEEDED', details: { currentUsage: 5, dailyLimit: 5, resetTime } },
    meta: { rateLimit: { limit: 5, remaining: 0, resetTime, retryAfter: expect.any(Number) }, conversionOpportunity: true },
  });
  expect(Number(refused.headers['retry-after'])).toBe(body.meta.rateLimit.retryAfter);
  expect(await t.database.sql`select count(*)::int as n from tools_plot_twists where session_id = ${sessionId}`).toEqual([{ n: 5 }]);
  const [counter] = await t.database.sql`select count from tools_rate_limits where key = ${`sess:${sessionId}`} and scope = 'hourly'`;
  expect(counter!['count']).toBe(5);
  const hits = await t.database.sql`select scope, limit_value, current_usage, session_id from tools_rate_limit_hits where session_id = ${sessionId}`;
  expect(hits).toEqual([{ scope: 'hourly', limit_value: 5, current_usage: 5, session_id: sessionId }]);
});

it('shows the sign-up offer as an anonymous visitor nears the limit', async () => {
  const sessionId = newSessionId();
  const ip = newIp();
  const offers: boolean[] = [];
  for (let i = 0; i < 4; i++) offers.push((await post('first-line-generator', sessionId, ip, {}, {})).json().meta.conversionOpportunity);
  expect(offers).toEqual([false, false, true, true]);
});

it('counts anonymous visitors per address too, so a new session id does not reset the hour', async () => {
  const ip = newIp();
  for (let i = 0; i < 5; i++) expect((await post('story-prompts', newSessionId(), ip, {}, {})).statusCode).toBe(201);
  const res = await post('story-prompts', newSessionId(), ip, {}, {});
  expect(res.statusCode).toBe(429);
  expect(res.json().error.details.scope).toBe('hourly');
});

it('never lets concurrent requests pass the limit', async () => {
  const sessionId = newSessionId();
  const ip = newIp();
  const results = await Promise.all(Array.from({ length: 8 }, () => post('comedy-prompts', sessionId, ip, {}, {})));
  const statuses = results.map((r) => r.statusCode).sort();
  expect(statuses.filter((s) => s === 201)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(3);
  expect(await t.database.sql`select count(*)::int as n from tools_comedy_prompts where session_id = ${sessionId}`).toEqual([{ n: 5 }]);
  expect(await t.database.sql`select count(*)::int as n from tools_rate_limit_hits where session_id = ${sessionId}`).toEqual([{ n: 3 }]);
});

it('applies the per-tool daily limit from the stored counter (it survives restarts)', async () => {
  const sessionId = newSessionId();
  // Ten flashcard decks already made today, as another replica would have recorded them.
  await t.database.sql`insert into tools_rate_limits (key, scope, tool, window_start, count) values (${`sess:${sessionId}`}, 'daily', 'flashcards', ${windowOf('daily').windowStart.toISOString()}, 10)`;
  const res = await post('flashcards', sessionId, newIp(), {}, { text: 'Osmosis is the movement of water across a membrane. Diffusion is the spreading of particles.' });
  expect(res.statusCode).toBe(429);
  expect(res.json().error.details).toMatchObject({ currentUsage: 10, dailyLimit: 10, scope: 'daily', resetTime: Math.floor(windowOf('daily').windowEnd.getTime() / 1000) });
  // The hourly counter was not consumed by the refused request (one transaction).
  expect(await t.database.sql`select 1 from tools_rate_limits where key = ${`sess:${sessionId}`} and scope = 'hourly' and count > 0`).toHaveLength(0);
  // Another tool still works: daily limits are per tool.
  expect((await post('plot-twists', sessionId, newIp())).statusCode).toBe(201);
});

it('gives signed-in callers 50 an hour and premium (admin) callers 500', async () => {
  const user = await sessionFor(t);
  const ok = await post('memory-prompts', newSessionId(), newIp(), user.headers, {});
  expect(ok.statusCode).toBe(201);
  expect(ok.json().meta).toMatchObject({ rateLimit: { limit: 50, remaining: 49 }, conversionOpportunity: false });
  await t.database.sql`update tools_rate_limits set count = 50 where key = ${`user:${user.userId}`} and scope = 'hourly'`;
  const refused = await post('memory-prompts', newSessionId(), newIp(), user.headers, {});
  expect(refused.statusCode).toBe(429);
  expect(refused.json().error.details).toMatchObject({ currentUsage: 50, dailyLimit: 50 });
  const [hit] = await t.database.sql`select user_id, key from tools_rate_limit_hits where user_id = ${user.userId}`;
  expect(hit).toEqual({ user_id: user.userId, key: `user:${user.userId}` });

  const admin = await sessionFor(t, 'admin');
  const premium = await post('memory-prompts', newSessionId(), newIp(), admin.headers, {});
  expect(premium.json().meta.rateLimit).toMatchObject({ limit: 500, remaining: 499 });
});
