import { SignJWT, decodeJwt } from 'jose';
import { buildTestApp, PASSWORD, signUp, uniqueEmail, type TestContext } from '../../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ ADMIN_EMAILS: 'Boss@Example.test' });
});
afterAll(async () => t.close());

const countAccounts = async () => Number((await t.database.sql`select count(*)::int as n from accounts`)[0]!['n']);

describe('signup', () => {
  it('creates the account, profile and every settings row, and returns a session', async () => {
    const email = uniqueEmail('new');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: email.toUpperCase(), password: PASSWORD, fullName: 'Ada Lovelace' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toEqual({ id: expect.any(String), email, role: 'user', email_verified: false });
    expect(body.session).toMatchObject({ token_type: 'bearer', expires_in: 86400, access_token: expect.any(String), refresh_token: expect.any(String) });
    expect(body.session.expires_at).toBeGreaterThan(Date.now() / 1000 + 86000);

    const claims = decodeJwt(body.session.access_token);
    expect(claims).toMatchObject({ sub: body.user.id, email, role: 'user', sid: expect.any(String) });
    expect(claims.exp! - claims.iat!).toBe(86400);

    const sql = t.database.sql;
    const [profile] = await sql`select full_name, subscription_tier, memories_family_download, timezone from profiles where id = ${body.user.id}`;
    expect(profile).toEqual({ full_name: 'Ada Lovelace', subscription_tier: 'free', memories_family_download: true, timezone: 'America/New_York' });
    const [ui] = await sql`select text_size_preference, auto_save_interval_minutes from user_settings where user_id = ${body.user.id}`;
    expect(ui).toEqual({ text_size_preference: 'medium', auto_save_interval_minutes: 5 });
    const [notif] = await sql`select email_enabled, marketing_emails, reminder_time from user_notification_settings where user_id = ${body.user.id}`;
    expect(notif).toEqual({ email_enabled: true, marketing_emails: false, reminder_time: '09:00:00' });
    for (const table of ['user_grammar_settings', 'user_privacy_settings', 'user_voice_settings', 'user_email_preferences']) {
      const rows = await sql`select 1 from ${sql(table)} where user_id = ${body.user.id}`;
      expect(rows).toHaveLength(1);
    }
    const [welcome] = await sql`select q.to_email, q.subject, q.status, t.name from email_send_queue q join email_templates t on t.id = q.template_id where q.user_id = ${body.user.id} and t.name = 'welcome'`;
    expect(welcome).toEqual({ to_email: email, subject: expect.stringContaining('Welcome, Ada'), status: 'pending', name: 'welcome' });
    const [hash] = await sql`select password_hash from accounts where id = ${body.user.id}`;
    expect(hash!['password_hash']).toMatch(/^\$argon2id\$/);
  });

  it('answers 409 for a duplicate email and writes nothing', async () => {
    const { email } = await signUp(t.app);
    const before = await countAccounts();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password: PASSWORD } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'An account with this email already exists' });
    expect(await countAccounts()).toBe(before);
  });

  it.each([
    [{ email: 'not-an-email', password: PASSWORD }, 'email'],
    [{ password: PASSWORD }, 'email'],
    [{ email: uniqueEmail(), password: 'short1' }, 'password'],
    [{ email: uniqueEmail(), password: 'onlyletters' }, 'password'],
    [{ email: uniqueEmail(), password: '1234567890' }, 'password'],
  ])('refuses %j with 400 naming %s and writes nothing', async (payload, field) => {
    const before = await countAccounts();
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(field);
    expect(await countAccounts()).toBe(before);
  });

  it('does not give ADMIN_EMAILS the admin role before the email is verified', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'boss@example.test', password: PASSWORD } });
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({ role: 'user', email_verified: false });
    expect(decodeJwt(res.json().session.access_token)['role']).toBe('user');
    const [row] = await t.database.sql`select role from accounts where email = 'boss@example.test'`;
    expect(row!['role']).toBe('user');
  });
});

describe('signin and lockout', () => {
  it('signs in with the right password and refuses a wrong one', async () => {
    const { email } = await signUp(t.app);
    const ok = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: PASSWORD } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.email).toBe(email);
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: 'wrong password 1' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error).toBe('Unauthorized');
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: uniqueEmail('ghost'), password: PASSWORD } });
    expect(unknown.statusCode).toBe(401);
  });

  it('locks an email for 15 minutes after five failures, even for the right password', async () => {
    const { email } = await signUp(t.app);
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: `wrong password ${i}` } });
      expect(res.statusCode).toBe(401);
    }
    const locked = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: PASSWORD } });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toMatch(/15 minutes/);
    const [row] = await t.database.sql`select locked_until > now() + interval '14 minutes' as locked from auth_lockouts where email = ${email}`;
    expect(row!['locked']).toBe(true);

    // Once the lock has passed, the right password works and clears the record.
    await t.database.sql`update auth_lockouts set locked_until = now() - interval '1 second' where email = ${email}`;
    const after = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email, password: PASSWORD } });
    expect(after.statusCode).toBe(200);
    expect(await t.database.sql`select 1 from auth_lockouts where email = ${email}`).toHaveLength(0);
  });
});

describe('refresh, reuse detection and signout', () => {
  const refresh = (token: string) => t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: token } });
  const campaigns = (token: string) => t.app.inject({ method: 'GET', url: '/api/campaigns', headers: { authorization: `Bearer ${token}` } });

  it('rotates refresh tokens: the old one stops working', async () => {
    const user = await signUp(t.app);
    const first = await refresh(user.refreshToken);
    expect(first.statusCode).toBe(200);
    const next = first.json().session;
    expect(next.refresh_token).not.toBe(user.refreshToken);
    expect((await campaigns(next.access_token)).statusCode).toBe(200);
    const again = await refresh(user.refreshToken);
    expect(again.statusCode).toBe(401);
  });

  it('revokes the whole session when a spent refresh token is presented again', async () => {
    const user = await signUp(t.app);
    const rotated = (await refresh(user.refreshToken)).json().session;
    expect((await refresh(user.refreshToken)).statusCode).toBe(401); // reuse
    expect((await campaigns(rotated.access_token)).statusCode).toBe(401);
    expect((await campaigns(user.accessToken)).statusCode).toBe(401);
    expect((await refresh(rotated.refresh_token)).statusCode).toBe(401);
    const [s] = await t.database.sql`select revoked_reason from auth_sessions where user_id = ${user.userId}`;
    expect(s!['revoked_reason']).toBe('refresh_token_reuse');
  });

  it('signout refuses that session\'s access and refresh tokens, and only that session', async () => {
    const user = await signUp(t.app);
    const other = (await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: user.email, password: PASSWORD } })).json().session;
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/signout', headers: user.headers });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true });
    expect((await campaigns(user.accessToken)).statusCode).toBe(401);
    expect((await refresh(user.refreshToken)).statusCode).toBe(401);
    expect((await campaigns(other.access_token)).statusCode).toBe(200);
  });
});

describe('token checks', () => {
  const secret = () => new TextEncoder().encode(t.config.secrets.jwtSecret);

  async function forged(claims: Record<string, unknown>, opts: { exp?: number; key?: Uint8Array } = {}) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now - 10)
      .setExpirationTime(opts.exp ?? now + 3600)
      .sign(opts.key ?? secret());
  }

  it.each([
    ['no header', undefined],
    ['not bearer', 'Basic abc'],
    ['garbage', 'Bearer not.a.jwt'],
    ['empty bearer', 'Bearer '],
  ])('refuses %s with 401 {error: "Unauthorized"}', async (_name, authorization) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: authorization ? { authorization } : {} });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized' });
  });

  it('refuses expired, tampered, alg-none and foreign-secret tokens', async () => {
    const user = await signUp(t.app);
    const claims = decodeJwt(user.accessToken);
    const base = { sub: claims.sub, email: claims['email'], role: claims['role'], sid: claims['sid'] };
    const expired = await forged(base, { exp: Math.floor(Date.now() / 1000) - 5 });
    const foreign = await forged(base, { key: new TextEncoder().encode('another-secret-that-is-long-enough-000000') });
    const [h, , s] = user.accessToken.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url')}.${s}`;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    for (const token of [expired, foreign, tampered, none]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(401);
    }
    // A correctly signed token for a session that does not exist is refused too.
    const ghost = await forged({ ...base, sid: '00000000-0000-4000-8000-000000000000' });
    expect((await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: { authorization: `Bearer ${ghost}` } })).statusCode).toBe(401);
    // And the genuine one still works.
    expect((await t.app.inject({ method: 'GET', url: '/api/campaigns', headers: user.headers })).statusCode).toBe(200);
  });
});
