// POST /api/auth/signup-with-invitation against a real database: the account, its settings rows and the
// membership appear together; every refusal of the invitation leaves no account, no membership and the
// invitation still pending.
import { buildTestApp, PASSWORD, signUp, uniqueEmail, type SignedUp, type TestContext } from '../../test/helper';
import { newFamilyGroup, newInvitation } from '../../test/family-factories';

let t: TestContext;
let owner: SignedUp;
let groupId: string;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await signUp(t.app);
  groupId = (await newFamilyGroup(t.database.sql, { ownerId: owner.userId })).id;
});
afterAll(async () => t.close());

const signupWith = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/auth/signup-with-invitation', payload });
const accountCount = async (email: string) => (await t.database.sql`select 1 from accounts where email = ${email.toLowerCase()}`).length;
const invitationStatus = async (id: string) => (await t.database.sql`select status from family_invitations where id = ${id}`)[0]!['status'];

it('creates the account and joins the family in one step', async () => {
  const email = uniqueEmail('invitee');
  const inv = await newInvitation(t.database.sql, { groupId, invitedBy: owner.userId, email, role: 'family_contributor' });
  const res = await signupWith({ email, password: PASSWORD, fullName: 'New Cousin', token: inv.token });
  expect(res.statusCode).toBe(201);
  const body = res.json();
  expect(body.user.email).toBe(email);
  expect(body.session.access_token).toEqual(expect.any(String));
  expect(body.invitation).toMatchObject({ familyGroupId: groupId, member: { role: 'family_contributor' } });

  const sql = t.database.sql;
  expect(await invitationStatus(inv.id)).toBe('accepted');
  const [member] = await sql`select role, status from family_members where family_group_id = ${groupId} and user_id = ${body.user.id}`;
  expect(member).toEqual({ role: 'family_contributor', status: 'active' });
  expect(await sql`select 1 from user_voice_settings where user_id = ${body.user.id}`).toHaveLength(1);

  // The new session works, and the family is visible to it.
  const groups = await t.app.inject({ method: 'GET', url: '/api/family/groups', headers: { authorization: `Bearer ${body.session.access_token}` } });
  expect(groups.json().data.map((g: { id: string }) => g.id)).toContain(groupId);
});

it('accepts the token under the name invitationToken too', async () => {
  const email = uniqueEmail('invitee');
  const inv = await newInvitation(t.database.sql, { groupId, invitedBy: owner.userId, email });
  const res = await signupWith({ email, password: PASSWORD, invitationToken: inv.token });
  expect(res.statusCode).toBe(201);
  expect(await invitationStatus(inv.id)).toBe('accepted');
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
