// Family invitations end to end (CONTRACTS §6): create -> email queued -> preview -> accept -> member,
// and every refusal (bad role, unknown relationship, expired, reused, wrong account, allowance, rate limit)
// with the tables checked afterwards.
import { buildTestApp, signUp, signUpVerified, uniqueEmail, type SignedUp, type TestContext } from '../../test/helper';
import { hashToken, newFamilyGroup, newInvitation, setTier } from '../../test/family-factories';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

async function ownerWithGroup(): Promise<{ owner: SignedUp; groupId: string }> {
  const owner = await signUp(t.app);
  const res = await t.app.inject({ method: 'POST', url: '/api/family/groups', headers: owner.headers, payload: { name: 'The Hendersons', description: 'Mum and Dad\'s side', settings: { theme: 'warm' } } });
  expect(res.statusCode).toBe(201);
  return { owner, groupId: res.json().data.id };
}

const invite = (owner: SignedUp, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/family/invitations', headers: owner.headers, payload });
const tokenOf = (inviteUrl: string) => inviteUrl.split('/').pop()!;

it('invites, queues the email in the same breath, previews before sign-in, and accepts into the group', async () => {
  const { owner, groupId } = await ownerWithGroup();
  const inviteeEmail = uniqueEmail('invitee');
  const res = await invite(owner, { familyGroupId: groupId, email: inviteeEmail.toUpperCase(), role: 'family_contributor', relationship: 'granddaughter', message: 'Come share Grandma\'s stories' });
  expect(res.statusCode).toBe(201);
  const { invitation } = res.json();
  expect(invitation).toEqual({ id: expect.any(String), email: inviteeEmail, role: 'family_contributor', status: 'pending', expiresAt: expect.any(String), inviteUrl: expect.stringMatching(/\/invite\/[A-Za-z0-9_-]{43}$/) });
  const days = (new Date(invitation.expiresAt).getTime() - Date.now()) / 86400_000;
  expect(days).toBeGreaterThan(6.9);
  expect(days).toBeLessThanOrEqual(7);
  const token = tokenOf(invitation.inviteUrl);

  // Only the hash is stored; the email carries the link.
  const [row] = await t.database.sql`select token_hash, invited_by, status from family_invitations where id = ${invitation.id}`;
  expect(row).toEqual({ token_hash: hashToken(token), invited_by: owner.userId, status: 'pending' });
  const queued = await t.database.sql`select to_email, template_variables from email_send_queue where to_email = ${inviteeEmail}`;
  expect(queued).toHaveLength(1);
  expect(queued[0]!['template_variables']).toMatchObject({ family_name: 'The Hendersons', invitation_url: invitation.inviteUrl, family_id: groupId });

  // Public preview: no sign-in, no ids, the address masked.
  const preview = await t.app.inject({ method: 'GET', url: `/api/family/invitations/${token}/public` });
  expect(preview.statusCode).toBe(200);
  expect(preview.json()).toEqual({
    invitation: { status: 'pending', role: 'family_contributor', expiresAt: invitation.expiresAt, emailHint: `i***@example.test`, familyName: 'The Hendersons', inviterName: 'Test Person', message: "Come share Grandma's stories" },
  });

  const invitee = await signUpVerified(t, inviteeEmail);
  const details = await t.app.inject({ method: 'GET', url: `/api/family/invitations/${token}`, headers: invitee.headers });
  expect(details.statusCode).toBe(200);
  expect(details.json()).toMatchObject({ emailMatches: true, canAccept: true, invitation: { id: invitation.id, family: { id: groupId, name: 'The Hendersons', memberCount: 1 } } });

  const accept = await t.app.inject({ method: 'POST', url: '/api/family/invitations/accept', headers: invitee.headers, payload: { token } });
  expect(accept.statusCode).toBe(200);
  expect(accept.json()).toMatchObject({ success: true, familyGroupId: groupId, member: { role: 'family_contributor' } });
  const [member] = await t.database.sql`select role, status, relationship from family_members where family_group_id = ${groupId} and user_id = ${invitee.userId}`;
  expect(member).toEqual({ role: 'family_contributor', status: 'active', relationship: 'granddaughter' });
  const [after] = await t.database.sql`select status, accepted_by from family_invitations where id = ${invitation.id}`;
  expect(after).toEqual({ status: 'accepted', accepted_by: invitee.userId });
  const events = await t.database.sql`select event_type, actor_id from timeline_events where family_group_id = ${groupId} order by occurred_at`;
  expect(events.map((e) => e['event_type'])).toEqual(['group_created', 'member_joined']);

  // The group now lists the new member with its role; the welcome page is for the acceptor only.
  const groups = await t.app.inject({ method: 'GET', url: '/api/family/groups', headers: invitee.headers });
  expect(groups.json()).toEqual({ success: true, data: [{ id: groupId, name: 'The Hendersons', description: "Mum and Dad's side", member_count: 2, role: 'family_contributor' }] });
  const welcome = await t.app.inject({ method: 'GET', url: `/api/family/welcome/${token}`, headers: invitee.headers });
  expect(welcome.statusCode).toBe(200);
  expect(welcome.json()).toMatchObject({ family: { id: groupId, memberCount: 2 }, role: 'family_contributor', invitedBy: { name: 'Test Person' } });
  expect(welcome.json().members).toHaveLength(2);
  const notMine = await t.app.inject({ method: 'GET', url: `/api/family/welcome/${token}`, headers: owner.headers });
  expect(notMine.statusCode).toBe(404);

  // The token is spent: accepting again is a 409 and changes nothing.
  const again = await t.app.inject({ method: 'POST', url: '/api/family/invitations/accept', headers: invitee.headers, payload: { token } });
  expect(again.statusCode).toBe(409);
  const [count] = await t.database.sql`select count(*)::int as n from family_members where family_group_id = ${groupId}`;
  expect(count!['n']).toBe(2);
});

it('refuses role owner, unknown relationships and malformed emails with 400 naming the field, writing nothing', async () => {
  const { owner, groupId } = await ownerWithGroup();
  const cases: [Record<string, unknown>, string][] = [
    [{ familyGroupId: groupId, email: uniqueEmail(), role: 'owner' }, 'role'],
    [{ familyGroupId: groupId, email: uniqueEmail(), role: 'campaign_owner' }, 'role'],
    [{ familyGroupId: groupId, email: uniqueEmail(), role: 'family_viewer', relationship: 'space_cousin' }, 'relationship'],
    [{ familyGroupId: groupId, email: 'not-an-email', role: 'family_viewer' }, 'email'],
    [{ familyGroupId: 'nope', email: uniqueEmail(), role: 'family_viewer' }, 'familyGroupId'],
  ];
  for (const [payload, field] of cases) {
    const res = await invite(owner, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(field);
  }
  const [n] = await t.database.sql`select count(*)::int as n from family_invitations where family_group_id = ${groupId}`;
  expect(n!['n']).toBe(0);
  const [q] = await t.database.sql`select count(*)::int as n from email_send_queue where template_variables->>'family_id' = ${groupId}`;
  expect(q!['n']).toBe(0);
});

it('refuses an expired token (410), a cancelled one (409) and another account (403), writing nothing', async () => {
  const { owner, groupId } = await ownerWithGroup();
  const email = uniqueEmail('late');
  const invitee = await signUpVerified(t, email);
  const expired = await newInvitation(t.database.sql, { groupId, invitedBy: owner.userId, email, expiresInMs: -1000 });
  for (const url of ['/api/family/invitations/accept', '/api/family/invitations/reject']) {
    const res = await t.app.inject({ method: 'POST', url, headers: invitee.headers, payload: { token: expired.token } });
    expect(res.statusCode).toBe(410);
    expect(res.json().error).toMatch(/expired/);
  }
  const [row] = await t.database.sql`select status, accepted_by from family_invitations where id = ${expired.id}`;
  expect(row).toEqual({ status: 'pending', accepted_by: null });
  const preview = await t.app.inject({ method: 'GET', url: `/api/family/invitations/${expired.token}/public` });
  expect(preview.json().invitation.status).toBe('expired');

  // A fresh invitation for the same address replaces the lapsed one.
  const fresh = await invite(owner, { familyGroupId: groupId, email, role: 'family_viewer' });
  expect(fresh.statusCode).toBe(201);
  const token = tokenOf(fresh.json().invitation.inviteUrl);
  const statuses = await t.database.sql`select status from family_invitations where family_group_id = ${groupId} order by created_at`;
  expect(statuses.map((s) => s['status'])).toEqual(['expired', 'pending']);

  const stranger = await signUpVerified(t);
  const wrong = await t.app.inject({ method: 'POST', url: '/api/family/invitations/accept', headers: stranger.headers, payload: { token } });
  expect(wrong.statusCode).toBe(403);
  expect(wrong.json().code).toBe('invitation_email_mismatch');

  const cancel = await t.app.inject({ method: 'DELETE', url: `/api/families/${groupId}/invitations/${fresh.json().invitation.id}`, headers: owner.headers });
  expect(cancel.statusCode).toBe(200);
  const late = await t.app.inject({ method: 'POST', url: '/api/family/invitations/accept', headers: invitee.headers, payload: { token } });
  expect(late.statusCode).toBe(409);
  const members = await t.database.sql`select user_id from family_members where family_group_id = ${groupId}`;
  expect(members.map((m) => m['user_id'])).toEqual([owner.userId]);

  const unknown = await t.app.inject({ method: 'POST', url: '/api/family/invitations/accept', headers: invitee.headers, payload: { token: 'A'.repeat(43) } });
  expect(unknown.statusCode).toBe(404);
});

it('rejects, resends with a rotated token, and re-inviting a pending address resends instead of duplicating', async () => {
  const { owner, groupId } = await ownerWithGroup();
  const email = uniqueEmail('maybe');
  const first = await invite(owner, { familyGroupId: groupId, email, role: 'family_viewer' });
  const oldToken = tokenOf(first.json().invitation.inviteUrl);
  const resend = await t.app.inject({ method: 'POST', url: `/api/families/${groupId}/invitations/${first.json().invitation.id}/resend`, headers: owner.headers });
  expect(resend.statusCode).toBe(200);
  const newToken = tokenOf(resend.json().invitation.inviteUrl);
  expect(newToken).not.toBe(oldToken);
  expect((await t.app.inject({ method: 'GET', url: `/api/family/invitations/${oldToken}/public` })).statusCode).toBe(404);

  const again = await invite(owner, { familyGroupId: groupId, email, role: 'family_viewer' });
  expect(again.statusCode).toBe(201);
  expect(again.json().invitation.id).toBe(first.json().invitation.id);
  const [row] = await t.database.sql`select count(*)::int as n, max(resent_count)::int as resent from family_invitations where family_group_id = ${groupId}`;
  expect(row).toEqual({ n: 1, resent: 2 });
  const [mails] = await t.database.sql`select count(*)::int as n from email_send_queue where to_email = ${email}`;
  expect(mails!['n']).toBe(3);

  const invitee = await signUpVerified(t, email);
  const reject = await t.app.inject({ method: 'POST', url: '/api/family/invitations/reject', headers: invitee.headers, payload: { token: tokenOf(again.json().invitation.inviteUrl) } });
  expect(reject.statusCode).toBe(200);
  const [after] = await t.database.sql`select status, closed_at is not null as closed from family_invitations where family_group_id = ${groupId}`;
  expect(after).toEqual({ status: 'rejected', closed: true });
  const list = await t.app.inject({ method: 'GET', url: `/api/families/${groupId}/invitations?status=rejected`, headers: owner.headers });
  expect(list.json().invitations).toHaveLength(1);
  const badStatus = await t.app.inject({ method: 'GET', url: `/api/families/${groupId}/invitations?status=maybe`, headers: owner.headers });
  expect(badStatus.statusCode).toBe(400);
  expect(badStatus.json().error).toContain('status');
});

it("counts members and open invitations against the group owner's tier (free: 3) with a 403 naming the limit", async () => {
  const { owner, groupId } = await ownerWithGroup();
  for (let i = 0; i < 3; i++) expect((await invite(owner, { familyGroupId: groupId, email: uniqueEmail(), role: 'family_viewer' })).statusCode).toBe(201);
  const over = await invite(owner, { familyGroupId: groupId, email: uniqueEmail('fourth'), role: 'family_viewer' });
  expect(over.statusCode).toBe(403);
  expect(over.json()).toMatchObject({ error: 'Your free plan allows 3 family members. The starter plan allows 10 family members.', limit: 'familyMembers', tier: 'free', upgradeTier: 'starter' });
  const [n] = await t.database.sql`select count(*)::int as n from family_invitations where family_group_id = ${groupId}`;
  expect(n!['n']).toBe(3);
  // A placeholder member takes a seat too.
  const placeholder = await t.app.inject({ method: 'POST', url: `/api/families/${groupId}/members`, headers: owner.headers, payload: { displayName: 'Grandpa' } });
  expect(placeholder.statusCode).toBe(403);
  await setTier(t.database.sql, owner.userId, 'starter');
  expect((await invite(owner, { familyGroupId: groupId, email: uniqueEmail('fourth'), role: 'family_viewer' })).statusCode).toBe(201);
});

it('refuses inviting someone who is already a member (409)', async () => {
  const { owner, groupId } = await ownerWithGroup();
  const res = await invite(owner, { familyGroupId: groupId, email: owner.email, role: 'family_viewer' });
  expect(res.statusCode).toBe(409);
});

it('allows 5 invitations per hour per inviter (RATE_LIMIT_SCALE=1), across both invite routes', async () => {
  const strict = await buildTestApp({ RATE_LIMIT_SCALE: '1' });
  try {
    const owner = await signUp(strict.app);
    await setTier(strict.database.sql, owner.userId, 'family');
    const group = await newFamilyGroup(strict.database.sql, { ownerId: owner.userId });
    for (let i = 0; i < 5; i++) {
      const url = i % 2 ? `/api/families/${group.id}/invitations` : '/api/family/invitations';
      const res = await strict.app.inject({ method: 'POST', url, headers: owner.headers, payload: { familyGroupId: group.id, email: uniqueEmail(), role: 'family_viewer' } });
      expect(res.statusCode).toBe(201);
    }
    const sixth = await strict.app.inject({ method: 'POST', url: '/api/family/invitations', headers: owner.headers, payload: { familyGroupId: group.id, email: uniqueEmail(), role: 'family_viewer' } });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.headers['retry-after']).toBe('3600');
    const [n] = await strict.database.sql`select count(*)::int as n from family_invitations where family_group_id = ${group.id}`;
    expect(n!['n']).toBe(5);
  } finally {
    await strict.close();
  }
});

it('a removed member can be invited back; accepting reactivates the same membership row', async () => {
  const { owner, groupId } = await ownerWithGroup();
  const email = uniqueEmail('back');
  const member = await signUpVerified(t, email);
  const [row] = await t.database.sql<{ id: string }[]>`
    insert into family_members (family_group_id, user_id, role, status, removed_at) values (${groupId}, ${member.userId}, 'family_contributor', 'removed', now()) returning id`;
  expect((await t.app.inject({ method: 'GET', url: `/api/family/groups/${groupId}`, headers: member.headers })).statusCode).toBe(404);
  const res = await invite(owner, { familyGroupId: groupId, email, role: 'family_viewer' });
  expect(res.statusCode).toBe(201);
  const accept = await t.app.inject({ method: 'POST', url: '/api/family/invitations/accept', headers: member.headers, payload: { token: tokenOf(res.json().invitation.inviteUrl) } });
  expect(accept.statusCode).toBe(200);
  expect(accept.json().member.id).toBe(row!.id);
  const rows = await t.database.sql`select role, status, removed_at from family_members where family_group_id = ${groupId} and user_id = ${member.userId}`;
  expect(rows).toEqual([{ role: 'family_viewer', status: 'active', removed_at: null }]);
  expect((await t.app.inject({ method: 'GET', url: `/api/family/groups/${groupId}`, headers: member.headers })).statusCode).toBe(200);
});

it('an account whose address is not verified cannot accept or decline: 403 with the sentence, the same for an unknown token, nothing written', async () => {
  // The audit's path: sign up with the invitee's address before the invitee, get the token, accept.
  const { owner, groupId } = await ownerWithGroup();
  const email = uniqueEmail('invitee');
  const res = await invite(owner, { familyGroupId: groupId, email, role: 'family_contributor' });
  const token = tokenOf(res.json().invitation.inviteUrl);
  const squatter = await signUp(t.app, email);
  const answers = [];
  for (const url of ['/api/family/invitations/accept', '/api/family/invitations/reject']) {
    for (const tried of [token, 'A'.repeat(43)]) {
      const refused = await t.app.inject({ method: 'POST', url, headers: squatter.headers, payload: { token: tried } });
      expect(refused.statusCode).toBe(403);
      answers.push(refused.json());
    }
  }
  expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
  expect(answers[0].error).toMatch(/needs a verified email address/);
  const [row] = await t.database.sql`select status, accepted_by from family_invitations where family_group_id = ${groupId}`;
  expect(row).toEqual({ status: 'pending', accepted_by: null });
  const members = await t.database.sql`select user_id from family_members where family_group_id = ${groupId}`;
  expect(members.map((m) => m['user_id'])).toEqual([owner.userId]);
});

it('the member list shows the address that accepted, also after re-joining under another invitation', async () => {
  const { owner, groupId } = await ownerWithGroup();
  const email = uniqueEmail('joiner');
  const joiner = await signUpVerified(t, email);
  // A placeholder-era row with another address, removed: re-joining writes the accepting address.
  await t.database.sql`insert into family_members (family_group_id, user_id, role, status, removed_at, email) values (${groupId}, ${joiner.userId}, 'family_viewer', 'removed', now(), 'old.address@example.test')`;
  const res = await invite(owner, { familyGroupId: groupId, email, role: 'family_viewer' });
  const accepted = await t.app.inject({ method: 'POST', url: '/api/family/invitations/accept', headers: joiner.headers, payload: { token: tokenOf(res.json().invitation.inviteUrl) } });
  expect(accepted.statusCode).toBe(200);
  const list = await t.app.inject({ method: 'GET', url: `/api/families/${groupId}/members`, headers: owner.headers });
  expect(list.statusCode).toBe(200);
  expect(JSON.stringify(list.json())).toContain(email);
  expect(JSON.stringify(list.json())).not.toContain('old.address@example.test');
});
