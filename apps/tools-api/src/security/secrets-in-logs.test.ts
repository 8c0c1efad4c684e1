// Spec 000 Authentication 10: no secret or token reaches tools-api's log. At the most verbose level, a visitor
// generates, shares (private and expiring links), exports, writes, edits and deletes a response and reads
// with the session id in the query string; a signed-in user and an admin do the same with Bearer tokens, a
// tampered token is refused. No access token, JWT signature, visitor session id (the ownership credential
// of spec 002) or the JWT secret appears in any log line. Share codes are public by design (they are the
// link), so they may appear.
import { logCapture, testEnv } from '@story/testing';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildTestApp, newSessionId, sessionFor, type TestContext } from '../test/helper';

const JWT_SECRET = 'log-check-jwt-secret-0123456789-abcdefghijklmnop';

let t: TestContext;
let app: TestContext['app'];
const logs = logCapture();
beforeAll(async () => {
  t = await buildTestApp({ JWT_SECRET });
  app = await buildApp({ config: loadConfig(testEnv({ JWT_SECRET, LOG_LEVEL: 'trace' })), deps: { database: t.database, logStream: logs.stream } });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

it('logs none of the tokens and session ids of visitor, user and admin traffic', async () => {
  const secrets: Record<string, string> = { JWT_SECRET };
  const user = await sessionFor(t);
  const admin = await sessionFor(t, 'admin');
  secrets['userToken'] = user.headers.authorization.slice(7);
  secrets['adminToken'] = admin.headers.authorization.slice(7);

  for (const [who, auth] of [['visitor', {}], ['user', user.headers], ['admin', admin.headers]] as const) {
    const sessionId = newSessionId();
    secrets[`${who}Session`] = sessionId;
    const headers = { 'x-session-id': sessionId, ...auth };
    const generated = await app.inject({ method: 'POST', url: '/api/plot-twists/generate', headers, payload: { sessionId, options: { genre: 'mystery' } } });
    expect(generated.statusCode).toBe(201);
    const { id } = generated.json().data;
    await app.inject({ method: 'POST', url: '/api/plot-twists/share', headers, payload: { contentId: id, sessionId, shareType: 'private' } });
    await app.inject({ method: 'POST', url: '/api/plot-twists/share', headers, payload: { contentId: id, sessionId, shareType: 'expiring', expiresAt: new Date(Date.now() + 86_400_000).toISOString() } });
    await app.inject({ method: 'POST', url: `/api/plot-twists/${id}/export`, headers, payload: { format: 'csv' } });
    const response = await app.inject({ method: 'POST', url: `/api/plot-twists/${id}/responses`, headers, payload: { sessionId, title: 'Mine', content: 'Words.' } });
    const responseId = response.json().data.id;
    await app.inject({ method: 'PATCH', url: `/api/plot-twists/responses/${responseId}`, headers, payload: { sessionId, title: 'Edited' } });
    await app.inject({ method: 'GET', url: `/api/plot-twists?sessionId=${sessionId}` });
    await app.inject({ method: 'GET', url: `/api/plot-twists/${id}/responses?sessionId=${sessionId}` });
    await app.inject({ method: 'DELETE', url: `/api/plot-twists/responses/${responseId}`, headers, payload: { sessionId, reason: 'done' } });
    await app.inject({ method: 'GET', url: `/api/search?q=twist&session_id=${sessionId}`, headers });
  }
  const [h, p] = secrets['userToken'].split('.');
  await app.inject({ method: 'GET', url: '/api/auth/session', headers: { authorization: `Bearer ${h}.${p}.forged-signature-forged-signature` } });
  await app.inject({ method: 'GET', url: `/api/plot-twists?access_token=${secrets['adminToken']}` });

  const text = logs.text();
  expect(logs.lines.length).toBeGreaterThan(40);
  expect(text).toContain('sessionId=[redacted]');
  const leaked = Object.entries(secrets).flatMap(([name, value]) => {
    const forms = [value, encodeURIComponent(value)];
    if (value.split('.').length === 3) forms.push(value.split('.')[2]!);
    // A session id's random part alone identifies it.
    if (value.startsWith('sess_')) forms.push(value.split('_')[2]!);
    return forms.some((f) => f.length >= 8 && text.includes(f)) ? [name] : [];
  });
  expect(leaked).toEqual([]);
});
