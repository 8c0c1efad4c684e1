// Spec 002 Authentication 3 and CONTRACTS §1 (proxies) in tools-api: the request log holds no ?sessionId=
// (the ownership credential) while share codes (public by design) stay readable; X-Forwarded-For is believed
// only with TRUST_PROXY.
import { Writable } from 'node:stream';
import { createTestDatabase, logCapture, testEnv, type TestDatabase } from '@story/testing';
import type { App } from '@story/http';
import { buildApp } from './app';
import { loadConfig } from './config';
import { generate, newSessionId, type TestContext } from './test/helper';

let database: TestDatabase;
const apps: App[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await database.drop();
});

async function start(env: Record<string, string>, logStream?: Writable): Promise<TestContext> {
  const config = loadConfig(testEnv(env));
  const app = await buildApp({ config, deps: { database, logStream } });
  await app.ready();
  apps.push(app);
  return { app, database, config, close: async () => undefined };
}

it('logs ?sessionId= requests with the session id redacted and the share code readable', async () => {
  const logs = logCapture();
  const t = await start({ LOG_LEVEL: 'info' }, logs.stream);
  const { sessionId, data } = await generate(t, 'memory-prompts', {});
  const byId = await t.app.inject({ url: `/api/memory-prompts/${data.id}?sessionId=${sessionId}` });
  expect(byId.statusCode).toBe(200);
  await t.app.inject({ url: `/api/memory-prompts/share/${data.shareCode}?sessionId=${sessionId}` });

  const text = logs.text();
  expect(text).toContain(`"url":"/api/memory-prompts/${data.id}?sessionId=[redacted]"`);
  expect(text).toContain(`"url":"/api/memory-prompts/share/${data.shareCode}?sessionId=[redacted]"`);
  expect(text).not.toContain(sessionId);
  expect(text).not.toContain(sessionId.split('_')[2]!);
});

describe('TRUST_PROXY', () => {
  const storedPrefix = async (t: TestContext, headers: Record<string, string>) => {
    const sessionId = newSessionId();
    await generate(t, 'memory-prompts', {}, { sessionId, ip: '127.0.0.1', headers });
    const [row] = await database.sql`select ip_prefix from tools_sessions where id = ${sessionId}`;
    return row!['ip_prefix'] as string;
  };

  it('stores the socket address, not a spoofed X-Forwarded-For, when TRUST_PROXY is unset', async () => {
    const t = await start({});
    expect(await storedPrefix(t, { 'x-forwarded-for': '203.0.113.7' })).toBe('127.0.0.0');
  });

  it('stores the forwarded client address behind a trusted proxy', async () => {
    const t = await start({ TRUST_PROXY: '127.0.0.1/8' });
    expect(await storedPrefix(t, { 'x-forwarded-for': '203.0.113.7' })).toBe('203.0.113.0');
  });
});
