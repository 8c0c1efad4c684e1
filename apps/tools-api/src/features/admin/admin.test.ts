// Admin: 403 for users and 401 without a token, browse of private content, review/feature/set-expiration,
// analytics, collections with generate-prompts, bulk jobs run by the runner with progress, flipbooks, samples.
import { buildTestApp, generate, sessionFor, type TestContext } from '../../test/helper';

let t: TestContext;
let admin: Awaited<ReturnType<typeof sessionFor>>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await sessionFor(t, 'admin');
});
afterAll(async () => t.close());

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, headers = admin.headers) => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

it('refuses users (403 ACCESS_DENIED) and anonymous callers (401), before validating the body', async () => {
  const user = await sessionFor(t);
  const res = await call('POST', '/api/admin/plot-twists/bulk-generate', { count: 'lots' }, user.headers);
  expect(res.statusCode).toBe(403);
  expect(res.json().error.code).toBe('ACCESS_DENIED');
  expect((await t.app.inject({ method: 'GET', url: '/api/admin/plot-twists/browse' })).statusCode).toBe(401);
  expect((await call('GET', '/api/admin/tools/samples', undefined, user.headers)).statusCode).toBe(403);
  expect(await t.database.sql`select 1 from tools_bulk_jobs`).toHaveLength(0);
});

it('browses private content, then reviews, features and sets the expiry', async () => {
  const { data } = await generate(t, 'mystery-plot-generator', { subgenre: 'noir' });
  const listed = await call('GET', '/api/admin/mystery-plot-generator/browse?reviewed=false');
  expect(listed.statusCode).toBe(200);
  expect(listed.json().data.map((i: { id: string }) => i.id)).toContain(data.id);
  expect(listed.json().meta.pagination.total).toBeGreaterThanOrEqual(1);

  const reviewed = await call('POST', `/api/admin/mystery-plot-generator/${data.id}/review`, { approved: true, isPublic: true, notes: 'Lovely' });
  expect(reviewed.json().data).toMatchObject({ isReviewed: true, isPublic: true });
  const [meta] = await t.database.sql`select metadata->'review' as review from tools_mystery_plots where id = ${data.id}`;
  expect(meta!['review']).toMatchObject({ approved: true, notes: 'Lovely', by: admin.userId });
  const featured = await call('POST', `/api/admin/mystery-plot-generator/${data.id}/feature`, { featured: true });
  expect(featured.json().data).toMatchObject({ isFeatured: true, isPublic: true, expiresAt: null });
  const [row] = await t.database.sql`select is_reviewed, is_featured, is_public, expires_at from tools_mystery_plots where id = ${data.id}`;
  expect(row).toEqual({ is_reviewed: true, is_featured: true, is_public: true, expires_at: null });

  const when = new Date(Date.now() + 3_600_000).toISOString();
  const expiring = await call('POST', `/api/admin/mystery-plot-generator/${data.id}/set-expiration`, { expiresAt: when });
  expect(expiring.json().data.expiresAt).toBe(when);
  const rejected = await call('POST', `/api/admin/mystery-plot-generator/${data.id}/review`, { approved: false });
  expect(rejected.json().data).toMatchObject({ isPublic: false, isFeatured: false });

  expect((await call('POST', `/api/admin/mystery-plot-generator/00000000-0000-4000-8000-000000000000/feature`, {})).statusCode).toBe(404);
  expect((await call('POST', `/api/admin/nope/${data.id}/feature`, {})).json().error.code).toBe('TOOL_NOT_FOUND');
  const bad = await call('POST', `/api/admin/mystery-plot-generator/${data.id}/set-expiration`, { expiresAt: 'tomorrow' });
  expect(bad.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'expiresAt' });
});

it('runs a bulk job in the background with progress, checkpointed per item', async () => {
  const queued = await call('POST', '/api/admin/character-name-generator/bulk-generate', { count: 3, options: { count: 5 }, variations: [{ style: 'nordic' }, { style: 'latin' }] });
  expect(queued.statusCode).toBe(202);
  const job = queued.json().data;
  expect(job).toMatchObject({ status: 'queued', requestedCount: 3, completedCount: 0, progress: 0 });
  // The app's runner is not started in tests: run it here.
  await t.app.toolsJobs.drain();
  const [runnerJob] = await t.database.sql`select status, progress from jobs where kind = 'tools.bulk_generate' and payload->>'bulkJobId' = ${job.id}`;
  expect(runnerJob).toEqual({ status: 'succeeded', progress: { done: 3, total: 3 } });
  const done = (await call('GET', `/api/admin/character-name-generator/bulk-jobs/${job.id}`)).json().data;
  expect(done).toMatchObject({ status: 'completed', completedCount: 3, failedCount: 0, progress: 100, startedAt: expect.any(String), completedAt: expect.any(String) });
  const rows = await t.database.sql`select is_public, expires_at, generation_options->>'style' as style, metadata->>'bulkJobId' as job from tools_character_names where metadata->>'bulkJobId' = ${job.id} order by created_at`;
  expect(rows.map((r) => r['style'])).toEqual(['nordic', 'latin', 'nordic']);
  expect(rows.every((r) => r['is_public'] === true && r['expires_at'] === null)).toBe(true);
  const bad = await call('POST', '/api/admin/character-name-generator/bulk-generate', { count: 2, variations: [{ style: 'klingon' }] });
  expect(bad.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'options.style' });
  expect((await call('POST', '/api/admin/character-name-generator/bulk-generate', { count: 0 })).json().error.field).toBe('count');
});

it('resumes a job from its checkpoint', async () => {
  const queued = (await call('POST', '/api/admin/first-line-generator/bulk-generate', { count: 4 })).json().data;
  // A worker died after two items: the row is 'running' at its checkpoint and the job's lease has passed.
  await t.database.sql`update tools_bulk_jobs set status = 'running', completed_count = 2, updated_at = now() - interval '10 minutes' where id = ${queued.id}`;
  await t.database.sql`update jobs set status = 'running', attempts = 1, locked_by = 'a-dead-worker', lease_expires_at = now() - interval '1 second'
                        where kind = 'tools.bulk_generate' and payload->>'bulkJobId' = ${queued.id}`;
  await t.app.toolsJobs.drain();
  const done = (await call('GET', `/api/admin/first-line-generator/bulk-jobs/${queued.id}`)).json().data;
  expect(done).toMatchObject({ status: 'completed', completedCount: 4 });
  expect(await t.database.sql`select count(*)::int as n from tools_first_lines where metadata->>'bulkJobId' = ${queued.id}`).toEqual([{ n: 2 }]);
});

it('creates collections and fills them through generate-prompts', async () => {
  const created = await call('POST', '/api/admin/story-prompts/collections', { title: 'Winter Tales', description: 'Cold, dark prompts' });
  expect(created.statusCode).toBe(201);
  const collection = created.json().data;
  expect(collection).toMatchObject({ slug: 'winter-tales', itemCount: 0 });
  expect((await call('POST', '/api/admin/story-prompts/collections', { title: 'Winter Tales' })).statusCode).toBe(409);
  const job = (await call('POST', `/api/admin/story-prompts/collections/${collection.id}/generate-prompts`, { count: 2, options: { genre: 'horror' } })).json().data;
  expect(job.collectionId).toBe(collection.id);
  await t.app.toolsJobs.drain();
  const list = (await call('GET', '/api/admin/story-prompts/collections')).json().data;
  expect(list.find((c: { id: string }) => c.id === collection.id).itemCount).toBe(2);
  expect((await call('POST', `/api/admin/plot-twists/collections/${collection.id}/generate-prompts`, { count: 1 })).statusCode).toBe(404);
});

it('reports per-tool analytics', async () => {
  const { data } = await generate(t, 'comedy-prompts', {});
  await t.app.inject({ method: 'GET', url: `/api/comedy-prompts/${data.shareCode}` });
  const res = await call('GET', '/api/admin/comedy-prompts/analytics?days=7');
  expect(res.statusCode).toBe(200);
  expect(res.json().data).toMatchObject({
    tool: 'comedy-prompts',
    periodDays: 7,
    content: { total: 1, anonymous: 1, views: 1 },
    events: { generate: 1, view: 1 },
    generationsByDay: [{ date: expect.any(String), count: 1 }],
    aiUsage: { calls: 1, failures: 0, costUsd: 0, byModel: { 'local-comedy-prompts': 1 } },
  });
});

it('generates and lists samples, and manages flipbooks', async () => {
  const made = await call('POST', '/api/admin/tools/samples/generate', { tools: ['flipbook', 'book-blurb'] });
  expect(made.statusCode).toBe(201);
  expect(made.json().data.map((s: { tool: string }) => s.tool)).toEqual(['flipbook', 'book-blurb']);
  const samples = (await call('GET', '/api/admin/tools/samples')).json().data;
  expect(samples.map((s: { tool: string }) => s.tool).sort()).toEqual(['book-blurb', 'flipbook']);
  const [blurb] = await t.database.sql`select is_public, is_featured, is_reviewed, expires_at from tools_book_blurbs where metadata->>'origin' = 'sample'`;
  expect(blurb).toEqual({ is_public: true, is_featured: true, is_reviewed: true, expires_at: null });

  const books = (await call('GET', '/api/admin/flipbooks')).json().data;
  expect(books).toHaveLength(1);
  expect(books[0]).toMatchObject({ source: 'text', pageCount: 0 });
  expect((await call('DELETE', `/api/admin/flipbooks/${books[0].id}`)).statusCode).toBe(200);
  expect((await call('GET', '/api/admin/flipbooks')).json().data).toHaveLength(0);
  expect((await call('DELETE', `/api/admin/flipbooks/${books[0].id}`)).statusCode).toBe(404);
});
