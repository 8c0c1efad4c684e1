// POST /api/auth/signup-with-invitation against a real database: every refusal leaves no account, no
// membership and the invitation as it was.
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

// CONTRACTS §7: accepting an invitation needs a verified address, and an account made here is new, so the
// acceptance is refused whatever the invitation, and the signup with it: the audit's path (sign up with the
// invitee's address first, accept with the token) is closed, and the inviter, who holds the same link,
// cannot make an account for the invitee either.
it('refuses with a sentence (403) and creates nothing: accepting needs a verified address', async () => {
  const email = uniqueEmail('invitee');
  const inv = await newInvitation(t.database.sql, { groupId, invitedBy: owner.userId, email, role: 'family_contributor' });
  for (const payload of [
    { email, password: PASSWORD, fullName: 'New Cousin', token: inv.token },
    { email, password: PASSWORD, invitationToken: inv.token },
  ]) {
    const res = await signupWith(payload);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/needs a verified email address/);
  }
  expect(await accountCount(email)).toBe(0);
  expect(await invitationStatus(inv.id)).toBe('pending');
  expect(await t.database.sql`select 1 from family_members where family_group_id = ${groupId} and email = ${email}`).toHaveLength(0);
});

describe('refusals leave nothing behind', () => {
  it.each([
    ['another address', { emailOf: 'other' }],
    ['an expired invitation', { expiresInMs: -1000 }],
    ['an answered invitation', { status: 'rejected' as const }],
    ['an unknown token', { unknown: true }],
  ])('%s → the same 403, no account, invitation unchanged', async (_name, opts: { emailOf?: string; expiresInMs?: number; status?: 'rejected'; unknown?: boolean }) => {
    const invited = uniqueEmail('invited');
    const signingUp = opts.emailOf ? uniqueEmail('someone-else') : invited;
    const inv = await newInvitation(t.database.sql, { groupId, invitedBy: owner.userId, email: invited, expiresInMs: opts.expiresInMs, status: opts.status });
    const before = await invitationStatus(inv.id);
    const token = opts.unknown ? 'A'.repeat(43) : inv.token;
    const res = await signupWith({ email: signingUp, password: PASSWORD, token });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/needs a verified email address/);
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
