// CONTRACTS §1 bootstrap admins and §7 email verification: a listed email holds its role only once
// verified; tokens are single use, 24 hours, stored as hashes, and verify only their own account.
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { createSessionLookup, syncAccountRoles } from '@story/auth';
import { testEnv } from '@story/testing';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { buildTestApp, PASSWORD, signUp, uniqueEmail, type SignedUp, type TestContext } from '../../test/helper';

const APP_URL = 'https://app.example.test';
const BOSS = 'boss@example.test';
const HELPER = 'helper@example.test';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_EMAILS: 'Boss@Example.test', SUPPORT_EMAILS: HELPER, APP_URL });
});
afterAll(async () => t.close());

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const verify = (token: unknown, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token }, headers });
const refresh = (token: string) => t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: token } });
const resend = (user: SignedUp) => t.app.inject({ method: 'POST', url: '/api/auth/resend-verification', headers: user.headers });

/** The tokens in the account's queued verify_email messages, oldest first. */
async function queuedTokens(userId: string): Promise<string[]> {
  const rows = await t.database.sql`
    select q.text_content, q.html_content from email_send_queue q join email_templates tp on tp.id = q.template_id
    where q.user_id = ${userId} and tp.name = 'verify_email' order by q.created_at, q.id`;
  return rows.map((r) => {
    const match = /https:\/\/app\.example\.test\/verify-email\?token=([A-Za-z0-9_-]{43})/.exec(String(r['text_content']));
    if (!match) throw new Error(`no verification link in ${String(r['text_content'])}`);
    expect(String(r['html_content'])).toContain(`${APP_URL}/verify-email?token=${match[1]}`);
    return match[1]!;
  });
}

async function accountRow(userId: string) {
  const [row] = await t.database.sql`select role, email_confirmed_at from accounts where id = ${userId}`;
  return { role: row!['role'] as string, verified: row!['email_confirmed_at'] !== null };
}

const tokenRows = (userId: string) => t.database.sql`select token_hash, used_at, expires_at from email_verification_tokens where user_id = ${userId} order by created_at`;

describe('the verification email', () => {
  it('is queued at signup with a link whose 256-bit token verifies the account; only its hash is stored', async () => {
    const user = await signUp(t.app);
    const [token, ...more] = await queuedTokens(user.userId);
    expect(more).toHaveLength(0);
    expect(Buffer.from(token!, 'base64url')).toHaveLength(32);
    const [row] = await t.database.sql`select token_hash, email, source, extract(epoch from expires_at - created_at)::int as ttl from email_verification_tokens where user_id = ${user.userId}`;
    expect(row).toEqual({ token_hash: sha256(token!), email: user.email, source: 'signup', ttl: 24 * 3600 });
    const [queued] = await t.database.sql`select q.category, q.status, q.to_email from email_send_queue q join email_templates tp on tp.id = q.template_id where q.user_id = ${user.userId} and tp.name = 'verify_email'`;
    expect(queued).toEqual({ category: 'transactional', status: 'pending', to_email: user.email });

    // The web application sends the account's own Bearer token with the link: the password stays.
    const res = await verify(token, user.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: { id: user.userId, email: user.email, role: 'user', email_verified: true } });
    expect(await accountRow(user.userId)).toEqual({ role: 'user', verified: true });
    // Sign-in and refresh answers carry the flag too.
    const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: user.email, password: PASSWORD } });
    expect(signin.json().user.email_verified).toBe(true);
    expect((await refresh(user.refreshToken)).json().user.email_verified).toBe(true);
  });
});

describe('bootstrap admins need a verified email', () => {
  it('keeps an unverified listed account at role user, and makes it admin once verified (next refresh and sign-in)', async () => {
    const boss = await signUp(t.app, BOSS);
    expect(decodeJwt(boss.accessToken)['role']).toBe('user');
    expect(await accountRow(boss.userId)).toEqual({ role: 'user', verified: false });
    const sessions = createSessionLookup(t.database.sql);
    const sid = String(decodeJwt(boss.accessToken)['sid']);
    expect((await sessions.findActive(sid))!.role).toBe('user');

    // Still user at refresh and sign-in while unverified.
    const early = await refresh(boss.refreshToken);
    expect(early.json().user).toMatchObject({ role: 'user', email_verified: false });
    expect(decodeJwt(early.json().session.access_token)['role']).toBe('user');
    const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: BOSS, password: PASSWORD } });
    expect(signin.json().user.role).toBe('user');

    const [token] = await queuedTokens(boss.userId);
    const verified = await verify(token, boss.headers);
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user).toEqual({ id: boss.userId, email: BOSS, role: 'admin', email_verified: true });
    expect(await accountRow(boss.userId)).toEqual({ role: 'admin', verified: true });
    // The session check every service runs reads the stored role.
    expect((await sessions.findActive(sid))!.role).toBe('admin');

    const next = await refresh(early.json().session.refresh_token);
    expect(next.statusCode).toBe(200);
    expect(next.json().user.role).toBe('admin');
    expect(decodeJwt(next.json().session.access_token)['role']).toBe('admin');
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: BOSS, password: PASSWORD } });
    expect(decodeJwt(again.json().session.access_token)['role']).toBe('admin');
  });

  it('gives SUPPORT_EMAILS role support only once verified', async () => {
    const helper = await signUp(t.app, HELPER);
    expect(decodeJwt(helper.accessToken)['role']).toBe('user');
    const [token] = await queuedTokens(helper.userId);
    expect((await verify(token, helper.headers)).json().user.role).toBe('support');
    expect(decodeJwt((await refresh(helper.refreshToken)).json().session.access_token)['role']).toBe('support');
  });

  it('takes the role away when the email leaves the list: at the next refresh and at the next start', async () => {
    const email = uniqueEmail('leaving');
    const listed = await buildAppOnSameDatabase({ ADMIN_EMAILS: email });
    const unlisted = await buildAppOnSameDatabase({ ADMIN_EMAILS: '' });
    try {
      const signup = await listed.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: PASSWORD } });
      const userId = signup.json().user.id as string;
      const [token] = await queuedTokens(userId);
      const own = { authorization: `Bearer ${signup.json().session.access_token}` };
      expect((await listed.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token }, headers: own })).json().user.role).toBe('admin');
      const adminSession = (await listed.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: signup.json().session.refresh_token } })).json().session;
      expect(decodeJwt(adminSession.access_token)['role']).toBe('admin');

      // Refresh with the list as it is now: user again, stored and in the claim.
      const after = await unlisted.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: adminSession.refresh_token } });
      expect(after.statusCode).toBe(200);
      expect(after.json().user.role).toBe('user');
      expect(decodeJwt(after.json().session.access_token)['role']).toBe('user');
      expect(await accountRow(userId)).toEqual({ role: 'user', verified: true });

      // Start (main.ts runs syncAccountRoles before serving): listed again → admin; off the list → user,
      // and a token issued while admin acts as user in every service's session check.
      expect(await syncAccountRoles(t.database.sql, { adminEmails: [email], supportEmails: [] })).toBeGreaterThanOrEqual(1);
      expect((await accountRow(userId)).role).toBe('admin');
      const sid = String(decodeJwt(adminSession.access_token)['sid']);
      expect((await createSessionLookup(t.database.sql).findActive(sid))!.role).toBe('admin');
      expect(await syncAccountRoles(t.database.sql, { adminEmails: [], supportEmails: [] })).toBeGreaterThanOrEqual(1);
      expect((await accountRow(userId)).role).toBe('user');
      expect((await createSessionLookup(t.database.sql).findActive(sid))!.role).toBe('user');
      // An unverified listed account is not promoted by the start either.
      const unverified = await signUp(t.app, uniqueEmail('unverified'));
      await syncAccountRoles(t.database.sql, { adminEmails: [unverified.email], supportEmails: [] });
      expect((await accountRow(unverified.userId)).role).toBe('user');
    } finally {
      await listed.close();
      await unlisted.close();
    }
  });
});

async function buildAppOnSameDatabase(env: Record<string, string>) {
  const app = await buildApp({ config: loadConfig(testEnv({ APP_URL, ...env })), deps: { database: t.database } });
  await app.ready();
  return app;
}

describe('bad verification tokens change nothing', () => {
  it('answers 400 for a forged or malformed token', async () => {
    const user = await signUp(t.app);
    const before = await tokenRows(user.userId);
    const forged = await verify(randomBytes(32).toString('base64url'));
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toMatch(/not valid/);
    for (const bad of ['abc', '', 42, 'x'.repeat(300), `${'a'.repeat(42)}!`]) {
      const res = await verify(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('token');
    }
    expect(await accountRow(user.userId)).toEqual({ role: 'user', verified: false });
    expect(await tokenRows(user.userId)).toEqual(before);
  });

  it('answers 410 for a reused token', async () => {
    const user = await signUp(t.app);
    const [token] = await queuedTokens(user.userId);
    expect((await verify(token)).statusCode).toBe(200);
    const rows = await tokenRows(user.userId);
    const [confirmed] = await t.database.sql`select email_confirmed_at from accounts where id = ${user.userId}`;
    const reused = await verify(token);
    expect(reused.statusCode).toBe(410);
    expect(reused.json().error).toMatch(/already been used/);
    expect(await tokenRows(user.userId)).toEqual(rows);
    expect((await t.database.sql`select email_confirmed_at from accounts where id = ${user.userId}`)[0]).toEqual(confirmed);
  });

  it('answers 410 for an expired token and leaves the account unverified', async () => {
    const user = await signUp(t.app);
    const [token] = await queuedTokens(user.userId);
    await t.database.sql`update email_verification_tokens set expires_at = now() - interval '1 second' where user_id = ${user.userId}`;
    const res = await verify(token);
    expect(res.statusCode).toBe(410);
    expect(res.json().error).toMatch(/expired/);
    expect(await accountRow(user.userId)).toEqual({ role: 'user', verified: false });
    expect((await tokenRows(user.userId))[0]!['used_at']).toBeNull();
  });

  it("never verifies another account: B presenting A's token is refused, and A's token verifies only A", async () => {
    const a = await signUp(t.app, BOSS.replace('boss', `a-${Date.now()}`));
    const b = await signUp(t.app);
    const [tokenA] = await queuedTokens(a.userId);
    const refused = await verify(tokenA, b.headers);
    expect(refused.statusCode).toBe(403);
    expect(await accountRow(a.userId)).toEqual({ role: 'user', verified: false });
    expect(await accountRow(b.userId)).toEqual({ role: 'user', verified: false });
    expect((await tokenRows(a.userId))[0]!['used_at']).toBeNull();

    const ok = await verify(tokenA, a.headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.id).toBe(a.userId);
    expect(await accountRow(a.userId)).toMatchObject({ verified: true });
    expect(await accountRow(b.userId)).toMatchObject({ verified: false });
  });

  it('refuses a token sent to an address the account no longer has', async () => {
    const user = await signUp(t.app);
    const [token] = await queuedTokens(user.userId);
    const changed = uniqueEmail('changed');
    await t.database.sql`update accounts set email = ${changed} where id = ${user.userId}`;
    expect((await verify(token)).statusCode).toBe(410);
    expect(await accountRow(user.userId)).toEqual({ role: 'user', verified: false });
  });
});

describe('resend-verification', () => {
  it('sends a new working link, 3 per hour, then 429; nothing once verified', async () => {
    const user = await signUp(t.app);
    for (let i = 0; i < 3; i++) {
      const res = await resend(user);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, sent: true, user: { id: user.userId, email: user.email, role: 'user', email_verified: false } });
    }
    expect(await queuedTokens(user.userId)).toHaveLength(4); // signup + 3 resends
    const limited = await resend(user);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
    const tokens = await queuedTokens(user.userId);
    expect(tokens).toHaveLength(4);

    // The newest link verifies; the older ones are spent with it.
    expect((await verify(tokens[3], user.headers)).statusCode).toBe(200);
    expect((await verify(tokens[1])).statusCode).toBe(410);

    const done = await resend(user);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ success: true, sent: false, user: { email_verified: true } });
    expect(await queuedTokens(user.userId)).toHaveLength(4);
  });

  it('counts only the last hour and needs a signed-in caller', async () => {
    const user = await signUp(t.app);
    for (let i = 0; i < 3; i++) expect((await resend(user)).statusCode).toBe(200);
    await t.database.sql`update email_verification_tokens set created_at = now() - interval '61 minutes' where user_id = ${user.userId}`;
    expect((await resend(user)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/resend-verification' })).statusCode).toBe(401);
  });
});
