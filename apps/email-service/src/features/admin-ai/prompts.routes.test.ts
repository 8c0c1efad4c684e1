// Prompt templates through the admin API against a real database: versions, diff, rollback (an unknown
// version refused with the audit log unchanged), permissions, and the run-time read through libs/providers.
import { createPromptStore } from '@story/providers';
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

const base = '/api/admin/ai/prompts';
const auditCount = async () => Number((await t.database.sql`select count(*)::int as n from admin_audit_log`)[0]!['n']);
const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = admin.headers) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

it('permissions: support lists, may not create (403); a plain user 403; no token 401', async () => {
  expect((await inject('GET', base, undefined, support.headers)).statusCode).toBe(200);
  const refused = await inject('POST', base, { key: 'x.y', name: 'X', content: 'c' }, support.headers);
  expect(refused.statusCode).toBe(403);
  expect(refused.json().code).toBe('INSUFFICIENT_PERMISSIONS');
  expect((await inject('GET', base, undefined, user.headers)).statusCode).toBe(403);
  expect((await t.app.inject({ method: 'GET', url: base })).statusCode).toBe(401);
  expect((await t.database.sql`select count(*)::int as n from ai_prompt_templates`)[0]!['n']).toBe(0);
});

it('edits add versions, diff compares two of them, rollback makes an older one active, and the providers lib reads the active text', async () => {
  const created = await inject('POST', base, { key: 'conversation.interviewer', name: 'Interviewer', content: 'Ask one question.\nBe kind.', change_note: 'first' });
  expect(created.statusCode).toBe(201);
  const id = created.json().template.id;
  expect(created.json().template).toMatchObject({ key: 'conversation.interviewer', current_version: 1, content: 'Ask one question.\nBe kind.' });
  const dup = await inject('POST', base, { key: 'conversation.interviewer', name: 'Again', content: 'x' });
  expect(dup.statusCode).toBe(409);

  const edited = await inject('POST', `${base}/${id}/versions`, { content: 'Ask one question about {{topic}}.\nBe kind.\nNo lists.', change_note: 'topic' });
  expect(edited.statusCode).toBe(201);
  expect(edited.json().template).toMatchObject({ current_version: 2, variables: ['topic'] });

  const store = createPromptStore(t.database.db, { ttlMs: 0 });
  expect(await store.resolve('conversation.interviewer', 'BUILT-IN')).toEqual({ text: 'Ask one question about {{topic}}.\nBe kind.\nNo lists.', version: 2, source: 'template' });

  const diff = await inject('GET', `${base}/${id}/diff?from=1&to=2`);
  expect(diff.statusCode).toBe(200);
  expect(diff.json()).toMatchObject({ from: 1, to: 2, added: 2, removed: 1 });
  expect(diff.json().unified).toBe('+Ask one question about {{topic}}.\n-Ask one question.\n Be kind.\n+No lists.');
  const missingDiff = await inject('GET', `${base}/${id}/diff?from=1&to=9`);
  expect(missingDiff.statusCode).toBe(404);
  expect(missingDiff.json().details.field).toBe('to');

  const before = await auditCount();
  const bad = await inject('POST', `${base}/${id}/rollback`, { version: 7 });
  expect(bad.statusCode).toBe(404);
  expect(bad.json()).toMatchObject({ code: 'NOT_FOUND', details: { field: 'version', version: 7 } });
  expect((await inject('POST', `${base}/${id}/rollback`, {})).json().details.missing_fields).toEqual(['version']);
  expect((await inject('POST', `${base}/${id}/rollback`, { version: 2 })).statusCode).toBe(409);
  expect((await inject('POST', `${base}/${id}/rollback`, { version: 1 }, support.headers)).statusCode).toBe(403);
  expect(await auditCount()).toBe(before);
  expect((await t.database.sql`select current_version from ai_prompt_templates where id = ${id}`)[0]!['current_version']).toBe(2);

  const rolled = await inject('POST', `${base}/${id}/rollback`, { version: 1 });
  expect(rolled.statusCode).toBe(200);
  expect(rolled.json().template).toMatchObject({ current_version: 1, content: 'Ask one question.\nBe kind.' });
  const [row] = await t.database.sql`select actor_id, data from admin_audit_log where action = 'prompt_template.rollback'`;
  expect(row).toMatchObject({ actor_id: admin.userId, data: { before: { current_version: 2 }, after: { current_version: 1 } } });
  expect((await store.resolve('conversation.interviewer', 'BUILT-IN')).version).toBe(1);

  const history = (await inject('GET', `${base}/${id}/versions`, undefined, support.headers)).json();
  expect(history.versions.map((v: { version: number; is_current: boolean }) => [v.version, v.is_current])).toEqual([[2, false], [1, true]]);

  const off = await inject('PUT', `${base}/${id}`, { is_active: false });
  expect(off.json().template.is_active).toBe(false);
  expect(await store.resolve('conversation.interviewer', 'BUILT-IN')).toMatchObject({ text: 'BUILT-IN', source: 'builtin' });

  const list = (await inject('GET', base)).json();
  expect(list.managed_keys).toEqual(expect.arrayContaining([{ key: 'conversation.interviewer', used_by: expect.any(String), has_template: false }]));
  expect(list.managed_keys.map((k: { key: string }) => k.key)).toEqual(expect.arrayContaining(['story_conversion.writer', 'conversation.summary']));
});
