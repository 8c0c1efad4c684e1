// Impersonation (CONTRACTS §7) in tools-api: a request made with an impersonation token (act claim) names the
// acting admin in the request log; the shared flag cache is wired and cleared by a NOTIFY from elsewhere.
import { createTokenSigner } from '@story/auth';
import { createTestDatabase, logCapture, testEnv, type TestDatabase } from '@story/testing';
import type { App } from '@story/http';
import { buildApp } from './app';
import { loadConfig } from './config';

let database: TestDatabase;
let app: App;
const logs = logCapture();
beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig(testEnv({ LOG_LEVEL: 'info' }));
  app = await buildApp({ config, deps: { database, logStream: logs.stream } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

async function tokenFor(actorId?: string) {
  const [a] = await database.sql`insert into accounts (email) values (${`u${Math.random()}@example.test`}) returning id, email`;
  const [s] = await database.sql`insert into auth_sessions (user_id, expires_at) values (${a!['id']}, now() + interval '15 minutes') returning id`;
  const signer = createTokenSigner(loadConfig(testEnv()).secrets.jwtSecret);
  const { token } = await signer.sign({ userId: a!['id'] as string, email: a!['email'] as string, role: 'user', sessionId: s!['id'] as string, ...(actorId ? { actorId, ttlSeconds: 900 } : {}) });
  return token;
}

it('writes actingAdminId on the request lines of an impersonation token, and only on those', async () => {
  const adminId = '5f0e9d8c-7b6a-4f5e-8d4c-3b2a1f0e9d8c';
  const res = await app.inject({ url: '/api/auth/session', headers: { authorization: `Bearer ${await tokenFor(adminId)}` } });
  expect(res.statusCode).toBe(200);
  const plain = await app.inject({ url: '/api/auth/session', headers: { authorization: `Bearer ${await tokenFor()}` } });
  expect(plain.statusCode).toBe(200);
  const done = logs.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');
  expect(done.find((l) => l.reqId === res.headers['x-request-id'])).toMatchObject({ actingAdminId: adminId });
  expect(done.find((l) => l.reqId === plain.headers['x-request-id'])).not.toHaveProperty('actingAdminId');
});

it('has the shared flag cache, cleared by a NOTIFY from another client', async () => {
  await database.sql`insert into feature_flags (key, enabled) values ('tools_beta', false)`;
  const user = '00000000-0000-4000-8000-000000000001';
  expect(await app.flags.evaluate('tools_beta', user)).toBe(false);
  await database.sql.begin(async (tx) => {
    await tx`update feature_flags set enabled = true where key = 'tools_beta'`;
    await tx`select pg_notify('story_cache_clear', 'all')`;
  });
  const started = Date.now();
  while ((await app.flags.evaluate('tools_beta', user)) !== true && Date.now() - started < 1000) await new Promise((r) => setTimeout(r, 10));
  expect(await app.flags.evaluate('tools_beta', user)).toBe(true);
});
