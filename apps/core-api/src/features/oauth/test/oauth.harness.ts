// Test harness of social sign-in: core-api on a fresh database, pointed (OAUTH_*_ISSUER, _BASE_URL) at
// three local fake authorization servers, its log lines captured.
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { createTestDatabase, testEnv, type TestDatabase } from '@story/testing';
import type { App } from '@story/http';
import { buildApp } from '../../../app';
import { loadConfig } from '../../../config';
import { appleSigningKey, startFakeProvider, type Consent, type FakeProvider, type IdTokenOverrides } from './oauth.fake-provider';

export const APP_URL = 'https://app.example.test';
export const PUBLIC_API_URL = 'https://api.example.test';
export const APPLE = { clientId: 'test.stories.web', teamId: 'TEAM123456', keyId: 'KEY7890ABC' };

export const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

export interface Harness {
  app: App;
  database: TestDatabase;
  google: FakeProvider;
  facebook: FakeProvider;
  apple: FakeProvider;
  /** What Facebook's /me answers; tests change it. */
  facebookProfile: { id: string; name?: string; email?: string };
  logs: string[];
  /** Every state, code and token the tests saw: none may appear in a log line. */
  secrets: Set<string>;
  fake(provider: 'google' | 'facebook' | 'apple'): FakeProvider;
  /** This test browser's binding cookie (set by /start, sent with every start and callback); null sends none. */
  browser: { cookie: string | null };
  start(provider: string, query?: string): Promise<{ status: number; location: string; body: string; setCookie: string }>;
  /** The provider's answer: GET with a query, or (Apple) a form POST. */
  callback(provider: string, fields: Record<string, string>, method?: 'GET' | 'POST', cookie?: string | null): Promise<{ status: number; location: string; json: LightMyRequestResponse['json'] }>;
  exchange(code: unknown): Promise<{ status: number; json: LightMyRequestResponse['json'] }>;
  /** start, consent at the fake, callback: the callback's answer and the one-time code (when it redirected to the app). */
  signIn(provider: 'google' | 'facebook' | 'apple', overrides?: IdTokenOverrides, extra?: Record<string, string>): Promise<{ status: number; json: LightMyRequestResponse['json']; code?: string; consent: Consent }>;
  count(table: 'auth_sessions' | 'accounts' | 'auth_identities' | 'oauth_exchange_codes' | 'oauth_states'): Promise<number>;
  close(): Promise<void>;
}

export async function buildOAuthHarness(extraEnv: Record<string, string> = {}): Promise<Harness> {
  const appleKey = await appleSigningKey();
  const facebookProfile: Harness['facebookProfile'] = { id: 'fb-1', name: 'Frank Book', email: 'frank@example.test' };
  const google = await startFakeProvider({ kind: 'oidc', clientId: 'google-client', clientSecret: 'google-secret' });
  const facebook = await startFakeProvider({ kind: 'facebook', clientId: 'fb-client', clientSecret: 'fb-secret', profile: facebookProfile });
  const apple = await startFakeProvider({ kind: 'oidc', clientId: APPLE.clientId, appleSecret: { publicKey: appleKey.publicKey, teamId: APPLE.teamId, keyId: APPLE.keyId } });
  const database = await createTestDatabase();
  const logs: string[] = [];
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
    OAUTH_GOOGLE_ISSUER: google.url,
    OAUTH_FACEBOOK_CLIENT_ID: 'fb-client',
    OAUTH_FACEBOOK_CLIENT_SECRET: 'fb-secret',
    OAUTH_FACEBOOK_BASE_URL: facebook.url,
    OAUTH_APPLE_CLIENT_ID: APPLE.clientId,
    OAUTH_APPLE_TEAM_ID: APPLE.teamId,
    OAUTH_APPLE_KEY_ID: APPLE.keyId,
    OAUTH_APPLE_PRIVATE_KEY: appleKey.pkcs8,
    OAUTH_APPLE_ISSUER: apple.url,
    ...extraEnv,
  });
  const app = await buildApp({ config: loadConfig(env), deps: { database, logStream } });
  await app.ready();
  const secrets = new Set<string>();
  const fakes = { google, facebook, apple };
  const browser: Harness['browser'] = { cookie: null };
  const cookieHeader = (cookie: string | null | undefined): Record<string, string> => (cookie ? { cookie: `story_oauth_browser=${cookie}` } : {});

  const h: Harness = {
    app,
    database,
    google,
    facebook,
    apple,
    facebookProfile,
    logs,
    secrets,
    fake: (p) => fakes[p],
    browser,
    async start(provider, query = '') {
      const res = await app.inject({ method: 'GET', url: `/api/auth/oauth/${provider}/start${query}`, headers: cookieHeader(browser.cookie) });
      const location = String(res.headers.location ?? '');
      if (location) secrets.add(new URL(location).searchParams.get('state') ?? '');
      const setCookie = String(res.headers['set-cookie'] ?? '');
      const value = /^story_oauth_browser=([^;]+)/.exec(setCookie)?.[1];
      if (value) {
        browser.cookie = value;
        secrets.add(value);
      }
      return { status: res.statusCode, location, body: res.body, setCookie };
    },
    async callback(provider, fields, method = 'GET', cookie = browser.cookie) {
      const query = new URLSearchParams(fields).toString();
      const res =
        method === 'GET'
          ? await app.inject({ method: 'GET', url: `/api/auth/oauth/${provider}/callback?${query}`, headers: cookieHeader(cookie) })
          : await app.inject({
              method: 'POST',
              url: `/api/auth/oauth/${provider}/callback`,
              headers: { 'content-type': 'application/x-www-form-urlencoded', ...cookieHeader(cookie) },
              payload: query,
            });
      const location = String(res.headers.location ?? '');
      const code = location ? new URL(location).searchParams.get('code') : null;
      if (code) secrets.add(code);
      return { status: res.statusCode, location, json: () => res.json() };
    },
    async exchange(code) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/oauth/exchange', payload: { code } });
      if (res.statusCode === 200) {
        const body = res.json();
        secrets.add(body.session.access_token);
        secrets.add(body.session.refresh_token);
      }
      return { status: res.statusCode, json: () => res.json() };
    },
    async signIn(provider, overrides = {}, extra = {}) {
      const started = await h.start(provider);
      if (started.status !== 302) throw new Error(`start answered ${started.status} ${started.body}`);
      const consent = fakes[provider].consent(started.location, overrides);
      secrets.add(consent.code);
      const res = await h.callback(provider, { code: consent.code, state: consent.state, ...extra }, provider === 'apple' ? 'POST' : 'GET');
      const code = res.location ? (new URL(res.location).searchParams.get('code') ?? undefined) : undefined;
      return { status: res.status, json: res.json, code, consent };
    },
    async count(table) {
      const [row] = await database.sql`select count(*)::int as n from ${database.sql(table)}`;
      return Number(row?.['n']);
    },
    async close() {
      await app.close();
      await database.drop();
      await Promise.all([google.close(), facebook.close(), apple.close()]);
    },
  };
  return h;
}
