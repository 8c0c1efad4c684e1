// CONTRACTS §10: social sign-in with Google, Facebook and Apple, each provider's real protocol
// (openid-client against a local fake authorization server): start, callback, one-time code exchange,
// and the account rules (same identity, same account; an unverified email never takes over an account).
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { signUp, uniqueEmail } from '../../test/helper';
import { APP_URL, APPLE, buildOAuthHarness, PUBLIC_API_URL, sha256, type Harness } from './test/oauth.harness';

let h: Harness;
beforeAll(async () => {
  h = await buildOAuthHarness();
});
afterAll(async () => h.close());

const accountOf = async (email: string) => {
  const [row] = await h.database.sql`select id, password_hash, email_confirmed_at, role from accounts where email = ${email}`;
  return row;
};
const identitiesOf = (userId: string) => h.database.sql`select provider, subject, email, email_verified from auth_identities where user_id = ${userId} order by provider`;

describe('GET /api/auth/oauth/{provider}/start', () => {
  it('redirects to Google with a fresh state, nonce, PKCE S256, scope openid email and the exact redirect URI; keeps only the state hash', async () => {
    const first = await h.start('google', '?redirect_to=/stories/1');
    const second = await h.start('google');
    expect(first.status).toBe(302);
    const url = new URL(first.location);
    expect(`${url.origin}${url.pathname}`).toBe(`${h.google.url}/authorize`);
    const p = url.searchParams;
    expect(p.get('client_id')).toBe('google-client');
    expect(p.get('response_type')).toBe('code');
    expect(p.get('redirect_uri')).toBe(`${PUBLIC_API_URL}/api/auth/oauth/google/callback`);
    expect(p.get('scope')!.split(' ')).toEqual(expect.arrayContaining(['openid', 'email']));
    expect(p.get('code_challenge_method')).toBe('S256');
    expect(p.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = new URL(second.location).searchParams;
    expect(again.get('state')).not.toBe(p.get('state'));
    expect(again.get('nonce')).not.toBe(p.get('nonce'));
    expect(again.get('code_challenge')).not.toBe(p.get('code_challenge'));

    // The browser binding: an HttpOnly cookie for the callback path, sent cross-site (Apple's POST) only over https.
    expect(first.setCookie).toMatch(/^story_oauth_browser=[A-Za-z0-9_-]{43}; Path=\/api\/auth\/oauth; Max-Age=600; HttpOnly; Secure; SameSite=None$/);
    expect(second.setCookie.split(';')[0]).toBe(first.setCookie.split(';')[0]);
    const [bound] = await h.database.sql`select browser_hash from oauth_states where state_hash = ${sha256(p.get('state')!)}`;
    expect(bound).toEqual({ browser_hash: sha256(h.browser.cookie!) });

    const [row] = await h.database.sql`select provider, nonce, redirect_to, extract(epoch from expires_at - created_at)::int as ttl from oauth_states where state_hash = ${sha256(p.get('state')!)}`;
    expect(row).toEqual({ provider: 'google', nonce: p.get('nonce'), redirect_to: '/stories/1', ttl: 600 });
    const [plain] = await h.database.sql`select count(*)::int as n from oauth_states where state_hash = ${p.get('state')!}`;
    expect(plain!['n']).toBe(0);
  });

  it('asks Apple to post back (form_post) and Facebook for email without a nonce', async () => {
    const apple = new URL((await h.start('apple')).location).searchParams;
    expect(apple.get('response_mode')).toBe('form_post');
    expect(apple.get('scope')!.split(' ')).toEqual(expect.arrayContaining(['openid', 'email']));
    expect(apple.get('redirect_uri')).toBe(`${PUBLIC_API_URL}/api/auth/oauth/apple/callback`);
    const fb = await h.start('facebook');
    expect(fb.status).toBe(302);
    const fbUrl = new URL(fb.location);
    expect(`${fbUrl.origin}${fbUrl.pathname}`).toBe(`${h.facebook.url}/dialog/oauth`);
    expect(fbUrl.searchParams.get('scope')!.split(' ')).toContain('email');
    expect(fbUrl.searchParams.get('nonce')).toBeNull();
    expect(fbUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(fbUrl.searchParams.get('redirect_uri')).toBe(`${PUBLIC_API_URL}/api/auth/oauth/facebook/callback`);
  });

  it('refuses a redirect_to that is not an application path (400), storing nothing', async () => {
    const before = await h.count('oauth_states');
    for (const bad of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const res = await h.start('google', `?redirect_to=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ error: expect.any(String) });
    }
    expect(await h.count('oauth_states')).toBe(before);
  });
});

describe('a good sign-in', () => {
  it('Google: creates a verified account without a password, linked by (provider, subject); the code exchanges once for {user, session}', async () => {
    const email = uniqueEmail('gina');
    const started = await h.start('google', '?redirect_to=/home');
    const consent = h.google.consent(started.location, { sub: 'g-100', email, email_verified: true, name: 'Gina Grand' });
    const cb = await h.callback('google', { code: consent.code, state: consent.state });
    expect(cb.status).toBe(302);
    const back = new URL(cb.location);
    expect(`${back.origin}${back.pathname}`).toBe(`${APP_URL}/auth/callback`);
    expect(back.searchParams.get('redirect_to')).toBe('/home');
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cb.location).not.toContain('access_token');

    // The state is spent; the code is stored as a hash only, with 2 minutes to live.
    expect((await h.database.sql`select 1 from oauth_states where state_hash = ${sha256(consent.state)}`).length).toBe(0);
    const [codeRow] = await h.database.sql`select used_at, provider, extract(epoch from expires_at - created_at)::int as ttl from oauth_exchange_codes where code_hash = ${sha256(code)}`;
    expect(codeRow).toEqual({ used_at: null, provider: 'google', ttl: 120 });
    expect((await h.database.sql`select 1 from oauth_exchange_codes where code_hash = ${code}`).length).toBe(0);

    const account = await accountOf(email);
    expect(account).toMatchObject({ password_hash: null, role: 'user', email_confirmed_at: expect.anything() });
    expect(await identitiesOf(account!['id'])).toEqual([{ provider: 'google', subject: 'g-100', email, email_verified: true }]);
    const [profile] = await h.database.sql`select full_name from profiles where id = ${account!['id']}`;
    expect(profile).toEqual({ full_name: 'Gina Grand' });
    // The token request carried the PKCE verifier and the client's secret.
    const tokenRequest = h.google.tokenRequests.at(-1)!;
    expect(tokenRequest['code_verifier']).toMatch(/^[A-Za-z0-9_-]{43,128}$/);

    const sessionsBefore = await h.count('auth_sessions');
    const ex = await h.exchange(code);
    expect(ex.status).toBe(200);
    const body = ex.json();
    expect(body.user).toEqual({ id: account!['id'], email, role: 'user', email_verified: true });
    expect(body.session).toMatchObject({ token_type: 'bearer', expires_in: 86400, access_token: expect.any(String), refresh_token: expect.any(String) });
    expect(decodeJwt(body.session.access_token)).toMatchObject({ sub: account!['id'], email, role: 'user' });
    expect(await h.count('auth_sessions')).toBe(sessionsBefore + 1);
    const [spent] = await h.database.sql`select used_at from oauth_exchange_codes where code_hash = ${sha256(code)}`;
    expect(spent!['used_at']).not.toBeNull();
    // The session is a real one: its refresh token rotates.
    const refreshed = await h.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: body.session.refresh_token } });
    expect(refreshed.statusCode).toBe(200);
    h.secrets.add(refreshed.json().session.access_token);
    h.secrets.add(refreshed.json().session.refresh_token);

    // The same identity signs into the same account next time, even with another email at the provider.
    const accountsBefore = await h.count('accounts');
    const next = await h.signIn('google', { sub: 'g-100', email: uniqueEmail('gina.new'), email_verified: true });
    expect(next.status).toBe(302);
    const again = await h.exchange(next.code);
    expect(again.status).toBe(200);
    expect(again.json().user.id).toBe(account!['id']);
    expect(await h.count('accounts')).toBe(accountsBefore);
  });

  it('Facebook: reads the Graph API profile with the access token; the account is created unverified (Facebook does not attest the address)', async () => {
    const email = uniqueEmail('frank');
    Object.assign(h.facebookProfile, { id: 'fb-200', name: 'Frank Book', email });
    const res = await h.signIn('facebook');
    expect(res.status).toBe(302);
    const tokenRequest = h.facebook.tokenRequests.at(-1)!;
    expect(tokenRequest).toMatchObject({ grant_type: 'authorization_code', client_id: 'fb-client', redirect_uri: `${PUBLIC_API_URL}/api/auth/oauth/facebook/callback` });
    expect(tokenRequest['code_verifier']).toBeDefined();
    const ex = await h.exchange(res.code);
    expect(ex.status).toBe(200);
    const account = await accountOf(email);
    expect(ex.json().user).toEqual({ id: account!['id'], email, role: 'user', email_verified: false });
    expect(account).toMatchObject({ password_hash: null, email_confirmed_at: null });
    expect(await identitiesOf(account!['id'])).toEqual([{ provider: 'facebook', subject: 'fb-200', email, email_verified: false }]);
  });

  it("Apple: the callback arrives as a form POST; the client secret is Apple's ES256 JWT; the name comes from the user field", async () => {
    const email = uniqueEmail('annie');
    const res = await h.signIn('apple', { sub: 'apple-300', email, email_verified: 'true' }, { user: JSON.stringify({ name: { firstName: 'Annie', lastName: 'Apple' } }) });
    expect(res.status).toBe(302);
    const secret = h.apple.tokenRequests.at(-1)!['client_secret']!;
    expect(decodeProtectedHeader(secret)).toMatchObject({ alg: 'ES256', kid: APPLE.keyId });
    const claims = decodeJwt(secret);
    expect(claims).toMatchObject({ iss: APPLE.teamId, sub: APPLE.clientId, aud: h.apple.url });
    expect(claims.exp! - claims.iat!).toBe(300);
    const ex = await h.exchange(res.code);
    expect(ex.status).toBe(200);
    const account = await accountOf(email);
    expect(ex.json().user).toEqual({ id: account!['id'], email, role: 'user', email_verified: true });
    expect(await identitiesOf(account!['id'])).toEqual([{ provider: 'apple', subject: 'apple-300', email, email_verified: true }]);
    const [profile] = await h.database.sql`select full_name from profiles where id = ${account!['id']}`;
    expect(profile).toEqual({ full_name: 'Annie Apple' });
  });
});

describe('linking to an existing account', () => {
  it('links when the provider says the email is verified; a verified account keeps its password', async () => {
    const user = await signUp(h.app);
    await h.database.sql`update accounts set email_confirmed_at = now() where id = ${user.userId}`;
    const res = await h.signIn('google', { sub: 'g-link-1', email: user.email, email_verified: true });
    expect(res.status).toBe(302);
    const ex = await h.exchange(res.code);
    expect(ex.status).toBe(200);
    expect(ex.json().user.id).toBe(user.userId);
    expect(await identitiesOf(user.userId)).toEqual([{ provider: 'google', subject: 'g-link-1', email: user.email, email_verified: true }]);
    expect((await accountOf(user.email))!['password_hash']).not.toBeNull();
    // The password session stays valid.
    expect((await h.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: user.refreshToken } })).statusCode).toBe(200);
  });

  it('an account nobody verified is claimed by the verified identity: its password and its sessions end (no pre-registered takeover)', async () => {
    const squatter = await signUp(h.app);
    const res = await h.signIn('apple', { sub: 'apple-claim', email: squatter.email, email_verified: true });
    expect(res.status).toBe(302);
    const ex = await h.exchange(res.code);
    expect(ex.json().user).toMatchObject({ id: squatter.userId, email_verified: true });
    expect(await accountOf(squatter.email)).toMatchObject({ password_hash: null, email_confirmed_at: expect.anything() });
    const old = await h.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: squatter.refreshToken } });
    expect(old.statusCode).toBe(401);
  });
});

describe('a verified claim ends every earlier way in (CONTRACTS §7)', () => {
  it('unlinks a Facebook identity linked while the account was unverified, ends its session and spends its unexchanged code', async () => {
    // The squatter signs in with a Facebook account carrying the victim's address: an unverified account is made.
    const email = uniqueEmail('victim');
    Object.assign(h.facebookProfile, { id: `fb-squat-${Date.now()}`, name: 'Squatter', email });
    const squat = await h.signIn('facebook');
    const squatSession = (await h.exchange(squat.code)).json().session;
    const pending = await h.signIn('facebook');
    const account = await accountOf(email);
    expect(await identitiesOf(account!['id'])).toHaveLength(1);

    // The owner signs in with Google, which vouches for the address.
    const claim = await h.signIn('google', { sub: `g-owner-${Date.now()}`, email, email_verified: true });
    const owner = await h.exchange(claim.code);
    expect(owner.json().user).toMatchObject({ id: account!['id'], email_verified: true });

    expect((await identitiesOf(account!['id'])).map((i) => i['provider'])).toEqual(['google']);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/identities', headers: bearer(squatSession.access_token) })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: squatSession.refresh_token } })).statusCode).toBe(401);
    expect((await h.exchange(pending.code)).status).toBe(410);
    // Facebook no longer signs in to the account: it is not linked, and Facebook does not vouch for the address.
    expect((await h.signIn('facebook')).status).toBe(409);
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/identities', headers: bearer(owner.json().session.access_token) })).statusCode).toBe(200);
  });
});

describe('an unverified email never takes over an existing account', () => {
  it.each([
    ['google', { email_verified: false }],
    ['apple', { email_verified: 'false' }],
    ['facebook', {}],
  ] as const)('%s: 409 with a sentence; no identity, no code, no session; the account is untouched', async (provider, overrides) => {
    const owner = await signUp(h.app);
    await h.database.sql`update accounts set email_confirmed_at = now() where id = ${owner.userId}`;
    Object.assign(h.facebookProfile, { id: `fb-take-${owner.userId}`, email: owner.email });
    const before = { sessions: await h.count('auth_sessions'), codes: await h.count('oauth_exchange_codes'), identities: await h.count('auth_identities'), accounts: await h.count('accounts') };
    const res = await h.signIn(provider, { sub: `take-${provider}`, email: owner.email, ...overrides });
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ error: expect.any(String), details: expect.stringMatching(/already exists/) });
    expect(res.code).toBeUndefined();
    expect({ sessions: await h.count('auth_sessions'), codes: await h.count('oauth_exchange_codes'), identities: await h.count('auth_identities'), accounts: await h.count('accounts') }).toEqual(before);
    expect(await identitiesOf(owner.userId)).toEqual([]);
    expect((await accountOf(owner.email))!['password_hash']).not.toBeNull();
  });

  it('with no account of that email, an unverified identity gets a new, unverified account', async () => {
    const email = uniqueEmail('nova');
    const res = await h.signIn('google', { sub: 'g-unverified-new', email, email_verified: false });
    expect(res.status).toBe(302);
    const ex = await h.exchange(res.code);
    expect(ex.status).toBe(200);
    expect(ex.json().user).toMatchObject({ email, email_verified: false });
    expect(await accountOf(email)).toMatchObject({ email_confirmed_at: null, password_hash: null });
  });
});

it('/health lists the configured providers', async () => {
  const res = await h.app.inject({ method: 'GET', url: '/health' });
  expect(res.json().checks.oauth).toEqual(['google', 'facebook', 'apple']);
});

it('no log line holds a state, code or token', () => {
  expect(h.secrets.size).toBeGreaterThan(10);
  const text = h.logs.join('\n');
  for (const secret of h.secrets) if (secret) expect(text).not.toContain(secret);
});
