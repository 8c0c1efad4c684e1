// Permission matrix for the AI helpers that take ids (spec 000 Authentication 5). The helpers read only the
// caller's own content: the owner gets 200; family members of the owner (contributor, viewer), a removed
// member and a stranger all get 404 with no data, and their refused calls count nothing against their
// allowance.
import { setTier } from '../../test/family-factories';
import { newConversation } from '../../test/conversations-factories';
import { buildTestApp, type TestContext } from '../../test/helper';
import { ACTOR_NAMES, createFamilyActors, runPermissionMatrix, type FamilyActors } from '../../test/permission-matrix';
import { newCampaign, newStory } from '../../test/stories-books-factories';

let t: TestContext;
let actors: FamilyActors;
beforeAll(async () => {
  t = await buildTestApp();
  actors = await createFamilyActors(t.app, t.database.sql, 'AI family');
  await setTier(t.database.sql, actors.owner.userId, 'premium');
});
afterAll(() => t.close());

const OWNER_ONLY = { owner: 200, contributor: 404, viewer: 404, removed: 404, stranger: 404 } as const;

it('only the owner’s own ids are read; everyone else gets 404 carrying no data and nothing counted', async () => {
  const owner = actors.owner.userId;
  const sql = t.database.sql;
  const story = await newStory(sql, owner, { title: 'Owner’s secret story', content: '<p>Aunt Philippa in Bognor in 1948.</p>' });
  const other = await newStory(sql, owner, { title: 'Another', content: '<p>Aunt Philippa again in 1950.</p>' });
  const campaign = await newCampaign(sql, owner, 'Owner campaign');
  const [image] = await sql<{ id: string }[]>`insert into images (user_id, storage_key, mime_type, title) values (${owner}, 'images/x.jpg', 'image/jpeg', 'Bognor pier') returning id`;
  await newConversation(t, owner, { sessionId: 'owner-session', turns: ['Aunt Philippa kept bees.'] });

  const mismatches = await runPermissionMatrix(t.app, actors, [
    { name: 'memory-prompts campaignId', method: 'POST', url: '/api/ai/memory-prompts', payload: { campaignId: campaign.id }, expect: OWNER_ONLY },
    { name: 'story-connections storyIds', method: 'POST', url: '/api/ai/story-connections', payload: { storyIds: [story.id, other.id] }, expect: OWNER_ONLY },
    { name: 'photo-suggestions storyId', method: 'POST', url: '/api/ai/photo-suggestions', payload: { storyId: story.id }, expect: OWNER_ONLY },
    { name: 'photo-suggestions imageIds', method: 'POST', url: '/api/ai/photo-suggestions', payload: { storyId: story.id, imageIds: [image!.id] }, expect: OWNER_ONLY },
  ]);
  expect(mismatches).toEqual([]);

  const counted = await sql<{ user_id: string; count: number }[]>`select user_id, count from ai_request_counters where period = 'day'`;
  expect(counted).toEqual([{ user_id: owner, count: 4 }]);
  for (const name of ACTOR_NAMES.filter((n) => n !== 'owner')) {
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from ai_usage_logs where user_id = ${actors[name].userId}`;
    expect(n).toBe(0);
  }

  // A chat sessionId is optional context (spec 000): another account's is ignored like an unknown one,
  // and nothing of it is read.
  for (const name of ACTOR_NAMES.filter((n) => n !== 'owner')) {
    const res = await t.app.inject({ method: 'POST', url: '/api/ai/content-analysis', headers: actors[name].headers, payload: { prompt: 'Notes.', sessionId: 'owner-session' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ sessionFound: false });
    expect(res.body).not.toMatch(/Philippa/);
  }
});
