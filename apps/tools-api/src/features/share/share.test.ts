// POST /api/:tool/share and GET /api/:tool/share/:shareCode through the real app.
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';
import { newContent, newResponse, newSession } from '../../test/content-factory';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const share = (tool: string, sessionId: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/${tool}/share`, headers: { 'x-session-id': sessionId, ...headers }, payload });
const open = (tool: string, code: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/${tool}/share/${code}`, headers });
const rowOf = async (id: string) =>
  (await t.database.sql`select is_public, share_type, share_expires_at is not null as has_expiry, share_count, view_count from tools_story_prompts where id = ${id}`)[0];

describe('share', () => {
  it('lets the owner make a link public, private or expiring, counting each share with its platform', async () => {
    const owner = newSession();
    const item = await newContent(t.database.sql, 'story-prompts', { isPublic: false, sessionId: owner });

    const pub = await share('story-prompts', owner, { contentId: item.id, sessionId: owner, platform: 'Twitter' });
    expect(pub.statusCode).toBe(200);
    expect(pub.json().data).toEqual({
      shareCode: item.share_code,
      shareUrl: `http://127.0.0.1:3002/story-prompts/${item.share_code}/`,
      shareType: 'public',
      isPublic: true,
      shareCount: 1,
      createdAt: expect.any(String),
    });
    expect(await rowOf(item.id)).toMatchObject({ is_public: true, share_type: 'public', has_expiry: false, share_count: 1 });

    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const expiring = await share('story-prompts', owner, { contentId: item.share_code, shareType: 'expiring', expiresAt: until });
    expect(expiring.json().data).toMatchObject({ shareType: 'expiring', expiresAt: until, shareCount: 2 });
    expect(await rowOf(item.id)).toMatchObject({ is_public: true, share_type: 'expiring', has_expiry: true, share_count: 2 });

    const priv = await share('story-prompts', owner, { contentId: item.id, shareType: 'private' });
    expect(priv.json().data).toMatchObject({ shareType: 'private', isPublic: false, shareCount: 3 });
    expect(priv.json().data.expiresAt).toBeUndefined();
    expect(await rowOf(item.id)).toMatchObject({ is_public: false, share_type: 'private', has_expiry: false });

    const events = await t.database.sql`select event_data->>'platform' as platform, event_data->>'shareType' as type from tools_analytics where content_id = ${item.id} and event_type = 'share' order by created_at`;
    expect(events.map((e) => [e['platform'], e['type']])).toEqual([
      ['twitter', 'public'],
      ['link', 'expiring'],
      ['link', 'private'],
    ]);
  });

  it('refuses bad expiry input naming the field, changing nothing', async () => {
    const owner = newSession();
    const item = await newContent(t.database.sql, 'story-prompts', { sessionId: owner });
    for (const [payload, field] of [
      [{ shareType: 'expiring' }, 'expiresAt'],
      [{ shareType: 'expiring', expiresAt: new Date(Date.now() - 60_000).toISOString() }, 'expiresAt'],
      [{ shareType: 'expiring', expiresAt: new Date(Date.now() + 400 * 86_400_000).toISOString() }, 'expiresAt'],
      [{ shareType: 'expiring', expiresAt: 'next tuesday' }, 'expiresAt'],
      [{ shareType: 'public', expiresAt: new Date(Date.now() + 60_000).toISOString() }, 'expiresAt'],
      [{ shareType: 'secret' }, 'shareType'],
      [{ platform: 'a platform with spaces' }, 'platform'],
    ] as const) {
      const res = await share('story-prompts', owner, { contentId: item.id, ...payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field });
    }
    expect(await rowOf(item.id)).toMatchObject({ share_type: 'public', share_count: 0 });
  });

  it('lets others share a public item (counted) but not change it; someone else’s private item is not found', async () => {
    const owner = newSession();
    const item = await newContent(t.database.sql, 'story-prompts', { sessionId: owner });
    const visitor = newSession();
    const shared = await share('story-prompts', visitor, { contentId: item.id, platform: 'email' });
    expect(shared.statusCode).toBe(200);
    expect(shared.json().data).toMatchObject({ shareType: 'public', shareCount: 1 });
    const change = await share('story-prompts', visitor, { contentId: item.id, shareType: 'private' });
    expect(change.statusCode).toBe(403);
    expect(change.json().error.code).toBe('ACCESS_DENIED');
    expect(await rowOf(item.id)).toMatchObject({ share_type: 'public', is_public: true, share_count: 1 });

    const hidden = await newContent(t.database.sql, 'story-prompts', { sessionId: owner, isPublic: false });
    expect((await share('story-prompts', visitor, { contentId: hidden.id })).statusCode).toBe(404);
    expect((await share('story-prompts', visitor, { contentId: 'sp_doesnotexist' })).json().error.code).toBe('CONTENT_NOT_FOUND');
    expect((await t.app.inject({ method: 'POST', url: '/api/story-prompts/share', payload: { contentId: item.id } })).json().error.code).toBe('MISSING_SESSION_ID');
  });

  it('opens a shared item with analytics and its public responses, counting the view', async () => {
    const item = await newContent(t.database.sql, 'story-prompts', { title: 'Shared one', viewCount: 4, shareCount: 2 });
    await t.database.sql`update tools_story_prompts set rating_sum = 9, rating_count = 2 where id = ${item.id}`;
    await newResponse(t.database.sql, item, { title: 'public reply', isPublic: true, content: 'one two three' });
    await newResponse(t.database.sql, item, { title: 'private reply' });
    await newResponse(t.database.sql, item, { title: 'rejected reply', isPublic: true, moderationStatus: 'rejected' });
    const res = await open('story-prompts', item.share_code);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toMatchObject({
      id: item.id,
      shareCode: item.share_code,
      title: 'Shared one',
      shareType: 'public',
      content: expect.any(Object),
      seoMetadata: { title: 'Shared one | Free writing tool', description: expect.any(String), keywords: ['writing', 'story-prompts'] },
      analytics: { viewCount: 5, shareCount: 2, responseCount: 1, averageRating: 4.5 },
      responses: [{ id: expect.any(String), title: 'public reply', content: 'one two three', wordCount: 3, isPublic: true, createdAt: expect.any(String) }],
    });
    expect(body.meta.conversionOpportunity).toBe(true);
    expect(await rowOf(item.id)).toMatchObject({ view_count: 5 });
    const [view] = await t.database.sql`select event_data->>'source' as source from tools_analytics where content_id = ${item.id} and event_type = 'view'`;
    expect(view!['source']).toBe('share');

    const user = await sessionFor(t);
    expect((await open('story-prompts', item.share_code, user.headers)).json().meta.conversionOpportunity).toBe(false);
  });

  it('shows a private link to its owner only, and answers 404 for expired links, expired or deleted content and unknown codes', async () => {
    const owner = newSession();
    const user = await sessionFor(t);
    const priv = await newContent(t.database.sql, 'story-prompts', { sessionId: owner, shareType: 'private' });
    const ownedByAccount = await newContent(t.database.sql, 'story-prompts', { userId: user.userId, shareType: 'private' });
    expect((await open('story-prompts', priv.share_code, { 'x-session-id': owner })).statusCode).toBe(200);
    expect((await open('story-prompts', `${priv.share_code}?sessionId=${owner}`)).statusCode).toBe(200);
    expect((await open('story-prompts', priv.share_code)).statusCode).toBe(404);
    expect((await open('story-prompts', priv.share_code, { 'x-session-id': newSession() })).statusCode).toBe(404);
    expect((await open('story-prompts', ownedByAccount.share_code, user.headers)).statusCode).toBe(200);

    const live = await newContent(t.database.sql, 'story-prompts', { shareType: 'expiring', shareExpiresAt: new Date(Date.now() + 60_000) });
    const res = await open('story-prompts', live.share_code);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.expiresAt).toEqual(expect.any(String));
    const lapsed = await newContent(t.database.sql, 'story-prompts', { sessionId: owner, shareType: 'expiring', shareExpiresAt: new Date(Date.now() - 60_000) });
    const expiredContent = await newContent(t.database.sql, 'story-prompts', { expiresAt: new Date(Date.now() - 60_000) });
    const deleted = await newContent(t.database.sql, 'story-prompts', { deletedAt: new Date() });
    for (const code of [lapsed.share_code, expiredContent.share_code, deleted.share_code, 'sp_nothing', live.id]) {
      const r = await open('story-prompts', code, { 'x-session-id': owner });
      expect(r.statusCode).toBe(404);
      expect(r.json().error.code).toBe('CONTENT_NOT_FOUND');
    }
    expect((await open('plot-twists', live.share_code)).statusCode).toBe(404);
    expect((await t.database.sql`select view_count from tools_story_prompts where id = ${lapsed.id}`)[0]!['view_count']).toBe(0);
  });

  describe('flashcard deck metadata and delete', () => {
    const deck = { title: 'Rivers', deckName: 'Rivers', cards: [{ front: 'Longest river?', back: 'The Nile' }], cardCount: 1 };

    it('lets the owner rename, describe and hide a deck', async () => {
      const owner = newSession();
      const item = await newContent(t.database.sql, 'flashcards', { sessionId: owner, title: 'Rivers', content: deck });
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/flashcards/${item.share_code}`,
        headers: { 'x-session-id': owner },
        payload: { deckName: 'World rivers', description: 'Geography week 3', isPublic: false },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: item.id, title: 'World rivers', deckName: 'World rivers', description: 'Geography week 3', isPublic: false, shareType: 'private', cardCount: 1 });
      const [row] = await t.database.sql`select title, is_public, content->>'deckName' as deck, content->'cards'->0->>'back' as back from tools_flashcards where id = ${item.id}`;
      expect(row).toEqual({ title: 'World rivers', is_public: false, deck: 'World rivers', back: 'The Nile' });
      const empty = await t.app.inject({ method: 'PATCH', url: `/api/flashcards/${item.id}`, headers: { 'x-session-id': owner }, payload: {} });
      expect(empty.statusCode).toBe(400);
    });

    it('refuses other sessions (403 on a public deck, 404 on a private one) and deletes with everything attached', async () => {
      const owner = newSession();
      const stranger = newSession();
      const pub = await newContent(t.database.sql, 'flashcards', { sessionId: owner, content: deck });
      const priv = await newContent(t.database.sql, 'flashcards', { sessionId: owner, content: deck, isPublic: false });
      const patch = (code: string, session: string) => t.app.inject({ method: 'PATCH', url: `/api/flashcards/${code}`, headers: { 'x-session-id': session }, payload: { deckName: 'Mine now' } });
      expect((await patch(pub.share_code, stranger)).json().error.code).toBe('ACCESS_DENIED');
      expect((await patch(priv.share_code, stranger)).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'DELETE', url: `/api/flashcards/${pub.share_code}`, headers: { 'x-session-id': stranger } })).statusCode).toBe(403);

      const response = await newResponse(t.database.sql, pub, { isPublic: true });
      await t.database.sql`insert into tools_saved_prompts (tool, content_id, session_id) values ('flashcards', ${pub.id}, ${stranger})`;
      const del = await t.app.inject({ method: 'DELETE', url: `/api/flashcards/${pub.share_code}`, headers: { 'x-session-id': owner } });
      expect(del.statusCode).toBe(200);
      expect(del.json().data).toEqual({ id: pub.id, deleted: true });
      const [gone] = await t.database.sql`select deleted_at is not null as gone from tools_flashcards where id = ${pub.id}`;
      expect(gone!['gone']).toBe(true);
      const [r] = await t.database.sql`select deleted_at is not null as gone from tools_responses where id = ${response.id}`;
      expect(r!['gone']).toBe(true);
      expect(await t.database.sql`select 1 from tools_saved_prompts where content_id = ${pub.id}`).toHaveLength(0);
      expect((await open('flashcards', pub.share_code)).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `/api/flashcards/${pub.share_code}` })).statusCode).toBe(404);
    });
  });
});
