import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';
import { newContent, newResponse, newSession } from '../../test/content-factory';
import { COUNT_CAP } from './search.service';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const search = (query: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/search?${query}`, headers });

describe('GET /api/search', () => {
  const owner = newSession();
  beforeAll(async () => {
    // Ranking: the title and repeated terms of "best" outweigh a single passing mention in "weak".
    await newContent(t.database.sql, 'story-prompts', {
      title: 'The Lighthouse Keeper’s Letter',
      content: { prompt: 'A lighthouse keeper finds a letter in the lighthouse lamp room. The lighthouse has been dark for years.' },
      keywords: ['lighthouse', 'mystery', 'letters'],
      createdAt: new Date('2026-01-01T00:00:00Z'),
      viewCount: 5,
    });
    await newContent(t.database.sql, 'plot-twists', {
      title: 'The harbour master',
      content: { twist: 'The harbour master was never on the boat; a lighthouse beam proves it.' },
      keywords: ['harbour', 'twist'],
      createdAt: new Date('2026-02-01T00:00:00Z'),
      viewCount: 50,
    });
    await newContent(t.database.sql, 'horror-story-prompts', {
      title: 'Fog on the lighthouse stairs',
      content: { prompt: 'Something climbs the lighthouse stairs every night at three.' },
      keywords: ['horror', 'lighthouse'],
      createdAt: new Date('2026-03-01T00:00:00Z'),
      viewCount: 1,
    });
    // Not visible to strangers: private, someone's own; soft-deleted; expired; expired share link.
    await newContent(t.database.sql, 'story-prompts', { title: 'Private lighthouse diary', isPublic: false, sessionId: owner });
    await newContent(t.database.sql, 'story-prompts', { title: 'Deleted lighthouse', deletedAt: new Date() });
    await newContent(t.database.sql, 'story-prompts', { title: 'Expired lighthouse', expiresAt: new Date(Date.now() - 1000) });
    await newContent(t.database.sql, 'story-prompts', { title: 'Link gone lighthouse', shareType: 'expiring', shareExpiresAt: new Date(Date.now() - 1000) });
    const parent = await newContent(t.database.sql, 'story-prompts', { title: 'Unrelated seaside prompt', content: { prompt: 'Gulls over the pier.' } });
    await newResponse(t.database.sql, parent, { title: 'My lighthouse story', content: 'The lighthouse keeper wrote back.', isPublic: true });
    await newResponse(t.database.sql, parent, { title: 'Rejected lighthouse', content: 'lighthouse spam', isPublic: true, moderationStatus: 'rejected' });
    await newResponse(t.database.sql, parent, { title: 'Draft lighthouse', content: 'lighthouse draft', isPublic: false, sessionId: owner });
  });

  it('ranks matches across tools and responses, with facets, excerpts and pagination meta', async () => {
    const res = await search('q=lighthouse');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const titles = body.data.content.map((h: { title: string }) => h.title);
    expect(titles).toEqual(expect.arrayContaining(['The Lighthouse Keeper’s Letter', 'The harbour master', 'Fog on the lighthouse stairs', 'My lighthouse story']));
    expect(titles).toHaveLength(4);
    expect(titles[0]).toBe('The Lighthouse Keeper’s Letter');
    const scores = body.data.content.map((h: { relevanceScore: number }) => h.relevanceScore);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores.every((s: number) => s > 0 && s < 1)).toBe(true);
    const first = body.data.content[0];
    expect(first).toMatchObject({ tool: 'story-prompts', type: 'content', shareCode: expect.any(String), createdAt: '2026-01-01T00:00:00.000Z' });
    expect(first.excerpt).toMatch(/lighthouse/i);
    expect(first.excerpt).not.toMatch(/[{}"]/); // the JSON's strings, not its syntax
    const response = body.data.content.find((h: { type: string }) => h.type === 'responses');
    expect(response).toMatchObject({ title: 'My lighthouse story', tool: 'story-prompts', promptId: expect.any(String) });
    expect(response.shareCode).toBeUndefined();

    expect(body.data.facets.types).toEqual([
      { name: 'content', count: 3 },
      { name: 'responses', count: 1 },
    ]);
    expect(body.data.facets.tools).toEqual([
      { name: 'story-prompts', count: 2 },
      { name: 'horror-story-prompts', count: 1 },
      { name: 'plot-twists', count: 1 },
    ]);
    expect(body.meta).toMatchObject({ query: 'lighthouse', totalResults: 4, pagination: { page: 1, limit: 20, total: 4, totalPages: 1, hasNext: false, hasPrev: false } });
    expect(body.meta.processingTime).toEqual(expect.any(Number));
  });

  it('filters by type and tools, keeps facets over everything, and sorts by date or popularity', async () => {
    const onlyContent = (await search('q=lighthouse&type=content&tools=plot-twists,horror-story-prompts')).json();
    expect(onlyContent.data.content.map((h: { title: string }) => h.title).sort()).toEqual(['Fog on the lighthouse stairs', 'The harbour master']);
    expect(onlyContent.meta.totalResults).toBe(2);
    expect(onlyContent.data.facets.types).toEqual([
      { name: 'content', count: 3 },
      { name: 'responses', count: 1 },
    ]);

    const responsesOnly = (await search('q=lighthouse&type=responses')).json();
    expect(responsesOnly.data.content.map((h: { title: string }) => h.title)).toEqual(['My lighthouse story']);

    const byDate = (await search('q=lighthouse&type=content&sort=date')).json();
    expect(byDate.data.content.map((h: { title: string }) => h.title)).toEqual(['Fog on the lighthouse stairs', 'The harbour master', 'The Lighthouse Keeper’s Letter']);
    const popular = (await search('q=lighthouse&type=content&sort=popular')).json();
    expect(popular.data.content[0].title).toBe('The harbour master');
  });

  it('pages through the merged results without overlap', async () => {
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const body = (await search(`q=lighthouse&limit=2&page=${page}`)).json();
      expect(body.meta.pagination).toMatchObject({ page, limit: 2, total: 4, totalPages: 2, hasNext: page < 2, hasPrev: page > 1 });
      seen.push(...body.data.content.map((h: { id: string }) => h.id));
      if (page === 3) expect(body.data.content).toEqual([]);
    }
    expect(seen).toHaveLength(4);
    expect(new Set(seen).size).toBe(4);
  });

  it('shows the caller’s own private items to that session only, and public=false gives only those', async () => {
    const mine = (await search('q=lighthouse', { 'x-session-id': owner })).json();
    const titles = mine.data.content.map((h: { title: string }) => h.title);
    expect(titles).toEqual(expect.arrayContaining(['Private lighthouse diary', 'Draft lighthouse']));
    expect(titles).not.toEqual(expect.arrayContaining(['Deleted lighthouse']));
    expect(mine.meta.totalResults).toBe(6);
    const viaQuery = (await search(`q=lighthouse&sessionId=${owner}&public=false`)).json();
    expect(viaQuery.data.content.map((h: { title: string }) => h.title).sort()).toEqual(['Draft lighthouse', 'Private lighthouse diary']);

    const stranger = (await search('q=lighthouse', { 'x-session-id': newSession() })).json();
    for (const hidden of ['Private lighthouse diary', 'Draft lighthouse', 'Deleted lighthouse', 'Expired lighthouse', 'Link gone lighthouse', 'Rejected lighthouse']) {
      expect(stranger.data.content.map((h: { title: string }) => h.title)).not.toContain(hidden);
    }
  });

  it('finds a signed-in user’s own items from any session', async () => {
    const user = await sessionFor(t);
    await newContent(t.database.sql, 'memory-prompts', { title: 'Grandma’s lighthouse summer', isPublic: false, userId: user.userId });
    const other = (await search('q=lighthouse&tools=memory-prompts', { ...user.headers, 'x-session-id': newSession() })).json();
    expect(other.data.content.map((h: { title: string }) => h.title)).toEqual(['Grandma’s lighthouse summer']);
    const anonymous = (await search('q=lighthouse&tools=memory-prompts')).json();
    expect(anonymous.data.content).toEqual([]);
  });

  it('understands web-search syntax: phrases and exclusions', async () => {
    const phrase = (await search(`q=${encodeURIComponent('"lighthouse stairs"')}`)).json();
    expect(phrase.data.content.map((h: { title: string }) => h.title)).toEqual(['Fog on the lighthouse stairs']);
    const excluded = (await search(`q=${encodeURIComponent('lighthouse -harbour -stairs')}&type=content`)).json();
    expect(excluded.data.content.map((h: { title: string }) => h.title)).toEqual(['The Lighthouse Keeper’s Letter']);
  });

  it('suggests related keywords and prefix matches when little is found', async () => {
    const partial = (await search('q=lighth')).json();
    expect(partial.data.content).toEqual([]);
    expect(partial.data.suggestions).toEqual(expect.arrayContaining(['The Lighthouse Keeper’s Letter', 'Fog on the lighthouse stairs']));
    expect(partial.data.suggestions).not.toContain('Private lighthouse diary');
    const found = (await search('q=lighthouse')).json();
    expect(found.data.suggestions).toEqual(expect.arrayContaining(['mystery', 'horror']));
    expect(found.data.suggestions).not.toContain('lighthouse');
  });

  it('caps counts for very common words and still pages them newest first, ranking among the newest matches', async () => {
    // 250 public first lines mentioning "zephyr", one minute apart; the newest but one repeats it.
    await t.database.sql`
      insert into tools_first_lines (share_code, session_id, title, content, is_public, share_type, created_at)
      select 'fl_z' || g, 'sess_1700000000_zephyr', 'Zephyr line ' || g,
             jsonb_build_object('line', case when g = 249 then 'zephyr zephyr zephyr, the zephyr again' else 'A zephyr crossed the bay, number ' || g end),
             true, 'public', now() - ((250 - g) || ' minutes')::interval
      from generate_series(1, 250) g`;
    const byDate = (await search('q=zephyr&sort=date&limit=5')).json();
    expect(byDate.data.content.map((h: { title: string }) => h.title)).toEqual(['Zephyr line 250', 'Zephyr line 249', 'Zephyr line 248', 'Zephyr line 247', 'Zephyr line 246']);
    expect(byDate.data.facets.tools).toEqual([{ name: 'first-line-generator', count: COUNT_CAP }]);
    expect(byDate.meta.totalResults).toBe(COUNT_CAP);
    const page3 = (await search('q=zephyr&sort=date&limit=5&page=3')).json();
    expect(page3.data.content.map((h: { title: string }) => h.title)).toEqual(['Zephyr line 240', 'Zephyr line 239', 'Zephyr line 238', 'Zephyr line 237', 'Zephyr line 236']);
    const relevant = (await search('q=zephyr&limit=3')).json();
    expect(relevant.data.content[0].title).toBe('Zephyr line 249');
    expect(relevant.data.content).toHaveLength(3);
  });

  it('never fails on odd queries and refuses bad parameters naming the field', async () => {
    for (const q of ['"unclosed', '-', 'or or or', '!!! & | :*', 'the', "'; drop table tools_story_prompts; --"]) {
      const res = await search(`q=${encodeURIComponent(q)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().success).toBe(true);
    }
    for (const [query, field] of [
      ['', 'q'],
      ['q=%20%20', 'q'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['q=a&limit=0', 'limit'],
      ['q=a&limit=1000', 'limit'],
      ['q=a&page=0', 'page'],
      ['q=a&type=everything', 'type'],
      ['q=a&tools=exe', 'tools'],
      ['q=a&sort=random', 'sort'],
      ['q=a&public=maybe', 'public'],
    ] as const) {
      const res = await search(query);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    expect((await t.database.sql`select count(*)::int as n from tools_story_prompts`)[0]!['n']).toBeGreaterThan(0);
  });
});

it('documents every T-B route in the OpenAPI document', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  const ids = Object.values(res.json().paths as Record<string, Record<string, { operationId?: string }>>).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
  expect(ids).toEqual(
    expect.arrayContaining([
      'searchTools',
      'exportToolContent',
      'createResponse',
      'listResponses',
      'getResponse',
      'updateResponse',
      'deleteResponse',
      'analyzeStoryResponse',
      'saveStoryPrompt',
      'unsaveStoryPrompt',
      'listSavedStoryPrompts',
      'listStoryPromptCollections',
      'getStoryPromptCollection',
      'shareToolContent',
      'getSharedToolContent',
      'updateFlashcardDeck',
      'deleteFlashcardDeck',
      'recordToolAnalyticsEvent',
      'getToolContentAnalytics',
    ]),
  );
});
