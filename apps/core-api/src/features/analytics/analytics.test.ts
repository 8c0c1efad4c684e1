// Usage and activity routes against a real database: figures computed from the rows (and only the
// caller's, or for /api/user/usage only an admin's choice), days in the caller's time zone, bad input
// refused naming the field.
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newCampaign, newStory } from '../../test/stories-books-factories';
import { streaks } from './analytics.service';

let t: TestContext;
let me: SignedUp;
let other: SignedUp;
let admin: SignedUp;

beforeAll(async () => {
  t = await buildTestApp();
  me = await signUp(t.app);
  other = await signUp(t.app);
  admin = await signUp(t.app);
  await t.database.sql`update accounts set role = 'admin' where id = ${admin.userId}`;
});
afterAll(async () => t.close());

const get = (url: string, who: SignedUp = me) => t.app.inject({ method: 'GET', url, headers: who.headers });
const usageRow = (userId: string, ago: string, llm: number, stt = 0) =>
  t.database.sql`insert into ai_usage_logs (user_id, feature, provider, operation, llm_cost_usd, stt_cost_usd, input_tokens, output_tokens, created_at)
                 values (${userId}, 'grammar', 'local', 'llm', ${llm}, ${stt}, 10, 5, now() - ${ago}::interval)`;

describe('GET /api/user/usage', () => {
  it('admin only: a user gets 403, an admin the figures of the account asked for', async () => {
    await usageRow(me.userId, '0 seconds', 0.25, 0.5);
    await usageRow(me.userId, '400 days', 1);
    await usageRow(other.userId, '0 seconds', 9);
    expect((await get(`/api/user/usage?userId=${me.userId}`, me)).statusCode).toBe(403);

    const res = await get(`/api/user/usage?userId=${me.userId}`, admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, userId: me.userId });
    expect(body.usage.daily).toMatchObject({ requests: 1, costUsd: 0.75, llmCostUsd: 0.25, sttCostUsd: 0.5, tokens: 15 });
    expect(body.usage.monthly).toMatchObject({ requests: 1, costUsd: 0.75 });
    expect(body.usage.total).toMatchObject({ requests: 2, costUsd: 1.75 });
  });

  it("without userId: the admin's own account; unknown → 404; malformed → 400 naming userId", async () => {
    const own = await get('/api/user/usage', admin);
    expect(own.json()).toMatchObject({ userId: admin.userId, usage: { total: { requests: 0 } } });
    expect((await get('/api/user/usage?userId=00000000-0000-4000-8000-000000000000', admin)).statusCode).toBe(404);
    const bad = await get('/api/user/usage?userId=nope', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('userId');
  });
});

describe('activity and stats', () => {
  it("writing activity counts the caller's stories and words per local day, with streaks", async () => {
    const sql = t.database.sql;
    await sql`update profiles set timezone = 'Asia/Tokyo' where id = ${me.userId}`;
    await newStory(sql, me.userId, { wordCount: 120 });
    await newStory(sql, me.userId, { wordCount: 30, createdAt: new Date(Date.now() - 86_400_000) });
    await newStory(sql, other.userId, { wordCount: 999 });
    const res = await get('/api/user/writing-activity?days=7');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.timezone).toBe('Asia/Tokyo');
    expect(body.activity).toHaveLength(7);
    expect(body.totals).toMatchObject({ stories: 2, words: 150 });
    expect(body.activity.at(-1).date).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date()));
    expect(body.activity.at(-1)).toMatchObject({ stories: 1, words: 120 });
    expect(body.streak).toEqual({ current: 2, longest: 2 });
    const bad = await get('/api/user/writing-activity?days=0');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('days');
  });

  it('content stats count only what the caller owns', async () => {
    await newCampaign(t.database.sql, me.userId);
    const res = await get('/api/content/stats');
    expect(res.json().stats).toMatchObject({ campaigns: 1, stories: 2, words: 150, recordings: 0, books: 0 });
    expect((await get('/api/content/stats', other)).json().stats).toMatchObject({ campaigns: 0, stories: 1, words: 999 });
  });

  it('analytics usage: one metric or all, over a range of local days', async () => {
    const res = await get('/api/analytics/usage?metric=words');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body.metrics)).toEqual(['words']);
    expect(body.metrics.words.total).toBe(150);
    expect(body.metrics.words.series).toHaveLength(30);
    const all = (await get(`/api/analytics/usage?startDate=${body.endDate}&endDate=${body.endDate}`)).json();
    expect(all.metrics.stories).toEqual({ total: 1, series: [{ date: body.endDate, value: 1 }] });
    expect(all.metrics.ai_cost_usd.total).toBe(0.75);
  });

  it.each([
    ['metric=everything', 'metric'],
    ['startDate=2026-13-01', 'startDate'],
    ['startDate=2026-05-02&endDate=2026-05-01', 'endDate'],
    ['startDate=2024-01-01&endDate=2026-01-01', 'startDate'],
  ])('analytics usage ?%s → 400 naming %s', async (query, field) => {
    const res = await get(`/api/analytics/usage?${query}`);
    expect(res.statusCode).toBe(400);
    expect(`${res.json().error} ${res.json().details ?? ''}`).toContain(field);
  });

  it('analytics config follows the privacy setting and the analytics consent', async () => {
    expect((await get('/api/analytics/config', other)).json().config).toMatchObject({ enabled: false, analyticsSetting: true, analyticsConsent: false });
    await t.app.inject({ method: 'POST', url: '/api/consent/update', headers: other.headers, payload: { analytics: true } });
    expect((await get('/api/analytics/config', other)).json().config.enabled).toBe(true);
    await t.app.inject({ method: 'PUT', url: '/api/settings/privacy', headers: other.headers, payload: { analytics_enabled: false } });
    expect((await get('/api/analytics/config', other)).json().config).toMatchObject({ enabled: false, analyticsSetting: false, analyticsConsent: true });
  });

  it('analytics health reads the database', async () => {
    const res = await get('/api/analytics/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', checks: { database: { ok: true }, usageLog: { ok: true, latestEventAt: expect.stringMatching(/Z$/) } } });
  });
});

it('streaks: runs of consecutive days, the current one ending today or yesterday', () => {
  expect(streaks([], '2026-05-10')).toEqual({ current: 0, longest: 0 });
  expect(streaks(['2026-05-09', '2026-05-08', '2026-05-06', '2026-05-05', '2026-05-04'], '2026-05-10')).toEqual({ current: 2, longest: 3 });
  expect(streaks(['2026-05-07'], '2026-05-10')).toEqual({ current: 0, longest: 1 });
});
