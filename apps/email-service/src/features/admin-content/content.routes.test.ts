// Editorial records through the admin API against a real database: CRUD with audit rows, the moderation
// steps (invalid ones refused with nothing written), permissions, collections, the blurb queue and the
// atomic download counter.
import { buildTestApp, sessionFor, type TestContext } from '../../test/helper';

let t: TestContext;
let admin: Awaited<ReturnType<typeof sessionFor>>;
let support: Awaited<ReturnType<typeof sessionFor>>;
let user: Awaited<ReturnType<typeof sessionFor>>;
beforeAll(async () => {
  t = await buildTestApp();
  [admin, support, user] = [await sessionFor(t, 'admin'), await sessionFor(t, 'support'), await sessionFor(t, 'user')];
});
afterAll(async () => t.close());

const auditCount = async () => Number((await t.database.sql`select count(*)::int as n from admin_audit_log`)[0]!['n']);
const post = (url: string, payload: unknown, headers = admin.headers) => t.app.inject({ method: 'POST', url, headers, payload: payload as object });

it('permissions: support reads but may not change (403), a plain user gets 403, no token 401', async () => {
  expect((await t.app.inject({ method: 'GET', url: '/api/content-blocks', headers: support.headers })).statusCode).toBe(200);
  const refused = await post('/api/content-blocks', { key: 'by_support', body: 'x' }, support.headers);
  expect(refused.statusCode).toBe(403);
  expect(refused.json()).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', error: 'Admin access required' });
  expect((await t.app.inject({ method: 'GET', url: '/api/content-blocks', headers: user.headers })).json().code).toBe('INSUFFICIENT_PERMISSIONS');
  expect((await t.app.inject({ method: 'GET', url: '/api/content-blocks' })).statusCode).toBe(401);
  expect((await t.database.sql`select count(*)::int as n from content_blocks`)[0]!['n']).toBe(0);
});

it('content blocks: create (draft) with an audit row, duplicate key 409, update with before and after, delete', async () => {
  const created = await post('/api/content-blocks', { key: 'home.banner', title: 'Welcome', body: 'Hello families' });
  expect(created.statusCode).toBe(201);
  const block = created.json().item;
  expect(block).toMatchObject({ key: 'home.banner', title: 'Welcome', status: 'draft', locale: 'en', created_by: admin.userId });
  const [row] = await t.database.sql`select actor_id, action, target_id, data from admin_audit_log where target_id = ${block.id}`;
  expect(row).toMatchObject({ actor_id: admin.userId, action: 'content_block.create', target_id: block.id });
  expect(row!['data'].after.key).toBe('home.banner');

  const before = await auditCount();
  const dup = await post('/api/content-blocks', { key: 'home.banner', body: 'again' });
  expect(dup.statusCode).toBe(409);
  expect(dup.json().code).toBe('CONFLICT');
  const missing = await post('/api/content-blocks', { body: 'no key' });
  expect(missing.statusCode).toBe(400);
  expect(missing.json().details.missing_fields).toEqual(['key']);
  expect(await auditCount()).toBe(before);

  const put = await t.app.inject({ method: 'PUT', url: `/api/content-blocks/${block.id}`, headers: admin.headers, payload: { title: 'Welcome home' } });
  expect(put.statusCode).toBe(200);
  expect(put.json().item.title).toBe('Welcome home');
  const [upd] = await t.database.sql`select data from admin_audit_log where action = 'content_block.update'`;
  expect(upd!['data'].before.title).toBe('Welcome');
  expect(upd!['data'].after.title).toBe('Welcome home');

  const list = await t.app.inject({ method: 'GET', url: '/api/content-blocks?search=home', headers: support.headers });
  expect(list.json().items.map((i: { id: string }) => i.id)).toEqual([block.id]);
  const del = await t.app.inject({ method: 'DELETE', url: `/api/content-blocks/${block.id}`, headers: admin.headers });
  expect(del.statusCode).toBe(200);
  expect((await t.app.inject({ method: 'GET', url: `/api/content-blocks/${block.id}`, headers: admin.headers })).statusCode).toBe(404);
});

it('the app reads a content block only once it is published', async () => {
  const { item } = (await post('/api/content-blocks', { key: 'help.upload', title: 'Uploading', body: 'Drag a file here.' })).json();
  const read = () => t.app.inject({ method: 'GET', url: '/api/content-blocks/published/help.upload' });
  expect((await read()).statusCode).toBe(404);
  for (const s of ['reviewed', 'approved', 'published']) await post(`/api/content-blocks/${item.id}/status`, { status: s });
  const res = await read();
  expect(res.statusCode).toBe(200);
  expect(res.json().block).toMatchObject({ key: 'help.upload', title: 'Uploading', body: 'Drag a file here.' });
  expect(new Date(res.json().block.published_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  await post(`/api/content-blocks/${item.id}/status`, { status: 'draft' });
  expect((await read()).statusCode).toBe(404);
  expect((await t.database.sql`select published_at from content_blocks where id = ${item.id}`)[0]!['published_at']).toBeNull();
});

it('moderation: draft -> reviewed -> approved -> published, skipping a step 409, unknown status 400, audit unchanged on refusal', async () => {
  const { item } = (await post('/api/admin/editor-templates', { name: 'Letter to a grandchild', content: '<p>Dear</p>' })).json();
  const step = (status: string) => post(`/api/admin/editor-templates/${item.id}/status`, { status });
  const before = await auditCount();
  const skip = await step('published');
  expect(skip.statusCode).toBe(409);
  expect(skip.json().details).toMatchObject({ field: 'status', from: 'draft', to: 'published', allowed: ['reviewed'] });
  const unknown = await step('live');
  expect(unknown.statusCode).toBe(400);
  expect(unknown.json().details.invalid_fields).toHaveProperty('status');
  expect(await auditCount()).toBe(before);
  for (const s of ['reviewed', 'approved', 'published']) expect((await step(s)).json().item.status).toBe(s);
  expect((await t.database.sql`select status from editor_templates where id = ${item.id}`)[0]!['status']).toBe('published');
  expect(await auditCount()).toBe(before + 3);
  expect((await step('draft')).json().item.status).toBe('draft');
});

it('resources: needs url or storage_key; the download counter counts concurrent calls exactly and only for published resources', async () => {
  const bad = await post('/api/admin/resources', { title: 'Guide' });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().details.missing_fields).toEqual(['url']);
  const { item } = (await post('/api/admin/resources', { title: 'Interview guide', url: 'https://example.test/guide.pdf' })).json();
  // An admin-API route (spec 001 Admin API routes, CONTRACTS §7): no token 401, a user 403.
  expect((await t.app.inject({ method: 'GET', url: `/api/resources/${item.id}/increment-download` })).statusCode).toBe(401);
  expect((await t.app.inject({ method: 'GET', url: `/api/resources/${item.id}/increment-download`, headers: user.headers })).statusCode).toBe(403);
  expect((await t.app.inject({ method: 'GET', url: `/api/resources/${item.id}/increment-download`, headers: admin.headers })).statusCode).toBe(404);
  for (const s of ['reviewed', 'approved', 'published']) await post(`/api/admin/resources/${item.id}/status`, { status: s });
  const answers = await Promise.all(Array.from({ length: 40 }, () => t.app.inject({ method: 'GET', url: `/api/resources/${item.id}/increment-download`, headers: admin.headers })));
  expect(answers.every((a) => a.statusCode === 200)).toBe(true);
  // Every answer saw a different count: no two calls read the same value.
  expect(new Set(answers.map((a) => a.json().download_count)).size).toBe(40);
  expect((await t.database.sql`select download_count from resources where id = ${item.id}`)[0]!['download_count']).toBe(40);
  expect(answers[0]!.json().url).toBe('https://example.test/guide.pdf');
});

it('collections hold prompts in order; an unknown prompt id refuses the whole change', async () => {
  const p1 = (await post('/api/admin/story-prompts', { prompt: 'What was your first job?', tags: ['work'] })).json().item;
  const p2 = (await post('/api/admin/story-prompts', { prompt: 'Where did you grow up?' })).json().item;
  const col = (await post('/api/admin/story-prompt-collections', { title: 'Childhood', slug: 'childhood' })).json().item;
  const url = `/api/admin/story-prompt-collections/${col.id}/prompts`;
  const set = await t.app.inject({ method: 'PUT', url, headers: admin.headers, payload: { prompt_ids: [p2.id, p1.id] } });
  expect(set.statusCode).toBe(200);
  expect(set.json().prompts.map((p: { id: string }) => p.id)).toEqual([p2.id, p1.id]);
  const ghost = '00000000-0000-4000-8000-000000000000';
  const before = await auditCount();
  const bad = await t.app.inject({ method: 'PUT', url, headers: admin.headers, payload: { prompt_ids: [p1.id, ghost] } });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().details.unknown_prompt_ids).toEqual([ghost]);
  expect(await auditCount()).toBe(before);
  expect((await t.app.inject({ method: 'GET', url, headers: support.headers })).json().prompts).toHaveLength(2);
});

it('blurb queue: approve makes a sample, a second decision is 409', async () => {
  const queued = await post('/api/admin/blurb-queue', { book_title: 'Grandpa Joe', blurb: 'A life of trains and letters.' });
  expect(queued.statusCode).toBe(201);
  const id = queued.json().item.id;
  const approved = await post(`/api/admin/blurb-queue/${id}/approve`, { note: 'lovely' });
  expect(approved.statusCode).toBe(200);
  expect(approved.json().item).toMatchObject({ status: 'approved', reviewed_by: admin.userId, review_note: 'lovely' });
  const [sample] = await t.database.sql`select book_title, status from blurb_samples where id = ${approved.json().sample.id}`;
  expect(sample).toEqual({ book_title: 'Grandpa Joe', status: 'approved' });
  expect((await post(`/api/admin/blurb-queue/${id}/reject`, {})).statusCode).toBe(409);
  expect((await t.app.inject({ method: 'GET', url: '/api/admin/blurb-queue?status=approved', headers: support.headers })).json().items).toHaveLength(1);
});
