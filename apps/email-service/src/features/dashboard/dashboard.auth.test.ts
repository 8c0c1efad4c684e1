// The admin application's sign-in, session, CSRF and roles (CONTRACTS §12, §2; spec 001 Authentication 2, 5),
// through app.inject against a real PostgreSQL: who gets in, what the cookie is, that sign-out and
// revocation end the session everywhere, and that a post without its token changes nothing.
import { createTokenSigner } from '@story/auth';
import { securityHeaderProblems } from '@story/testing';
import { buildTestApp, type TestContext } from '../../test/helper';
import { DASHBOARD_CSP } from './dashboard.register';
import { cookieValue, csrfIn, form, HTML, passwordAccount, PASSWORD, setCookies, signIn, type PasswordAccount } from './test/dashboard.test-helper';

let t: TestContext;
let admin: PasswordAccount;
let support: PasswordAccount;
let user: PasswordAccount;

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
  admin = await passwordAccount(t, 'admin');
  support = await passwordAccount(t, 'support');
  user = await passwordAccount(t, 'user');
});
afterAll(async () => t.close());

const sessionsOf = (userId: string) => t.database.sql`select id, expires_at, revoked_at, revoked_reason from auth_sessions where user_id = ${userId} order by created_at`;

async function signInForm() {
  const page = await t.app.inject({ method: 'GET', url: '/dashboard/sign-in', headers: HTML });
  const nonce = setCookies(page.headers).find((c) => c.startsWith('story_admin_signin='))!.split(';')[0]!;
  return { nonce, csrf: csrfIn(page.body)!, page };
}

const postSignIn = (cookie: string, fields: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/dashboard/sign-in', headers: { ...HTML, cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: form(fields) });

describe('signed out', () => {
  it('GET /dashboard sends a browser to the sign-in page, served under the strict CSP with the security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard', headers: HTML });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/dashboard/sign-in?next=%2Fdashboard');
    const page = await t.app.inject({ method: 'GET', url: res.headers.location as string, headers: HTML });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<form method="post" action="/dashboard/sign-in"');
    expect(page.body).toContain('<input type="hidden" name="next" value="/dashboard">');
    expect(page.body.match(/<main\b/g)).toHaveLength(1);
    expect(page.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(page.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(securityHeaderProblems(page)).toEqual([]);
    // The page carries no inline script or style at all.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle="/);
  });

  it('shows only its own texts for a reason in the query', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard/sign-in?reason=%3Cscript%3E', headers: HTML });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('script%3E');
    expect(page.body).not.toContain('<script>');
  });

  it('answers a client that does not ask for HTML in the email-service shape (401 UNAUTHORIZED)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard/users' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('serves the assets by content hash, cached, without a session', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dashboard/sign-in', headers: HTML });
    const css = /href="(\/dashboard\/assets\/dashboard\.[0-9a-f]{12}\.css)"/.exec(page.body)?.[1];
    const js = /src="(\/dashboard\/assets\/dashboard\.[0-9a-f]{12}\.js)"/.exec(page.body)?.[1];
    for (const url of [css!, js!]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toContain('immutable');
    }
    expect((await t.app.inject({ method: 'GET', url: '/dashboard/assets/dashboard.000000000000.css' })).statusCode).toBe(404);
  });
});

describe('sign-in', () => {
  it('signs an admin in with core-api credentials: a 24-hour session row and an HttpOnly SameSite=Strict cookie', async () => {
    const { nonce, csrf } = await signInForm();
    const res = await postSignIn(nonce, { email: admin.email.toUpperCase(), password: PASSWORD, _csrf: csrf, next: '/dashboard/users' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/dashboard/users');
    const cookie = setCookies(res.headers).find((c) => c.startsWith('story_admin='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Max-Age=86400/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i); // NODE_ENV=test; production is covered below
    const rows = await sessionsOf(admin.userId);
    const last = rows[rows.length - 1]!;
    const hours = (new Date(last['expires_at']).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    // The cookie is the session's access token, verified like core-api's: it names that session row.
    const claims = await createTokenSigner(t.config.secrets.jwtSecret).verify(cookieValue(setCookies(res.headers), 'story_admin')!);
    expect(claims).toMatchObject({ sub: admin.userId, role: 'admin', sid: last['id'] });
  });

  it('keeps a redirect target inside the admin application', async () => {
    const { nonce, csrf } = await signInForm();
    const res = await postSignIn(nonce, { email: admin.email, password: PASSWORD, _csrf: csrf, next: '//evil.example/x' });
    expect(res.headers.location).toBe('/dashboard');
  });

  it('lets support in too', async () => {
    const browser = await signIn(t, support);
    expect((await browser.get('/dashboard')).statusCode).toBe(200);
  });

  it('refuses a user-role account with the right password: a clear page, no session opened', async () => {
    const before = (await sessionsOf(user.userId)).length;
    const { nonce, csrf } = await signInForm();
    const res = await postSignIn(nonce, { email: user.email, password: PASSWORD, _csrf: csrf });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('needs role admin or support');
    expect(setCookies(res.headers).some((c) => c.startsWith('story_admin='))).toBe(false);
    expect((await sessionsOf(user.userId)).length).toBe(before);
  });

  it('refuses an unverified account granted admin (roleForAccount), with no session', async () => {
    const unverified = await passwordAccount(t, 'admin', { verified: false });
    const { nonce, csrf } = await signInForm();
    const res = await postSignIn(nonce, { email: unverified.email, password: PASSWORD, _csrf: csrf });
    expect(res.statusCode).toBe(403);
    expect(await sessionsOf(unverified.userId)).toHaveLength(0);
  });

  it('answers a wrong password with the same message as an unknown email, and counts it toward the shared lockout', async () => {
    const { nonce, csrf } = await signInForm();
    const wrong = await postSignIn(nonce, { email: admin.email, password: 'wrong-password-1', _csrf: csrf });
    const unknown = await postSignIn(nonce, { email: 'nobody@example.test', password: 'wrong-password-1', _csrf: csrf });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toContain('Invalid email or password.');
    expect(unknown.body).toContain('Invalid email or password.');
    const [row] = await t.database.sql`select failed_count from auth_lockouts where email = ${admin.email}`;
    expect(row?.['failed_count']).toBe(1);
    // A good sign-in clears the count (libs/auth password-signin, as core-api's signin).
    await signIn(t, admin);
    expect(await t.database.sql`select 1 from auth_lockouts where email = ${admin.email}`).toHaveLength(0);
  });

  it('locks the email after five failures, as core-api does (429 on the page, even with the right password)', async () => {
    const victim = await passwordAccount(t, 'admin');
    const { nonce, csrf } = await signInForm();
    for (let i = 0; i < 5; i++) await postSignIn(nonce, { email: victim.email, password: 'wrong-password-1', _csrf: csrf });
    const res = await postSignIn(nonce, { email: victim.email, password: PASSWORD, _csrf: csrf });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('900');
    expect(res.body).toContain('wait 15 minutes');
    expect(await sessionsOf(victim.userId)).toHaveLength(0);
  });

  it('refuses a sign-in post without its CSRF token, with another nonce’s token, or without the nonce cookie', async () => {
    const a = await signInForm();
    const b = await signInForm();
    const before = (await sessionsOf(admin.userId)).length;
    for (const [cookie, fields] of [
      [a.nonce, { email: admin.email, password: PASSWORD }],
      [a.nonce, { email: admin.email, password: PASSWORD, _csrf: b.csrf }],
      ['', { email: admin.email, password: PASSWORD, _csrf: a.csrf }],
    ] as const) {
      const res = await postSignIn(cookie, fields);
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('nothing was changed');
    }
    expect((await sessionsOf(admin.userId)).length).toBe(before);
  });

  it('shows an empty form a clear message (400)', async () => {
    const { nonce, csrf } = await signInForm();
    const res = await postSignIn(nonce, { email: '', password: '', _csrf: csrf });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Enter your email and password.');
  });
});

describe('the session', () => {
  it('ends at sign-out: the row is revoked and the cookie no longer opens a page', async () => {
    const browser = await signIn(t, admin);
    const out = await browser.post('/dashboard/sign-out', {});
    expect(out.statusCode).toBe(303);
    expect(setCookies(out.headers).find((c) => c.startsWith('story_admin='))).toMatch(/Max-Age=0/);
    const [row] = await t.database.sql`select revoked_at, revoked_reason from auth_sessions where id = ${browser.sessionId}`;
    expect(row?.['revoked_reason']).toBe('signout');
    const after = await browser.get('/dashboard');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/dashboard/sign-in?next=%2Fdashboard&reason=ended');
    expect((await t.app.inject({ method: 'GET', url: after.headers.location as string, headers: HTML })).body).toContain('Your session has ended');
    // A form posted with the ended session is refused where it was sent, with the same message.
    const post = await browser.post('/dashboard/system/clear-cache', {});
    expect(post.statusCode).toBe(401);
    expect(post.body).toContain('Your session has ended');
  });

  it('ends when the session is revoked elsewhere (core-api sign-out, an admin revoking it)', async () => {
    const browser = await signIn(t, admin);
    await t.database.sql`update auth_sessions set revoked_at = now(), revoked_reason = 'signout' where id = ${browser.sessionId}`;
    expect((await browser.get('/dashboard/users')).headers.location).toContain('reason=ended');
  });

  it('ends when the account loses its role (403, the cookie cleared)', async () => {
    const demoted = await passwordAccount(t, 'support');
    const browser = await signIn(t, demoted);
    await t.database.sql`update accounts set role = 'user', granted_role = null where id = ${demoted.userId}`;
    const res = await browser.get('/dashboard');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toContain('reason=no_role');
    expect(setCookies(res.headers).find((c) => c.startsWith('story_admin='))).toMatch(/Max-Age=0/);
    expect((await t.app.inject({ method: 'GET', url: res.headers.location as string, headers: HTML })).body).toContain('no longer holds role admin or support');
  });

  it('refuses an expired session cookie with a clear page, and an impersonation token as a cookie', async () => {
    const [row] = await t.database.sql`insert into auth_sessions (user_id, expires_at) values (${admin.userId}, now() + interval '1 day') returning id`;
    const expired = await createTokenSigner(t.config.secrets.jwtSecret, -60).sign({ userId: admin.userId, email: admin.email, role: 'admin', sessionId: row!['id'] });
    const res = await t.app.inject({ method: 'GET', url: '/dashboard', headers: { ...HTML, cookie: `story_admin=${expired.token}` } });
    expect(res.headers.location).toContain('reason=ended');
    const acting = await createTokenSigner(t.config.secrets.jwtSecret).sign({ userId: admin.userId, email: admin.email, role: 'admin', sessionId: row!['id'], actorId: support.userId });
    expect((await t.app.inject({ method: 'GET', url: '/dashboard', headers: { ...HTML, cookie: `story_admin=${acting.token}` } })).headers.location).toContain('reason=ended');
    // A forged token (signed with another secret) likewise; and the JSON answer for other clients is 401.
    const forged = await createTokenSigner('another-secret-that-is-long-enough-0123456789').sign({ userId: admin.userId, email: admin.email, role: 'admin', sessionId: row!['id'] });
    expect((await t.app.inject({ method: 'GET', url: '/dashboard', headers: { ...HTML, cookie: `story_admin=${forged.token}` } })).headers.location).toContain('reason=ended');
    expect((await t.app.inject({ method: 'GET', url: '/dashboard/users', headers: { cookie: `story_admin=${expired.token}` } })).statusCode).toBe(401);
  });

  it('is not accepted as a Bearer token replacement by the JSON admin API (cookies are ignored there)', async () => {
    const browser = await signIn(t, admin);
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie: browser.cookie } });
    expect(res.statusCode).toBe(401);
  });
});

describe('CSRF on every form', () => {
  it('refuses posts without the token, with a forged one, or with another session’s token, and changes nothing', async () => {
    const a = await signIn(t, admin);
    const b = await signIn(t, admin);
    const flag = { key: 'csrf_probe', description: '', enabled: 'on', rolloutPercentage: '50', overrides: '', variants: '' };
    for (const token of [null, 'forged-token', b.csrf]) {
      const res = await a.post('/dashboard/feature-flags', flag, token);
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('did not come from this site');
    }
    expect(await t.database.sql`select 1 from feature_flags where key = 'csrf_probe'`).toHaveLength(0);
    // The same form with its own token goes through.
    expect((await a.post('/dashboard/feature-flags', flag)).statusCode).toBe(303);
    expect(await t.database.sql`select 1 from feature_flags where key = 'csrf_probe'`).toHaveLength(1);
  });

  it('refuses a post of a signed-out browser before reading it (401 page)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/dashboard/feature-flags', headers: { ...HTML, 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ key: 'x', enabled: 'on', rolloutPercentage: '1' }) });
    expect(res.statusCode).toBe(401);
    expect(await t.database.sql`select 1 from feature_flags where key = 'x'`).toHaveLength(0);
  });

  it('answers a non-browser client in JSON (403 CSRF_TOKEN_INVALID)', async () => {
    const a = await signIn(t, admin);
    const res = await t.app.inject({ method: 'POST', url: '/dashboard/system/clear-cache', headers: { cookie: a.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'CSRF_TOKEN_INVALID' });
  });
});

describe('production cookies', () => {
  it('are Secure with the __Host- prefix', async () => {
    const prod = await buildTestApp({ NODE_ENV: 'production', JWT_SECRET: t.config.secrets.jwtSecret, UPLOAD_TICKET_SECRET: 'prod-upload-ticket-secret-0123456789abcdef', PUBLIC_BASE_URL: 'https://api.example.test', PUBLIC_API_URL: 'https://api.example.test', APP_URL: 'https://app.example.test', BILLING_OFFLINE_ACKNOWLEDGED: 'true' }).catch((err: unknown) => err as Error);
    if (prod instanceof Error) throw prod;
    try {
      const page = await prod.app.inject({ method: 'GET', url: '/dashboard/sign-in', headers: HTML });
      const nonce = setCookies(page.headers).find((c) => c.startsWith('__Host-story_admin_signin='))!;
      expect(nonce).toMatch(/Secure/);
      expect(nonce).toMatch(/HttpOnly/i);
      expect(nonce).toMatch(/SameSite=Strict/i);
      expect(nonce).toMatch(/Path=\//);
    } finally {
      await prod.close();
    }
  });
});
