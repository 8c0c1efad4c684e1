// Spec 000 Authentication 10 and CONTRACTS §1 (proxies) in email-service: the request log holds no
// unsubscribe token, and X-Forwarded-For is believed only with TRUST_PROXY (the per-IP limit counts the
// socket otherwise).
import { Writable } from 'node:stream';
import { createUnsubscribeTokens } from '@story/email';
import { createTestDatabase, logCapture, testEnv, type TestDatabase } from '@story/testing';
import type { App } from '@story/http';
import { buildApp } from './app';
import { loadConfig } from './config';

let database: TestDatabase;
const apps: App[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await database.drop();
});

async function start(env: Record<string, string>, logStream?: Writable) {
  const config = loadConfig(testEnv(env));
  const app = await buildApp({ config, deps: { database, logStream } });
  await app.ready();
  apps.push(app);
  return { app, config };
}

it('logs unsubscribe requests with the path readable and the token redacted', async () => {
  const logs = logCapture();
  const { app, config } = await start({ LOG_LEVEL: 'info' }, logs.stream);
  const [account] = await database.sql`insert into accounts (email) values ('reader@example.test') returning id`;
  const token = createUnsubscribeTokens(config.secrets.jwtSecret).sign({ userId: account!['id'], email: 'reader@example.test', category: 'marketing', version: 0 });
  const page = await app.inject({ url: `/api/email/unsubscribe?token=${encodeURIComponent(token)}` });
  expect(page.statusCode).toBe(200);
  await app.inject({
    method: 'POST',
    url: `/api/email/unsubscribe?token=${encodeURIComponent(token)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'List-Unsubscribe=One-Click',
  });

  const text = logs.text();
  expect(text).toContain('"url":"/api/email/unsubscribe?token=[redacted]"');
  expect(text).toContain('"method":"POST"');
  for (const part of [token, encodeURIComponent(token), ...token.split('.')]) expect(text).not.toContain(part);
});

describe('TRUST_PROXY', () => {
  /** Statuses of 61 anonymous requests from one socket, each claiming another client address. */
  async function spoofed(app: App) {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await app.inject({ url: '/api/email/unsubscribe', remoteAddress: '127.0.0.9', headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } });
      statuses.push(res.statusCode);
    }
    return statuses;
  }

  it('counts the per-IP limit by the socket address when TRUST_PROXY is unset', async () => {
    const { app } = await start({ RATE_LIMIT_SCALE: '1' });
    const statuses = await spoofed(app);
    expect(statuses.slice(0, 60).every((s) => s === 400)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('counts each forwarded client separately behind a trusted proxy', async () => {
    const { app } = await start({ RATE_LIMIT_SCALE: '1', TRUST_PROXY: '1' });
    expect((await spoofed(app)).every((s) => s === 400)).toBe(true);
  });
});
