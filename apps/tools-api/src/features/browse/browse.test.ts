// Browse and get: visibility (public, own session, own account), paging meta, sorts, filters, full-text
// search, limit errors naming the field, expired and deleted rows hidden, view counting.
import { buildTestApp, generate, newSessionId, sessionFor, type TestContext } from '../../test/helper';
import { ESTIMATE_TTL_MS } from './browse.repository';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('browse', () => {
  const mine = newSessionId();
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    // Three public items by others, one private item of mine, one private item of someone else.
    for (const [name, genre] of [['a', 'fantasy'], ['b', 'horror'], ['c', 'horror']] as const) {
      const { data } = await generate(t, 'story-prompts', { genre });
      ids[name] = data.id;
    }
    ids['mine'] = (await generate(t, 'story-prompts', { genre: 'comedy' }, { sessionId: mine })).data.id;
    ids['other'] = (await generate(t, 'story-prompts', { genre: 'comedy' })).data.id;
    await t.database.sql`update tools_story_prompts set is_public = true where id in ${t.database.sql([ids['a']!, ids['b']!, ids['c']!])}`;
    await t.database.sql`update tools_story_prompts set view_count = 7, is_featured = true, rating_sum = 9, rating_count = 2 where id = ${ids['b']!}`;
    await t.database.sql`update tools_story_prompts set rating_sum = 5, rating_count = 1, created_at = now() - interval '1 day' where id = ${ids['c']!}`;
  });

  it('lists public content with pagination meta', async () => {
    const res = await get('/api/story-prompts?limit=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(2);
    expect(body.meta.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true, hasPrev: false });
    expect(body.data[0]).toMatchObject({ id: expect.any(String), shareCode: expect.stringMatching(/^sp_/), title: expect.any(String), keywords: expect.any(Array), responseCount: 0, isPublic: true });
    const page2 = (await get('/api/story-prompts/browse?limit=2&page=2')).json();
    expect(page2.meta.pagination).toMatchObject({ page: 2, hasNext: false, hasPrev: true });
    expect(page2.data).toHaveLength(1);
    const all = [...body.data, ...page2.data].map((i: { id: string }) => i.id);
    expect(all.sort()).toEqual([ids['a'], ids['b'], ids['c']].sort());
  });

  it('includes the session’s own private items, never someone else’s', async () => {
    const withHeader = (await get('/api/story-prompts', { 'x-session-id': mine })).json().data.map((i: { id: string }) => i.id);
    expect(withHeader).toContain(ids['mine']);
    expect(withHeader).not.toContain(ids['other']);
    const withQuery = (await get(`/api/story-prompts?sessionId=${mine}&public=false`)).json().data.map((i: { id: string }) => i.id);
    expect(withQuery).toEqual([ids['mine']]);
  });

  it('sorts and filters', async () => {
    const ids$ = async (q: string) => (await get(`/api/story-prompts?${q}`)).json().data.map((i: { id: string }) => i.id);
    expect((await ids$('sort=popular'))[0]).toBe(ids['b']);
    expect((await ids$('sort=featured'))[0]).toBe(ids['b']);
    expect(await ids$('sort=rating')).toEqual([ids['c'], ids['b'], ids['a']]);
    expect(await ids$('featured=true')).toEqual([ids['b']]);
    expect((await ids$('category=horror')).sort()).toEqual([ids['b'], ids['c']].sort());
    const [row] = await t.database.sql`select title from tools_story_prompts where id = ${ids['a']!}`;
    const word = String(row!['title']).split(' ')[0]!;
    expect(await ids$(`search=${encodeURIComponent(word)}`)).toContain(ids['a']);
    expect(await ids$('search=zzzqqqxxx')).toEqual([]);
  });

  it('names the field of a bad paging or filter value', async () => {
    for (const [q, field] of [['limit=0', 'limit'], ['limit=1000', 'limit'], ['limit=abc', 'limit'], ['page=0', 'page'], ['sort=oldest', 'sort'], ['public=maybe', 'public']]) {
      const res = await get(`/api/story-prompts?${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    expect((await get('/api/story-prompts?limit=100')).statusCode).toBe(200);
    expect((await get('/api/nope-tool')).json().error.code).toBe('TOOL_NOT_FOUND');
    expect((await get('/api/story-prompts?sessionId=bad')).json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'sessionId' });
  });

  it('hides expired and soft-deleted rows', async () => {
    const { data: expired } = await generate(t, 'story-prompts', {});
    const { data: deleted } = await generate(t, 'story-prompts', {});
    await t.database.sql`update tools_story_prompts set is_public = true, expires_at = now() - interval '1 minute' where id = ${expired.id}`;
    await t.database.sql`update tools_story_prompts set is_public = true, deleted_at = now() where id = ${deleted.id}`;
    const listed = (await get('/api/story-prompts?limit=100')).json().data.map((i: { id: string }) => i.id);
    expect(listed).not.toContain(expired.id);
    expect(listed).not.toContain(deleted.id);
    expect((await get(`/api/story-prompts/${expired.id}`)).statusCode).toBe(404);
    expect((await get(`/api/story-prompts/${deleted.shareCode}`)).statusCode).toBe(404);
  });
});

describe('get one', () => {
  it('shows an unlisted (just generated) item to its session and account, 404 to others by id, and to link holders by share code', async () => {
    const user = await sessionFor(t);
    const sessionId = newSessionId();
    const { data } = await generate(t, 'plot-twists', { genre: 'noir' }, { sessionId, headers: user.headers });
    const own = await get(`/api/plot-twists/${data.id}`, { 'x-session-id': sessionId });
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({ id: data.id, isOwner: true, viewCount: 1, tool: 'plot-twists', seoMetadata: { title: expect.any(String) }, aiMetadata: { model: 'local-plot-twists' } });
    expect((await get(`/api/plot-twists/${data.id}`, user.headers)).json().data.isOwner).toBe(true);
    const stranger = await get(`/api/plot-twists/${data.id}`, { 'x-session-id': newSessionId() });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().error.code).toBe('CONTENT_NOT_FOUND');
    const byLink = await get(`/api/plot-twists/${data.shareCode}`);
    expect(byLink.statusCode).toBe(200);
    expect(byLink.json().data.isOwner).toBe(false);
    const [row] = await t.database.sql`select view_count from tools_plot_twists where id = ${data.id}`;
    expect(row!['view_count']).toBe(3);
    const views = await t.database.sql`select count(*)::int as n from tools_analytics where content_id = ${data.id} and event_type = 'view'`;
    expect(views).toEqual([{ n: 3 }]);
  });

  it('refuses an expired expiring link but still shows the owner', async () => {
    const sessionId = newSessionId();
    const { data } = await generate(t, 'plot-twists', { genre: 'noir' }, { sessionId });
    await t.database.sql`update tools_plot_twists set share_type = 'expiring', share_expires_at = now() - interval '1 second', is_public = true where id = ${data.id}`;
    expect((await get(`/api/plot-twists/${data.shareCode}`)).statusCode).toBe(404);
    expect((await get(`/api/plot-twists/${data.shareCode}`, { 'x-session-id': sessionId })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown id or code', async () => {
    expect((await get('/api/plot-twists/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get('/api/plot-twists/pt_nothere1')).statusCode).toBe(404);
  });
});

describe('large lists', () => {
  it('counts up to a cap, estimates beyond it, and keeps hasNext exact', async () => {
    await t.database.sql`insert into tools_comedy_prompts (share_code, session_id, is_public, title, content, created_at)
      select 'cp_bulk' || g, 'sess_1700000000_abcdef', true, 'Comedy ' || g, jsonb_build_object('title', 'Comedy ' || g), now() - (g || ' seconds')::interval
      from generate_series(1, 1500) g`;
    await t.database.sql`analyze tools_comedy_prompts`;
    const first = (await get('/api/comedy-prompts?limit=100')).json().meta.pagination;
    expect(first.hasNext).toBe(true);
    expect(first.total).toBeGreaterThan(1300);
    expect(first.total).toBeLessThan(1700);
    // Page 15 is within the counted range (cap = offset + 10 pages): exact.
    const last = (await get('/api/comedy-prompts?limit=100&page=15')).json();
    expect(last.data).toHaveLength(100);
    expect(last.meta.pagination).toMatchObject({ total: 1500, totalPages: 15, hasNext: false, hasPrev: true });
    const beyond = (await get('/api/comedy-prompts?limit=100&page=16')).json();
    expect(beyond.data).toHaveLength(0);
    expect(beyond.meta.pagination).toMatchObject({ total: 1500, hasNext: false });
  });

  it(`reuses for ${ESTIMATE_TTL_MS / 1000} s that a list counted past the cap, and counts again for a page beyond it`, async () => {
    await t.database.sql`insert into tools_first_lines (share_code, session_id, is_public, title, content, created_at)
      select 'fl_bulk' || g, 'sess_1700000000_abcdef', true, 'Line ' || g, jsonb_build_object('line', 'Line ' || g), now() - (g || ' seconds')::interval
      from generate_series(1, 1200) g`;
    await t.database.sql`analyze tools_first_lines`;
    expect((await get('/api/first-line-generator?limit=50')).json().meta.pagination.total).toBeGreaterThan(1000);
    // 1,000 rows go: page 1 is not counted again within the minute (still the estimate), but page 11's cap
    // (1,000) is past the 500 counted before, so it counts and sees the 200 left.
    await t.database.sql`update tools_first_lines set deleted_at = now() where share_code like 'fl_bulk%' and substring(share_code from 8)::int > 200`;
    expect((await get('/api/first-line-generator?limit=50')).json().meta.pagination.total).toBeGreaterThan(1000);
    const far = (await get('/api/first-line-generator?limit=50&page=11')).json();
    expect(far.data).toHaveLength(0);
    expect(far.meta.pagination.total).toBe(200);
  });
});
