// The purge of expired content (with its responses, collection items, saved prompts, flipbook pages and
// stored PDFs; old sessions and rate-limit windows), the purge as a recurring job, and bulk jobs shared by
// two concurrent runners (two replicas).
import { buildTestApp, generate, installPdfWorkerForJest, makePdf, multipartBody, newSessionId, sessionFor, type TestContext } from '../test/helper';
import { createLocalLanguageModel, createObjectStorage } from '@story/providers';
import { BULK_JOB_KIND, createToolsJobRunner, PURGE_JOB_KIND, purgeExpiredContent } from './index';
import { createGenerateService } from '../features/generate/generate.service';

let t: TestContext;
beforeAll(async () => {
  installPdfWorkerForJest();
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('deletes expired content with everything attached, and keeps live and signed-in content', async () => {
  const sql = t.database.sql;
  const expired = await generate(t, 'story-prompts', {});
  const live = await generate(t, 'story-prompts', {});
  const user = await sessionFor(t);
  const kept = await generate(t, 'story-prompts', {}, { headers: user.headers });
  const pdf = await makePdf(['One page.']);
  const body = multipartBody({ filename: 'a.pdf', type: 'application/pdf', data: pdf });
  const fb = (await t.app.inject({ method: 'POST', url: '/api/flipbook/create', headers: { ...body.headers, 'x-session-id': newSessionId() }, payload: body.payload })).json().data;
  const [fbRow] = await sql`select metadata->>'pdfKey' as key from tools_flipbooks where id = ${fb.id}`;
  // The same local store the app writes to (DATA_DIR of this test's config).
  const storage = createObjectStorage(t.config.storage, { publicBaseUrl: 'http://x' });
  expect((await storage.head(fbRow!['key'])).exists).toBe(true);

  await sql`insert into tools_responses (tool, prompt_id, session_id, title, content) values ('story-prompts', ${expired.data.id}, ${expired.sessionId}, 'Mine', 'Some words')`;
  const [collection] = await sql`insert into tools_collections (tool, title, slug) values ('story-prompts', 'C', 'c-purge') returning id`;
  await sql`insert into tools_collection_items (collection_id, tool, content_id) values (${collection!['id']}, 'story-prompts', ${expired.data.id})`;
  await sql`insert into tools_saved_prompts (tool, content_id, session_id) values ('story-prompts', ${expired.data.id}, ${expired.sessionId})`;
  await sql`update tools_story_prompts set expires_at = now() - interval '1 minute' where id = ${expired.data.id}`;
  await sql`update tools_flipbooks set expires_at = now() - interval '1 minute' where id = ${fb.id}`;
  await sql`insert into tools_sessions (id, expires_at) values (${newSessionId()}, now() - interval '31 days')`;
  await sql`insert into tools_rate_limits (key, scope, window_start, count) values ('sess:old', 'hourly', now() - interval '3 days', 4)`;

  const result = await purgeExpiredContent({ sql, storage: storage });
  expect(result).toMatchObject({ content: { 'story-prompts': 1, flipbook: 1 }, responses: 1, files: 1, sessions: 1, rateLimitWindows: 1 });
  const left = await sql`select id from tools_story_prompts order by id`;
  expect(left.map((r) => r['id']).sort()).toEqual([live.data.id, kept.data.id].sort());
  expect(await sql`select 1 from tools_responses where prompt_id = ${expired.data.id}`).toHaveLength(0);
  expect(await sql`select 1 from tools_collection_items where content_id = ${expired.data.id}`).toHaveLength(0);
  expect(await sql`select 1 from tools_saved_prompts where content_id = ${expired.data.id}`).toHaveLength(0);
  expect(await sql`select 1 from tools_flipbook_pages where flipbook_id = ${fb.id}`).toHaveLength(0);
  expect((await storage.head(fbRow!['key'])).exists).toBe(false);
  // Idempotent: nothing more to do.
  expect((await purgeExpiredContent({ sql, storage: storage })).content).toEqual({});
});

it('hands each queued job to exactly one of two concurrent runners', async () => {
  const admin = await sessionFor(t, 'admin');
  for (let i = 0; i < 2; i++) {
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/story-title-generator/bulk-generate', headers: admin.headers, payload: { count: 2 } });
    expect(res.statusCode).toBe(202);
  }
  const generateService = createGenerateService({ db: t.database.db, sql: t.database.sql, llm: createLocalLanguageModel({ usage: { record: async () => undefined } }), limitScale: 1 });
  const storage = createObjectStorage(t.config.storage, { publicBaseUrl: 'http://x' });
  const runner = () => createToolsJobRunner({ sql: t.database.sql, generate: generateService, storage, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, purgeIntervalMs: 3_600_000 });
  await Promise.all([runner().drain(), runner().drain()]);
  // Each bulk job ran once, by one of the two runners: completed on its first attempt, never handed over.
  const bulk = await t.database.sql`select status, attempts from jobs where kind = ${BULK_JOB_KIND} order by created_at`;
  expect(bulk).toEqual([
    { status: 'succeeded', attempts: 1 },
    { status: 'succeeded', attempts: 1 },
  ]);
  // The purge both runners seed at start ran once: its next run is written in the same transaction as its end.
  const purges = await t.database.sql`select count(*)::int as n from jobs where kind = ${PURGE_JOB_KIND} and status = 'succeeded'`;
  expect(purges[0]!['n']).toBe(1);
  const jobs = await t.database.sql`select status, completed_count from tools_bulk_jobs where tool = 'story-title-generator'`;
  expect(jobs).toEqual([
    { status: 'completed', completed_count: 2 },
    { status: 'completed', completed_count: 2 },
  ]);
  expect(await t.database.sql`select count(*)::int as n from tools_story_titles`).toEqual([{ n: 4 }]);
});

it('runs the purge as one recurring job, queued again for its next turn', async () => {
  const sql = t.database.sql;
  const expired = await generate(t, 'story-prompts', {});
  await sql`update tools_story_prompts set expires_at = now() - interval '1 minute' where id = ${expired.data.id}`;
  await sql`delete from jobs where kind = ${PURGE_JOB_KIND}`;
  await t.app.toolsJobs.drain();
  expect(await sql`select 1 from tools_story_prompts where id = ${expired.data.id}`).toHaveLength(0);
  const [done] = await sql<{ result: { content: Record<string, number> } }[]>`select result from jobs where kind = ${PURGE_JOB_KIND} and status = 'succeeded'`;
  expect(done!.result.content['story-prompts']).toBe(1);
  const queued = await sql<{ run_at: Date }[]>`select run_at from jobs where kind = ${PURGE_JOB_KIND} and status = 'queued'`;
  expect(queued).toHaveLength(1);
  expect(new Date(queued[0]!.run_at).getTime()).toBeGreaterThan(Date.now() + 60_000);
});
