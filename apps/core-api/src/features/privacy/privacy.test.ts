// Erasure (spec 000 User, privacy, consent; CONTRACTS §9): two accounts with data everywhere, one erased;
// afterwards nothing in any table or in storage names it, and the other's data is as it was.
import type { ObjectStorage } from '@story/providers';
import { linkAccounts, seedAccount, type Seeded } from '../../test/account-factories';
import { buildTestApp, PASSWORD, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { traces } from '../../test/traces';

let t: TestContext;
let storage: ObjectStorage;

beforeAll(async () => {
  t = await buildTestApp({}, { providers: (base) => ((storage = base.storage), {}) });
});
afterAll(async () => t.close());

async function exists(key: string): Promise<boolean> {
  return (await storage.head(key)).exists;
}

async function pair(): Promise<{ a: SignedUp; b: SignedUp; sa: Seeded; sb: Seeded }> {
  const a = await signUp(t.app);
  const b = await signUp(t.app);
  const sa = await seedAccount(t.database.sql, storage, a);
  const sb = await seedAccount(t.database.sql, storage, b);
  await linkAccounts(t.database.sql, { userId: a.userId, seeded: sa }, b);
  await linkAccounts(t.database.sql, { userId: b.userId, seeded: sb }, a);
  return { a, b, sa, sb };
}

describe('POST /api/privacy/erase', () => {
  it('refuses a confirmEmail that does not match, naming it, and changes nothing', async () => {
    const { a, sa } = await pair();
    const before = await traces(t.database.sql, a.userId);
    const jobsBefore = await t.database.sql`select count(*)::int as n from jobs`;
    const res = await t.app.inject({ method: 'POST', url: '/api/privacy/erase', headers: a.headers, payload: { confirmEmail: 'someone.else@example.test', reason: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/confirmEmail/);
    expect(await traces(t.database.sql, a.userId)).toEqual(before);
    expect(await t.database.sql`select count(*)::int as n from jobs`).toEqual(jobsBefore);
    for (const key of sa.keys) expect(await exists(key)).toBe(true);
    const missing = await t.app.inject({ method: 'POST', url: '/api/privacy/erase', headers: a.headers, payload: { reason: 'x' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/confirmEmail/);
    expect((await t.app.inject({ method: 'GET', url: '/api/settings/data-export', headers: a.headers })).statusCode).toBe(200);
  });

  it('removes every row and file of the account and leaves the other account as it was', async () => {
    const { a, b, sa, sb } = await pair();
    expect(Object.keys(await traces(t.database.sql, a.userId)).length).toBeGreaterThan(60);
    const bBefore = await traces(t.database.sql, b.userId);

    const res = await t.app.inject({ method: 'POST', url: '/api/privacy/erase', headers: a.headers, payload: { confirmEmail: a.email.toUpperCase(), reason: 'Moving on' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, filesScheduledForDeletion: sa.keys.length });
    // The rows went at once; the files go with the sweep job.
    expect(await t.app.coreJobs.drain()).toBeGreaterThan(0);

    // Nothing names a but the security record, which keeps who acted on whom by design (CONTRACTS §7).
    expect(await traces(t.database.sql, a.userId)).toEqual({ 'admin_audit_log.actor_id': 1, 'admin_audit_log.target_id': 2 });
    expect(await traces(t.database.sql, a.email)).toEqual({ 'admin_audit_log.actor_email': 1, 'admin_audit_log.target_email': 2 });
    for (const key of sa.keys) expect(await exists(key)).toBe(false);
    const listed = await storage.list('');
    expect(listed.objects.filter((o) => o.key.includes(a.userId))).toEqual([]);

    // b: only the ties to a went: b's membership of a's group and the story b told in a's campaign (a's rows),
    // and b's invitation addressed to a's email (it holds a's address).
    const expected = {
      ...bBefore,
      'family_members.user_id': bBefore['family_members.user_id']! - 1,
      'stories.metadata': bBefore['stories.metadata']! - 1,
      'family_invitations.invited_by': bBefore['family_invitations.invited_by']! - 1,
    };
    expect(await traces(t.database.sql, b.userId)).toEqual(expected);
    for (const key of sb.keys) expect(await exists(key)).toBe(true);
    // a's story in b's campaign stays b's, with a's name gone from it.
    const [kept] = await t.database.sql`select count(*)::int as n from stories where user_id = ${b.userId} and title = 'Told by b'`;
    expect(kept!['n']).toBe(1);

    // The erasure is recorded with who asked and which account (CONTRACTS §7), the reason they gave and how much went.
    const [audit] = await t.database.sql`select actor_id, actor_email, target_id, target_email, data from admin_audit_log where action = 'account.erased' order by created_at desc limit 1`;
    expect(audit).toMatchObject({ actor_id: a.userId, actor_email: a.email, target_id: a.userId, target_email: a.email, data: expect.objectContaining({ reason: 'Moving on', files: sa.keys.length }) });
    // The queued email stays for statistics, anonymised (spec 001 Limits).
    const [mail] = await t.database.sql`select to_email, html_content, template_variables from email_send_queue where subject like '[erased%' limit 1`;
    expect(mail).toMatchObject({ template_variables: {}, html_content: expect.stringMatching(/erased/) });

    expect((await t.app.inject({ method: 'GET', url: '/api/settings/data-export', headers: a.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: a.email, password: PASSWORD } })).statusCode).toBeGreaterThanOrEqual(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/settings/data-export', headers: b.headers })).statusCode).toBe(200);
  });
});

describe('DELETE /api/user/account', () => {
  it('deletes the account without a body; its files are swept and sign-in is refused', async () => {
    const { a, b, sa, sb } = await pair();
    const res = await t.app.inject({ method: 'DELETE', url: '/api/user/account', headers: a.headers });
    expect(res.statusCode).toBe(200);
    await t.app.coreJobs.drain();
    expect(await traces(t.database.sql, a.userId)).toEqual({ 'admin_audit_log.actor_id': 1, 'admin_audit_log.target_id': 2 });
    for (const key of sa.keys) expect(await exists(key)).toBe(false);
    for (const key of sb.keys) expect(await exists(key)).toBe(true);
    const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: a.email, password: PASSWORD } });
    expect(signin.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/user/account', headers: b.headers })).statusCode).toBe(200);
  });

  it('answers 401 without a session', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: '/api/user/account' })).statusCode).toBe(401);
  });
});
