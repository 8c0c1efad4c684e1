// POST /api/support/flag: the permission matrix (the storyteller and family who can see the content may
// report it; a removed member and a stranger get 404 and no report is written), repeated reports, and
// bad input naming the field.
import { buildTestApp, type TestContext } from '../../test/helper';
import { newConversation } from '../../test/conversations-factories';
import { newStory } from '../../test/stories-books-factories';
import { allow, createFamilyActors, runPermissionMatrix, type Actor, type AnyMatrixRoute, type FamilyActors } from '../../test/permission-matrix';

let t: TestContext;
let a: FamilyActors;
const content: Record<'story' | 'recording' | 'conversation', string> = { story: '', recording: '', conversation: '' };

beforeAll(async () => {
  t = await buildTestApp();
  a = await createFamilyActors(t.app, t.database.sql);
  const sql = t.database.sql;
  content.story = (await newStory(sql, a.owner.userId)).id;
  content.recording = (await sql<{ id: string }[]>`insert into recordings (user_id, storage_key, title) values (${a.owner.userId}, 'k/flag-test', 'Grandpa sings') returning id`)[0]!.id;
  content.conversation = (await newConversation(t, a.owner.userId, { turns: ['Hello'] })).id;
});
afterAll(async () => t.close());

const flagsBy = async (actor: Actor) => Number((await t.database.sql`select count(*)::int as n from support_flags where user_id = ${actor.userId}`)[0]!['n']);

it('each role may report what it can see; removed members and strangers get 404 and write nothing', async () => {
  const routes: AnyMatrixRoute[] = (['story', 'recording', 'conversation'] as const).map((type) => ({
    name: `flag ${type}`,
    method: 'POST',
    url: '/api/support/flag',
    payload: () => ({ contentType: type, contentId: content[type], reason: 'inappropriate', details: 'please look' }),
    expect: allow(201, 201, 201),
    check: async (res, actor) => {
      const body = res.json() as { flag: { id: string; contentType: string; status: string } };
      if (body.flag.contentType !== type || body.flag.status !== 'open') throw new Error(`unexpected flag ${JSON.stringify(body)}`);
      const [row] = await t.database.sql`select user_id, content_id from support_flags where id = ${body.flag.id}`;
      if (row?.['user_id'] !== actor.userId || row?.['content_id'] !== content[type]) throw new Error('flag row does not match');
    },
  }));
  expect(await runPermissionMatrix(t.app, a, routes)).toEqual([]);
  expect(await flagsBy(a.removed)).toBe(0);
  expect(await flagsBy(a.stranger)).toBe(0);
  expect(await flagsBy(a.viewer)).toBe(3);
});

it('a second report of the same item while the first is open returns the first', async () => {
  const payload = { contentType: 'story', contentId: content.story, reason: 'spam' };
  const res = await t.app.inject({ method: 'POST', url: '/api/support/flag', headers: a.owner.headers, payload });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ alreadyReported: true, flag: { reason: 'inappropriate' } });
  expect(await flagsBy(a.owner)).toBe(3);
});

it('unknown content is a 404 like content one cannot see', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/support/flag',
    headers: a.stranger.headers,
    payload: { contentType: 'recording', contentId: '00000000-0000-4000-8000-000000000000', reason: 'x' },
  });
  expect(res.statusCode).toBe(404);
  expect(Object.keys(res.json()).sort()).toEqual(['error']);
});

it.each([
  ['contentType', { contentType: 'photo', contentId: '00000000-0000-4000-8000-000000000000', reason: 'x' }],
  ['contentId', { contentType: 'story', contentId: 'abc', reason: 'x' }],
  ['reason', { contentType: 'story', contentId: '00000000-0000-4000-8000-000000000000' }],
  ['reason', { contentType: 'story', contentId: '00000000-0000-4000-8000-000000000000', reason: '   ' }],
  ['details', { contentType: 'story', contentId: '00000000-0000-4000-8000-000000000000', reason: 'x', details: 'y'.repeat(5001) }],
])('bad %s → 400 naming it, nothing written', async (field, payload) => {
  const before = await flagsBy(a.contributor);
  const res = await t.app.inject({ method: 'POST', url: '/api/support/flag', headers: a.contributor.headers, payload });
  expect(res.statusCode).toBe(400);
  expect(`${res.json().error} ${res.json().details ?? ''}`).toContain(field);
  expect(await flagsBy(a.contributor)).toBe(before);
});
