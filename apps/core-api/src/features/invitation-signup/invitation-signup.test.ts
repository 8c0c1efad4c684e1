// POST /api/auth/signup-with-invitation against a real database. Accepting needs a verified address
// (CONTRACTS §7): the account is made and the invitation kept for it, and it joins the family when it first
// verifies the address through its own session; a verification that shows someone else holds the mailbox
// (a magic link) joins nobody. Every refusal of the invitation leaves no account and the invitation as it was.
import { buildTestApp, PASSWORD, signUp, uniqueEmail, type SignedUp, type TestContext } from '../../test/helper';
import { newFamilyGroup, newInvitation } from '../../test/family-factories';

let t: TestContext;
let owner: SignedUp;
let groupId: string;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
  owner = await signUp(t.app);
  groupId = (await newFamilyGroup(t.database.sql, { ownerId: owner.userId })).id;
});
afterAll(async () => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const signupWith = (payload: Record<string, unknown>) => post('/api/auth/signup-with-invitation', payload);
const accountCount = async (email: string) => (await t.database.sql`select 1 from accounts where email = ${email.toLowerCase()}`).length;
const invitationStatus = async (id: string) => (await t.database.sql`select status from family_invitations where id = ${id}`)[0]!['status'];
const membership = async (userId: string) =>
  (await t.database.sql`select role, status from family_members where family_group_id = ${groupId} and user_id = ${userId}`)[0];

/** The link the mailbox received, read from the queued row before the worker sends it. */
async function mailedToken(userId: string, template: 'magic_link' | 'verify_email'): Promise<string> {
  const [row] = await t.database.sql`
    select q.text_content from email_send_queue q join email_templates tp on tp.id = q.template_id
     where q.user_id = ${userId} and tp.name = ${template} order by q.created_at desc, q.id desc limit 1`;
  const match = /token=([A-Za-z0-9_-]{43})/.exec(String(row?.['text_content']));
  if (!match) throw new Error(`no ${template} link queued`);
  return match[1]!;
}

describe('the invitation is accepted when the account verifies the address', () => {
  it('makes the account, keeps the invitation for it, and joins the family at the verification by its own session', async () => {
    const email = uniqueEmail('invitee');
    const inv = await newInvitation(t.database.sql, { groupId, invitedBy: owner.userId, email, role: 'family_contributor' });
    const res = await signupWith({ email, password: PASSWORD, fullName: 'New Cousin', token: inv.token });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({ email, email_verified: false });
    expect(body.invitation).toEqual({ id: inv.id, familyGroupId: groupId, role: 'family_contributor', status: 'awaiting_verification', expiresAt: expect.any(String) });
    // Not a member yet: nothing shows this account holds the mailbox.
    expect(await invitationStatus(inv.id)).toBe('pending');
    expect(await membership(body.user.id)).toBeUndefined();
    expect(await t.database.sql`select 1 from user_voice_settings where user_id = ${body.user.id}`).toHaveLength(1);

    const auth = { authorization: `Bearer ${body.session.access_token}` };
    const verified = await post('/api/auth/verify-email', { token: await mailedToken(body.user.id, 'verify_email') }, auth);
    expect(verified.statusCode).toBe(200);
    expect(await invitationStatus(inv.id)).toBe('accepted');
    expect(await membership(body.user.id)).toEqual({ role: 'family_contributor', status: 'active' });
    const [member] = await t.database.sql`select email from family_members where family_group_id = ${groupId} and user_id = ${body.user.id}`;
    expect(member).toEqual({ email });
    const groups = await t.app.inject({ method: 'GET', url: '/api/family/groups', headers: auth });
    expect(groups.json().data.map((g: { id: string }) => g.id)).toContain(groupId);
  });

  it('accepts the token under the name invitationToken too', async () => {
    const email = uniqueEmail('invitee');
    const inv = await newInvitation(t.database.sql, { groupId, invitedBy: owner.userId, email });
    const res = await signupWith({ email, password: PASSWORD, invitationToken: inv.token });
    expect(res.statusCode).toBe(201);
    expect(res.json().invitation).toMatchObject({ id: inv.id, status: 'awaiting_verification' });
  });

  it('joins nobody when the mailbox is proven by a magic link instead: whoever signed up may not hold it', async () => {
    // The inviter holds the invitation link too: an account made with it proves nothing about the mailbox.
    const email = uniqueEmail('invitee');
    const inv = await newInvitation(t.database.sql, { groupId, invitedBy: owner.userId, email });
    const made = await signupWith({ email, password: PASSWORD, token: inv.token });
    expect(made.statusCode).toBe(201);
    const userId = made.json().user.id as string;

    expect((await post('/api/auth/magic-link', { email })).statusCode).toBe(200);
    const mailbox = await post('/api/auth/magic-link/verify', { token: await mailedToken(userId, 'magic_link') });
    expect(mailbox.statusCode).toBe(200);
    expect(await invitationStatus(inv.id)).toBe('pending');
    expect(await membership(userId)).toBeUndefined();
    const [row] = await t.database.sql`select accept_on_verify_by from family_invitations where id = ${inv.id}`;
    expect(row).toEqual({ accept_on_verify_by: null });
    // The mailbox's owner, now signed in and verified, accepts it themselves.
    const accepted = await post('/api/family/invitations/accept', { token: inv.token }, { authorization: `Bearer ${mailbox.json().session.access_token}` });
    expect(accepted.statusCode).toBe(200);
    expect(await membership(userId)).toEqual({ role: expect.any(String), status: 'active' });
  });

  it('joins nobody when the invitation expired or was cancelled before the verification', async () => {
    const email = uniqueEmail('invitee');
    const inv = await newInvitation(t.database.sql, { groupId, invitedBy: owner.userId, email });
    const res = await signupWith({ email, password: PASSWORD, token: inv.token });
    expect(res.statusCode).toBe(201);
    await t.database.sql`update family_invitations set status = 'cancelled', closed_at = now() where id = ${inv.id}`;
    const verified = await post('/api/auth/verify-email', { token: await mailedToken(res.json().user.id, 'verify_email') }, { authorization: `Bearer ${res.json().session.access_token}` });
    expect(verified.statusCode).toBe(200);
    expect(await invitationStatus(inv.id)).toBe('cancelled');
    expect(await membership(res.json().user.id)).toBeUndefined();
  });
});

describe('refusals leave nothing behind', () => {
  it.each([
    ['another address', 403, { emailOf: 'other' }],
    ['an expired invitation', 410, { expiresInMs: -1000 }],
    ['an answered invitation', 409, { status: 'rejected' as const }],
    ['an unknown token', 404, { unknown: true }],
  ])('%s → %i, no account, invitation unchanged', async (_name, status, opts: { emailOf?: string; expiresInMs?: number; status?: 'rejected'; unknown?: boolean }) => {
    const invited = uniqueEmail('invited');
    const signingUp = opts.emailOf ? uniqueEmail('someone-else') : invited;
    const inv = await newInvitation(t.database.sql, { groupId, invitedBy: owner.userId, email: invited, expiresInMs: opts.expiresInMs, status: opts.status });
    const before = await invitationStatus(inv.id);
    const token = opts.unknown ? 'A'.repeat(43) : inv.token;
    const res = await signupWith({ email: signingUp, password: PASSWORD, token });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(expect.objectContaining({ error: expect.any(String) }));
    expect(await accountCount(signingUp)).toBe(0);
    expect(await invitationStatus(inv.id)).toBe(before);
    expect(await t.database.sql`select 1 from email_send_queue where to_email = ${signingUp}`).toHaveLength(0);
  });

  it('an email that already has an account → 409 and the invitation stays pending', async () => {
    const existing = await signUp(t.app);
    const inv = await newInvitation(t.database.sql, { groupId, invitedBy: owner.userId, email: existing.email });
    const res = await signupWith({ email: existing.email, password: PASSWORD, token: inv.token });
    expect(res.statusCode).toBe(409);
    expect(await invitationStatus(inv.id)).toBe('pending');
  });

  it.each([
    [{ password: PASSWORD, token: 'x'.repeat(43) }, 'email'],
    [{ email: 'a@example.test', password: 'short', token: 'x'.repeat(43) }, 'password'],
    [{ email: 'a@example.test', password: PASSWORD }, 'token'],
    [{ email: 'a@example.test', password: PASSWORD, token: 'bad token!' }, 'token'],
    [{ email: 'a@example.test', password: PASSWORD, token: 'x'.repeat(43), role: 'admin' }, 'role'],
  ])('%j → 400 naming %s', async (payload, field) => {
    const res = await signupWith(payload);
    expect(res.statusCode).toBe(400);
    expect(`${res.json().error} ${res.json().details ?? ''}`).toContain(field);
    expect(await accountCount('a@example.test')).toBe(0);
  });
});
