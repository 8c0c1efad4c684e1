// CONTRACTS §10 magic links: the same answer for known and unknown addresses, an email only for an
// account, a 256-bit single-use 15-minute token stored as its sha256, sign-in exactly like signin.
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { logCapture, testEnv } from '@story/testing';
import type { App } from '@story/http';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { buildTestApp, signUp, uniqueEmail, type TestContext } from '../../test/helper';

const APP_URL = 'https://app.example.test';
const BOSS = 'magic.boss@example.test';

let t: TestContext;
let app: App;
const logs = logCapture();
const extra: App[] = [];
beforeAll(async () => {
  t = await buildTestApp({ APP_URL, ADMIN_EMAILS: BOSS });
  app = await buildApp({ config: loadConfig(testEnv({ APP_URL, ADMIN_EMAILS: BOSS, LOG_LEVEL: 'info' })), deps: { database: t.database, logStream: logs.stream } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  for (const a of extra) await a.close();
  await t.close();
});

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const request = (email: unknown, a: App = app, remoteAddress = '127.0.0.1') =>
  a.inject({ method: 'POST', url: '/api/auth/magic-link', payload: { email }, remoteAddress });
const verify = (token: unknown, a: App = app) => a.inject({ method: 'POST', url: '/api/auth/magic-link/verify', payload: { token } });

/** The tokens in the account's queued magic_link messages, oldest first. */
async function queuedTokens(userId: string): Promise<string[]> {
  const rows = await t.database.sql`
    select q.text_content, q.html_content from email_send_queue q join email_templates tp on tp.id = q.template_id
    where q.user_id = ${userId} and tp.name = 'magic_link' order by q.created_at, q.id`;
  return rows.map((r) => {
    const match = /https:\/\/app\.example\.test\/auth\/magic\?token=([A-Za-z0-9_-]{43})/.exec(String(r['text_content']));
    if (!match) throw new Error('no sign-in link in the email');
    expect(String(r['html_content'])).toContain(`${APP_URL}/auth/magic?token=${match[1]}`);
    return match[1]!;
  });
}

const magicRows = (emailHash: string) =>
  t.database.sql`select user_id, token_hash, used_at, extract(epoch from expires_at - created_at)::int as ttl from magic_link_tokens where email_hash = ${emailHash} order by created_at`;
const sessionCount = async (userId: string) => Number((await t.database.sql`select count(*)::int as n from auth_sessions where user_id = ${userId}`)[0]!['n']);
const magicQueueCount = async () =>
  Number((await t.database.sql`select count(*)::int as n from email_send_queue q join email_templates tp on tp.id = q.template_id where tp.name = 'magic_link'`)[0]!['n']);

describe('POST /api/auth/magic-link', () => {
  it('answers an existing and an unknown address identically; only the existing one gets an email whose token signs in', async () => {
    const user = await signUp(app);
    const unknown = uniqueEmail('nobody');
    const before = await magicQueueCount();

    const known = await request(user.email.toUpperCase());
    const other = await request(unknown);
    expect(known.statusCode).toBe(200);
    expect(other.statusCode).toBe(200);
    expect(known.body).toBe(other.body);
    expect(known.json()).toEqual({ success: true });
    expect(known.headers['content-type']).toBe(other.headers['content-type']);

    // Only the account is emailed; the unknown address has a request row (counted) with no account and no email.
    expect(await magicQueueCount()).toBe(before + 1);
    const [token, ...more] = await queuedTokens(user.userId);
    expect(more).toHaveLength(0);
    expect(Buffer.from(token!, 'base64url')).toHaveLength(32);
    expect(await magicRows(sha256(user.email))).toEqual([{ user_id: user.userId, token_hash: sha256(token!), used_at: null, ttl: 15 * 60 }]);
    const unknownRows = await magicRows(sha256(unknown));
    expect(unknownRows).toHaveLength(1);
    expect(unknownRows[0]).toMatchObject({ user_id: null, used_at: null });
    expect(Number((await t.database.sql`select count(*)::int as n from accounts where email = ${unknown}`)[0]!['n'])).toBe(0);
    const [queued] = await t.database.sql`select q.category, q.to_email from email_send_queue q join email_templates tp on tp.id = q.template_id where q.user_id = ${user.userId} and tp.name = 'magic_link'`;
    expect(queued).toEqual({ category: 'transactional', to_email: user.email });

    const sessionsBefore = await sessionCount(user.userId);
    const res = await verify(token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toEqual({ id: user.userId, email: user.email, role: 'user', email_verified: true });
    expect(Object.keys(body.session).sort()).toEqual(['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type']);
    expect(body.session.token_type).toBe('bearer');
    expect(decodeJwt(body.session.access_token)['role']).toBe('user');
    expect(await sessionCount(user.userId)).toBe(sessionsBefore + 1);
    // The session works and refreshes like a signin session.
    expect((await app.inject({ url: '/api/auth/signout', method: 'POST', headers: { authorization: `Bearer ${body.session.access_token}` } })).statusCode).toBe(200);
    const [row] = await magicRows(sha256(user.email));
    expect(row!['used_at']).not.toBeNull();
  });

  it('refuses a malformed body with 400 and stores nothing', async () => {
    const [{ n: before }] = (await t.database.sql`select count(*)::int as n from magic_link_tokens`) as unknown as [{ n: number }];
    for (const payload of [{}, { email: 'not an email' }, { email: 42 }]) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/magic-link', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBeDefined();
    }
    const [{ n: after }] = (await t.database.sql`select count(*)::int as n from magic_link_tokens`) as unknown as [{ n: number }];
    expect(after).toBe(before);
  });
});

describe('POST /api/auth/magic-link/verify', () => {
  it('marks the email verified, and a listed admin address becomes admin', async () => {
    const boss = await signUp(app, BOSS);
    expect((await t.database.sql`select role, email_confirmed_at from accounts where id = ${boss.userId}`)[0]).toEqual({ role: 'user', email_confirmed_at: null });
    await request(BOSS);
    const [token] = await queuedTokens(boss.userId);
    const res = await verify(token);
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toEqual({ id: boss.userId, email: BOSS, role: 'admin', email_verified: true });
    expect(decodeJwt(res.json().session.access_token)['role']).toBe('admin');
    const [row] = await t.database.sql`select role, email_confirmed_at from accounts where id = ${boss.userId}`;
    expect(row!['role']).toBe('admin');
    expect(row!['email_confirmed_at']).not.toBeNull();
  });

  it('refuses a reused token with 410 and creates no session', async () => {
    const user = await signUp(app);
    await request(user.email);
    const [token] = await queuedTokens(user.userId);
    expect((await verify(token)).statusCode).toBe(200);
    const sessions = await sessionCount(user.userId);
    const again = await verify(token);
    expect(again.statusCode).toBe(410);
    expect(again.json().error).toMatch(/already been used/);
    expect(again.json()).not.toHaveProperty('session');
    expect(await sessionCount(user.userId)).toBe(sessions);
  });

  it('refuses an expired token with 410, creates no session and leaves the email unverified', async () => {
    const user = await signUp(app);
    await request(user.email);
    const [token] = await queuedTokens(user.userId);
    await t.database.sql`update magic_link_tokens set created_at = now() - interval '16 minutes', expires_at = now() - interval '1 minute' where token_hash = ${sha256(token!)}`;
    const sessions = await sessionCount(user.userId);
    const res = await verify(token);
    expect(res.statusCode).toBe(410);
    expect(res.json().error).toMatch(/expired/);
    expect(await sessionCount(user.userId)).toBe(sessions);
    const [row] = await t.database.sql`select email_confirmed_at from accounts where id = ${user.userId}`;
    expect(row!['email_confirmed_at']).toBeNull();
    const [tokenRow] = await magicRows(sha256(user.email));
    expect(tokenRow!['used_at']).toBeNull();
  });

  it('refuses a token sent to an address the account no longer has with 410', async () => {
    const user = await signUp(app);
    await request(user.email);
    const [token] = await queuedTokens(user.userId);
    const changed = uniqueEmail('changed');
    await t.database.sql`update accounts set email = ${changed} where id = ${user.userId}`;
    const sessions = await sessionCount(user.userId);
    const res = await verify(token);
    expect(res.statusCode).toBe(410);
    expect(res.json().error).toMatch(/different address/);
    expect(await sessionCount(user.userId)).toBe(sessions);
    expect((await t.database.sql`select email_confirmed_at from accounts where id = ${user.userId}`)[0]!['email_confirmed_at']).toBeNull();
  });

  it('refuses an unknown or malformed token with 400 and creates no session', async () => {
    const [{ n: before }] = (await t.database.sql`select count(*)::int as n from auth_sessions`) as unknown as [{ n: number }];
    const forged = await verify('A'.repeat(43));
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toMatch(/not valid/);
    for (const token of ['short', 42, undefined]) expect((await verify(token)).statusCode).toBe(400);
    const [{ n: after }] = (await t.database.sql`select count(*)::int as n from auth_sessions`) as unknown as [{ n: number }];
    expect(after).toBe(before);
  });

  it('writes no token in any log line', async () => {
    const user = await signUp(app);
    await request(user.email);
    const [token] = await queuedTokens(user.userId);
    const res = await verify(token);
    expect(res.statusCode).toBe(200);
    await verify(token);
    const text = logs.text();
    expect(text).toContain('/api/auth/magic-link/verify');
    expect(text).not.toContain(token);
    expect(text).not.toContain(res.json().session.access_token);
    expect(text).not.toContain(res.json().session.refresh_token);
  });
});

describe('limits', () => {
  it('answers 429 past 5 requests per hour for one address, counting requests whether or not an account exists', async () => {
    const limited = await buildApp({ config: loadConfig(testEnv({ APP_URL, RATE_LIMIT_SCALE: '1' })), deps: { database: t.database } });
    await limited.ready();
    extra.push(limited);
    const user = await signUp(limited);
    const unknown = uniqueEmail('ghost');
    const refusals: string[] = [];
    for (const email of [user.email, unknown]) {
      const statuses: number[] = [];
      let last;
      // Distinct client addresses, so only the per-email limit can refuse.
      for (let i = 0; i < 6; i++) {
        last = await request(email, limited, `198.51.100.${i + 1}`);
        statuses.push(last.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect(last!.json().error).toMatch(/At most 5 sign-in links per hour/);
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      expect(await magicRows(sha256(email))).toHaveLength(5);
      refusals.push(last!.body);
    }
    // The refusal is the same for both: nothing tells an account apart.
    expect(refusals[0]).toBe(refusals[1]);
    expect(await queuedTokens(user.userId)).toHaveLength(5);
  });

  it('answers 429 past 20 requests per hour from one client address', async () => {
    const limited = await buildApp({ config: loadConfig(testEnv({ APP_URL, RATE_LIMIT_SCALE: '1' })), deps: { database: t.database } });
    await limited.ready();
    extra.push(limited);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 21; i++) {
      last = await request(uniqueEmail('spray'), limited, '203.0.113.9');
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect(last!.headers['x-ratelimit-limit']).toBe('20');
    // Another address is not affected.
    expect((await request(uniqueEmail('other'), limited, '203.0.113.10')).statusCode).toBe(200);
  });
});
