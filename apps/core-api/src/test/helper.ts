// Integration-test harness (CONVENTIONS 11): a fresh cloned database and a fresh app per test file.
import { createTestDatabase, testEnv, type TestDatabase } from '@story/testing';
import type { App } from '@story/http';
import { createProviders, type Providers } from '@story/providers';
import { buildApp } from '../app';
import { loadConfig, type CoreApiConfig } from '../config';

export interface TestContext {
  app: App;
  database: TestDatabase;
  config: CoreApiConfig;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Replace some providers (fake speech, failing storage); the rest are built from config as in production. */
  providers?: (base: Providers) => Partial<Providers>;
}

export async function buildTestApp(env: Record<string, string | undefined> = {}, options: TestAppOptions = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const config = loadConfig(testEnv(env));
  let providers: Providers | undefined;
  if (options.providers) {
    const base = createProviders(config, { db: database.db, publicBaseUrl: 'http://127.0.0.1:3000' });
    providers = { ...base, ...options.providers(base) };
  }
  const app = await buildApp({ config, deps: { database, providers } });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${Date.now().toString(36)}.${++counter}@example.test`;
export const PASSWORD = 'correct horse 9 battery';

export interface SignedUp {
  userId: string;
  email: string;
  accessToken: string;
  refreshToken: string;
  headers: { authorization: string };
}

/** Factory: sign a new account up through the real route. */
export async function signUp(app: App, email = uniqueEmail(), password = PASSWORD): Promise<SignedUp> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email, password, fullName: 'Test Person' } });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return {
    userId: body.user.id,
    email,
    accessToken: body.session.access_token,
    refreshToken: body.session.refresh_token,
    headers: { authorization: `Bearer ${body.session.access_token}` },
  };
}

/** Factory: sign up through the real route, then mark the address verified (as its link would). */
export async function signUpVerified(t: { app: App; database: { sql: import('postgres').Sql } }, email = uniqueEmail(), password = PASSWORD): Promise<SignedUp> {
  const user = await signUp(t.app, email, password);
  await t.database.sql`update accounts set email_confirmed_at = now() where id = ${user.userId}`;
  return user;
}
