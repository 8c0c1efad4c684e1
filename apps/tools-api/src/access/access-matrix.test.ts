// Access matrix of tools-api (spec 002 Authentication): every route of the OpenAPI document that takes an id
// or a share code, called as each of the ten actors of libs/testing's access matrix, answers what spec 002
// allows, and a refusal (400 for a missing session, 401, 403, 404) never differs between an existing and a
// missing id. Then the token attacks of CONTRACTS §2: 401 in the tools-api envelope, never a quiet fall back
// to an anonymous visitor.
//
// Who is who here: the owner is a signed-in account that generated the items in its own tools session
// (spec 002 Authentication 2: "authenticated sessions are linked to an account"). Family roles mean
// nothing to the free tools, so contributor, viewer and removed are, like the stranger, other signed-in
// accounts with sessions of their own. toolsSession is an anonymous visitor with a valid X-Session-ID of
// its own; anonymous sends neither a token nor a session. Support and admin hold those roles; the
// impersonator is an admin's impersonation of the owner (CONTRACTS §7), in a session of its own.
//
// Rules, with where they come from:
// - Generated content is private until made public (spec 002 Content record: is_public default false):
//   its owner (same session or same account, CONTRACTS §6) sees it; admins review it (spec 002 "Admins
//   review, feature and bulk-generate content") and support reads what admins read (CONTRACTS §7), so
//   staff see it too; anyone else gets 404, as for an id that does not exist.
// - Responses: ownership by session (spec 002 Authentication 3); a private response is its owner's alone.
// - A share code is a link (spec 002 API shapes: share links; public pages `/{tool}/{shareCode}/`):
//   holders of a live public link see the item; a private link opens for its owner and staff.
// - Changing an item is its owner's; of staff only admin may change (CONTRACTS §7: support never changes).
// - Analytics reading and /api/admin/* are admin only (spec 002 Authentication 4): 401 without a token.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTokenSigner } from '@story/auth';
import {
  ACCESS_ACTORS,
  describeAccess,
  expectFor,
  endedSessionProblems,
  forgedTokenProblems,
  type TokenAttackTarget,
  idRoutesOfAll,
  matrixCoverage,
  runAccessMatrix,
  type AccessActor,
  type AnyAccessCase,
  type Expected,
} from '@story/testing';
import { buildTestApp, installPdfWorkerForJest, makePdf, multipartBody, newIp, newSessionId, sessionFor, type TestContext } from '../test/helper';
import { newContent, newResponse } from '../test/content-factory';

let t: TestContext;
type Account = Awaited<ReturnType<typeof sessionFor>>;
let who: Record<'owner' | 'contributor' | 'viewer' | 'removed' | 'stranger' | 'support' | 'admin', Account>;
let sessions: Record<AccessActor, string | null>;
let headers: Record<AccessActor, Record<string, string>>;
let impersonation: string;

const VOCABULARY: Record<string, string> = { tool: 'a tool route name (one of the sixteen tools)' };
const TOOL = 'story-prompts';

beforeAll(async () => {
  installPdfWorkerForJest();
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100000' });
  const sql = t.database.sql;
  who = {
    owner: await sessionFor(t),
    contributor: await sessionFor(t),
    viewer: await sessionFor(t),
    removed: await sessionFor(t),
    stranger: await sessionFor(t),
    support: await sessionFor(t, 'support'),
    admin: await sessionFor(t, 'admin'),
  };
  const [group] = await sql<{ id: string }[]>`insert into family_groups (created_by, name) values (${who.owner.userId}, 'Matrix family') returning id`;
  await sql`insert into family_members (family_group_id, user_id, role, status, removed_at) values
    (${group!.id}, ${who.owner.userId}, 'owner', 'active', null),
    (${group!.id}, ${who.contributor.userId}, 'family_contributor', 'active', null),
    (${group!.id}, ${who.viewer.userId}, 'family_viewer', 'active', null),
    (${group!.id}, ${who.removed.userId}, 'family_contributor', 'removed', now())`;
  const [imp] = await sql<{ id: string }[]>`insert into auth_sessions (user_id, expires_at, user_agent) values (${who.owner.userId}, now() + interval '15 minutes', 'admin-impersonation') returning id`;
  impersonation = (await createTokenSigner(t.config.secrets.jwtSecret).sign({ userId: who.owner.userId, email: who.owner.email, role: 'user', sessionId: imp!.id, actorId: who.admin.userId, ttlSeconds: 900 })).token;
  sessions = Object.fromEntries(ACCESS_ACTORS.map((a) => [a, a === 'anonymous' ? null : newSessionId()])) as Record<AccessActor, string | null>;
  const auth: Partial<Record<AccessActor, Record<string, string>>> = { ...Object.fromEntries(Object.entries(who).map(([k, v]) => [k, v.headers])), impersonator: { authorization: `Bearer ${impersonation}` } };
  headers = Object.fromEntries(
    ACCESS_ACTORS.map((a): [AccessActor, Record<string, string>] => [a, { 'user-agent': 'access-matrix', ...(auth[a] ?? {}), ...(sessions[a] ? { 'x-session-id': sessions[a]! } : {}) }]),
  ) as Record<AccessActor, Record<string, string>>;
}, 120_000);
afterAll(async () => t.close(), 60_000);

const SESSIONLESS = { anonymous: 400 } as const;
/** Private content: its owner (and the impersonation acting as the owner) and staff see it; everyone else 404. */
const ownerAndStaff = (ok: Expected = 200, anonymous: Expected = 404) => expectFor({ owner: ok, impersonator: ok, support: ok, admin: ok, anonymous }, 404);
/** A private response: its owner's alone (staff get no extra). */
const ownerOnly = (ok: Expected = 200, anonymous: Expected = 404) => expectFor({ owner: ok, impersonator: ok, anonymous }, 404);
/** Admin only (spec 002 Authentication 4): no token 401, any other role 403. */
const adminOnly = (ok: Expected = 200) => expectFor({ admin: ok, anonymous: 401, toolsSession: 401 }, 403);
/** Anyone holding the link or reading public data. */
const anyone = (ok: Expected = 200) => expectFor({}, ok);

it('every id route answers each actor as spec 002 allows, never revealing an id', async () => {
  const sql = t.database.sql;
  const owner = { userId: who.owner.userId, sessionId: sessions.owner! };
  const admin = headers.admin;
  const call = async (method: string, url: string, payload?: unknown, h: Record<string, string> = admin) => {
    const res = await t.app.inject({ method: method as 'POST', url, headers: h, remoteAddress: newIp(), ...(payload === undefined ? {} : { payload: payload as object }) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  const priv = await newContent(sql, TOOL, { ...owner, isPublic: false });
  const unlisted = await newContent(sql, TOOL, { ...owner, isPublic: false, shareType: 'public' });
  const listed = await newContent(sql, TOOL, { ...owner, isPublic: true });
  const privResponse = await newResponse(sql, listed, { ...owner, isPublic: false });
  const visitorItem = await newContent(sql, TOOL, { sessionId: sessions.toolsSession!, userId: null, isPublic: false });
  const visitorResponse = await newResponse(sql, listed, { sessionId: sessions.toolsSession!, isPublic: false });
  const freshResponse = async () => ({ responseId: (await newResponse(sql, listed, { ...owner, isPublic: false })).id });
  const deck = async () => ({ shareCode: (await newContent(sql, 'flashcards', { ...owner, isPublic: false, content: { title: 'Cells', cards: [{ front: 'Osmosis', back: 'Water across a membrane' }] } })).share_code });
  const sharedDeck = await deck();
  await sql`insert into tools_saved_prompts (user_id, content_id, session_id) values (${owner.userId}, ${listed.id}, ${owner.sessionId})`;
  await sql`insert into tools_collections (tool, title, slug, is_published) values (${TOOL}, 'Sea stories', 'sea-stories', true)`;
  const pdf = await makePdf(['Chapter one. The mill.', 'Chapter two. The bread.'], 'The Mill');
  const body = multipartBody({ filename: 'mill.pdf', type: 'application/pdf', data: pdf });
  const created = await t.app.inject({ method: 'POST', url: '/api/flipbook/create', headers: { ...headers.owner, ...body.headers }, remoteAddress: newIp(), payload: body.payload });
  if (created.statusCode !== 201) throw new Error(`flipbook: ${created.statusCode} ${created.body}`);
  const flip = created.json().data as { id: string; shareCode: string };
  const job = (await call('POST', `/api/admin/${TOOL}/bulk-generate`, { count: 1 })).data.id as string;
  const collection = (await call('POST', `/api/admin/${TOOL}/collections`, { title: 'Harbour tales' })).data.id as string;
  const body1 = (actor: AccessActor, extra: Record<string, unknown> = {}) => ({ ...(sessions[actor] ? { sessionId: sessions[actor] } : {}), ...extra });

  const S = {
    content: 'spec 002 Content record (is_public default false), Authentication 2-3; "Admins review"; CONTRACTS §6-7',
    responses: 'spec 002 Authentication 3 (ownership of responses by session); Response record',
    link: 'spec 002 API shapes (share links public, private or expiring); public pages /{tool}/{shareCode}/',
    admin: 'spec 002 Authentication 4 (analytics reading and admin routes are admin only)',
  };
  const cases: AnyAccessCase[] = [
    { route: 'GET /api/{tool}/{id}', spec: S.content, params: () => ({ tool: TOOL, id: priv.id }), expect: ownerAndStaff() },
    { route: 'POST /api/{tool}/{id}/responses', spec: S.content, params: () => ({ tool: TOOL, id: priv.id }), payload: (_c: unknown, a: AccessActor) => body1(a, { title: 'Mine', content: 'The keeper read it twice.' }), expect: ownerAndStaff(201, 400) },
    { route: 'GET /api/{tool}/{id}/responses', spec: S.content, params: () => ({ tool: TOOL, id: priv.id }), expect: ownerAndStaff() },
    { route: 'POST /api/{tool}/{id}/analytics', spec: S.content, params: () => ({ tool: TOOL, id: priv.id }), payload: (_c: unknown, a: AccessActor) => body1(a, { eventType: 'view' }), expect: ownerAndStaff(201, 400) },
    { route: 'POST /api/{tool}/{id}/export', spec: S.content, params: () => ({ tool: TOOL, id: priv.id }), payload: { format: 'json' }, expect: ownerAndStaff(200, 400) },
    { route: 'GET /api/{tool}/responses/{responseId}', spec: S.responses, params: () => ({ tool: TOOL, responseId: privResponse.id }), expect: ownerOnly() },
    { route: 'PATCH /api/{tool}/responses/{responseId}', spec: S.responses, params: () => ({ tool: TOOL, responseId: privResponse.id }), payload: (_c: unknown, a: AccessActor) => body1(a, { title: 'Edited' }), expect: ownerOnly(200, 400) },
    { route: 'DELETE /api/{tool}/responses/{responseId}', spec: S.responses, prepare: freshResponse, params: (c) => ({ tool: TOOL, ...c }), payload: (_c: unknown, a: AccessActor) => body1(a), expect: ownerOnly(200, 400) },
    // Made by an anonymous visitor: its session owns it (spec 002 Authentication 2-3), not any account.
    {
      route: 'GET /api/{tool}/{id}',
      note: 'private, made by an anonymous session',
      spec: S.content,
      params: () => ({ tool: TOOL, id: visitorItem.id }),
      expect: expectFor({ toolsSession: 200, support: 200, admin: 200 }, 404),
    },
    {
      route: 'PATCH /api/{tool}/responses/{responseId}',
      note: 'private, written by an anonymous session',
      spec: S.responses,
      params: () => ({ tool: TOOL, responseId: visitorResponse.id }),
      payload: (_c: unknown, a: AccessActor) => body1(a, { title: 'Edited by the visitor' }),
      expect: expectFor({ toolsSession: 200, anonymous: 400 }, 404),
    },
    { route: 'GET /api/{tool}/{id}', note: 'public and listed', spec: 'spec 002 Endpoints (browse: public content)', params: () => ({ tool: TOOL, id: listed.id }), expect: anyone() },
    // Unsaving is per caller: it removes the caller's own entry (none for the others) and the owner's stays.
    {
      route: 'DELETE /api/story-prompts/save/{promptId}',
      spec: 'spec 002 Story prompts (save); Authentication 2 (the session\'s own storage)',
      params: () => ({ promptId: listed.id }),
      order: [...ACCESS_ACTORS.filter((a) => a !== 'owner'), 'owner'],
      expect: expectFor({ ...SESSIONLESS }, 200),
      check: async (res, actor) => {
        const left = await sql`select 1 from tools_saved_prompts where content_id = ${listed.id} and user_id = ${owner.userId}`;
        if (actor === 'impersonator') return; // acts as the owner: may remove the owner's entry
        if (actor !== 'owner' && left.length !== 1) throw new Error(`${actor} removed the owner's saved prompt`);
        if (actor !== 'owner' && (JSON.parse(res.body) as { data: { removed: boolean } }).data.removed) throw new Error(`${actor} was told it removed something`);
      },
    },
    { route: 'GET /api/story-prompts/collections/{slug}', spec: 'spec 002 Story prompts (collections, published)', params: () => ({ slug: 'sea-stories' }), expect: anyone() },
    // A private link: its owner and staff (CONTRACTS §7 reads); nobody else learns it exists.
    { route: 'GET /api/{tool}/share/{shareCode}', spec: S.link, params: () => ({ tool: TOOL, shareCode: priv.share_code }), expect: ownerAndStaff() },
    // Deck metadata: the owner changes it; of staff only admin (support reads, never changes).
    {
      route: 'PATCH /api/flashcards/{shareCode}',
      spec: `${S.content}; spec 002 Flashcards (PATCH deck metadata)`,
      params: () => sharedDeck,
      payload: { deckName: 'Biology' },
      expect: expectFor({ owner: 200, impersonator: 200, admin: 200, support: 403, anonymous: 400 }, 404),
      noCompare: { support: 'support may read the deck, so its 403 reveals nothing' },
    },
    {
      route: 'DELETE /api/flashcards/{shareCode}',
      spec: `${S.content}; spec 002 Flashcards (DELETE)`,
      prepare: deck,
      params: (c) => c,
      expect: expectFor({ owner: 200, impersonator: 200, admin: 200, support: 403, anonymous: 400 }, 404),
      noCompare: { support: 'support may read the deck, so its 403 reveals nothing' },
    },
    // Links and public pages: anyone holding a live public link (unlisted: not in browse).
    { route: 'GET /{tool}/{shareCode}/', spec: S.link, params: () => ({ tool: TOOL, shareCode: unlisted.share_code }), expect: anyone() },
    { route: 'GET /embed/{tool}/{shareCode}/', spec: S.link, params: () => ({ tool: TOOL, shareCode: unlisted.share_code }), expect: anyone() },
    { route: 'GET /api/{tool}/{shareCode}/pdf', spec: `${S.link}; spec 002 Flipbooks`, params: () => ({ tool: 'flipbook', shareCode: flip.shareCode }), expect: anyone() },
    // Admin only.
    { route: 'GET /api/{tool}/{id}/analytics', spec: S.admin, params: () => ({ tool: TOOL, id: priv.id }), expect: adminOnly() },
    { route: 'GET /api/admin/{tool}/bulk-jobs/{jobId}', spec: S.admin, params: () => ({ tool: TOOL, jobId: job }), expect: adminOnly() },
    { route: 'POST /api/admin/{tool}/{id}/review', spec: S.admin, params: () => ({ tool: TOOL, id: priv.id }), payload: { approved: true }, expect: adminOnly() },
    { route: 'POST /api/admin/{tool}/{id}/feature', spec: S.admin, params: () => ({ tool: TOOL, id: listed.id }), payload: { featured: true }, expect: adminOnly() },
    { route: 'POST /api/admin/{tool}/{id}/set-expiration', spec: S.admin, params: () => ({ tool: TOOL, id: listed.id }), payload: { expiresAt: new Date(Date.now() + 86_400_000).toISOString() }, expect: adminOnly() },
    { route: 'POST /api/admin/{tool}/collections/{id}/generate-prompts', spec: S.admin, params: () => ({ tool: TOOL, id: collection }), payload: { count: 1 }, expect: adminOnly(202) },
    { route: 'DELETE /api/admin/flipbooks/{id}', spec: S.admin, prepare: async () => ({ id: (await newContent(sql, 'flipbook', { ...owner, isPublic: false })).id }), params: (c) => c, expect: adminOnly() },
  ];

  const served = (await t.app.inject({ url: '/openapi.json' })).json();
  const committed = JSON.parse(readFileSync(path.join(__dirname, '../../../../docs/openapi/tools-api.json'), 'utf8'));
  const { ids: routes, all } = idRoutesOfAll([committed, served], VOCABULARY);
  expect(matrixCoverage(routes, cases.map((c) => c.route), all)).toEqual({ uncovered: [], unknown: [] });

  const result = await runAccessMatrix({ app: { inject: (o) => t.app.inject({ ...o, method: o.method as 'GET', remoteAddress: newIp() }) }, actors: headers, cases, shape: 'tools', compare: [400, 401, 403, 404], keep: ['tool'] });
  process.stdout.write(`${describeAccess('tools-api', result, routes.length)}\n`);
  expect(result.cells).toBe(cases.length * ACCESS_ACTORS.length);
  expect(result.mismatches).toEqual([]);
  // Refused changes left the owner's things as they were.
  expect((await sql`select title from tools_responses where id = ${privResponse.id}`)[0]!['title']).toBe('Edited'); // the owner's (and the impersonation's) edit only
  expect((await sql`select title from tools_flashcards where share_code = ${sharedDeck.shareCode}`)[0]!['title']).toBe('Biology');
  expect((await sql`select title from tools_responses where id = ${visitorResponse.id}`)[0]!['title']).toBe('Edited by the visitor');
}, 600_000);

describe('token attacks (CONTRACTS §2, §3, §6): each is 401 in the tools envelope, never an anonymous visit', () => {
  // A public read (optional session) and a route that needs a session: a bad token must not fall back to anonymous.
  const probe = (token: string) =>
    Promise.all([
      t.app.inject({ method: 'GET', url: `/api/${TOOL}`, headers: { authorization: `Bearer ${token}`, 'x-session-id': newSessionId(), 'user-agent': 'jest' }, remoteAddress: newIp() }),
      t.app.inject({ method: 'GET', url: `/api/admin/${TOOL}/bulk-jobs`, headers: { authorization: `Bearer ${token}`, 'x-session-id': newSessionId(), 'user-agent': 'jest' }, remoteAddress: newIp() }),
    ]);
  const target: TokenAttackTarget = {
    probe,
    isRefusalBody: (body) => {
      const b = body as { success?: unknown; error?: { code?: unknown; message?: unknown } };
      return b.success === false && typeof b.error?.code === 'string' && typeof b.error.message === 'string';
    },
  };
  const liveAdmin = async () => (await sessionFor(t, 'admin')).headers.authorization.slice('Bearer '.length);

  it('expired, tampered, alg none and another secret are refused; the genuine token works', async () => {
    expect(await forgedTokenProblems(target, await liveAdmin(), t.config.secrets.jwtSecret)).toEqual([]);
  });

  // core-api ends the session on sign-out and on refresh-token reuse (its access matrix drives both
  // through the real routes); here the session row is ended as core-api's revokeSession does.
  it.each(['signout', 'refresh_token_reuse', 'impersonation_ended'])('a session ended by %s is refused', async (reason) => {
    expect(await endedSessionProblems(target, t.database.sql, await liveAdmin(), reason)).toEqual([]);
  });

  it('X-User-ID alone is never a sign-in (CONTRACTS §6)', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/${TOOL}/bulk-jobs`, headers: { 'x-user-id': who.admin.userId, 'x-session-id': newSessionId(), 'user-agent': 'jest' }, remoteAddress: newIp() });
    expect(res.statusCode).toBe(401);
  });
});
