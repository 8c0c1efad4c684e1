// The multi-step campaign create flow: server-side state that another device resumes, per-step
// validation (400 naming the field, nothing written), allowances, invitations through the family
// invitation service, and completion.
import { buildTestApp, signUp, uniqueEmail, type SignedUp, type TestContext } from '../../test/helper';
import { setTier } from '../../test/family-factories';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const base = '/api/campaigns/create-flow';
const put = (u: SignedUp, path: string, payload: unknown) => t.app.inject({ method: 'PUT', url: `${base}${path}`, headers: u.headers, payload: payload as object });

async function start(u: SignedUp, payload: Record<string, unknown> = { title: "Grandma Rose's stories" }) {
  const res = await t.app.inject({ method: 'POST', url: `${base}/start`, headers: u.headers, payload });
  return res;
}

it('walks every step, resumes from a second session, invites relatives, and completes', async () => {
  const owner = await signUp(t.app);
  await setTier(t.database.sql, owner.userId, 'starter');
  const started = await start(owner);
  expect(started.statusCode).toBe(201);
  const id = started.json().flow.campaignId as string;
  expect(started.json()).toMatchObject({ resumed: false, flow: { status: 'in_progress', currentStep: 1, steps: {}, campaign: { title: "Grandma Rose's stories", status: 'active' } } });

  // Starting again (e.g. on the phone) resumes the open flow rather than making a second campaign.
  const again = await start(owner, { title: 'Something else' });
  expect(again.statusCode).toBe(200);
  expect(again.json()).toMatchObject({ resumed: true, flow: { campaignId: id } });
  const [campaignCount] = await t.database.sql`select count(*)::int as n from campaigns where user_id = ${owner.userId}`;
  expect(campaignCount!['n']).toBe(1);

  const s1 = await put(owner, `/${id}/step/1`, { storytellerName: 'Rose Alvarez', storytellerEmail: 'rose@example.test', storytellerPhone: '+1 (207) 555-0100', relationship: 'grandparent' });
  expect(s1.statusCode).toBe(200);
  expect(s1.json()).toMatchObject({ currentStep: 2, campaign: { storytellerName: 'Rose Alvarez', storytellerPhone: '+1 (207) 555-0100', relationship: 'grandparent' } });
  const s2 = await put(owner, `/${id}/step/2`, { title: 'Rose remembers', description: 'Maine, 1950s' });
  expect(s2.json().campaign).toMatchObject({ title: 'Rose remembers', description: 'Maine, 1950s' });
  const s3 = await put(owner, `/${id}/step/3`, { prompts: ['What was your first home like?', 'How did you meet Grandpa?'] });
  expect(s3.statusCode).toBe(200);
  expect(s3.json().steps['3']).toEqual({ prompts: ['What was your first home like?', 'How did you meet Grandpa?'] });

  const relativeEmail = uniqueEmail('relative');
  const members = await put(owner, `/${id}/step/familyMembers`, {
    members: [
      { email: relativeEmail, name: 'Ana', role: 'family_contributor', relationship: 'granddaughter' },
      { email: uniqueEmail('other'), role: 'family_viewer' },
    ],
  });
  expect(members.statusCode).toBe(200);
  const state = members.json();
  expect(state.familyGroupId).toEqual(expect.any(String));
  expect(state.familyMembers.map((m: { outcome: string }) => m.outcome)).toEqual(['invited', 'invited']);
  const invitations = await t.database.sql`select email, role, relationship, status from family_invitations where family_group_id = ${state.familyGroupId} order by email`;
  expect(invitations).toHaveLength(2);
  expect(invitations.find((i) => i['email'] === relativeEmail)).toEqual({ email: relativeEmail, role: 'family_contributor', relationship: 'granddaughter', status: 'pending' });
  const [mails] = await t.database.sql`select count(*)::int as n from email_send_queue where template_variables->>'family_id' = ${state.familyGroupId}`;
  expect(mails!['n']).toBe(2);
  const [group] = await t.database.sql`select g.name, m.role from family_groups g join family_members m on m.family_group_id = g.id where g.id = ${state.familyGroupId}`;
  expect(group).toEqual({ name: "Rose Alvarez's family", role: 'owner' });

  // Sending the step again with one relative dropped: no second email, the dropped invitation is cancelled.
  const resent = await put(owner, `/${id}/step/familyMembers`, { members: [{ email: relativeEmail, role: 'family_contributor' }] });
  expect(resent.json().familyMembers).toEqual([expect.objectContaining({ email: relativeEmail, outcome: 'already_invited' })]);
  const [mailsAfter] = await t.database.sql`select count(*)::int as n from email_send_queue where template_variables->>'family_id' = ${state.familyGroupId}`;
  expect(mailsAfter!['n']).toBe(2);
  const statuses = await t.database.sql`select status from family_invitations where family_group_id = ${state.familyGroupId} order by status`;
  expect(statuses.map((s) => s['status'])).toEqual(['cancelled', 'pending']);
  expect(resent.json().familyGroupId).toBe(state.familyGroupId);

  const gift = await put(owner, `/${id}/gift-address`, { recipientName: 'Rose Alvarez', line1: '12 Harbor Rd', city: 'Portland', region: 'ME', postalCode: '04101', country: 'us' });
  expect(gift.statusCode).toBe(200);
  expect(gift.json().giftAddress).toMatchObject({ country: 'US', postalCode: '04101' });

  // Another device of the same account sees the same state.
  const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: owner.email, password: 'correct horse 9 battery' } });
  const phone = { authorization: `Bearer ${signin.json().session.access_token}` };
  const resume = await t.app.inject({ method: 'GET', url: `${base}/${id}/resume`, headers: phone });
  expect(resume.statusCode).toBe(200);
  expect(resume.json()).toMatchObject({ currentStep: 6, familyGroupId: state.familyGroupId, giftAddress: { city: 'Portland' }, steps: { '1': { storytellerName: 'Rose Alvarez' } } });

  const done = await t.app.inject({ method: 'POST', url: `${base}/${id}/complete`, headers: phone });
  expect(done.statusCode).toBe(200);
  expect(done.json().campaign).toMatchObject({ id, title: 'Rose remembers', description: 'Maine, 1950s', recordingCount: 0, conversationCount: 0 });
  expect(done.json().flow).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
  const [ev] = await t.database.sql`select event_type, family_group_id from timeline_events where subject_id = ${id}`;
  expect(ev).toEqual({ event_type: 'campaign_created', family_group_id: state.familyGroupId });

  // A closed flow takes no more steps.
  const late = await put(owner, `/${id}/step/2`, { title: 'Changed' });
  expect(late.statusCode).toBe(409);
  const [c] = await t.database.sql`select title from campaigns where id = ${id}`;
  expect(c!['title']).toBe('Rose remembers');
  const twice = await t.app.inject({ method: 'POST', url: `${base}/${id}/complete`, headers: owner.headers });
  expect(twice.statusCode).toBe(409);
});

it('validates each step with a 400 naming the field and writes nothing', async () => {
  const owner = await signUp(t.app);
  const id = (await start(owner)).json().flow.campaignId as string;
  const before = await t.database.sql`select storyteller_name, relationship, title from campaigns where id = ${id}`;
  const cases: [string, unknown, string][] = [
    ['/step/1', { storytellerName: 'Rose', relationship: 'aunt' }, 'relationship'],
    ['/step/1', { relationship: 'parent' }, 'storytellerName'],
    ['/step/1', { storytellerName: 'Rose', relationship: 'parent', storytellerEmail: 'nope' }, 'storytellerEmail'],
    ['/step/1', { storytellerName: 'Rose', relationship: 'parent', storytellerPhone: '12' }, 'storytellerPhone'],
    ['/step/2', { title: '' }, 'title'],
    ['/step/3', { prompts: [] }, 'prompts'],
    ['/step/3', { prompts: ['Same one', 'same one'] }, 'prompts'],
    ['/step/4', { anything: true }, 'stepNumber'],
    ['/step/0', {}, 'stepNumber'],
    ['/step/familyMembers', { members: [{ email: 'a@example.test', role: 'owner' }] }, 'members.0.role'],
    ['/step/familyMembers', { members: [{ email: 'a@example.test', role: 'family_viewer', relationship: 'pal' }] }, 'members.0.relationship'],
    ['/step/familyMembers', { members: [{ email: 'a@example.test', role: 'family_viewer' }, { email: 'A@example.test', role: 'family_viewer' }] }, 'members.1.email'],
    ['/gift-address', { recipientName: 'R', line1: '1 St', city: 'X', region: 'ME', postalCode: 'ABCDE', country: 'US' }, 'postalCode'],
    ['/gift-address', { recipientName: 'R', line1: '1 St', city: 'X', postalCode: '04101', country: 'US' }, 'region'],
    ['/gift-address', { recipientName: 'R', line1: '1 St', city: 'X', postalCode: '1234', country: 'XX' }, 'country'],
    ['/gift-address', { line1: '1 St', city: 'X', postalCode: 'SW1A 1AA', country: 'GB' }, 'recipientName'],
  ];
  for (const [path, payload, field] of cases) {
    const res = await put(owner, `/${id}${path}`, payload);
    expect({ path, field, status: res.statusCode }).toEqual({ path, field, status: 400 });
    expect(res.json().error).toContain(field);
  }
  expect(await t.database.sql`select storyteller_name, relationship, title from campaigns where id = ${id}`).toEqual(before);
  const [flow] = await t.database.sql`select current_step, steps, family_members, gift_address from campaign_create_flows where campaign_id = ${id}`;
  expect(flow).toEqual({ current_step: 1, steps: {}, family_members: [], gift_address: null });
  expect(await t.database.sql`select 1 from family_groups where created_by = ${owner.userId}`).toHaveLength(0);

  // A valid UK address passes; completing without the storyteller step does not.
  expect((await put(owner, `/${id}/gift-address`, { recipientName: 'R', line1: '1 St', city: 'London', postalCode: 'SW1A 1AA', country: 'GB' })).statusCode).toBe(200);
  const early = await t.app.inject({ method: 'POST', url: `${base}/${id}/complete`, headers: owner.headers });
  expect(early.statusCode).toBe(400);
  expect(early.json().error).toContain('step 1');
});

it('applies the tier allowances: campaigns at start, prompts per campaign at step 3, family members at the familyMembers step', async () => {
  const owner = await signUp(t.app);
  const id = (await start(owner)).json().flow.campaignId as string;
  // The flow's campaign holds the free tier's only campaign slot.
  const direct = await t.app.inject({ method: 'POST', url: '/api/campaigns', headers: owner.headers, payload: { title: 'Second' } });
  expect(direct.statusCode).toBe(403);

  const eleven = Array.from({ length: 11 }, (_, i) => `Prompt number ${i + 1}?`);
  const prompts = await put(owner, `/${id}/step/3`, { prompts: eleven });
  expect(prompts.statusCode).toBe(403);
  expect(prompts.json()).toMatchObject({ limit: 'promptsPerCampaign', tier: 'free', upgradeTier: 'starter' });
  expect((await put(owner, `/${id}/step/3`, { prompts: eleven.slice(0, 10) })).statusCode).toBe(200);

  const four = Array.from({ length: 4 }, () => ({ email: uniqueEmail('kin'), role: 'family_viewer' }));
  const members = await put(owner, `/${id}/step/familyMembers`, { members: four });
  expect(members.statusCode).toBe(403);
  expect(members.json()).toMatchObject({ limit: 'familyMembers', tier: 'free' });
  // All or nothing: no group, no invitation, no email from the refused step.
  expect(await t.database.sql`select 1 from family_groups where created_by = ${owner.userId}`).toHaveLength(0);
  expect(await t.database.sql`select 1 from family_invitations where invited_by = ${owner.userId}`).toHaveLength(0);
  const [flow] = await t.database.sql`select family_members from campaign_create_flows where campaign_id = ${id}`;
  expect(flow!['family_members']).toEqual([]);
  expect((await put(owner, `/${id}/step/familyMembers`, { members: four.slice(0, 3) })).statusCode).toBe(200);
});
