// Social sign-in refuses bad input (CONTRACTS §10): a replayed state, a wrong nonce, an expired or
// foreign-audience ID token, a bad signature, a callback without state or with another start's state,
// an exchange code used twice, an unknown or unconfigured provider: a clear 4xx, no session, no code, and
// no state, code or token in a log line.
import { testEnv } from '@story/testing';
import { loadConfig } from '../../config';
import { buildOAuthHarness, type Harness } from './test/oauth.harness';
import type { IdTokenOverrides } from './test/oauth.fake-provider';

let h: Harness;
beforeAll(async () => {
  h = await buildOAuthHarness();
});
afterAll(async () => h.close());

type Counts = Record<'sessions' | 'codes' | 'accounts' | 'identities', number>;
const counts = async (): Promise<Counts> => ({
  sessions: await h.count('auth_sessions'),
  codes: await h.count('oauth_exchange_codes'),
  accounts: await h.count('accounts'),
  identities: await h.count('auth_identities'),
});

const now = () => Math.floor(Date.now() / 1000);

describe('the ID token is checked by the library against the provider keys', () => {
  it.each<[string, 'google' | 'apple', IdTokenOverrides]>([
    ['a wrong nonce', 'google', { nonce: 'not-the-nonce-of-this-sign-in' }],
    ['an expired ID token', 'google', { iat: now() - 7200, exp: now() - 3600 }],
    ['a foreign-audience ID token', 'google', { aud: 'someone-elses-client' }],
    ['a bad signature (a key the JWKS does not publish)', 'google', { foreignKey: true }],
    ['another issuer', 'google', { iss: 'https://evil.example' }],
    ['a wrong nonce (Apple, form_post)', 'apple', { nonce: 'not-the-nonce-of-this-sign-in' }],
    ['an expired ID token (Apple)', 'apple', { iat: now() - 7200, exp: now() - 3600 }],
    ['a bad signature (Apple)', 'apple', { foreignKey: true }],
  ])('%s: 401 with a sentence; no account, identity, code or session; the state is spent', async (_name, provider, overrides) => {
    const before = await counts();
    const res = await h.signIn(provider, { sub: `refused-${provider}`, email: `refused.${provider}@example.test`, ...overrides });
    expect(res.status).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized', details: expect.stringMatching(/could not be verified/) });
    expect(res.code).toBeUndefined();
    expect(await counts()).toEqual(before);
    const replay = await h.callback(provider, { code: res.consent.code, state: res.consent.state }, provider === 'apple' ? 'POST' : 'GET');
    expect(replay.status).toBe(400);
  });

  it('the reason is logged for the operator, with the provider, and never the token', async () => {
    const refusals = h.logs.filter((l) => l.includes('social sign-in refused')).map((l) => JSON.parse(l) as { provider: string; reason: string });
    expect(refusals.length).toBeGreaterThanOrEqual(8);
    expect(refusals.map((r) => r.reason).join('\n')).toMatch(/nonce mismatch/);
    expect(refusals.map((r) => r.reason).join('\n')).toMatch(/expired/);
    expect(refusals.map((r) => r.reason).join('\n')).toMatch(/aud mismatch/);
  });
});

describe('the state', () => {
  it('a replayed state (the whole callback again after a good sign-in): 400; no second code or session', async () => {
    const first = await h.signIn('google', { sub: 'g-replay', email: 'replay@example.test' });
    expect(first.status).toBe(302);
    const before = await counts();
    const replay = await h.callback('google', { code: first.consent.code, state: first.consent.state });
    expect(replay.status).toBe(400);
    expect(replay.json()).toEqual({ error: expect.any(String), details: expect.stringMatching(/already used/) });
    expect(replay.location).toBe('');
    expect(await counts()).toEqual(before);
  });

  it('a callback without state: 400 naming it; the code is not exchanged', async () => {
    const started = await h.start('google');
    const consent = h.google.consent(started.location);
    const tokenCalls = h.google.tokenRequests.length;
    const before = await counts();
    for (const method of ['GET', 'POST'] as const) {
      const res = await h.callback('google', { code: consent.code }, method);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ details: expect.stringMatching(/no state/) });
    }
    expect(h.google.tokenRequests.length).toBe(tokenCalls);
    expect(await counts()).toEqual(before);
  });

  it("another start's state: with another provider's state 400; with the state of another Google start, PKCE and nonce fail (401)", async () => {
    const before = await counts();
    const mine = await h.start('google');
    const consent = h.google.consent(mine.location);
    const appleStart = new URL((await h.start('apple')).location).searchParams.get('state')!;
    const crossProvider = await h.callback('google', { code: consent.code, state: appleStart });
    expect(crossProvider.status).toBe(400);
    expect(crossProvider.json()).toMatchObject({ details: expect.stringMatching(/does not belong/) });

    const other = new URL((await h.start('google')).location).searchParams.get('state')!;
    const swapped = await h.callback('google', { code: consent.code, state: other });
    expect(swapped.status).toBe(401);
    expect(h.google.tokenRequests.length).toBeGreaterThan(0);
    expect(await counts()).toEqual(before);
  });

  it('a state started in another browser (no binding cookie, or another one): 400; the code is not exchanged (login CSRF)', async () => {
    const before = await counts();
    const tokenCalls = h.google.tokenRequests.length;
    for (const cookie of [null, 'B'.repeat(43)]) {
      const started = await h.start('google');
      const consent = h.google.consent(started.location);
      const res = await h.callback('google', { code: consent.code, state: consent.state }, 'GET', cookie);
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ details: expect.stringMatching(/not started in this browser/) });
      // The state is spent all the same: the right browser cannot reuse it afterwards either.
      expect((await h.callback('google', { code: consent.code, state: consent.state })).status).toBe(400);
    }
    const apple = await h.start('apple');
    const consent = h.apple.consent(apple.location);
    expect((await h.callback('apple', { code: consent.code, state: consent.state }, 'POST', null)).status).toBe(400);
    expect(h.google.tokenRequests.length).toBe(tokenCalls);
    expect(await counts()).toEqual(before);
  });

  it('an unknown state, an expired state: 400', async () => {
    const unknown = await h.callback('google', { code: 'x', state: 'never-issued-state' });
    expect(unknown.status).toBe(400);
    const started = await h.start('facebook');
    const consent = h.facebook.consent(started.location);
    await h.database.sql`update oauth_states set expires_at = now() - interval '1 second' where provider = 'facebook'`;
    const expired = await h.callback('facebook', { code: consent.code, state: consent.state });
    expect(expired.status).toBe(400);
    expect(expired.json()).toMatchObject({ details: expect.stringMatching(/took too long/) });
  });

  it('the provider answers with an error (the person declined): 400, state spent', async () => {
    const started = await h.start('google');
    const state = new URL(started.location).searchParams.get('state')!;
    const res = await h.callback('google', { state, error: 'access_denied' });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ details: expect.stringMatching(/did not complete/) });
    expect((await h.callback('google', { state, error: 'access_denied' })).status).toBe(400);
  });
});

describe('POST /api/auth/oauth/exchange', () => {
  it('a code used twice: the second answers 410 and opens no session', async () => {
    const res = await h.signIn('apple', { sub: 'apple-twice', email: 'twice@example.test' });
    expect((await h.exchange(res.code)).status).toBe(200);
    const sessions = await h.count('auth_sessions');
    const again = await h.exchange(res.code);
    expect(again.status).toBe(410);
    expect(again.json()).toMatchObject({ details: expect.stringMatching(/already used or has expired/) });
    expect(await h.count('auth_sessions')).toBe(sessions);
  });

  it('an expired code: 410; an unknown code: 400; a malformed one: 400', async () => {
    const res = await h.signIn('google', { sub: 'g-expired-code', email: 'late@example.test' });
    await h.database.sql`update oauth_exchange_codes set expires_at = now() - interval '1 second' where used_at is null`;
    const sessions = await h.count('auth_sessions');
    expect((await h.exchange(res.code)).status).toBe(410);
    expect((await h.exchange('A'.repeat(43))).status).toBe(400);
    for (const bad of ['short', 123, null, 'x'.repeat(300)]) expect((await h.exchange(bad)).status).toBe(400);
    expect(await h.count('auth_sessions')).toBe(sessions);
  });
});

describe('providers', () => {
  it('an unknown provider: 404 with a sentence, for start and callback alike', async () => {
    const before = await h.count('oauth_states');
    const start = await h.start('myspace');
    expect(start.status).toBe(404);
    expect(JSON.parse(start.body)).toEqual({ error: 'Not found', details: expect.stringMatching(/no sign-in provider called "myspace"/) });
    const cb = await h.callback('myspace', { code: 'c', state: 's' });
    expect(cb.status).toBe(404);
    expect(await h.count('oauth_states')).toBe(before);
  });

  it('an unconfigured provider: 404 with a sentence; /health lists none', async () => {
    const bare = await buildOAuthHarness({ OAUTH_GOOGLE_CLIENT_ID: '', OAUTH_FACEBOOK_CLIENT_SECRET: '', OAUTH_APPLE_PRIVATE_KEY: '' });
    try {
      for (const provider of ['google', 'facebook', 'apple']) {
        const res = await bare.start(provider);
        expect(res.status).toBe(404);
        expect(JSON.parse(res.body)).toEqual({ error: 'Not found', details: expect.stringMatching(/is not configured on this server/) });
      }
      const health = await bare.app.inject({ method: 'GET', url: '/health' });
      expect(health.json().checks.oauth).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  it('config: the defaults are the providers’ own issuers, and the redirect base is PUBLIC_API_URL', () => {
    const config = loadConfig(testEnv({ OAUTH_GOOGLE_CLIENT_ID: 'g', OAUTH_GOOGLE_CLIENT_SECRET: 's', OAUTH_FACEBOOK_CLIENT_ID: 'f', OAUTH_FACEBOOK_CLIENT_SECRET: 's', PUBLIC_API_URL: 'https://api.example.test/' }));
    expect(config.oauth).toEqual({
      publicApiUrl: 'https://api.example.test',
      google: { kind: 'oidc', clientId: 'g', clientSecret: 's', issuer: 'https://accounts.google.com' },
      facebook: { kind: 'oauth2', clientId: 'f', clientSecret: 's', baseUrl: 'https://graph.facebook.com' },
    });
    expect(() => loadConfig(testEnv({ OAUTH_GOOGLE_ISSUER: 'not a url' }))).toThrow(/OAUTH_GOOGLE_ISSUER/);
  });
});

it('no log line holds a state, code or token', () => {
  expect(h.secrets.size).toBeGreaterThan(10);
  const text = h.logs.join('\n');
  for (const secret of h.secrets) if (secret) expect(text).not.toContain(secret);
});
