// Permission matrix (spec 000 Authentication 4-5) over every family, timeline and create-flow route with an id:
// owner, contributor, viewer, removed member and stranger each get exactly what the policy allows;
// removed members and strangers get 404 with no data.
import { buildTestApp, type TestContext } from '../../test/helper';
import { addMember, newFamilyMemory, newInvitation, newTimelineEvent, setTier } from '../../test/family-factories';
import { allow, createFamilyActors, runPermissionMatrix, type FamilyActors, type AnyMatrixRoute } from '../../test/permission-matrix';

let t: TestContext;
let a: FamilyActors;
let n = 0;
const freshEmail = () => `matrix.${Date.now().toString(36)}.${++n}@example.test`;

beforeAll(async () => {
  t = await buildTestApp();
  a = await createFamilyActors(t.app, t.database.sql);
  // Room for the placeholders and invitations the matrix creates.
  await setTier(t.database.sql, a.owner.userId, 'family');
});
afterAll(async () => t.close());

const placeholder = async () => ({ id: (await addMember(t.database.sql, { groupId: a.familyGroupId, displayName: `Great-aunt ${++n}` })).id });

it('family routes: each role gets exactly what the policy allows', async () => {
  const sql = t.database.sql;
  const g = () => a.familyGroupId;
  const ownersMemory = await newFamilyMemory(sql, { groupId: a.familyGroupId, createdBy: a.owner.userId });
  const contributorsMemory = await newFamilyMemory(sql, { groupId: a.familyGroupId, createdBy: a.contributor.userId });
  const event = await newTimelineEvent(sql, { groupId: a.familyGroupId, actorId: a.owner.userId });

  const routes: AnyMatrixRoute[] = [
    { name: 'group', method: 'GET', url: () => `/api/family/groups/${g()}`, expect: allow(200, 200, 200), check: (res) => expect((res.json() as { data: { id: string } }).data.id).toBe(g()) },
    { name: 'leaderboard', method: 'GET', url: () => `/api/family/${g()}/leaderboard`, expect: allow(200, 200, 200) },
    { name: 'members of one group (query)', method: 'GET', url: () => `/api/family/members?familyId=${g()}`, expect: allow(200, 200, 200) },
    { name: 'members', method: 'GET', url: () => `/api/families/${g()}/members`, expect: allow(200, 200, 200) },
    { name: 'add placeholder', method: 'POST', url: () => `/api/families/${g()}/members`, payload: { displayName: 'Grandpa Joe', relationship: 'grandfather' }, expect: allow(201, 403, 403) },
    { name: 'member', method: 'GET', url: () => `/api/families/${g()}/members/${a.memberIds.contributor}`, expect: allow(200, 200, 200) },
    { name: "update someone else's member row", method: 'PUT', prepare: placeholder, url: (c) => `/api/families/${g()}/members/${c.id}`, payload: { relationship: 'cousin' }, expect: allow(200, 403, 403) },
    { name: 'remove member', method: 'DELETE', prepare: placeholder, url: (c) => `/api/families/${g()}/members/${c.id}`, expect: allow(200, 403, 403) },
    {
      name: 'merge placeholder',
      method: 'POST',
      prepare: placeholder,
      url: (c) => `/api/families/${g()}/members/${c.id}/merge`,
      payload: () => ({ intoMemberId: a.memberIds.viewer }),
      expect: allow(200, 403, 403),
    },
    { name: 'list invitations', method: 'GET', url: () => `/api/families/${g()}/invitations`, expect: allow(200, 403, 403) },
    { name: 'invite (families path)', method: 'POST', url: () => `/api/families/${g()}/invitations`, payload: () => ({ email: freshEmail(), role: 'family_viewer' }), expect: allow(201, 403, 403) },
    { name: 'invite (family path)', method: 'POST', url: '/api/family/invitations', payload: () => ({ familyGroupId: g(), email: freshEmail(), role: 'family_contributor' }), expect: allow(201, 403, 403) },
    {
      name: 'cancel invitation',
      method: 'DELETE',
      prepare: async () => newInvitation(sql, { groupId: a.familyGroupId, invitedBy: a.owner.userId, email: freshEmail() }),
      url: (c) => `/api/families/${g()}/invitations/${c.id}`,
      expect: allow(200, 403, 403),
    },
    {
      name: 'resend invitation',
      method: 'POST',
      prepare: async () => newInvitation(sql, { groupId: a.familyGroupId, invitedBy: a.owner.userId, email: freshEmail() }),
      url: (c) => `/api/families/${g()}/invitations/${c.id}/resend`,
      expect: allow(200, 403, 403),
    },
    { name: 'relationships', method: 'GET', url: () => `/api/families/${g()}/relationships`, expect: allow(200, 200, 200) },
    {
      name: 'add relationship',
      method: 'POST',
      prepare: async () => ({ from: (await placeholder()).id, to: (await placeholder()).id }),
      url: () => `/api/families/${g()}/relationships`,
      payload: (c: { from: string; to: string }) => ({ fromMemberId: c.from, toMemberId: c.to, relationshipType: 'sibling' }),
      expect: allow(201, 201, 403),
    },
    { name: 'memories', method: 'GET', url: () => `/api/families/${g()}/memories`, expect: allow(200, 200, 200) },
    { name: 'add memory', method: 'POST', url: () => `/api/families/${g()}/memories`, payload: { title: 'The old barn' }, expect: allow(201, 201, 403) },
    { name: 'memory', method: 'GET', url: () => `/api/families/${g()}/memories/${ownersMemory.id}`, expect: allow(200, 200, 200) },
    { name: "edit the owner's memory", method: 'PUT', url: () => `/api/families/${g()}/memories/${ownersMemory.id}`, payload: { title: 'Edited' }, expect: allow(200, 403, 403) },
    { name: "edit the contributor's memory", method: 'PUT', url: () => `/api/families/${g()}/memories/${contributorsMemory.id}`, payload: { title: 'Edited' }, expect: allow(200, 200, 403) },
    {
      name: "delete the owner's memory",
      method: 'DELETE',
      prepare: async () => newFamilyMemory(sql, { groupId: a.familyGroupId, createdBy: a.owner.userId }),
      url: (c) => `/api/families/${g()}/memories/${c.id}`,
      expect: allow(200, 403, 403),
    },
    {
      name: "delete the contributor's memory",
      method: 'DELETE',
      prepare: async () => newFamilyMemory(sql, { groupId: a.familyGroupId, createdBy: a.contributor.userId }),
      url: (c) => `/api/families/${g()}/memories/${c.id}`,
      expect: allow(200, 200, 403),
    },
    { name: 'media', method: 'GET', url: () => `/api/families/${g()}/media`, expect: allow(200, 200, 200) },
    { name: 'story prompts', method: 'GET', url: () => `/api/families/${g()}/story-prompts`, expect: allow(200, 200, 200) },
    { name: 'timeline of the group', method: 'GET', url: () => `/api/family/timeline?familyId=${g()}`, expect: allow(200, 200, 200) },
    { name: 'react', method: 'POST', url: () => `/api/timeline/events/${event.id}/reactions`, payload: { type: 'love' }, expect: allow(200, 200, 200) },
    { name: 'unreact', method: 'DELETE', url: () => `/api/timeline/events/${event.id}/reactions`, expect: allow(200, 200, 200) },
  ];
  expect(await runPermissionMatrix(t.app, a, routes)).toEqual([]);

  // What the allowed calls did is really there, and the refused ones wrote nothing.
  const [{ n: memories }] = await sql<{ n: number }[]>`select count(*)::int as n from family_memories where family_group_id = ${a.familyGroupId} and title = 'The old barn'`;
  expect(memories).toBe(2); // owner and contributor; the viewer's 403 wrote nothing
  const reactions = await sql`select user_id from timeline_reactions where event_id = ${event.id}`;
  expect(reactions).toHaveLength(0); // every reactor took it back
});

it('a removed member loses access at once, a stranger never sees the group exist', async () => {
  const before = await t.app.inject({ method: 'GET', url: `/api/family/groups/${a.familyGroupId}`, headers: a.viewer.headers });
  expect(before.statusCode).toBe(200);
  const removal = await t.app.inject({ method: 'DELETE', url: `/api/families/${a.familyGroupId}/members/${a.memberIds.viewer}`, headers: a.owner.headers });
  expect(removal.statusCode).toBe(200);
  const after = await t.app.inject({ method: 'GET', url: `/api/family/groups/${a.familyGroupId}`, headers: a.viewer.headers });
  expect(after.statusCode).toBe(404);
  expect(after.json()).toEqual({ error: 'Family group not found' });
  const list = await t.app.inject({ method: 'GET', url: '/api/family/groups', headers: a.viewer.headers });
  expect(list.json().data).toEqual([]);
  // Restore for any later test in this file.
  await t.database.sql`update family_members set status = 'active', removed_at = null where id = ${a.memberIds.viewer}`;
});

it('create flow: only its creator touches it; everyone else gets 404', async () => {
  const start = await t.app.inject({ method: 'POST', url: '/api/campaigns/create-flow/start', headers: a.owner.headers, payload: { title: 'Grandma' } });
  expect(start.statusCode).toBe(201);
  const id = start.json().flow.campaignId as string;
  const onlyOwner = (owner: number) => ({ owner, contributor: 404, viewer: 404, removed: 404, stranger: 404 });
  const routes: AnyMatrixRoute[] = [
    { name: 'resume', method: 'GET', url: `/api/campaigns/create-flow/${id}/resume`, expect: onlyOwner(200) },
    { name: 'step 1', method: 'PUT', url: `/api/campaigns/create-flow/${id}/step/1`, payload: { storytellerName: 'Rose', relationship: 'grandparent' }, expect: onlyOwner(200) },
    { name: 'step familyMembers', method: 'PUT', url: `/api/campaigns/create-flow/${id}/step/familyMembers`, payload: { members: [] }, expect: onlyOwner(200) },
    {
      name: 'gift address',
      method: 'PUT',
      url: `/api/campaigns/create-flow/${id}/gift-address`,
      payload: { recipientName: 'Rose', line1: '1 Main St', city: 'Portland', region: 'ME', postalCode: '04101', country: 'US' },
      expect: onlyOwner(200),
    },
    // The owner goes last so the flow is still open for the others' attempts.
    { name: 'complete', method: 'POST', url: `/api/campaigns/create-flow/${id}/complete`, expect: onlyOwner(200), actors: ['stranger', 'removed', 'viewer', 'contributor', 'owner'] },
  ];
  expect(await runPermissionMatrix(t.app, a, routes)).toEqual([]);
  const [flow] = await t.database.sql`select status, user_id from campaign_create_flows where campaign_id = ${id}`;
  expect(flow).toEqual({ status: 'completed', user_id: a.owner.userId });
});

it('the harness itself reports a wrong status and a failed check (so an empty list means something)', async () => {
  const mismatches = await runPermissionMatrix(t.app, a, [
    { name: 'group', method: 'GET', url: () => `/api/family/groups/${a.familyGroupId}`, expect: allow(200, 200, 403) },
    { name: 'members', method: 'GET', url: () => `/api/families/${a.familyGroupId}/members`, expect: allow(200, 200, 200), actors: ['owner'], check: () => { throw new Error('nope'); } },
  ]);
  expect(mismatches.map((m) => [m.route, m.actor, m.got])).toEqual([
    ['GET group', 'viewer', 200],
    ['GET members', 'owner', 200],
  ]);
  expect(mismatches[1]!.body).toBe('check failed: nope');
});
