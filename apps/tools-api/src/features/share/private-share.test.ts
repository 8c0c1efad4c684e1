// A "private" share (spec 002 share types public, private, expiring) is private on every route that can show
// the item: the item API by id and by share code, the public page, the embed page, the share API, exports by
// id and by share code, responses, lists and search, and a flipbook's PDF. A stranger gets exactly what an
// unknown code gets, and nothing is counted; the owner (same session or same account) still reads it
// through the API. The rule itself: shared/visibility.ts and its table test.
import { buildTestApp, generate, makePdf, installPdfWorkerForJest, multipartBody, newSessionId, sessionFor, type TestContext } from '../../test/helper';

installPdfWorkerForJest();

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const headersOf = (sessionId: string, extra: Record<string, string> = {}) => ({ 'x-session-id': sessionId, 'user-agent': 'jest', ...extra });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Record<string, string>, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url, headers, payload });

/** The error a stranger sees, without the parts that differ per request. */
const errorOf = (res: { statusCode: number; json(): { error?: { code?: string; message?: string } } }) => ({ status: res.statusCode, code: res.json().error?.code, message: res.json().error?.message });

async function privateItem(owner: string, bearer: Record<string, string> = {}) {
  const { data } = await generate(t, 'story-prompts', {}, { sessionId: owner, headers: bearer });
  const res = await post('/api/story-prompts/share', headersOf(owner, bearer), { contentId: data.id, shareType: 'private' });
  expect(res.statusCode).toBe(200);
  expect(res.json().data).toMatchObject({ shareType: 'private', isPublic: false });
  return data;
}

/** Every route that can show an item, by its id or share code. */
const surfaces = (id: string, code: string) => ({
  'item API by share code': { method: 'GET', url: `/api/story-prompts/${code}` },
  'item API by id': { method: 'GET', url: `/api/story-prompts/${id}` },
  'share API': { method: 'GET', url: `/api/story-prompts/share/${code}` },
  'export by share code': { method: 'POST', url: `/api/story-prompts/${code}/export`, payload: { format: 'json' } },
  'export by id': { method: 'POST', url: `/api/story-prompts/${id}/export`, payload: { format: 'json' } },
  responses: { method: 'GET', url: `/api/story-prompts/${id}/responses` },
});

describe('a private item', () => {
  it('is 404 to strangers on every API route, exactly as an unknown code, and counts nothing', async () => {
    const owner = newSessionId();
    const item = await privateItem(owner);
    const [before] = await t.database.sql`select view_count, export_count from tools_story_prompts where id = ${item.id}`;
    const stranger = await sessionFor(t);
    const callers: Record<string, Record<string, string>> = {
      anonymous: { 'user-agent': 'jest' },
      'another session': headersOf(newSessionId()),
      'another account': headersOf(newSessionId(), stranger.headers),
    };
    const unknown = surfaces('00000000-0000-4000-8000-00000000dead', 'sp_nothinghere');
    for (const [who, headers] of Object.entries(callers)) {
      for (const [name, route] of Object.entries(surfaces(item.id, item.shareCode))) {
        const missing = unknown[name as keyof typeof unknown];
        const res = await t.app.inject({ method: route.method as 'GET', url: route.url, headers, ...('payload' in route ? { payload: route.payload } : {}) });
        const gone = await t.app.inject({ method: missing.method as 'GET', url: missing.url, headers, ...('payload' in missing ? { payload: missing.payload } : {}) });
        expect([who, name, errorOf(res)]).toEqual([who, name, errorOf(gone)]);
        // Routes that need a session refuse an anonymous caller before looking (400 MISSING_SESSION_ID, the same for any id).
        const expected = who === 'anonymous' && res.json().error?.code === 'MISSING_SESSION_ID' ? 400 : 404;
        expect([who, name, res.statusCode]).toEqual([who, name, expected]);
        expect(res.body).not.toContain(item.title);
      }
    }
    expect((await t.database.sql`select view_count, export_count from tools_story_prompts where id = ${item.id}`)[0]).toEqual(before);
  });

  it('has no public or embed page (404 like an unknown code), for anyone', async () => {
    const owner = newSessionId();
    const item = await privateItem(owner);
    for (const url of [`/story-prompts/${item.shareCode}/`, `/embed/story-prompts/${item.shareCode}/`]) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain(item.title);
      expect(res.body).toBe((await get(url.replace(item.shareCode, 'sp_nothinghere'))).body);
      // A page visit carries no tools session: the owner has no page either (they read it through the API).
      expect((await get(url, headersOf(owner))).statusCode).toBe(404);
    }
  });

  it('is left out of browse lists and search for everyone but its owner', async () => {
    const owner = newSessionId();
    const item = await privateItem(owner);
    const listed = async (headers: Record<string, string>) => (await get('/api/story-prompts?limit=100', headers)).json().data.map((i: { id: string }) => i.id);
    expect(await listed(headersOf(newSessionId()))).not.toContain(item.id);
    expect(await listed(headersOf(owner))).toContain(item.id);
    const word = encodeURIComponent(item.title.split(/\s+/).find((w) => w.length > 4) ?? item.title);
    const found = async (headers: Record<string, string>) => (await get(`/api/search?q=${word}&limit=50`, headers)).json().data.content.map((i: { id: string }) => i.id);
    expect(await found(headersOf(newSessionId()))).not.toContain(item.id);
  });

  it('stays readable for its owner by session and by account, through the item API, share API and exports', async () => {
    const user = await sessionFor(t);
    const session = newSessionId();
    const item = await privateItem(session, user.headers);
    for (const headers of [headersOf(session), headersOf(newSessionId(), user.headers)]) {
      for (const [name, route] of Object.entries(surfaces(item.id, item.shareCode))) {
        const res = await t.app.inject({ method: route.method as 'GET', url: route.url, headers, ...('payload' in route ? { payload: route.payload } : {}) });
        expect([name, res.statusCode]).toEqual([name, 200]);
      }
    }
  });

  it('a flipbook made private serves its PDF to its owner only, never to a shared cache', async () => {
    const owner = newSessionId();
    const pdf = await makePdf(['Page one.', 'Page two.'], 'Private book');
    const body = multipartBody({ filename: 'book.pdf', type: 'application/pdf', data: pdf });
    const created = await t.app.inject({ method: 'POST', url: '/api/flipbook/create', headers: { ...headersOf(owner), ...body.headers }, payload: body.payload });
    expect(created.statusCode).toBe(201);
    const { id, shareCode } = created.json().data;
    // Unlisted at first: the link opens it, but no shared cache may keep it.
    const unlisted = await get(`/api/flipbook/${shareCode}/pdf`);
    expect(unlisted.statusCode).toBe(200);
    expect(unlisted.headers['cache-control']).toBe('private, no-store');
    expect((await post('/api/flipbook/share', headersOf(owner), { contentId: id, shareType: 'private' })).statusCode).toBe(200);
    expect((await get(`/api/flipbook/${shareCode}/pdf`)).statusCode).toBe(404);
    expect((await get(`/api/flipbook/${shareCode}/pdf`, headersOf(newSessionId()))).statusCode).toBe(404);
    expect((await get(`/flipbook/${shareCode}/`)).statusCode).toBe(404);
    const own = await get(`/api/flipbook/${shareCode}/pdf`, headersOf(owner));
    expect(own.statusCode).toBe(200);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('an item nobody made private', () => {
  it('is unlisted after generation: its link and pages open it, lists and search do not show it', async () => {
    const owner = newSessionId();
    const { data } = await generate(t, 'story-prompts', {}, { sessionId: owner });
    expect((await get(`/api/story-prompts/${data.shareCode}`)).statusCode).toBe(200);
    expect((await get(`/api/story-prompts/share/${data.shareCode}`)).statusCode).toBe(200);
    expect((await get(`/story-prompts/${data.shareCode}/`)).statusCode).toBe(200);
    expect((await get(`/api/story-prompts/${data.id}`, headersOf(newSessionId()))).statusCode).toBe(404);
    const listed = (await get('/api/story-prompts?limit=100', headersOf(newSessionId()))).json().data.map((i: { id: string }) => i.id);
    expect(listed).not.toContain(data.id);
  });
});
