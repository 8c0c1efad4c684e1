// Social sign-in against a real OpenID Provider: panva's oidc-provider on its default settings (it sends
// RFC 9207's `iss` with every authorization response and advertises authorization_response_iss_parameter_supported;
// its ID tokens carry only the claims asked for in the `claims` parameter, so the email comes from UserInfo),
// beside the project's own fakes (Apple here, with the iss parameter advertised and posted back).
// The callback passes `iss` to openid-client: the right issuer signs in, a foreign or missing one is refused
// and changes nothing. The failure log line names the reason without the expected nonce or state.
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { decodeJwt } from 'jose';
import { createTestDatabase, testEnv, type TestDatabase } from '@story/testing';
import type { App } from '@story/http';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { appleSigningKey, startFakeProvider, type FakeProvider } from './test/oauth.fake-provider';
import { startOidcProvider, type OidcProviderServer } from './test/oidc-provider';

const APP_URL = 'https://app.example.test';
const PUBLIC_API_URL = 'https://api.example.test';
const GOOGLE_REDIRECT = `${PUBLIC_API_URL}/api/auth/oauth/google/callback`;
const APPLE = { clientId: 'test.stories.web', teamId: 'TEAM123456', keyId: 'KEY7890ABC' };

let op: OidcProviderServer;
let apple: FakeProvider;
let database: TestDatabase;
let app: App;
const logs: string[] = [];
let cookie = '';

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [{ client_id: 'google-client', client_secret: 'google-secret', redirect_uris: [GOOGLE_REDIRECT] }],
    accounts: {
      'op-ada': { email: 'Ada@Example.TEST', email_verified: true, name: 'Ada Lovelace' },
      'op-bob': { email: 'bob@example.test', email_verified: false },
    },
  });
  const appleKey = await appleSigningKey();
  apple = await startFakeProvider({ kind: 'oidc', clientId: APPLE.clientId, appleSecret: { publicKey: appleKey.publicKey, teamId: APPLE.teamId, keyId: APPLE.keyId }, issParameter: true });
  database = await createTestDatabase();
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const env = testEnv({
    LOG_LEVEL: 'info',
    APP_URL,
    PUBLIC_API_URL,
    OAUTH_GOOGLE_CLIENT_ID: 'google-client',
    OAUTH_GOOGLE_CLIENT_SECRET: 'google-secret',
    OAUTH_GOOGLE_ISSUER: op.issuer,
    OAUTH_APPLE_CLIENT_ID: APPLE.clientId,
    OAUTH_APPLE_TEAM_ID: APPLE.teamId,
    OAUTH_APPLE_KEY_ID: APPLE.keyId,
    OAUTH_APPLE_PRIVATE_KEY: appleKey.pkcs8,
    OAUTH_APPLE_ISSUER: apple.url,
  });
  app = await buildApp({ config: loadConfig(env), deps: { database, logStream } });
  await app.ready();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await database?.drop();
  await Promise.all([op?.close(), apple?.close()]);
});

async function start(provider: 'google' | 'apple'): Promise<URL> {
  const res = await app.inject({ method: 'GET', url: `/api/auth/oauth/${provider}/start`, headers: cookie ? { cookie: `story_oauth_browser=${cookie}` } : {} });
  expect(res.statusCode).toBe(302);
  cookie = /^story_oauth_browser=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1] ?? cookie;
  return new URL(String(res.headers.location));
}

async function callback(provider: 'google' | 'apple', fields: Record<string, string>) {
  const headers = { cookie: `story_oauth_browser=${cookie}` };
  const body = new URLSearchParams(fields).toString();
  const res =
    provider === 'apple'
      ? await app.inject({ method: 'POST', url: `/api/auth/oauth/apple/callback`, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: body })
      : await app.inject({ method: 'GET', url: `/api/auth/oauth/google/callback?${body}`, headers });
  return res;
}

async function exchange(location: string) {
  const code = new URL(location).searchParams.get('code');
  const res = await app.inject({ method: 'POST', url: '/api/auth/oauth/exchange', payload: { code } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const count = async (table: 'accounts' | 'auth_sessions' | 'auth_identities') => Number((await database.sql`select count(*)::int as n from ${database.sql(table)}`)[0]!['n']);

describe('Google against oidc-provider (default settings)', () => {
  it('advertises the iss parameter and sends it back with the code', async () => {
    const discovery = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery.authorization_response_iss_parameter_supported).toBe(true);
    const params = await op.authorize((await start('google')).href, 'op-ada', GOOGLE_REDIRECT);
    expect(params).toEqual({ code: expect.any(String), state: expect.any(String), iss: op.issuer });
  });

  it('keeps the email out of its ID token (scope claims go to UserInfo when an access token is issued)', async () => {
    const params = await op.authorize((await start('google')).href, 'op-ada', GOOGLE_REDIRECT);
    const stateHash = createHash('sha256').update(params['state']!).digest('hex');
    const [row] = await database.sql`select code_verifier from oauth_states where state_hash = ${stateHash}`;
    const token = await fetch(`${op.issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('google-client:google-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: params['code']!, redirect_uri: GOOGLE_REDIRECT, code_verifier: String(row!['code_verifier']) }).toString(),
    });
    expect(token.status).toBe(200);
    const claims = decodeJwt(((await token.json()) as { id_token: string }).id_token);
    expect(claims).toMatchObject({ sub: 'op-ada', iss: op.issuer });
    expect(claims).not.toHaveProperty('email');
  });

  it('signs in with the iss passed on; the email comes from UserInfo (not in the ID token) with its verification', async () => {
    const params = await op.authorize((await start('google')).href, 'op-ada', GOOGLE_REDIRECT);
    const res = await callback('google', params);
    expect(res.statusCode).toBe(302);
    expect(String(res.headers.location)).toMatch(new RegExp(`^${APP_URL}/auth/callback\\?code=`));
    const body = await exchange(String(res.headers.location));
    expect(body.user).toMatchObject({ email: 'ada@example.test', email_verified: true });
    const [identity] = await database.sql`select provider, subject, email, email_verified from auth_identities where user_id = ${body.user.id}`;
    expect(identity).toEqual({ provider: 'google', subject: 'op-ada', email: 'ada@example.test', email_verified: true });
    // The same identity signs into the same account again.
    const again = await callback('google', await op.authorize((await start('google')).href, 'op-ada', GOOGLE_REDIRECT));
    expect((await exchange(String(again.headers.location))).user.id).toBe(body.user.id);
  });

  it('carries an unverified UserInfo email as unverified', async () => {
    const res = await callback('google', await op.authorize((await start('google')).href, 'op-bob', GOOGLE_REDIRECT));
    expect(res.statusCode).toBe(302);
    expect((await exchange(String(res.headers.location))).user).toMatchObject({ email: 'bob@example.test', email_verified: false });
  });

  it.each([
    ['a foreign iss', (p: Record<string, string>) => ({ ...p, iss: 'https://accounts.evil.example' })],
    ['no iss', ({ iss: _dropped, ...p }: Record<string, string>) => p],
  ])('refuses %s with 401 and changes nothing', async (_name, alter) => {
    const params = await op.authorize((await start('google')).href, 'op-ada', GOOGLE_REDIRECT);
    const before = await Promise.all([count('accounts'), count('auth_sessions'), count('auth_identities')]);
    const res = await callback('google', alter(params));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Unauthorized', details: expect.stringMatching(/could not be verified/) });
    expect(await Promise.all([count('accounts'), count('auth_sessions'), count('auth_identities')])).toEqual(before);
    // The state was spent: the right answer cannot be replayed after the refused one.
    expect((await callback('google', params)).statusCode).toBe(400);
  });
});

describe('Apple (fake provider advertising the iss parameter, form_post)', () => {
  it('signs in when the posted iss is the issuer, refuses a foreign or missing one', async () => {
    const ok = apple.consent((await start('apple')).href, { sub: 'apple-1', email: 'apple.person@example.test' });
    const res = await callback('apple', { code: ok.code, state: ok.state, iss: ok.iss });
    expect(res.statusCode).toBe(302);
    expect((await exchange(String(res.headers.location))).user.email).toBe('apple.person@example.test');
    for (const iss of ['https://appleid.evil.example', undefined]) {
      const c = apple.consent((await start('apple')).href, { sub: 'apple-2', email: 'apple.two@example.test' });
      const refused = await callback('apple', { code: c.code, state: c.state, ...(iss ? { iss } : {}) });
      expect(refused.statusCode).toBe(401);
    }
    expect(await database.sql`select 1 from accounts where email = 'apple.two@example.test'`).toHaveLength(0);
  });

  it('logs why a sign-in was refused without the nonce or state it expected', async () => {
    const url = await start('apple');
    const nonce = url.searchParams.get('nonce')!;
    const c = apple.consent(url.href, { sub: 'apple-3', nonce: 'a-different-nonce-than-the-one-sent-0123456789' });
    expect((await callback('apple', { code: c.code, state: c.state, iss: c.iss })).statusCode).toBe(401);
    const refusals = logs.filter((l) => l.includes('social sign-in refused'));
    expect(refusals.some((l) => /nonce mismatch/.test(l))).toBe(true);
    expect(logs.filter((l) => l.includes(nonce) || l.includes(c.state))).toEqual([]);
    expect(logs.filter((l) => l.includes('a-different-nonce-than-the-one-sent'))).toEqual([]);
  });
});
