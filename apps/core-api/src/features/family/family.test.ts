// Family groups, members, relationships, memories, media, prompts, leaderboard and the timeline with
// reactions: behaviour and bad input, with the tables checked afterwards.
import { buildTestApp, signUp, type TestContext } from '../../test/helper';
import { addMember, newTimelineEvent, setTier } from '../../test/family-factories';
import { createFamilyActors, type FamilyActors } from '../../test/permission-matrix';

let t: TestContext;
let a: FamilyActors;
beforeAll(async () => {
  t = await buildTestApp();
  a = await createFamilyActors(t.app, t.database.sql, 'The Riveras');
  await setTier(t.database.sql, a.owner.userId, 'family');
});
afterAll(async () => t.close());

const url = (path: string) => `/api/families/${a.familyGroupId}${path}`;

it('creates a group with the creator as owner member, validates the body, and lists with member_count and role', async () => {
  const user = await signUp(t.app);
  const bad = await t.app.inject({ method: 'POST', url: '/api/family/groups', headers: user.headers, payload: { name: '' } });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().error).toContain('name');
  const res = await t.app.inject({ method: 'POST', url: '/api/family/groups', headers: user.headers, payload: { name: 'Solo', settings: { privacy: 'family' } } });
  expect(res.statusCode).toBe(201);
  expect(res.json().data).toMatchObject({ name: 'Solo', description: null, member_count: 1, role: 'owner', settings: { privacy: 'family' }, createdBy: user.userId });
  const [member] = await t.database.sql`select role, status, user_id from family_members where family_group_id = ${res.json().data.id}`;
  expect(member).toEqual({ role: 'owner', status: 'active', user_id: user.userId });
  const list = await t.app.inject({ method: 'GET', url: '/api/family/groups', headers: a.contributor.headers });
  expect(list.json()).toEqual({ success: true, data: [{ id: a.familyGroupId, name: 'The Riveras', description: null, member_count: 3, role: 'family_contributor' }] });
});

it('members: lists by status, refuses an unknown status, changes roles (never to or from owner), lets a member edit themself', async () => {
  const active = await t.app.inject({ method: 'GET', url: url('/members'), headers: a.viewer.headers });
  expect(active.json().members.map((m: { role: string }) => m.role)).toEqual(['owner', 'family_contributor', 'family_viewer']);
  const removed = await t.app.inject({ method: 'GET', url: url('/members?status=removed'), headers: a.owner.headers });
  expect(removed.json().members.map((m: { id: string }) => m.id)).toEqual([a.memberIds.removed]);
  const unknown = await t.app.inject({ method: 'GET', url: url('/members?status=sleeping'), headers: a.owner.headers });
  expect(unknown.statusCode).toBe(400);
  expect(unknown.json().error).toContain('status');

  const toOwner = await t.app.inject({ method: 'PUT', url: url(`/members/${a.memberIds.viewer}`), headers: a.owner.headers, payload: { role: 'owner' } });
  expect(toOwner.statusCode).toBe(400);
  const demoteOwner = await t.app.inject({ method: 'PUT', url: url(`/members/${a.memberIds.owner}`), headers: a.owner.headers, payload: { role: 'family_viewer' } });
  expect(demoteOwner.statusCode).toBe(409);
  const badRel = await t.app.inject({ method: 'PUT', url: url(`/members/${a.memberIds.viewer}`), headers: a.owner.headers, payload: { relationship: 'frenemy' } });
  expect(badRel.statusCode).toBe(400);
  expect(badRel.json().error).toContain('relationship');
  const [roles] = await t.database.sql`select role, relationship from family_members where id = ${a.memberIds.viewer}`;
  expect(roles).toEqual({ role: 'family_viewer', relationship: null });

  const self = await t.app.inject({ method: 'PUT', url: url(`/members/${a.memberIds.viewer}`), headers: a.viewer.headers, payload: { displayName: 'Cousin Vi', relationship: 'cousin' } });
  expect(self.statusCode).toBe(200);
  expect(self.json().member).toMatchObject({ displayName: 'Cousin Vi', relationship: 'cousin', role: 'family_viewer' });
  const selfPromote = await t.app.inject({ method: 'PUT', url: url(`/members/${a.memberIds.viewer}`), headers: a.viewer.headers, payload: { role: 'family_contributor' } });
  expect(selfPromote.statusCode).toBe(403);

  const removeOwner = await t.app.inject({ method: 'DELETE', url: url(`/members/${a.memberIds.owner}`), headers: a.owner.headers });
  expect(removeOwner.statusCode).toBe(409);
});

it('merges a placeholder into a real member: placeholder retired, relationships moved, duplicates dropped', async () => {
  const sql = t.database.sql;
  const grandma = await t.app.inject({ method: 'POST', url: url('/members'), headers: a.owner.headers, payload: { displayName: 'Grandma Ines', relationship: 'grandmother' } });
  expect(grandma.statusCode).toBe(201);
  const placeholderId = grandma.json().member.id as string;
  expect(grandma.json().member).toMatchObject({ isPlaceholder: true, userId: null, displayName: 'Grandma Ines' });
  const other = await addMember(sql, { groupId: a.familyGroupId, displayName: 'Uncle Tito' });
  // placeholder -> other (sibling), other -> placeholder (sibling)
  for (const [from, to] of [
    [placeholderId, other.id],
    [other.id, placeholderId],
  ]) {
    const r = await t.app.inject({ method: 'POST', url: url('/relationships'), headers: a.contributor.headers, payload: { fromMemberId: from, toMemberId: to, relationshipType: 'sibling' } });
    expect(r.statusCode).toBe(201);
  }
  const dup = await t.app.inject({ method: 'POST', url: url('/relationships'), headers: a.owner.headers, payload: { fromMemberId: placeholderId, toMemberId: other.id, relationshipType: 'sibling' } });
  expect(dup.statusCode).toBe(409);
  const unknownType = await t.app.inject({ method: 'POST', url: url('/relationships'), headers: a.owner.headers, payload: { fromMemberId: placeholderId, toMemberId: other.id, relationshipType: 'nemesis' } });
  expect(unknownType.statusCode).toBe(400);
  expect(unknownType.json().error).toContain('relationshipType');
  const self = await t.app.inject({ method: 'POST', url: url('/relationships'), headers: a.owner.headers, payload: { fromMemberId: other.id, toMemberId: other.id, relationshipType: 'sibling' } });
  expect(self.statusCode).toBe(400);
  const removedEnd = await t.app.inject({ method: 'POST', url: url('/relationships'), headers: a.owner.headers, payload: { fromMemberId: a.memberIds.removed, toMemberId: other.id, relationshipType: 'sibling' } });
  expect(removedEnd.statusCode).toBe(400);
  expect(removedEnd.json().error).toContain('fromMemberId');

  // Merging a real member, or into a placeholder, is refused.
  const wrongWay = await t.app.inject({ method: 'POST', url: url(`/members/${a.memberIds.contributor}/merge`), headers: a.owner.headers, payload: { intoMemberId: placeholderId } });
  expect(wrongWay.statusCode).toBe(400);
  const intoPlaceholder = await t.app.inject({ method: 'POST', url: url(`/members/${placeholderId}/merge`), headers: a.owner.headers, payload: { intoMemberId: other.id } });
  expect(intoPlaceholder.statusCode).toBe(400);

  const merge = await t.app.inject({ method: 'POST', url: url(`/members/${placeholderId}/merge`), headers: a.owner.headers, payload: { intoMemberId: a.memberIds.contributor } });
  expect(merge.statusCode).toBe(200);
  expect(merge.json().member).toMatchObject({ id: a.memberIds.contributor, relationship: 'grandmother' });
  const [retired] = await sql`select status, merged_into_id from family_members where id = ${placeholderId}`;
  expect(retired).toEqual({ status: 'removed', merged_into_id: a.memberIds.contributor });
  const edges = await sql`select from_member_id, to_member_id from family_relationships where family_group_id = ${a.familyGroupId} order by created_at`;
  expect(edges).toEqual([
    { from_member_id: a.memberIds.contributor, to_member_id: other.id },
    { from_member_id: other.id, to_member_id: a.memberIds.contributor },
  ]);
  const twice = await t.app.inject({ method: 'POST', url: url(`/members/${placeholderId}/merge`), headers: a.owner.headers, payload: { intoMemberId: a.memberIds.contributor } });
  expect(twice.statusCode).toBe(409);
});

it('memories: add with your own photos only, write a timeline event, edit, delete with its events', async () => {
  const sql = t.database.sql;
  const [mine] = await sql<{ id: string }[]>`insert into images (user_id, storage_key, mime_type, title) values (${a.contributor.userId}, 'images/a.jpg', 'image/jpeg', 'Lake') returning id`;
  const [theirs] = await sql<{ id: string }[]>`insert into images (user_id, storage_key, mime_type) values (${a.stranger.userId}, 'images/b.jpg', 'image/jpeg') returning id`;
  const stolen = await t.app.inject({ method: 'POST', url: url('/memories'), headers: a.contributor.headers, payload: { title: 'Lake', media: [{ imageId: theirs!.id }] } });
  expect(stolen.statusCode).toBe(400);
  expect(stolen.json().error).toContain('media.0.imageId');
  const badDate = await t.app.inject({ method: 'POST', url: url('/memories'), headers: a.contributor.headers, payload: { title: 'Lake', memoryDate: '1962-13-40' } });
  expect(badDate.statusCode).toBe(400);
  expect(await sql`select 1 from family_memories where family_group_id = ${a.familyGroupId}`).toHaveLength(0);

  const res = await t.app.inject({ method: 'POST', url: url('/memories'), headers: a.contributor.headers, payload: { title: 'Lake', content: 'Summer 1962', memoryDate: '1962-07-04', tags: ['summer'], media: [{ imageId: mine!.id, caption: 'The dock' }] } });
  expect(res.statusCode).toBe(201);
  const memory = res.json().memory;
  expect(memory).toMatchObject({ title: 'Lake', memoryDate: '1962-07-04', tags: ['summer'], createdBy: a.contributor.userId, media: [{ imageId: mine!.id, mimeType: 'image/jpeg', caption: 'The dock' }] });
  const [ev] = await sql`select event_type, actor_id from timeline_events where subject_id = ${memory.id}`;
  expect(ev).toEqual({ event_type: 'memory_added', actor_id: a.contributor.userId });

  const media = await t.app.inject({ method: 'GET', url: url('/media'), headers: a.viewer.headers });
  expect(media.json().media.map((m: { source: string; imageId: string }) => [m.source, m.imageId])).toEqual(expect.arrayContaining([['memory', mine!.id], ['image', mine!.id]]));
  expect(media.json().media.some((m: { imageId: string }) => m.imageId === theirs!.id)).toBe(false);

  const edit = await t.app.inject({ method: 'PUT', url: url(`/memories/${memory.id}`), headers: a.contributor.headers, payload: { title: 'The lake house' } });
  expect(edit.json().memory.title).toBe('The lake house');
  const empty = await t.app.inject({ method: 'PUT', url: url(`/memories/${memory.id}`), headers: a.contributor.headers, payload: {} });
  expect(empty.statusCode).toBe(400);
  const del = await t.app.inject({ method: 'DELETE', url: url(`/memories/${memory.id}`), headers: a.owner.headers });
  expect(del.statusCode).toBe(200);
  expect(await sql`select 1 from family_memories where id = ${memory.id}`).toHaveLength(0);
  expect(await sql`select 1 from timeline_events where subject_id = ${memory.id}`).toHaveLength(0);
});

it('leaderboard counts real rows per member; story prompts fall back to a starter set, then use the library', async () => {
  const sql = t.database.sql;
  await sql`insert into recordings (user_id, title, status, storage_key) values (${a.viewer.userId}, 'r1', 'completed', 'rec/1'), (${a.viewer.userId}, 'r2', 'completed', 'rec/2')`;
  await sql`insert into stories (user_id, title, metadata) values (${a.owner.userId}, 'By owner', '{}'), (${a.owner.userId}, 'By contributor', ${JSON.stringify({ authorId: a.contributor.userId })}::jsonb)`;
  await sql`insert into family_memories (family_group_id, created_by, title) values (${a.familyGroupId}, ${a.contributor.userId}, 'm')`;
  const res = await t.app.inject({ method: 'GET', url: `/api/family/${a.familyGroupId}/leaderboard`, headers: a.viewer.headers });
  expect(res.statusCode).toBe(200);
  const rows = res.json().data.map((r: { userId: string; stories: number; recordings: number; memories: number; points: number; rank: number }) => [r.userId, r.stories, r.recordings, r.memories, r.points, r.rank]);
  expect(rows).toEqual([
    [a.contributor.userId, 1, 0, 1, 13, 1],
    // Tied on points: by name ('Cousin Vi' before 'Owner'), sharing the rank.
    [a.viewer.userId, 0, 2, 0, 10, 2],
    [a.owner.userId, 1, 0, 0, 10, 2],
  ]);

  const starter = await t.app.inject({ method: 'GET', url: url('/story-prompts?limit=3'), headers: a.viewer.headers });
  expect(starter.json().prompts).toHaveLength(3);
  expect(starter.json().prompts[0].source).toBe('starter');
  await sql`insert into story_prompt_library (prompt, status, relationship_type) values ('What did your grandmother cook?', 'published', 'grandmother'), ('Draft only', 'draft', null), ('For uncles', 'published', 'uncle')`;
  const library = await t.app.inject({ method: 'GET', url: url('/story-prompts'), headers: a.viewer.headers });
  // The contributor's relationship is grandmother (merged above); nobody is an uncle; drafts never show.
  expect(library.json().prompts.map((p: { prompt: string; source: string }) => [p.prompt, p.source])).toEqual([['What did your grandmother cook?', 'library']]);
});

it('timeline: members see group events newest first with keyset paging; reactions are one per person, upserted', async () => {
  const sql = t.database.sql;
  const events = [];
  for (let i = 0; i < 3; i++) events.push(await newTimelineEvent(sql, { groupId: a.familyGroupId, actorId: a.owner.userId, eventType: 'story_created', title: `Story ${i}` }));
  const own = await newTimelineEvent(sql, { groupId: null, actorId: a.owner.userId, eventType: 'recording_added', title: 'Private but shared with family' });
  const outsider = await newTimelineEvent(sql, { groupId: null, actorId: a.stranger.userId, eventType: 'recording_added', title: 'Not yours' });

  const page1 = await t.app.inject({ method: 'GET', url: '/api/family/timeline?limit=2', headers: a.viewer.headers });
  expect(page1.statusCode).toBe(200);
  const seen: string[] = page1.json().events.map((e: { id: string }) => e.id);
  let cursor = page1.json().nextCursor as string | null;
  while (cursor) {
    const next = await t.app.inject({ method: 'GET', url: `/api/family/timeline?limit=2&cursor=${cursor}`, headers: a.viewer.headers });
    seen.push(...next.json().events.map((e: { id: string }) => e.id));
    cursor = next.json().nextCursor;
  }
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen).toEqual(expect.arrayContaining([...events.map((e) => e.id), own.id]));
  expect(seen).not.toContain(outsider.id);
  const [total] = await sql`select count(*)::int as n from timeline_events where family_group_id = ${a.familyGroupId} or id = ${own.id}`;
  expect(seen).toHaveLength(total!['n']);

  const badCursor = await t.app.inject({ method: 'GET', url: '/api/family/timeline?cursor=garbage', headers: a.viewer.headers });
  expect(badCursor.statusCode).toBe(400);
  expect(badCursor.json().error).toContain('cursor');

  const target = events[0]!.id;
  const react = (who: typeof a.owner, type: string) => t.app.inject({ method: 'POST', url: `/api/timeline/events/${target}/reactions`, headers: who.headers, payload: { type } });
  expect((await react(a.viewer, 'like')).json().reactions).toEqual({ like: 1, love: 0, celebrate: 0 });
  expect((await react(a.viewer, 'celebrate')).json().reactions).toEqual({ like: 0, love: 0, celebrate: 1 });
  expect((await react(a.contributor, 'celebrate')).json().reactions).toEqual({ like: 0, love: 0, celebrate: 2 });
  const wrongType = await react(a.viewer, 'hate');
  expect(wrongType.statusCode).toBe(400);
  expect(wrongType.json().error).toContain('type');
  const rows = await sql`select user_id, type from timeline_reactions where event_id = ${target} order by user_id`;
  expect(rows).toHaveLength(2);
  expect(rows.every((r) => r['type'] === 'celebrate')).toBe(true);
  const mine = await t.app.inject({ method: 'GET', url: `/api/family/timeline?familyId=${a.familyGroupId}&limit=100`, headers: a.viewer.headers });
  expect(mine.json().events.find((e: { id: string }) => e.id === target)).toMatchObject({ myReaction: 'celebrate', reactions: { celebrate: 2 } });

  const onOutsider = await t.app.inject({ method: 'POST', url: `/api/timeline/events/${outsider.id}/reactions`, headers: a.viewer.headers, payload: { type: 'like' } });
  expect(onOutsider.statusCode).toBe(404);
  expect(await sql`select 1 from timeline_reactions where event_id = ${outsider.id}`).toHaveLength(0);
});

it('documents every family, timeline and create-flow route in the OpenAPI document', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  const doc = res.json() as { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> };
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.values(methods).map((op) => ({ path, id: op.operationId, codes: Object.keys(op.responses ?? {}) })));
  const mine = ops.filter((o) => /^\/api\/(family|families|timeline|campaigns\/create-flow)\//.test(o.path));
  expect(mine.length).toBe(39);
  expect(new Set(mine.map((o) => o.id)).size).toBe(39);
  for (const op of mine) {
    expect(op.id).toEqual(expect.any(String));
    // Every route declares its error answers; all but the public preview need a token.
    expect(op.codes).toEqual(expect.arrayContaining(op.id === 'previewFamilyInvitation' ? ['200', '404', '429'] : ['401', '429']));
  }
  expect(doc.paths['/api/family/invitations/{token}/public']?.['get']?.operationId).toBe('previewFamilyInvitation');
});
