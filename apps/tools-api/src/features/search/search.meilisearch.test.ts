// SEARCH_PROVIDER=meilisearch end to end against a wire-level fake of Meilisearch's REST API (the official
// client unchanged, a local HTTP server): the outbox the triggers fill, the sync job of the tools runner,
// visibility in the engine's filter and again after, retries after an engine error.
import { loadConfig } from '../../config';
import { newContent, newResponse, newSession } from '../../test/content-factory';
import { buildTestApp, type TestContext } from '../../test/helper';
import { startMeiliFake, type MeiliFake } from '../../test/meilisearch-fake';
import { meiliIndex, visibilityFilter } from './search.meilisearch';
import { syncSearch } from './search.sync';

let t: TestContext;
let fake: MeiliFake;
const owner = newSession();
const ids: Record<string, string> = {};

beforeAll(async () => {
  fake = await startMeiliFake();
  t = await buildTestApp({ SEARCH_PROVIDER: 'meilisearch', MEILI_URL: fake.url, MEILI_API_KEY: fake.apiKey, MEILI_INDEX: 'tools_test' });
  const sql = t.database.sql;
  ids['public'] = (await newContent(sql, 'story-prompts', { title: 'The Lighthouse Keeper', content: { prompt: 'A lighthouse keeper finds a letter in the lamp room.' }, keywords: ['lighthouse', 'mystery'] })).id;
  ids['popular'] = (await newContent(sql, 'plot-twists', { title: 'Harbour twist', content: { twist: 'The lighthouse beam proves the alibi.' }, viewCount: 90 })).id;
  ids['private'] = (await newContent(sql, 'story-prompts', { title: 'Private lighthouse diary', isPublic: false, sessionId: owner })).id;
  ids['expired'] = (await newContent(sql, 'story-prompts', { title: 'Expired lighthouse', expiresAt: new Date(Date.now() - 1000) })).id;
  ids['linkGone'] = (await newContent(sql, 'story-prompts', { title: 'Link gone lighthouse', shareType: 'expiring', shareExpiresAt: new Date(Date.now() - 1000) })).id;
  ids['deleted'] = (await newContent(sql, 'story-prompts', { title: 'Deleted lighthouse', deletedAt: new Date() })).id;
  const parent = await newContent(sql, 'story-prompts', { title: 'Seaside prompt', content: { prompt: 'Gulls over the pier.' } });
  ids['response'] = (await newResponse(sql, parent, { title: 'My lighthouse story', content: 'The lighthouse keeper wrote back.', isPublic: true })).id;
  ids['rejected'] = (await newResponse(sql, parent, { title: 'Rejected lighthouse', content: 'lighthouse spam', isPublic: true, moderationStatus: 'rejected' })).id;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const search = (query: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/search?${query}`, headers });
const titlesOf = (body: { data: { content: { title: string }[] } }) => body.data.content.map((h) => h.title);
const index = () => meiliIndex({ url: fake.url, apiKey: fake.apiKey, index: 'tools_test' });

describe('Meilisearch adapter', () => {
  it('fills the outbox from the triggers and the tools job runner pushes it to the engine', async () => {
    const [state] = await t.database.sql<{ external: boolean }[]>`select external from tools_search_state`;
    expect(state?.external).toBe(true);
    const [queued] = await t.database.sql<{ n: number }[]>`select count(*)::int as n from tools_search_changes`;
    expect(queued?.n).toBe(9);

    // The drain also runs the recurring expiry purge, whose delete of 'Expired lighthouse' is one more change.
    expect(await t.app.toolsJobs.drain()).toBeGreaterThan(0);
    await syncSearch({ sql: t.database.sql, index });
    expect(fake.docs.size).toBe(8);
    expect(fake.docs.has(ids['expired']!)).toBe(false);
    expect(fake.calls).toEqual(expect.arrayContaining(['PATCH /indexes/tools_test/settings', 'POST /indexes/tools_test/documents']));
    expect(fake.settings.sortableAttributes).toEqual(['createdAt', 'viewCount']);
    const doc = fake.docs.get(ids['public']!);
    expect(doc).toMatchObject({ tool: 'story-prompts', kind: 'content', toolKind: 'story-prompts|content', isPublic: true, deleted: false, keywords: ['lighthouse', 'mystery'] });
    expect(String(doc?.['body'])).toContain('lamp room');
    const [left] = await t.database.sql<{ n: number }[]>`select count(*)::int as n from tools_search_changes`;
    expect(left?.n).toBe(0);
  });

  it('answers GET /api/search with the spec’s shape, only what the caller may see', async () => {
    const res = await search('q=lighthouse');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(titlesOf(body).sort()).toEqual(['Harbour twist', 'My lighthouse story', 'The Lighthouse Keeper']);
    const first = body.data.content.find((h: { title: string }) => h.title === 'The Lighthouse Keeper');
    expect(first).toMatchObject({ id: ids['public'], tool: 'story-prompts', type: 'content', shareCode: expect.any(String), createdAt: expect.any(String) });
    expect(first.relevanceScore).toBeGreaterThan(0);
    expect(first.excerpt).toMatch(/lighthouse/i);
    expect(body.data.facets.types).toEqual([
      { name: 'content', count: 2 },
      { name: 'responses', count: 1 },
    ]);
    expect(body.meta.totalResults).toBe(3);

    const mine = (await search('q=lighthouse', { 'x-session-id': owner })).json();
    expect(titlesOf(mine)).toContain('Private lighthouse diary');
    expect(titlesOf((await search(`q=lighthouse&public=false&sessionId=${owner}`)).json())).toEqual(['Private lighthouse diary']);
    for (const hidden of ['Expired lighthouse', 'Link gone lighthouse', 'Deleted lighthouse', 'Rejected lighthouse']) expect(titlesOf(mine)).not.toContain(hidden);

    const popular = (await search('q=lighthouse&type=content&sort=popular')).json();
    expect(titlesOf(popular)[0]).toBe('Harbour twist');
    expect(titlesOf((await search('q=lighthouse&tools=plot-twists')).json())).toEqual(['Harbour twist']);
    expect((await search('q=lighth')).json().data.suggestions).toEqual(expect.arrayContaining(['The Lighthouse Keeper']));
  });

  it('hides an item made private before the engine has caught up, and deletes documents of deleted rows', async () => {
    await t.database.sql`update tools_story_prompts set is_public = false, share_type = 'private' where id = ${ids['public']!}`;
    expect(fake.docs.get(ids['public']!)?.['isPublic']).toBe(true); // not synced yet
    expect(titlesOf((await search('q=lighthouse')).json())).not.toContain('The Lighthouse Keeper');

    await t.database.sql`delete from tools_plot_twists where id = ${ids['popular']!}`;
    expect(await syncSearch({ sql: t.database.sql, index })).toEqual({ upserted: 1, deleted: 1 });
    expect(fake.docs.has(ids['popular']!)).toBe(false);
    expect(fake.docs.get(ids['public']!)?.['isPublic']).toBe(false);
  });

  it('keeps the outbox when the engine fails a task, so the retry pushes it', async () => {
    await t.database.sql`update tools_story_prompts set title = 'The Lighthouse Keeper returns', is_public = true, share_type = 'public' where id = ${ids['public']!}`;
    fake.failNextTask = true;
    await expect(syncSearch({ sql: t.database.sql, index })).rejects.toThrow(/failed/);
    const [kept] = await t.database.sql<{ n: number }[]>`select count(*)::int as n from tools_search_changes where id = ${ids['public']!}`;
    expect(kept?.n).toBe(1);
    expect(await syncSearch({ sql: t.database.sql, index })).toEqual({ upserted: 1, deleted: 0 });
    expect(fake.docs.get(ids['public']!)?.['title']).toBe('The Lighthouse Keeper returns');
  });

  it('puts visibility in the engine filter, quoting what the caller sent', () => {
    const f = visibilityFilter({ sessionId: 'sess_"x" OR isPublic = true', userId: null }, undefined, 1000);
    expect(f).toContain('sessionId = "sess_\\"x\\" OR isPublic = true"');
    expect(f).toContain('expiresAt > 1000');
    expect(visibilityFilter({ sessionId: '', userId: null }, false, 1)).toContain('isPublic = true AND isPublic = false');
  });

  it('needs MEILI_URL when SEARCH_PROVIDER=meilisearch', () => {
    expect(() => loadConfig({ SEARCH_PROVIDER: 'meilisearch', NODE_ENV: 'test' })).toThrow(/MEILI_URL/);
  });
});
