// Spec 000 Authentication 2, CONTRACTS §10: GET /api/auth/identities lists the caller's ways in, DELETE
// unlinks a social one but never the last way in; accounts without a password (social sign-in) exist and
// never sign in by password.
import { buildTestApp, PASSWORD, signUp, type SignedUp, type TestContext } from '../../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const list = (user: SignedUp) => t.app.inject({ url: '/api/auth/identities', headers: user.headers });
const unlink = (user: SignedUp, provider: string) => t.app.inject({ method: 'DELETE', url: `/api/auth/identities/${provider}`, headers: user.headers });
const link = (userId: string, provider: string, subject: string, email: string | null = null, verified = true) =>
  t.database.sql`insert into auth_identities (user_id, provider, subject, email, email_verified) values (${userId}, ${provider}, ${subject}, ${email}, ${verified})`;
const linkedProviders = async (userId: string) =>
  (await t.database.sql`select provider from auth_identities where user_id = ${userId} order by created_at, id`).map((r) => r['provider']);

/** A signed-up account made to look like one created by social sign-in: no password, email as given. */
async function socialOnly(verified: boolean): Promise<SignedUp> {
  const user = await signUp(t.app);
  await t.database.sql`update accounts set password_hash = null, email_confirmed_at = case when ${verified} then now() end where id = ${user.userId}`;
  return user;
}

describe('GET /api/auth/identities', () => {
  it('lists the password, and magic_link once the email is verified', async () => {
    const user = await signUp(t.app);
    const before = await list(user);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ identities: [{ method: 'password', email: user.email, email_verified: false, linked_at: null, removable: false }] });

    await t.database.sql`update accounts set email_confirmed_at = now() where id = ${user.userId}`;
    await link(user.userId, 'google', `g-${user.userId}`, 'someone@gmail.test');
    const after = (await list(user)).json();
    expect(after.identities.map((m: { method: string }) => m.method)).toEqual(['password', 'magic_link', 'google']);
    expect(after.identities[1]).toEqual({ method: 'magic_link', email: user.email, email_verified: true, linked_at: null, removable: false });
    expect(after.identities[2]).toMatchObject({ method: 'google', email: 'someone@gmail.test', email_verified: true, removable: true });
    expect(Date.parse(after.identities[2].linked_at)).not.toBeNaN();
  });

  it('needs a session (401)', async () => {
    expect((await t.app.inject({ url: '/api/auth/identities' })).statusCode).toBe(401);
  });
});

describe('DELETE /api/auth/identities/{provider}', () => {
  it('unlinks a social identity while another way in remains, and answers the remaining methods', async () => {
    const user = await socialOnly(false);
    await link(user.userId, 'google', `g-${user.userId}`);
    await link(user.userId, 'apple', `a-${user.userId}`);
    const res = await unlink(user, 'google');
    expect(res.statusCode).toBe(200);
    expect(res.json().identities.map((m: { method: string; removable: boolean }) => [m.method, m.removable])).toEqual([['apple', false]]);
    expect(await linkedProviders(user.userId)).toEqual(['apple']);
  });

  it('refuses to remove the last way in with 409 and a sentence, and changes nothing', async () => {
    const user = await socialOnly(false);
    await link(user.userId, 'facebook', `f-${user.userId}`);
    expect((await list(user)).json().identities).toEqual([expect.objectContaining({ method: 'facebook', removable: false })]);
    const res = await unlink(user, 'facebook');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/only way to sign in/);
    expect(await linkedProviders(user.userId)).toEqual(['facebook']);
  });

  it('counts a verified email (magic link) and a password as ways in', async () => {
    const verified = await socialOnly(true);
    await link(verified.userId, 'google', `g-${verified.userId}`);
    expect((await unlink(verified, 'google')).json()).toEqual({
      identities: [{ method: 'magic_link', email: verified.email, email_verified: true, linked_at: null, removable: false }],
    });
    expect(await linkedProviders(verified.userId)).toEqual([]);

    const withPassword = await signUp(t.app);
    await link(withPassword.userId, 'apple', `a-${withPassword.userId}`);
    expect((await unlink(withPassword, 'apple')).statusCode).toBe(200);
    expect(await linkedProviders(withPassword.userId)).toEqual([]);
  });

  it('removes every identity of the provider, and only the caller\'s', async () => {
    const user = await signUp(t.app);
    const other = await signUp(t.app);
    await link(user.userId, 'google', `g1-${user.userId}`);
    await link(user.userId, 'google', `g2-${user.userId}`);
    await link(other.userId, 'google', `g-${other.userId}`);
    expect((await unlink(user, 'google')).statusCode).toBe(200);
    expect(await linkedProviders(user.userId)).toEqual([]);
    expect(await linkedProviders(other.userId)).toEqual(['google']);
  });

  it('answers 400 for an unknown provider, 404 for one not linked, 401 without a session; nothing changes', async () => {
    const user = await signUp(t.app);
    await link(user.userId, 'google', `g-${user.userId}`);
    const unknown = await unlink(user, 'twitter');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBeDefined();
    const notLinked = await unlink(user, 'facebook');
    expect(notLinked.statusCode).toBe(404);
    expect(notLinked.json().error).toMatch(/No facebook sign-in/);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/auth/identities/google' })).statusCode).toBe(401);
    expect(await linkedProviders(user.userId)).toEqual(['google']);
  });
});

describe('accounts without a password', () => {
  it('exist (password_hash is nullable) and never sign in with any password', async () => {
    const user = await socialOnly(true);
    const [row] = await t.database.sql`select password_hash from accounts where id = ${user.userId}`;
    expect(row!['password_hash']).toBeNull();
    const [{ n: before }] = (await t.database.sql`select count(*)::int as n from auth_sessions where user_id = ${user.userId}`) as unknown as [{ n: number }];
    for (const password of [PASSWORD, 'x', 'null', '']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: user.email, password } });
      expect([400, 401]).toContain(res.statusCode);
      expect(res.json()).not.toHaveProperty('session');
    }
    const [{ n: after }] = (await t.database.sql`select count(*)::int as n from auth_sessions where user_id = ${user.userId}`) as unknown as [{ n: number }];
    expect(after).toBe(before);
  });
});
