// Integration-test harness: a fresh cloned database and a fresh email-service app per test file.
import { createTestDatabase, testEnv, type TestDatabase } from '@story/testing';
import { createTokenSigner } from '@story/auth';
import type { App } from '@story/http';
import { buildApp } from '../app';
import { loadConfig, type EmailServiceConfig } from '../config';

export interface TestContext {
  app: App;
  database: TestDatabase;
  config: EmailServiceConfig;
  close(): Promise<void>;
}

export async function buildTestApp(env: Record<string, string | undefined> = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const config = loadConfig(testEnv(env));
  const app = await buildApp({ config, deps: { database } });
  await app.ready();
  return { app, database, config, close: async () => (await app.close(), await database.drop()) };
}

/**
 * An account with a live session, as core-api would have created it; returns its Bearer header. `verified`:
 * the address is confirmed (the in-app inbox lists mail only then, CONTRACTS §7).
 */
export async function sessionFor(t: TestContext, role: 'user' | 'support' | 'admin' = 'user', options: { verified?: boolean } = {}) {
  const email = `${role}.${Math.random().toString(36).slice(2)}@example.test`;
  const [account] = await t.database
    .sql`insert into accounts (email, role, email_confirmed_at) values (${email}, ${role}, ${options.verified ? t.database.sql`now()` : null}) returning id`;
  const [session] = await t.database.sql`insert into auth_sessions (user_id, expires_at) values (${account!['id']}, now() + interval '1 day') returning id`;
  const { token } = await createTokenSigner(t.config.secrets.jwtSecret).sign({ userId: account!['id'], email, role, sessionId: session!['id'] });
  return { userId: account!['id'] as string, sessionId: session!['id'] as string, email, headers: { authorization: `Bearer ${token}` } };
}
