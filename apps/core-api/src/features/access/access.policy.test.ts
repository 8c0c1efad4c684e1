// Who may act on whose content (spec 000 Authentication 4-5): the role an invitation grants applies to the
// library of the group's owner who invited them, in that direction only. Co-members see each other's content
// (spec 000 "Who may see and download"), but nobody creates or edits in another member's library without
// having been invited to it as contributor. Both directions are checked through the routes, and the database
// is unchanged after every refusal.
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { newCampaign, newFamily, newStory, setTier } from '../../test/stories-books-factories';
import { contentRoleOf } from './access.policy';

let t: TestContext;
let ann: SignedUp; // created the group and invited the others
let cal: SignedUp; // invited to Ann's group as contributor
let vic: SignedUp; // invited to Ann's group as viewer
let stranger: SignedUp;
const campaign: Record<string, string> = {};
const story: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp();
  [ann, cal, vic, stranger] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app), signUp(t.app)]);
  await newFamily(t.database.sql, ann.userId, [
    { userId: cal.userId, role: 'family_contributor' },
    { userId: vic.userId, role: 'family_viewer' },
  ]);
  for (const [name, who] of [['ann', ann], ['cal', cal], ['vic', vic]] as const) {
    await setTier(t.database.sql, who.userId, 'family');
    campaign[name] = (await newCampaign(t.database.sql, who.userId, `${name}'s campaign`)).id;
    story[name] = (await newStory(t.database.sql, who.userId, { title: `${name}'s story`, content: `<p>${name} wrote this.</p>` })).id;
  }
});
afterAll(async () => t.close());

const storiesOf = async (ownerId: string) =>
  (await t.database.sql<{ n: number }[]>`select count(*)::int as n from stories where user_id = ${ownerId}`)[0]!.n;

async function createIn(caller: SignedUp, campaignOf: string) {
  return t.app.inject({ method: 'POST', url: '/api/stories', headers: caller.headers, payload: { title: 'Added by family', campaignId: campaign[campaignOf], type: 'story' } });
}

describe('creating stories in another member library', () => {
  it.each([
    ['cal (contributor of Ann) in Ann', 'cal', 'ann', 201],
    ['vic (viewer of Ann) in Ann', 'vic', 'ann', 403],
    ['Ann (group owner) in Vic, who joined as viewer', 'ann', 'vic', 403],
    ['Ann (group owner) in Cal, who joined as contributor', 'ann', 'cal', 403],
    ['Cal in Vic (two invitees)', 'cal', 'vic', 403],
    ['Vic in Cal (two invitees)', 'vic', 'cal', 403],
  ] as const)('%s (%s in %s) -> %i', async (_name, who, owner, status) => {
    const caller = { ann, cal, vic }[who];
    const ownerId = { ann, cal, vic }[owner].userId;
    const before = await storiesOf(ownerId);
    const res = await createIn(caller, owner);
    expect({ status: res.statusCode, body: res.statusCode === 201 ? '' : res.body }).toEqual({ status, body: status === 201 ? '' : expect.stringContaining('error') });
    expect(await storiesOf(ownerId)).toBe(before + (status === 201 ? 1 : 0));
  });

  it('a stranger learns nothing (404) about a campaign it shares no group with', async () => {
    const res = await createIn(stranger, 'ann');
    expect(res.statusCode).toBe(404);
  });
});

describe('seeing and editing a co-member story', () => {
  it.each([
    ['Ann reads Vic', 'ann', 'vic'],
    ['Ann reads Cal', 'ann', 'cal'],
    ['Vic reads Ann', 'vic', 'ann'],
    ['Cal reads Vic', 'cal', 'vic'],
    ['Vic reads Cal', 'vic', 'cal'],
  ] as const)('%s: 200', async (_name, who, owner) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/stories/${story[owner]}`, headers: { ann, cal, vic }[who].headers });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['Ann edits Vic', 'ann', 'vic'],
    ['Ann edits Cal', 'ann', 'cal'],
    ['Cal edits Vic', 'cal', 'vic'],
    ['Cal edits Ann (not the author)', 'cal', 'ann'],
  ] as const)('%s: 403 and the story unchanged', async (_name, who, owner) => {
    const res = await t.app.inject({ method: 'PUT', url: `/api/stories/${story[owner]}`, headers: { ann, cal, vic }[who].headers, payload: { title: 'Taken over' } });
    expect(res.statusCode).toBe(403);
    const [row] = await t.database.sql<{ title: string }[]>`select title from stories where id = ${story[owner]!}`;
    expect(row!.title).toBe(`${owner}'s story`);
  });

  it('a stranger gets 404 for every co-member story', async () => {
    for (const owner of ['ann', 'cal', 'vic']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/stories/${story[owner]}`, headers: stranger.headers });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('contentRoleOf', () => {
  it('grants the invitation role only in the content owner group', () => {
    expect(contentRoleOf('family_contributor', true)).toBe('family_contributor');
    expect(contentRoleOf('campaign_owner', true)).toBe('family_contributor');
    expect(contentRoleOf('family_viewer', true)).toBe('family_viewer');
    expect(contentRoleOf('family_contributor', false)).toBe('family_viewer');
    expect(contentRoleOf('owner', false)).toBe('family_viewer');
  });
});
