// Accounts nobody else can take (CONTRACTS §7), each finding of the outside audit reproduced:
// - pre-account hijack: someone signs up first with the victim's address and a password and keeps a
//   session; the victim then proves the mailbox (magic link, or the verification link): the squatter's
//   password, sessions, refresh tokens and linked identities must all be gone;
// - a 15-minute impersonation token turned into a 24-hour session: every route that signs in or proves an
//   address refuses it, and so do the irreversible ones (account deletion, erasure, gifts);
// - an account deleted while impersonating leaves no trace: it is refused, nothing changes, and an erasure
//   the owner makes is recorded with its actor, which stays after the account is gone.
import { createHash, randomBytes } from 'node:crypto';
import { createTokenSigner } from '@story/auth';
import { buildTestApp, PASSWORD, signUp, uniqueEmail, type SignedUp, type TestContext } from '../../test/helper';

const APP_URL = 'https://app.example.test';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ APP_URL, RATE_LIMIT_SCALE: '1000' });
});
afterAll(async () => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, payload: payload as object, headers });
const signin = (email: string) => post('/api/auth/signin', { email, password: PASSWORD });
/** Any authenticated read: 200 while the token's session lives, 401 once it has ended. */
const session = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/auth/identities', headers });
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** The link the mailbox received, read from the queued row before the worker sends it. */
async function mailedToken(userId: string, template: 'magic_link' | 'verify_email'): Promise<string> {
  const [row] = await t.database.sql`
    select q.text_content from email_send_queue q join email_templates tp on tp.id = q.template_id
     where q.user_id = ${userId} and tp.name = ${template} order by q.created_at desc, q.id desc limit 1`;
  const match = /token=([A-Za-z0-9_-]{43})/.exec(String(row?.['text_content']));
  if (!match) throw new Error(`no ${template} link queued`);
  return match[1]!;
}

/** A social identity the squatter linked while the account was unverified (Facebook never vouches for an address). */
const linkFacebook = (userId: string, email: string) =>
  t.database.sql`insert into auth_identities (user_id, provider, subject, email, email_verified) values (${userId}, 'facebook', ${`fb-${randomBytes(4).toString('hex')}`}, ${email}, false)`;
const identities = async (userId: string) => Number((await t.database.sql`select count(*)::int as n from auth_identities where user_id = ${userId}`)[0]!['n']);

async function expectSquatterLockedOut(squatter: SignedUp): Promise<void> {
  expect((await signin(squatter.email)).statusCode).toBe(401);
  expect((await session(squatter.headers)).statusCode).toBe(401);
  expect((await post('/api/auth/refresh', { refresh_token: squatter.refreshToken })).statusCode).toBe(401);
  expect(await identities(squatter.userId)).toBe(0);
  const [account] = await t.database.sql`select password_hash, email_confirmed_at from accounts where id = ${squatter.userId}`;
  expect(account).toMatchObject({ password_hash: null, email_confirmed_at: expect.anything() });
}

describe('pre-account hijack: the first proof of the mailbox ends every earlier way in', () => {
  it('by magic link: the squatter’s password, session, refresh token and identity stop working; the owner’s new session works', async () => {
    const squatter = await signUp(t.app, uniqueEmail('victim'));
    await linkFacebook(squatter.userId, squatter.email);
    expect((await session(squatter.headers)).statusCode).toBe(200);

    expect((await post('/api/auth/magic-link', { email: squatter.email })).statusCode).toBe(200);
    const owner = await post('/api/auth/magic-link/verify', { token: await mailedToken(squatter.userId, 'magic_link') });
    expect(owner.statusCode).toBe(200);
    expect(owner.json().user).toMatchObject({ id: squatter.userId, email_verified: true });

    await expectSquatterLockedOut(squatter);
    expect((await session({ authorization: `Bearer ${owner.json().session.access_token}` })).statusCode).toBe(200);
    const [ended] = await t.database.sql`select revoked_reason from auth_sessions where id = ${JSON.parse(Buffer.from(squatter.accessToken.split('.')[1]!, 'base64url').toString())['sid']}`;
    expect(ended!['revoked_reason']).toBe('email_verified_by_magic_link');
  });

  it('by the verification link opened without the squatter’s session: the same', async () => {
    const squatter = await signUp(t.app, uniqueEmail('victim'));
    await linkFacebook(squatter.userId, squatter.email);
    const res = await post('/api/auth/verify-email', { token: await mailedToken(squatter.userId, 'verify_email') });
    expect(res.statusCode).toBe(200);
    await expectSquatterLockedOut(squatter);
  });

  it('a later sign-in link of a verified account changes nothing (only the first verification ends access)', async () => {
    const user = await signUp(t.app);
    await t.database.sql`update accounts set email_confirmed_at = now() where id = ${user.userId}`;
    await post('/api/auth/magic-link', { email: user.email });
    expect((await post('/api/auth/magic-link/verify', { token: await mailedToken(user.userId, 'magic_link') })).statusCode).toBe(200);
    expect((await signin(user.email)).statusCode).toBe(200);
    expect((await session(user.headers)).statusCode).toBe(200);
  });
});

describe('an impersonation token mints no session and does nothing irreversible', () => {
  let owner: SignedUp;
  let impersonation: Record<string, string>;
  beforeAll(async () => {
    owner = await signUp(t.app);
    const admin = await signUp(t.app);
    await t.database.sql`update accounts set role = 'admin', email_confirmed_at = now() where id = ${admin.userId}`;
    // What email-service's impersonation start writes (a session of the owner) and signs.
    const [s] = await t.database.sql`insert into auth_sessions (user_id, expires_at, user_agent) values (${owner.userId}, now() + interval '15 minutes', 'admin-impersonation') returning id`;
    const { token } = await createTokenSigner(t.config.secrets.jwtSecret).sign({
      userId: owner.userId,
      email: owner.email,
      role: 'user',
      sessionId: s!['id'] as string,
      actorId: admin.userId,
      ttlSeconds: 900,
    });
    impersonation = { authorization: `Bearer ${token}` };
  });

  const sessionsOf = async (userId: string) => Number((await t.database.sql`select count(*)::int as n from auth_sessions where user_id = ${userId}`)[0]!['n']);

  it('refuses the magic link asked for and verified with it, so no 24-hour session outlives the impersonation', async () => {
    await post('/api/auth/magic-link', { email: owner.email });
    const token = await mailedToken(owner.userId, 'magic_link');
    const before = await sessionsOf(owner.userId);
    const ask = await post('/api/auth/magic-link', { email: owner.email }, impersonation);
    expect(ask.statusCode).toBe(403);
    expect(ask.json().error).toMatch(/not allowed while impersonating a user/);
    const spend = await post('/api/auth/magic-link/verify', { token }, impersonation);
    expect(spend.statusCode).toBe(403);
    expect(spend.json().error).toMatch(/not allowed while impersonating a user/);
    expect(await sessionsOf(owner.userId)).toBe(before);
    const [row] = await t.database.sql`select used_at from magic_link_tokens where token_hash = ${sha256(token)}`;
    expect(row!['used_at']).toBeNull();
  });

  it('refuses verify-email, refresh, sign-in and the social sign-in exchange with the same sentence, whether or not what they name exists', async () => {
    const token = await mailedToken(owner.userId, 'verify_email');
    const calls: [string, unknown][] = [
      ['/api/auth/verify-email', { token }],
      ['/api/auth/verify-email', { token: randomBytes(32).toString('base64url') }],
      ['/api/auth/refresh', { refresh_token: owner.refreshToken }],
      ['/api/auth/refresh', { refresh_token: 'not-a-refresh-token' }],
      ['/api/auth/signin', { email: owner.email, password: PASSWORD }],
      ['/api/auth/oauth/exchange', { code: randomBytes(32).toString('base64url') }],
    ];
    for (const [url, payload] of calls) {
      const res = await post(url, payload, impersonation);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
      expect(res.json()).toEqual({ error: expect.stringMatching(/^[A-Z].* is not allowed while impersonating a user; only the account's owner can do this\.$/) });
    }
    const [account] = await t.database.sql`select email_confirmed_at from accounts where id = ${owner.userId}`;
    expect(account!['email_confirmed_at']).toBeNull();
    // The owner's own refresh token still works: the refused call spent nothing. A stale or malformed Bearer
    // sent along (clients often send the expired access token) is no impersonation token and changes nothing.
    const refreshed = await post('/api/auth/refresh', { refresh_token: owner.refreshToken }, { authorization: 'Bearer not.a.token' });
    expect(refreshed.statusCode).toBe(200);
  });

  it('refuses deleting or erasing the account and buying, redeeming or cancelling gifts; nothing changes', async () => {
    const del = await t.app.inject({ method: 'DELETE', url: '/api/user/account', headers: impersonation });
    expect(del.statusCode).toBe(403);
    expect(del.json().error).toBe("Deleting the account is not allowed while impersonating a user; only the account's owner can do this.");
    const erase = await post('/api/privacy/erase', { confirmEmail: owner.email, reason: 'x' }, impersonation);
    expect(erase.statusCode).toBe(403);
    const purchase = await post('/api/gifts/purchase', { recipientName: 'R', recipientEmail: 'r@example.test', senderName: 'S', message: 'm', planId: 'premium' }, impersonation);
    expect(purchase.statusCode).toBe(403);
    expect((await post('/api/gifts/redeem', { code: 'ABCDEFGHJKLMNP' }, impersonation)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/gifts/delete?id=${randomBytes(16).toString('hex')}`, headers: impersonation })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/auth/identities/facebook', headers: impersonation })).statusCode).toBe(403);

    expect((await t.database.sql`select id from accounts where id = ${owner.userId}`).length).toBe(1);
    expect((await t.database.sql`select id from gifts where user_id = ${owner.userId}`).length).toBe(0);
    expect((await t.database.sql`select id from admin_audit_log where action = 'account.erased'`).length).toBe(0);
    // The same calls with the owner's own token are not refused for impersonation.
    expect((await post('/api/gifts/redeem', { code: 'ABCDEFGHJKLMNP' }, owner.headers)).statusCode).not.toBe(403);
  });
});

describe('audit rows keep who acted on whom', () => {
  it('an erasure is recorded with its actor and target (id and email), and audit rows naming the account stay', async () => {
    const user = await signUp(t.app);
    const admin = await signUp(t.app);
    await t.database.sql`insert into admin_audit_log (actor_id, action, target_type, target_id) values (${admin.userId}, 'user.update', 'account', ${user.userId})`;
    const res = await t.app.inject({ method: 'DELETE', url: '/api/user/account', headers: user.headers });
    expect(res.statusCode).toBe(200);
    await t.app.inject({ method: 'DELETE', url: '/api/user/account', headers: admin.headers });

    const [erased] = await t.database.sql`select actor_id, actor_email, target_id, target_email from admin_audit_log where action = 'account.erased' and target_id = ${user.userId}`;
    expect(erased).toEqual({ actor_id: user.userId, actor_email: user.email, target_id: user.userId, target_email: user.email });
    const [update] = await t.database.sql`select actor_id, actor_email, target_id, target_email from admin_audit_log where action = 'user.update'`;
    expect(update).toEqual({ actor_id: admin.userId, actor_email: admin.email, target_id: user.userId, target_email: user.email });
  });

  it('an erasure ends the impersonations of the account with their end row', async () => {
    const user = await signUp(t.app, uniqueEmail('target'));
    const admin = await signUp(t.app, uniqueEmail('acting'));
    const [s] = await t.database.sql`insert into auth_sessions (user_id, expires_at, user_agent) values (${user.userId}, now() + interval '15 minutes', 'admin-impersonation') returning id`;
    const [imp] = await t.database.sql`insert into admin_impersonations (admin_id, user_id, session_id, reason, expires_at)
      values (${admin.userId}, ${user.userId}, ${s!['id']}, 'support ticket', now() + interval '15 minutes') returning id`;
    expect((await t.app.inject({ method: 'DELETE', url: '/api/user/account', headers: user.headers })).statusCode).toBe(200);

    const [row] = await t.database.sql`select ended_at, admin_email, user_email from admin_impersonations where id = ${imp!['id']}`;
    expect(row).toMatchObject({ ended_at: expect.anything(), admin_email: admin.email, user_email: user.email });
    const [end] = await t.database.sql`select actor_id, actor_email, impersonated_user_id, impersonated_user_email, data from admin_audit_log where action = 'user.impersonate.end'`;
    expect(end).toMatchObject({ actor_id: admin.userId, actor_email: admin.email, impersonated_user_id: user.userId, impersonated_user_email: user.email });
    expect((end!['data'] as { after: { endedBy: string } }).after.endedBy).toBe('account_deleted');
  });
});
