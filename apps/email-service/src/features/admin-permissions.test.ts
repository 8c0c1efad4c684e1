// The permission matrix of the admin routes of points 5-7 (spec 001 Authentication 2 and 5, CONTRACTS §7):
// no token 401, a plain user 403 INSUFFICIENT_PERMISSIONS, support reads (never 401/403) but every change
// is 403 for it, and a refused change writes no audit row.
import { buildTestApp, sessionFor, type TestContext } from '../test/helper';

let t: TestContext;
let support: Awaited<ReturnType<typeof sessionFor>>;
let user: Awaited<ReturnType<typeof sessionFor>>;
beforeAll(async () => {
  t = await buildTestApp();
  [support, user] = [await sessionFor(t, 'support'), await sessionFor(t, 'user')];
});
afterAll(async () => t.close());

const ID = '00000000-0000-4000-8000-000000000000';
const READS = [
  '/api/content-blocks', `/api/content-blocks/${ID}`, '/api/admin/editor-templates', '/api/admin/story-prompts', '/api/admin/story-prompt-collections',
  `/api/admin/story-prompt-collections/${ID}/prompts`, '/api/admin/blurb-samples', '/api/admin/blurb-queue', '/api/admin/resources',
  '/api/admin/ai/prompts', `/api/admin/ai/prompts/${ID}/versions`, '/api/admin/ai/voices', '/api/admin/ai/provider-configs',
  '/api/admin/test-conversations', '/api/admin/conversation-test-results', '/api/admin/test-analytics', '/api/admin/debug-test-data',
  '/api/debug-ai', '/api/debug-usage', '/api/admin/user-support/recent-flags', '/api/admin/user-support/trends', '/api/admin/user-support/summaries',
  '/api/admin/billing', '/api/admin/waitlist', '/api/admin/waitlist/stats',
];
// Every row has three entries: with two, Jest would pass its done callback as the body.
const WRITES: [method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, body: object | undefined][] = [
  ['POST', '/api/content-blocks', { key: 'k', body: 'b' }],
  ['PUT', `/api/content-blocks/${ID}`, { title: 't' }],
  ['DELETE', `/api/admin/resources/${ID}`, undefined],
  ['POST', `/api/admin/story-prompts/${ID}/status`, { status: 'reviewed' }],
  ['PUT', `/api/admin/story-prompt-collections/${ID}/prompts`, { prompt_ids: [] }],
  ['POST', '/api/admin/blurb-queue', { book_title: 'b', blurb: 'b' }],
  ['POST', `/api/admin/blurb-queue/${ID}/approve`, {}],
  ['POST', '/api/admin/ai/prompts', { key: 'a.b', name: 'n', content: 'c' }],
  ['POST', `/api/admin/ai/prompts/${ID}/versions`, { content: 'c' }],
  ['POST', `/api/admin/ai/prompts/${ID}/rollback`, { version: 1 }],
  ['POST', '/api/admin/ai/voices', { voice_id: 'v', provider: 'local', name: 'n' }],
  ['POST', '/api/admin/ai/provider-configs', { capability: 'llm', provider: 'local' }],
  ['POST', '/api/admin/test-conversations', { answers: ['a'] }],
  ['GET', '/api/admin/test-provider', undefined],
  ['POST', '/api/apply-migration', undefined],
];

const auditCount = async () => Number((await t.database.sql`select count(*)::int as n from admin_audit_log`)[0]!['n']);

it.each(READS)('GET %s: 401 without a token, 403 for a user, readable by support', async (url) => {
  expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  const refused = await t.app.inject({ method: 'GET', url, headers: user.headers });
  expect(refused.statusCode).toBe(403);
  expect(refused.json().code).toBe('INSUFFICIENT_PERMISSIONS');
  const read = await t.app.inject({ method: 'GET', url, headers: support.headers });
  expect([200, 404]).toContain(read.statusCode); // 404: the made-up id of an item route
});

it.each(WRITES)('%s %s: 401 without a token, 403 for a user and for support, nothing written', async (method, url, body) => {
  const before = await auditCount();
  const payload = body ? { payload: body } : {};
  expect((await t.app.inject({ method, url, ...payload })).statusCode).toBe(401);
  expect((await t.app.inject({ method, url, headers: user.headers, ...payload })).statusCode).toBe(403);
  const bySupport = await t.app.inject({ method, url, headers: support.headers, ...payload });
  expect(bySupport.statusCode).toBe(403);
  expect(bySupport.json()).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', error: 'Admin access required' });
  expect(await auditCount()).toBe(before);
});

it('support changed nothing anywhere', async () => {
  const [row] = await t.database.sql`select (select count(*) from content_blocks) + (select count(*) from blurb_queue) + (select count(*) from ai_prompt_templates)
    + (select count(*) from voices) + (select count(*) from ai_provider_configs) + (select count(*) from ai_conversation_tests) + (select count(*) from ai_usage_logs) as n`;
  expect(Number(row!['n'])).toBe(0);
});
