// POST /api/:tool/:id/analytics (events) and GET (admin aggregates) through the real app.
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';
import { newContent, newResponse, newSession } from '../../test/content-factory';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const record = (tool: string, id: string, sessionId: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/${tool}/${id}/analytics`, headers: { 'x-session-id': sessionId, 'user-agent': 'TestBrowser/1.0', ...headers }, payload });

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

describe('POST analytics', () => {
  it('records an event with the session, the IP without its last octet and the user agent', async () => {
    const visitor = newSession();
    const item = await newContent(t.database.sql, 'adventure-prompts');
    const res = await record('adventure-prompts', item.id, visitor, { sessionId: visitor, eventType: 'view', eventData: { timeOnPage: 42, source: 'embed' } }, { 'x-forwarded-for': '203.0.113.77' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toEqual({ eventId: expect.any(String), recorded: true });
    const [row] = await t.database.sql`select tool, content_id, event_type, event_data, session_id, ip_address, user_agent from tools_analytics where id = ${res.json().data.eventId}`;
    expect(row).toMatchObject({ tool: 'adventure-prompts', content_id: item.id, event_type: 'view', event_data: { timeOnPage: 42, source: 'embed' }, session_id: visitor, user_agent: 'TestBrowser/1.0' });
    // inject() comes from 127.0.0.1: stored as 127.0.0 (never the full address).
    expect(row!['ip_address']).toBe('127.0.0.0');
    // Counters are kept by the actions themselves, not by reported events.
    expect((await t.database.sql`select view_count from tools_adventure_prompts where id = ${item.id}`)[0]!['view_count']).toBe(0);
  });

  it('takes a client timestamp within the last day, and refuses bad events naming the field', async () => {
    const visitor = newSession();
    const item = await newContent(t.database.sql, 'adventure-prompts');
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const ok = await record('adventure-prompts', item.id, visitor, { eventType: 'share', eventData: { platform: 'email' }, timestamp: at });
    const [row] = await t.database.sql`select created_at from tools_analytics where id = ${ok.json().data.eventId}`;
    expect(new Date(String(row!['created_at'])).toISOString()).toBe(at);

    for (const [payload, field] of [
      [{ eventType: 'generate' }, 'eventType'],
      [{ eventType: 'click' }, 'eventType'],
      [{}, 'eventType'],
      [{ eventType: 'view', timestamp: daysAgo(3) }, 'timestamp'],
      [{ eventType: 'view', timestamp: new Date(Date.now() + 3_600_000).toISOString() }, 'timestamp'],
      [{ eventType: 'view', timestamp: 'yesterday' }, 'timestamp'],
      [{ eventType: 'view', eventData: { timeOnPage: 'long' } }, 'eventData.timeOnPage'],
      [{ eventType: 'share', eventData: { platform: 'x'.repeat(51) } }, 'eventData.platform'],
      [{ eventType: 'view', eventData: { blob: 'x'.repeat(5000) } }, 'eventData'],
    ] as const) {
      const res = await record('adventure-prompts', item.id, visitor, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    expect(await t.database.sql`select 1 from tools_analytics where content_id = ${item.id}`).toHaveLength(1);
  });

  it('records only for items the caller can see', async () => {
    const owner = newSession();
    const hidden = await newContent(t.database.sql, 'adventure-prompts', { isPublic: false, sessionId: owner });
    expect((await record('adventure-prompts', hidden.id, newSession(), { eventType: 'view' })).statusCode).toBe(404);
    expect((await record('adventure-prompts', hidden.id, owner, { eventType: 'view' })).statusCode).toBe(201);
    const missing = await t.app.inject({ method: 'POST', url: `/api/adventure-prompts/${hidden.id}/analytics`, payload: { eventType: 'view' } });
    expect(missing.json().error.code).toBe('MISSING_SESSION_ID');
  });
});

describe('GET analytics (admin)', () => {
  it('aggregates views (total, unique, by day), shares by platform, responses, exports by format and engagement', async () => {
    const item = await newContent(t.database.sql, 'mystery-plot-generator');
    const [a, b, c, d] = [newSession(), newSession(), newSession(), newSession()];
    const ev = (session: string | null, type: string, data: Record<string, unknown>, at: string) =>
      t.database.sql`insert into tools_analytics (tool, content_id, event_type, event_data, session_id, created_at)
                     values ('mystery-plot-generator', ${item.id}, ${type}, ${JSON.stringify(data)}::jsonb, ${session}, ${at})`;
    await ev(a, 'view', { timeOnPage: 30 }, daysAgo(2));
    await ev(a, 'view', { timeOnPage: 90 }, daysAgo(0));
    await ev(b, 'view', {}, daysAgo(0));
    await ev(c, 'view', {}, daysAgo(1));
    await ev(d, 'view', {}, daysAgo(40)); // outside the trend window, still in the totals
    await ev(a, 'share', { platform: 'twitter' }, daysAgo(0));
    await ev(c, 'share', {}, daysAgo(0));
    await ev(b, 'export', { format: 'pdf' }, daysAgo(0));
    await ev(b, 'export', { format: 'pdf' }, daysAgo(0));
    await ev(a, 'export', { format: 'csv' }, daysAgo(0));
    // No session (a cached page's beacon): a view, and a unique visitor by its IP prefix, but not a viewing session.
    await t.database.sql`insert into tools_analytics (tool, content_id, event_type, ip_address, created_at) values ('mystery-plot-generator', ${item.id}, 'view', '198.51.100.0', ${daysAgo(0)})`;
    await newResponse(t.database.sql, item, { isPublic: true, content: 'one two three four' });
    await newResponse(t.database.sql, item, { content: 'one two' });
    await newResponse(t.database.sql, item, { content: 'gone', deletedAt: new Date() });
    // Session c went on to generate something of its own: a conversion.
    await newContent(t.database.sql, 'plot-twists', { sessionId: c });

    const admin = await sessionFor(t, 'admin');
    const res = await t.app.inject({ method: 'GET', url: `/api/mystery-plot-generator/${item.id}/analytics?days=7`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.views).toMatchObject({ total: 6, unique: 5 });
    expect(data.views.trend).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = daysAgo(1).slice(0, 10);
    const twoDays = daysAgo(2).slice(0, 10);
    const trend = Object.fromEntries(data.views.trend.map((p: { date: string; count: number }) => [p.date, p.count]));
    expect(trend).toMatchObject({ [today]: 3, [yesterday]: 1, [twoDays]: 1 });
    expect(data.views.trend.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(5);
    expect(data.shares).toEqual({ total: 2, platforms: { twitter: 1, link: 1 } });
    expect(data.exports).toEqual({ total: 3, formats: { pdf: 2, csv: 1 } });
    expect(data.responses).toEqual({ total: 2, public: 1, averageWordCount: 3 });
    // Viewing sessions a, b, c, d; bounced (one view, nothing else): d only; converted: c.
    expect(data.engagement).toEqual({ averageTimeOnPage: 60, bounceRate: 0.25, conversionRate: 0.25 });
    expect(data.period.days).toBe(7);
  });

  it('is for admins only: 401 without a token, 403 for users; 404 for unknown items, 400 for bad days', async () => {
    const item = await newContent(t.database.sql, 'mystery-plot-generator');
    const url = `/api/mystery-plot-generator/${item.id}/analytics`;
    const none = await t.app.inject({ method: 'GET', url });
    expect(none.statusCode).toBe(401);
    const user = await sessionFor(t);
    const denied = await t.app.inject({ method: 'GET', url, headers: user.headers });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('ACCESS_DENIED');
    const admin = await sessionFor(t, 'admin');
    const empty = await t.app.inject({ method: 'GET', url, headers: admin.headers });
    expect(empty.json().data).toMatchObject({ views: { total: 0, unique: 0 }, engagement: { bounceRate: 0, conversionRate: 0, averageTimeOnPage: 0 }, shares: { platforms: {} } });
    expect((await t.app.inject({ method: 'GET', url: '/api/mystery-plot-generator/00000000-0000-4000-8000-000000000000/analytics', headers: admin.headers })).statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'GET', url: `${url}?days=0`, headers: admin.headers });
    expect(bad.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'days' });
  });
});
