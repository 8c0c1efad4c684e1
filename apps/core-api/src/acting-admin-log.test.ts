// Impersonation (spec 001 Authentication 5, CONTRACTS §7) in core-api: a request made with an impersonation
// token (act claim) names the acting admin in the request log; ordinary tokens do not carry the field.
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
  app = await buildApp({ config: loadConfig(testEnv({ LOG_LEVEL: 'info' })), deps: { database, logStream: logs.stream } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

it('writes actingAdminId on the request lines of an impersonation token, and only on those', async () => {
  const [a] = await database.sql`insert into accounts (email) values ('imp.target@example.test') returning id`;
  const userId = a!['id'] as string;
  const [s] = await database.sql`insert into auth_sessions (user_id, expires_at) values (${userId}, now() + interval '15 minutes') returning id`;
  const signer = createTokenSigner(loadConfig(testEnv()).secrets.jwtSecret);
  const adminId = '5f0e9d8c-7b6a-4f5e-8d4c-3b2a1f0e9d8c';
  const acting = await signer.sign({ userId, email: 'imp.target@example.test', role: 'user', sessionId: s!['id'] as string, actorId: adminId, ttlSeconds: 900 });
  const own = await signer.sign({ userId, email: 'imp.target@example.test', role: 'user', sessionId: s!['id'] as string });

  const res = await app.inject({ url: '/api/flags', headers: { authorization: `Bearer ${acting.token}` } });
  expect(res.statusCode).toBe(200);
  const plain = await app.inject({ url: '/api/campaigns', headers: { authorization: `Bearer ${own.token}` } });
  expect(plain.statusCode).toBe(200);
  const done = logs.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');
  expect(done.find((l) => l.reqId === res.headers['x-request-id'])).toMatchObject({ actingAdminId: adminId });
  expect(done.find((l) => l.reqId === plain.headers['x-request-id'])).not.toHaveProperty('actingAdminId');
  expect(logs.text()).not.toContain(acting.token);
});
