// Visitor sessions: rows upserted per request, 24-hour anonymous expiry, 30 days for signed-in sessions,
// the account known only from a valid Bearer token, expired sessions refused.
import { buildTestApp, generate, newSessionId, sessionFor, type TestContext } from '../test/helper';
import { ipPrefixOf, SESSION_TOUCH_MS } from './caller';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const hoursLeft = (d: unknown) => (new Date(String(d)).getTime() - Date.now()) / 3_600_000;

it('creates an anonymous session for 24 hours with the address prefix and user agent', async () => {
  const { sessionId } = await generate(t, 'memory-prompts', {}, { ip: '10.1.2.3' });
  const [row] = await t.database.sql`select user_id, is_anonymous, ip_prefix, user_agent, expires_at from tools_sessions where id = ${sessionId}`;
  expect(row).toMatchObject({ user_id: null, is_anonymous: true, ip_prefix: '10.1.2.0', user_agent: 'jest' });
  expect(hoursLeft(row!['expires_at'])).toBeGreaterThan(23.9);
  expect(hoursLeft(row!['expires_at'])).toBeLessThanOrEqual(24);
  // Activity does not stretch an anonymous session.
  await t.database.sql`update tools_sessions set expires_at = now() + interval '2 hours' where id = ${sessionId}`;
  await generate(t, 'memory-prompts', {}, { sessionId });
  const [again] = await t.database.sql`select expires_at from tools_sessions where id = ${sessionId}`;
  expect(hoursLeft(again!['expires_at'])).toBeLessThan(2.1);
});

it(`writes a session row once per ${SESSION_TOUCH_MS / 1000} s per process, not on every request`, async () => {
  const { sessionId } = await generate(t, 'memory-prompts', {});
  await t.database.sql`update tools_sessions set last_seen_at = '2026-01-01T00:00:00Z' where id = ${sessionId}`;
  await generate(t, 'memory-prompts', {}, { sessionId });
  const [kept] = await t.database.sql`select last_seen_at = '2026-01-01T00:00:00Z' as untouched from tools_sessions where id = ${sessionId}`;
  expect(kept?.['untouched']).toBe(true);
  // A token on the session is news: written at once.
  const user = await sessionFor(t);
  await generate(t, 'memory-prompts', {}, { sessionId, headers: user.headers });
  const [row] = await t.database.sql`select user_id, last_seen_at > now() - interval '1 minute' as touched from tools_sessions where id = ${sessionId}`;
  expect(row).toEqual({ user_id: user.userId, touched: true });
});

it('links a session to the account of a valid token and keeps it 30 days past its last activity', async () => {
  const user = await sessionFor(t);
  const { sessionId } = await generate(t, 'memory-prompts', {});
  await generate(t, 'memory-prompts', {}, { sessionId, headers: user.headers });
  const [row] = await t.database.sql`select user_id, is_anonymous, expires_at from tools_sessions where id = ${sessionId}`;
  expect(row).toMatchObject({ user_id: user.userId, is_anonymous: false });
  expect(hoursLeft(row!['expires_at'])).toBeGreaterThan(24 * 29.9);
});

it('refuses an expired session with 401 SESSION_EXPIRED', async () => {
  const sessionId = newSessionId();
  await t.database.sql`insert into tools_sessions (id, expires_at) values (${sessionId}, now() - interval '1 minute')`;
  const res = await t.app.inject({ method: 'POST', url: '/api/memory-prompts/generate', headers: { 'x-session-id': sessionId }, payload: {} });
  expect(res.statusCode).toBe(401);
  expect(res.json().error).toMatchObject({ code: 'SESSION_EXPIRED', field: 'X-Session-ID' });
  // Public reads treat it as no session.
  expect((await t.app.inject({ method: 'GET', url: '/api/memory-prompts', headers: { 'x-session-id': sessionId } })).statusCode).toBe(200);
});

it('accepts the CONTRACTS §6 format only, refusing others with spec 002\'s INVALID_INPUT naming the header', async () => {
  for (const bad of ['sess_123_abcdef', 'sess_1234567890_abc', 'sess_1234567890_abcdef!', 'session_1234567890_abcdef', `sess_1234567890_${'a'.repeat(65)}`]) {
    const res = await t.app.inject({ method: 'POST', url: '/api/memory-prompts/generate', headers: { 'x-session-id': bad }, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'X-Session-ID' });
  }
  const query = await t.app.inject({ method: 'GET', url: '/api/memory-prompts?sessionId=sess_bad' });
  expect(query.statusCode).toBe(400);
  expect(query.json().error).toMatchObject({ code: 'INVALID_INPUT', field: 'sessionId' });
  expect(await t.database.sql`select 1 from tools_sessions where id in ('sess_bad', 'sess_123_abcdef')`).toHaveLength(0);
});

it('strips the last part of the address (the shared rule of libs/http client-ip)', () => {
  expect(ipPrefixOf('192.168.1.77')).toBe('192.168.1.0');
  expect(ipPrefixOf('::ffff:10.0.0.9')).toBe('10.0.0.0');
  expect(ipPrefixOf('2001::5')).toBe('2001:0:0::');
  expect(ipPrefixOf('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::');
});
