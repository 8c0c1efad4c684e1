// Responses, analyze-response, saved prompts and collections through the real app and database.
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';
import { newContent, newResponse, newSession } from '../../test/content-factory';

let t: TestContext;
beforeAll(async () => {
  // Real limits: the responses allowance (5 a day anonymous) is part of what is tested here.
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1' });
});
afterAll(async () => t.close());

const as = (sessionId: string, extra: Record<string, string> = {}) => ({ 'x-session-id': sessionId, ...extra });
const post = (url: string, sessionId: string, payload: unknown, extra: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: as(sessionId, extra), payload: payload as Record<string, unknown> });
const responsesOf = async (promptId: string) =>
  t.database.sql`select title, session_id, is_public, deleted_at, word_count, character_count, moderation_status from tools_responses where prompt_id = ${promptId} order by created_at`;

describe('create and list', () => {
  it('creates a response in the spec shape, pending moderation, with an analytics event and the limit meta', async () => {
    const writer = newSession();
    const prompt = await newContent(t.database.sql, 'story-prompts');
    const res = await post(`/api/story-prompts/${prompt.id}/responses`, writer, { sessionId: writer, title: '  Low tide  ', content: 'The keeper’s letter said: “Come home.” She didn’t.' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.data).toMatchObject({
      id: expect.any(String),
      title: 'Low tide',
      content: 'The keeper’s letter said: “Come home.” She didn’t.',
      wordCount: 8,
      characterCount: 50,
      isPublic: false,
      moderationStatus: 'pending',
      promptId: prompt.id,
      isOwner: true,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(body.meta.rateLimit).toMatchObject({ limit: 5, remaining: 4 });
    expect(await responsesOf(prompt.id)).toEqual([
      { title: 'Low tide', session_id: writer, is_public: false, deleted_at: null, word_count: 8, character_count: 50, moderation_status: 'pending' },
    ]);
    const [event] = await t.database.sql`select event_type, event_data, session_id from tools_analytics where content_id = ${prompt.id}`;
    expect(event).toMatchObject({ event_type: 'response_created', session_id: writer, event_data: { responseId: body.data.id, wordCount: 8, isPublic: false } });
  });

  it('lists public responses plus the session’s own, newest first, paged, with public filter', async () => {
    const me = newSession();
    const prompt = await newContent(t.database.sql, 'horror-story-prompts');
    await newResponse(t.database.sql, prompt, { title: 'old public', isPublic: true, createdAt: new Date('2026-01-01T00:00:00Z') });
    await newResponse(t.database.sql, prompt, { title: 'mine private', sessionId: me, createdAt: new Date('2026-01-02T00:00:00Z') });
    await newResponse(t.database.sql, prompt, { title: 'other private', createdAt: new Date('2026-01-03T00:00:00Z') });
    await newResponse(t.database.sql, prompt, { title: 'rejected', isPublic: true, moderationStatus: 'rejected', createdAt: new Date('2026-01-04T00:00:00Z') });
    await newResponse(t.database.sql, prompt, { title: 'deleted', isPublic: true, deletedAt: new Date(), createdAt: new Date('2026-01-05T00:00:00Z') });
    await newResponse(t.database.sql, prompt, { title: 'new public', isPublic: true, createdAt: new Date('2026-01-06T00:00:00Z') });

    const titles = async (query: string, headers: Record<string, string> = {}) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/horror-story-prompts/${prompt.id}/responses${query}`, headers });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    expect((await titles('', as(me))).data.map((r: { title: string }) => r.title)).toEqual(['new public', 'mine private', 'old public']);
    expect((await titles('')).data.map((r: { title: string }) => r.title)).toEqual(['new public', 'old public']);
    expect((await titles(`?sessionId=${me}&public=false`)).data.map((r: { title: string }) => r.title)).toEqual(['mine private']);
    const page2 = await titles('?limit=1&page=2', as(me));
    expect(page2.data.map((r: { title: string }) => r.title)).toEqual(['mine private']);
    expect(page2.meta.pagination).toEqual({ page: 2, limit: 1, total: 3, totalPages: 3, hasNext: true, hasPrev: true });
    const first = (await titles('', as(me))).data[0];
    expect(first).toMatchObject({ viewCount: 0, likeCount: 0, shareCount: 0, qualityScore: null, wordCount: expect.any(Number), characterCount: expect.any(Number) });
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const writer = newSession();
    const prompt = await newContent(t.database.sql, 'story-prompts');
    const url = `/api/story-prompts/${prompt.id}/responses`;
    for (const [payload, field] of [
      [{ title: 'x'.repeat(201), content: 'ok' }, 'title'],
      [{ title: '   ', content: 'ok' }, 'title'],
      [{ content: 'ok' }, 'title'],
      [{ title: 'ok', content: '' }, 'content'],
      [{ title: 'ok', content: ' \n ' }, 'content'],
      [{ title: 'ok', content: 'y'.repeat(50_001) }, 'content'],
      [{ title: 'ok', content: 'ok', isPublic: 'yes' }, 'isPublic'],
    ] as const) {
      const res = await post(url, writer, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    // 200 emoji are 200 characters (code points), though 400 UTF-16 units: accepted.
    expect((await post(url, writer, { title: '🌊'.repeat(200), content: 'ok' })).statusCode).toBe(201);
    for (const limit of ['0', '1000', 'ten']) {
      const res = await t.app.inject({ method: 'GET', url: `${url}?limit=${limit}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'limit' });
    }
    const missing = await t.app.inject({ method: 'POST', url, payload: { title: 'a', content: 'b' } });
    expect(missing.json().error).toMatchObject({ code: 'MISSING_SESSION_ID', field: 'X-Session-ID' });
    const malformed = await post(url, 'not-a-session', { title: 'a', content: 'b' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.field).toBe('X-Session-ID');
    const mismatch = await post(url, writer, { sessionId: newSession(), title: 'a', content: 'b' });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json().error.code).toBe('ACCESS_DENIED');
    expect(await responsesOf(prompt.id)).toHaveLength(1);
  });

  it('answers PARENT_NOT_FOUND for missing, deleted, expired or someone else’s private content', async () => {
    const writer = newSession();
    const deleted = await newContent(t.database.sql, 'story-prompts', { deletedAt: new Date() });
    const expired = await newContent(t.database.sql, 'story-prompts', { expiresAt: new Date(Date.now() - 1000) });
    const privateOther = await newContent(t.database.sql, 'story-prompts', { isPublic: false });
    for (const id of [deleted.id, expired.id, privateOther.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await post(`/api/story-prompts/${id}/responses`, writer, { title: 'a', content: 'b' });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('PARENT_NOT_FOUND');
      expect((await t.app.inject({ method: 'GET', url: `/api/story-prompts/${id}/responses` })).json().error.code).toBe('PARENT_NOT_FOUND');
    }
    expect(await t.database.sql`select 1 from tools_responses where session_id = ${writer}`).toHaveLength(0);
    // The owner of the private item may respond to it.
    const mine = await newContent(t.database.sql, 'story-prompts', { isPublic: false, sessionId: writer });
    expect((await post(`/api/story-prompts/${mine.id}/responses`, writer, { title: 'a', content: 'b' })).statusCode).toBe(201);
  });

  it('limits anonymous sessions to 5 responses a day per tool (429 with details), signed-in users to 50', async () => {
    const writer = newSession();
    const prompt = await newContent(t.database.sql, 'comedy-prompts');
    const url = `/api/comedy-prompts/${prompt.id}/responses`;
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => post(url, writer, { title: `r${i}`, content: 'funny' })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
    const refused = results.find((r) => r.statusCode === 429)!;
    expect(refused.json()).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMIT_EXCEEDED', details: { currentUsage: 5, dailyLimit: 5, resetTime: expect.any(Number) } },
      meta: { rateLimit: { limit: 5, remaining: 0, retryAfter: expect.any(Number) }, conversionOpportunity: true },
    });
    expect(await responsesOf(prompt.id)).toHaveLength(5);
    const [hits] = await t.database.sql`select count(*)::int as n from tools_rate_limit_hits where scope = 'responses' and session_id = ${writer}`;
    expect(hits!['n']).toBe(3);
    // Another tool has its own daily allowance.
    const other = await newContent(t.database.sql, 'story-prompts');
    expect((await post(`/api/story-prompts/${other.id}/responses`, writer, { title: 'x', content: 'y' })).statusCode).toBe(201);

    const user = await sessionFor(t);
    const signedIn = await post(url, newSession(), { title: 'as user', content: 'ok' }, user.headers);
    expect(signedIn.statusCode).toBe(201);
    expect(signedIn.json().meta.rateLimit).toMatchObject({ limit: 50, remaining: 49 });
    const [row] = await t.database.sql`select user_id from tools_responses where id = ${signedIn.json().data.id}`;
    expect(row!['user_id']).toBe(user.userId);
  });
});

describe('get, update and delete', () => {
  it('gets a public response (counting the view) or one’s own; hides others’ private ones', async () => {
    const owner = newSession();
    const prompt = await newContent(t.database.sql, 'story-prompts');
    const pub = await newResponse(t.database.sql, prompt, { isPublic: true, sessionId: owner });
    const priv = await newResponse(t.database.sql, prompt, { sessionId: owner });
    const read = await t.app.inject({ method: 'GET', url: `/api/story-prompts/responses/${pub.id}` });
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toMatchObject({ id: pub.id, viewCount: 1, isOwner: false });
    expect((await t.app.inject({ method: 'GET', url: `/api/story-prompts/responses/${priv.id}`, headers: as(owner) })).json().data).toMatchObject({ isOwner: true, viewCount: 0 });
    for (const url of [`/api/story-prompts/responses/${priv.id}`, `/api/plot-twists/responses/${pub.id}`, '/api/story-prompts/responses/not-a-uuid']) {
      const res = await t.app.inject({ method: 'GET', url, headers: as(newSession()) });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('CONTENT_NOT_FOUND');
    }
  });

  it('lets only the owning session edit; new text goes back to moderation with fresh counts', async () => {
    const owner = newSession();
    const prompt = await newContent(t.database.sql, 'story-prompts');
    // Public, so a stranger may read it (and is refused a change with 403); a private one is 404 to them.
    const r = await newResponse(t.database.sql, prompt, { sessionId: owner, moderationStatus: 'approved', content: 'one two', isPublic: true });
    await t.database.sql`update tools_responses set quality_score = 70 where id = ${r.id}`;
    const url = `/api/story-prompts/responses/${r.id}`;

    const stranger = newSession();
    const hidden = await newResponse(t.database.sql, prompt, { sessionId: owner });
    const unseen = await t.app.inject({ method: 'PATCH', url: `/api/story-prompts/responses/${hidden.id}`, headers: as(stranger), payload: { sessionId: stranger, title: 'hijack' } });
    expect(unseen.statusCode).toBe(404);
    expect(unseen.json().error.code).toBe('CONTENT_NOT_FOUND');
    const denied = await t.app.inject({ method: 'PATCH', url, headers: as(stranger), payload: { sessionId: stranger, title: 'hijack' } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('ACCESS_DENIED');
    const borrowed = await t.app.inject({ method: 'PATCH', url, headers: as(stranger), payload: { sessionId: owner, title: 'hijack' } });
    expect(borrowed.statusCode).toBe(403);

    const titleOnly = await t.app.inject({ method: 'PATCH', url, headers: as(owner), payload: { sessionId: owner, title: 'Renamed', isPublic: true } });
    expect(titleOnly.statusCode).toBe(200);
    expect(titleOnly.json().data).toMatchObject({ title: 'Renamed', isPublic: true, moderationStatus: 'approved', qualityScore: 70 });

    const newText = await t.app.inject({ method: 'PATCH', url, headers: as(owner), payload: { sessionId: owner, content: 'three whole new words' } });
    expect(newText.json().data).toMatchObject({ content: 'three whole new words', wordCount: 4, characterCount: 21, moderationStatus: 'pending', qualityScore: null });

    const empty = await t.app.inject({ method: 'PATCH', url, headers: as(owner), payload: { sessionId: owner } });
    expect(empty.statusCode).toBe(400);
    const tooLong = await t.app.inject({ method: 'PATCH', url, headers: as(owner), payload: { sessionId: owner, title: 'x'.repeat(201) } });
    expect(tooLong.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'title' });
    const noSession = await t.app.inject({ method: 'PATCH', url, headers: as(owner), payload: { title: 'x' } });
    expect(noSession.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'sessionId' });

    const [row] = await t.database.sql`select title, content, is_public from tools_responses where id = ${r.id}`;
    expect(row).toEqual({ title: 'Renamed', content: 'three whole new words', is_public: true });

    await t.database.sql`update tools_story_prompts set deleted_at = now() where id = ${prompt.id}`;
    const orphan = await t.app.inject({ method: 'PATCH', url, headers: as(owner), payload: { sessionId: owner, title: 'late' } });
    expect(orphan.statusCode).toBe(404);
    expect(orphan.json().error.code).toBe('PARENT_NOT_FOUND');
  });

  it('soft-deletes for the owner only, with the reason kept', async () => {
    const owner = newSession();
    const prompt = await newContent(t.database.sql, 'story-prompts');
    const r = await newResponse(t.database.sql, prompt, { sessionId: owner, isPublic: true });
    const url = `/api/story-prompts/responses/${r.id}`;
    const other = newSession();
    const denied = await t.app.inject({ method: 'DELETE', url, headers: as(other), payload: { sessionId: other } });
    expect(denied.statusCode).toBe(403);
    const ok = await t.app.inject({ method: 'DELETE', url, headers: as(owner), payload: { sessionId: owner, reason: 'changed my mind' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ id: r.id, deleted: true, deletedAt: expect.any(String) });
    const [row] = await t.database.sql`select deleted_at is not null as gone, delete_reason from tools_responses where id = ${r.id}`;
    expect(row).toEqual({ gone: true, delete_reason: 'changed my mind' });
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url, headers: as(owner) })).statusCode).toBe(404);
  });

  it('lets a signed-in author edit from another session', async () => {
    const user = await sessionFor(t);
    const prompt = await newContent(t.database.sql, 'story-prompts');
    const r = await newResponse(t.database.sql, prompt, { userId: user.userId });
    const s = newSession();
    const res = await t.app.inject({ method: 'PATCH', url: `/api/story-prompts/responses/${r.id}`, headers: as(s, user.headers), payload: { sessionId: s, title: 'From my laptop' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.title).toBe('From my laptop');
  });
});

describe('story prompts: analyze, save, collections', () => {
  const storyContent = {
    title: 'The letter in the lamp room',
    prompt: 'A retired lighthouse keeper finds a letter hidden in the lamp room.',
    character: 'a retired lighthouse keeper who never left the island',
    setting: 'a storm-battered lighthouse on a northern island',
    conflict: 'the letter accuses her brother of a drowning',
    wordCountTarget: 120,
  };
  const goodResponse =
    'Maren climbed the lighthouse stairs as the storm battered the island. The lamp room smelled of salt and old smoke.\n\n' +
    'Behind the lens she found the letter, brittle and damp. It named her brother. It said the drowning was no accident.\n\n' +
    '“You knew,” she whispered to the dark water. The beam swept the rocks, again and again, and she did not cry.';

  it('analyzes a response offline, against the prompt’s elements, and stores the score for its owner', async () => {
    const owner = newSession();
    const prompt = await newContent(t.database.sql, 'story-prompts', { content: storyContent });
    const r = await newResponse(t.database.sql, prompt, { sessionId: owner, content: goodResponse });
    const res = await post('/api/story-prompts/analyze-response', owner, { responseId: r.id });
    expect(res.statusCode).toBe(200);
    const a = res.json().data;
    expect(a).toMatchObject({ analyzer: 'local-heuristic-v1', promptId: prompt.id, responseId: r.id, stored: true, paragraphCount: 3 });
    expect(a.wordCount).toBeGreaterThan(60);
    expect(a.promptElements.elements.map((e: { element: string; used: boolean }) => [e.element, e.used])).toEqual([
      ['character', true],
      ['setting', true],
      ['conflict', true],
    ]);
    expect(a.style.dialogueRatio).toBeGreaterThan(0);
    expect(a.style.sensoryDetails).toBeGreaterThanOrEqual(2);
    expect(a.qualityScore).toBeGreaterThan(50);
    const [row] = await t.database.sql`select quality_score::float8 as q from tools_responses where id = ${r.id}`;
    expect(row!['q']).toBe(a.qualityScore);

    const offTopic = (await post('/api/story-prompts/analyze-response', owner, { promptId: prompt.share_code, content: 'I like pizza. Pizza is good.' })).json().data;
    expect(offTopic.promptElements.coverage).toBe(0);
    expect(offTopic.qualityScore).toBeLessThan(a.qualityScore);
    expect(offTopic.stored).toBe(false);
    expect(offTopic.suggestions.join(' ')).toMatch(/character, setting, conflict/);

    // Someone else may analyse a public response but does not overwrite its stored score.
    await t.database.sql`update tools_responses set is_public = true where id = ${r.id}`;
    expect((await post('/api/story-prompts/analyze-response', newSession(), { responseId: r.id })).json().data.stored).toBe(false);
    const missing = await post('/api/story-prompts/analyze-response', owner, { promptId: prompt.id });
    expect(missing.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'content' });
  });

  it('saves a prompt once per session, lists and removes it', async () => {
    const me = newSession();
    const prompt = await newContent(t.database.sql, 'story-prompts', { content: storyContent, title: storyContent.title });
    const first = await post('/api/story-prompts/save', me, { promptId: prompt.id, sessionId: me, notes: 'for Sunday' });
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({ promptId: prompt.id, shareCode: prompt.share_code, title: storyContent.title, prompt: storyContent.prompt, notes: 'for Sunday' });
    const again = await post('/api/story-prompts/save', me, { promptId: prompt.share_code });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ id: first.json().data.id, notes: 'for Sunday' });
    expect(await t.database.sql`select 1 from tools_saved_prompts where session_id = ${me}`).toHaveLength(1);

    const list = await t.app.inject({ method: 'GET', url: '/api/story-prompts/saved', headers: as(me) });
    expect(list.json().data.map((s: { promptId: string }) => s.promptId)).toEqual([prompt.id]);
    expect(list.json().meta.pagination.total).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: '/api/story-prompts/saved', headers: as(newSession()) })).json().data).toEqual([]);

    const privateOther = await newContent(t.database.sql, 'story-prompts', { isPublic: false });
    expect((await post('/api/story-prompts/save', me, { promptId: privateOther.id })).statusCode).toBe(404);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/story-prompts/save/${prompt.id}`, headers: as(me) });
    expect(removed.json().data).toEqual({ promptId: prompt.id, removed: true });
    expect(await t.database.sql`select 1 from tools_saved_prompts where session_id = ${me}`).toHaveLength(0);
  });

  it('lists published collections with their public prompts, featured first, and one by slug', async () => {
    const p1 = await newContent(t.database.sql, 'story-prompts', { title: 'First in line' });
    const p2 = await newContent(t.database.sql, 'story-prompts', { title: 'Second in line' });
    const hidden = await newContent(t.database.sql, 'story-prompts', { title: 'Private one', isPublic: false });
    const [featured] = await t.database.sql`insert into tools_collections (tool, title, slug, is_featured) values ('story-prompts', 'Sea stories', 'sea-stories', true) returning id`;
    const [plain] = await t.database.sql`insert into tools_collections (tool, title, slug) values ('story-prompts', 'Winter', 'winter') returning id`;
    await t.database.sql`insert into tools_collections (tool, title, slug, is_published) values ('story-prompts', 'Draft', 'draft', false)`;
    await t.database.sql`insert into tools_collections (tool, title, slug) values ('plot-twists', 'Twists', 'twists')`;
    await t.database.sql`insert into tools_collection_items (collection_id, tool, content_id, position) values
      (${featured!['id']}, 'story-prompts', ${p2.id}, 2), (${featured!['id']}, 'story-prompts', ${p1.id}, 1), (${featured!['id']}, 'story-prompts', ${hidden.id}, 0)`;

    const list = await t.app.inject({ method: 'GET', url: '/api/story-prompts/collections' });
    expect(list.statusCode).toBe(200);
    const data = list.json().data;
    expect(data.map((c: { slug: string }) => c.slug)).toEqual(['sea-stories', 'winter']);
    expect(data[0]).toMatchObject({ title: 'Sea stories', isFeatured: true, itemCount: 2 });
    expect(data[0].prompts.map((p: { title: string }) => p.title)).toEqual(['First in line', 'Second in line']);
    expect(data[1]).toMatchObject({ id: plain!['id'], itemCount: 0, prompts: [] });

    const one = await t.app.inject({ method: 'GET', url: '/api/story-prompts/collections/sea-stories' });
    expect(one.json().data.prompts.map((p: { id: string }) => p.id)).toEqual([p1.id, p2.id]);
    expect((await t.app.inject({ method: 'GET', url: '/api/story-prompts/collections/draft' })).statusCode).toBe(404);
  });

  it('leaves the generic item route to its own handler (no route shadowing)', async () => {
    const prompt = await newContent(t.database.sql, 'story-prompts');
    const res = await t.app.inject({ method: 'GET', url: `/api/story-prompts/${prompt.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe(prompt.id);
  });
});
