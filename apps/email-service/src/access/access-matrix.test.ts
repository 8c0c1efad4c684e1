// Access matrix of email-service (spec 001 Authentication, CONTRACTS §7): every route of the OpenAPI document
// that takes an id, called as each of the ten actors of libs/testing's access matrix, answers what spec 001
// and CONTRACTS §7 allow, and a refusal (401, 403, 404) never differs between an existing and a missing id.
// Then the token attacks of CONTRACTS §2: each answers 401 in the email-service shape (code UNAUTHORIZED).
//
// Who is who here: email-service knows accounts, not families, so the owner is the account whose email
// it is (spec 001 States: "id belongs to the caller") and contributor, viewer and removed (members of the
// owner's family group, one removed) are to it just other accounts, like the stranger. Support and admin
// hold those roles; the impersonator is an admin's impersonation of the owner, started through the real
// route (CONTRACTS §7: refused on every admin route, the owner's rights elsewhere).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
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
import { buildTestApp, type TestContext } from '../test/helper';
import { accountWithSession, type TestAccount } from '../features/admin/test/admin.test-helper';

let t: TestContext;
let who: Record<'owner' | 'contributor' | 'viewer' | 'removed' | 'stranger' | 'support' | 'admin', TestAccount>;
let impersonation: string;
let headers: Record<AccessActor, Record<string, string>>;

/** Path parameters that are a closed vocabulary, not a resource id: none in this document. */
const VOCABULARY: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100000' });
  const sql = t.database.sql;
  const make = (role: 'user' | 'support' | 'admin' = 'user') => accountWithSession(t, { role });
  who = { owner: await make(), contributor: await make(), viewer: await make(), removed: await make(), stranger: await make(), support: await make('support'), admin: await make('admin') };
  const [group] = await sql<{ id: string }[]>`insert into family_groups (created_by, name) values (${who.owner.userId}, 'Matrix family') returning id`;
  await sql`insert into family_members (family_group_id, user_id, role, status, removed_at) values
    (${group!.id}, ${who.owner.userId}, 'owner', 'active', null),
    (${group!.id}, ${who.contributor.userId}, 'family_contributor', 'active', null),
    (${group!.id}, ${who.viewer.userId}, 'family_viewer', 'active', null),
    (${group!.id}, ${who.removed.userId}, 'family_contributor', 'removed', now())`;
  const started = await t.app.inject({ method: 'POST', url: `/api/admin/users/${who.owner.userId}/impersonate`, headers: who.admin.headers, payload: { reason: 'access matrix' } });
  expect(started.statusCode).toBe(201);
  impersonation = started.json().session.access_token;
  headers = {
    ...(Object.fromEntries(Object.entries(who).map(([k, v]) => [k, v.headers as Record<string, string>])) as Record<keyof typeof who, Record<string, string>>),
    anonymous: {},
    toolsSession: { 'x-session-id': `sess_${Date.now()}_${randomBytes(8).toString('hex')}` },
    impersonator: { authorization: `Bearer ${impersonation}` },
  };
}, 120_000);
afterAll(async () => t.close(), 60_000);

const SIGNED_OUT = { anonymous: 401, toolsSession: 401 } as const;
/** CONTRACTS §7: admin API reads need role admin or support; a user (the impersonation too) 403. */
const staffReads = (ok: Expected = 200) => expectFor({ admin: ok, support: ok, ...SIGNED_OUT }, 403);
/** CONTRACTS §7: only admin may change; spec 001 Authentication 2: the email admin API is admin only. */
const adminOnly = (ok: Expected = 200) => expectFor({ admin: ok, ...SIGNED_OUT }, 403);
/** Spec 001 States ("id belongs to the caller"): the owner's own email, the impersonation acting as the owner. */
const ownEmail = (ok: Expected = 200) => expectFor({ owner: ok, impersonator: ok, ...SIGNED_OUT }, 404);

it('every id route answers each actor as spec 001 and CONTRACTS §7 allow, never revealing an id', async () => {
  const sql = t.database.sql;
  const admin = who.admin.headers;
  const call = async (method: string, url: string, payload?: unknown) => {
    const res = await t.app.inject({ method: method as 'POST', url, headers: admin, ...(payload === undefined ? {} : { payload: payload as object }) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const slug = () => `m${randomBytes(5).toString('hex')}`;

  // One admin record kind = GET/PUT/DELETE {path}/{id} (+ POST status when moderated): spec 001 "Admin
  // resources" and "Admin API routes"; who may read or change: CONTRACTS §7.
  const S7 = 'spec 001 Admin resources / Admin API routes; CONTRACTS §7 (admin or support read, admin changes, no impersonation)';
  const kinds: { path: string; create: () => Record<string, unknown>; update: Record<string, unknown>; moderated: boolean }[] = [
    { path: '/api/content-blocks', create: () => ({ key: slug(), body: 'Hello families' }), update: { title: 'Welcome' }, moderated: true },
    { path: '/api/admin/editor-templates', create: () => ({ name: 'Memoir' }), update: { name: 'Memoir 2' }, moderated: true },
    { path: '/api/admin/story-prompts', create: () => ({ prompt: 'What was your first job?' }), update: { prompt: 'Where did you grow up?' }, moderated: true },
    { path: '/api/admin/story-prompt-collections', create: () => ({ title: 'Childhood', slug: slug() }), update: { title: 'Youth' }, moderated: false },
    { path: '/api/admin/blurb-samples', create: () => ({ book_title: 'Mill', blurb: 'A story of bread.' }), update: { genre: 'memoir' }, moderated: true },
    { path: '/api/admin/resources', create: () => ({ title: 'Guide', url: 'https://example.test/guide.pdf' }), update: { title: 'Interview guide' }, moderated: true },
    { path: '/api/admin/ai/voices', create: () => ({ voice_id: slug(), provider: 'local', name: 'Narrator' }), update: { name: 'Narrator 2' }, moderated: false },
    { path: '/api/admin/ai/provider-configs', create: () => ({ capability: 'llm', provider: 'local' }), update: { priority: 3 }, moderated: false },
  ];
  const cases: AnyAccessCase[] = [];
  for (const k of kinds) {
    const item = async () => ({ id: (await call('POST', k.path, k.create())).item.id as string });
    const shared = await item();
    cases.push(
      { route: `GET ${k.path}/{id}`, spec: S7, params: () => shared, expect: staffReads() },
      { route: `PUT ${k.path}/{id}`, spec: S7, params: () => shared, payload: k.update, expect: adminOnly() },
      { route: `DELETE ${k.path}/{id}`, spec: S7, prepare: item, params: (c) => c, expect: adminOnly() },
    );
    if (k.moderated) cases.push({ route: `POST ${k.path}/{id}/status`, spec: S7, prepare: item, params: (c) => c, payload: { status: 'reviewed' }, expect: adminOnly() });
  }

  // Collections' prompts and the blurb queue (admin tools: story prompts, book blurbs).
  const collection = (await call('POST', '/api/admin/story-prompt-collections', { title: 'Work', slug: slug() })).item.id as string;
  const prompt = (await call('POST', '/api/admin/story-prompts', { prompt: 'Your first job?' })).item.id as string;
  const queued = async () => ({ id: (await call('POST', '/api/admin/blurb-queue', { book_title: 'Mill', blurb: 'A story of bread.' })).item.id as string });
  cases.push(
    { route: 'GET /api/admin/story-prompt-collections/{id}/prompts', spec: S7, params: () => ({ id: collection }), expect: staffReads() },
    { route: 'PUT /api/admin/story-prompt-collections/{id}/prompts', spec: S7, params: () => ({ id: collection }), payload: { prompt_ids: [prompt] }, expect: adminOnly() },
    { route: 'POST /api/admin/blurb-queue/{id}/approve', spec: S7, prepare: queued, params: (c) => c, payload: {}, expect: adminOnly() },
    { route: 'POST /api/admin/blurb-queue/{id}/reject', spec: S7, prepare: queued, params: (c) => c, payload: {}, expect: adminOnly() },
  );

  // AI prompt templates with version history (spec 001 Admin resources).
  const newPrompt = async () => {
    const id = (await call('POST', '/api/admin/ai/prompts', { key: `matrix.${slug()}`, name: 'Writer', content: 'Write warmly.' })).template.id as string;
    await call('POST', `/api/admin/ai/prompts/${id}/versions`, { content: 'Write warmly and briefly.' });
    return { id };
  };
  const aiPrompt = await newPrompt();
  cases.push(
    { route: 'GET /api/admin/ai/prompts/{id}', spec: S7, params: () => aiPrompt, expect: staffReads() },
    { route: 'PUT /api/admin/ai/prompts/{id}', spec: S7, params: () => aiPrompt, payload: { name: 'Writer 2' }, expect: adminOnly() },
    { route: 'GET /api/admin/ai/prompts/{id}/versions', spec: S7, params: () => aiPrompt, expect: staffReads() },
    { route: 'POST /api/admin/ai/prompts/{id}/versions', spec: S7, params: () => aiPrompt, payload: { content: 'Write warmly, briefly, kindly.' }, expect: adminOnly(201) },
    { route: 'GET /api/admin/ai/prompts/{id}/diff', spec: S7, params: () => aiPrompt, query: 'from=1&to=2', expect: staffReads() },
    { route: 'POST /api/admin/ai/prompts/{id}/rollback', spec: S7, prepare: newPrompt, params: (c) => c, payload: { version: 1 }, expect: adminOnly() },
  );

  // Users and impersonation (spec 001 Authentication 5; CONTRACTS §7).
  const S5 = 'spec 001 Authentication 5 (impersonation time-limited, audit-logged); CONTRACTS §7 (admin only, never while impersonating)';
  const startImpersonation = async () => ({ id: (await call('POST', `/api/admin/users/${who.stranger.userId}/impersonate`, { reason: 'matrix end' })).impersonation.id as string });
  cases.push(
    { route: 'GET /api/admin/users/{id}', spec: S7, params: () => ({ id: who.owner.userId }), expect: staffReads() },
    { route: 'PATCH /api/admin/users/{id}', spec: S7, params: () => ({ id: who.owner.userId }), payload: { subscription_tier: 'family' }, expect: adminOnly() },
    { route: 'POST /api/admin/users/{id}/impersonate', spec: S5, params: () => ({ id: who.stranger.userId }), payload: { reason: 'matrix start' }, expect: adminOnly(201) },
    { route: 'POST /api/admin/impersonations/{id}/end', spec: S5, prepare: startImpersonation, params: (c) => c, expect: adminOnly() },
  );

  // The email admin API (spec 001 Admin: templates; Authentication 2: "Admin endpoints require admin access").
  const S2 = 'spec 001 Admin: templates; Authentication 2 (admin access, 403 INSUFFICIENT_PERMISSIONS)';
  const template = async () => ({ id: (await call('POST', '/api/admin/email/templates', { name: `matrix_${slug()}`, subject_template: 'Hi {{name}}', html_template: '<p>Hi</p>' })).template.id as string });
  const sharedTemplate = await template();
  cases.push(
    { route: 'GET /api/admin/email/templates/{id}', spec: S2, params: () => sharedTemplate, expect: adminOnly() },
    { route: 'PUT /api/admin/email/templates/{id}', spec: S2, params: () => sharedTemplate, payload: { name: `matrix_${slug()}`, subject_template: 'Hello', html_template: '<p>Hello</p>' }, expect: adminOnly() },
    { route: 'DELETE /api/admin/email/templates/{id}', spec: S2, prepare: template, params: (c) => c, expect: adminOnly() },
  );

  // A user's own received email (spec 001 User endpoints; States: "id belongs to the caller").
  const [email] = await sql<{ id: string }[]>`insert into email_send_queue (user_id, to_email, subject, html_content, status, sent_at) values (${who.owner.userId}, ${who.owner.email}, 'Your story', '<p>Hi</p>', 'sent', now()) returning id`;
  cases.push({ route: 'POST /api/user/emails/{id}/read', spec: 'spec 001 User endpoints; States ("id belongs to the caller")', params: () => ({ id: email!.id }), expect: ownEmail() });

  // Published content: the resource download counter is an admin API route (spec 001 table; CONTRACTS §7),
  // a published content block is the app's public read of published text (project decision: not in spec).
  const published = async (p: string, body: Record<string, unknown>) => {
    const id = (await call('POST', p, body)).item.id as string;
    for (const status of ['reviewed', 'approved', 'published']) await call('POST', `${p}/${id}/status`, { status });
    return id;
  };
  const resource = await published('/api/admin/resources', { title: 'Guide', url: 'https://example.test/guide.pdf' });
  const blockKey = slug();
  await published('/api/content-blocks', { key: blockKey, body: 'Welcome, families' });
  cases.push(
    { route: 'GET /api/resources/{id}/increment-download', spec: 'spec 001 Admin API routes ("count a resource download"); CONTRACTS §7', params: () => ({ id: resource }), expect: staffReads() },
    { route: 'GET /api/content-blocks/published/{key}', spec: 'project decision: published content blocks are public text of the app', params: () => ({ key: blockKey }), expect: expectFor({}, 200) },
  );

  const served = (await t.app.inject({ url: '/openapi.json' })).json();
  const committed = JSON.parse(readFileSync(path.join(__dirname, '../../../../docs/openapi/email-service.json'), 'utf8'));
  const { ids: routes, all } = idRoutesOfAll([committed, served], VOCABULARY);
  expect(matrixCoverage(routes, cases.map((c) => c.route), all)).toEqual({ uncovered: [], unknown: [] });

  const result = await runAccessMatrix({ app: t.app, actors: headers, cases, shape: 'email', compare: [401, 403, 404] });
  process.stdout.write(`${describeAccess('email-service', result, routes.length)}\n`);
  expect(result.cells).toBe(cases.length * ACCESS_ACTORS.length);
  expect(result.mismatches).toEqual([]);
  // The refused calls changed nothing an admin did not change: the owner's email is read once, by the owner.
  expect((await sql`select opened_at is not null as opened from email_send_queue where id = ${email!.id}`)[0]!['opened']).toBe(true);
}, 600_000);

describe('token attacks (CONTRACTS §2, §3; spec 001 Authentication 1, 3): each is 401 {error, code: UNAUTHORIZED}', () => {
  const probe = (token: string) =>
    Promise.all([
      t.app.inject({ method: 'GET', url: '/api/user/emails/received', headers: { authorization: `Bearer ${token}` } }),
      t.app.inject({ method: 'GET', url: `/api/admin/users/${who.owner.userId}`, headers: { authorization: `Bearer ${token}` } }),
    ]);
  const target: TokenAttackTarget = {
    probe,
    isRefusalBody: (body) => typeof (body as { error?: unknown }).error === 'string' && (body as { code?: unknown }).code === 'UNAUTHORIZED',
  };
  /** A live session of a fresh admin, as core-api's sign-in writes it. */
  const liveAdmin = async () => (await accountWithSession(t, { role: 'admin' })).headers.authorization.slice('Bearer '.length);

  it('expired, tampered, alg none and another secret are refused; the genuine token works', async () => {
    expect(await forgedTokenProblems(target, await liveAdmin(), t.config.secrets.jwtSecret)).toEqual([]);
  });

  // core-api ends the session on sign-out and on a refresh token's reuse (its own access matrix drives
  // both through the real routes); here the session row is ended as core-api's revokeSession does, and
  // this service must refuse its token at once.
  it.each(['signout', 'refresh_token_reuse', 'impersonation_ended'])('a session ended by %s is refused', async (reason) => {
    expect(await endedSessionProblems(target, t.database.sql, await liveAdmin(), reason)).toEqual([]);
  });

  it('the impersonation token is refused on admin routes (403) and stops at its end (401)', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/users/${who.owner.userId}`, headers: { authorization: `Bearer ${impersonation}` } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('INSUFFICIENT_PERMISSIONS');
    const started = await t.app.inject({ method: 'POST', url: `/api/admin/users/${who.viewer.userId}/impersonate`, headers: who.admin.headers, payload: { reason: 'end test' } });
    const token = started.json().session.access_token as string;
    expect((await t.app.inject({ method: 'GET', url: '/api/user/emails/received', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    const end = await t.app.inject({ method: 'POST', url: `/api/admin/impersonations/${started.json().impersonation.id}/end`, headers: who.admin.headers });
    expect(end.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/user/emails/received', headers: { authorization: `Bearer ${token}` } });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('UNAUTHORIZED');
  });
});
