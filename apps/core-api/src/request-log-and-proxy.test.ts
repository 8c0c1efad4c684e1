// Spec 000 Authentication 10 and CONTRACTS §1 (proxies) in core-api: the request log holds no invitation
// token from a URL, and X-Forwarded-For is believed only with TRUST_PROXY.
import { Writable } from 'node:stream';
import { createTestDatabase, logCapture, testEnv, type TestDatabase } from '@story/testing';
import type { App } from '@story/http';
import { buildApp } from './app';
import { loadConfig } from './config';
import { newFamilyGroup, newInvitation } from './test/family-factories';
import { signUp, uniqueEmail } from './test/helper';

let database: TestDatabase;
const apps: App[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await database.drop();
});

async function start(env: Record<string, string>, logStream?: Writable): Promise<App> {
  const app = await buildApp({ config: loadConfig(testEnv(env)), deps: { database, logStream } });
  await app.ready();
  apps.push(app);
  return app;
}

it('logs invitation requests with the route readable and the token redacted', async () => {
  const logs = logCapture();
  const app = await start({ LOG_LEVEL: 'info' }, logs.stream);
  const owner = await signUp(app);
  const invitee = await signUp(app);
  const group = await newFamilyGroup(database.sql, { ownerId: owner.userId });
  const { token } = await newInvitation(database.sql, { groupId: group.id, invitedBy: owner.userId, email: invitee.email });

  expect((await app.inject({ url: `/api/family/invitations/${token}/public` })).statusCode).toBe(200);
  expect((await app.inject({ url: `/api/family/invitations/${token}`, headers: invitee.headers })).statusCode).toBe(200);
  await app.inject({ url: `/api/family/welcome/${token}`, headers: invitee.headers });

  const text = logs.text();
  expect(text).toContain('"url":"/api/family/invitations/[redacted]/public"');
  expect(text).toContain('"url":"/api/family/invitations/[redacted]"');
  expect(text).toContain('"url":"/api/family/welcome/[redacted]"');
  expect(text).not.toContain(token);
  expect(text).not.toContain(owner.accessToken);
  expect(text).not.toContain(invitee.accessToken);
});

describe('TRUST_PROXY', () => {
  const signupFrom = async (app: App, headers: Record<string, string>) => {
    const email = uniqueEmail('proxy');
    const res = await app.inject({ method: 'POST', url: '/api/auth/signup', remoteAddress: '127.0.0.1', headers, payload: { email, password: 'correct horse 9 battery' } });
    expect(res.statusCode).toBe(201);
    const [row] = await database.sql`select s.ip_prefix from auth_sessions s join accounts a on a.id = s.user_id where a.email = ${email}`;
    return row!['ip_prefix'] as string;
  };

  it('stores the socket address, not a spoofed X-Forwarded-For, when TRUST_PROXY is unset', async () => {
    const app = await start({});
    expect(await signupFrom(app, { 'x-forwarded-for': '203.0.113.7' })).toBe('127.0.0.0');
  });

  it('believes X-Forwarded-For from a trusted proxy (hop count or CIDR)', async () => {
    const byHops = await start({ TRUST_PROXY: '1' });
    expect(await signupFrom(byHops, { 'x-forwarded-for': '203.0.113.7' })).toBe('203.0.113.0');
    const byCidr = await start({ TRUST_PROXY: '127.0.0.1/8' });
    expect(await signupFrom(byCidr, { 'x-forwarded-for': '198.51.100.9' })).toBe('198.51.100.0');
    const otherProxy = await start({ TRUST_PROXY: '10.0.0.0/8' });
    expect(await signupFrom(otherProxy, { 'x-forwarded-for': '198.51.100.9' })).toBe('127.0.0.0');
  });

  it('counts the per-IP auth limit by the socket address when TRUST_PROXY is unset', async () => {
    const app = await start({ RATE_LIMIT_SCALE: '1' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        remoteAddress: '127.0.0.5',
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
        payload: { email: uniqueEmail('nobody'), password: 'wrong password 1' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});
