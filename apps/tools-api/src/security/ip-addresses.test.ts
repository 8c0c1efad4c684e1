// Spec 000 Authentication 10 in tools-api: the address columns it writes
// (tools_sessions.ip_prefix, tools_analytics.ip_address, tools_rate_limit_hits.ip_prefix) keep the address
// without its last octet (IPv6: without its last 80 bits); the per-address rate-limit key is a keyed hash
// that does not reverse to the address; and after generate, view, share, export, respond, an analytics
// event and a refused generation from IPv4 and IPv6 clients, no row of any table and no log line holds the
// full address. The column inventory of the shared schema: core-api src/security/ip-addresses.test.ts.
import { createHash } from 'node:crypto';
import { logCapture, tablesContaining, testEnv } from '@story/testing';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildTestApp, generate, newSessionId, type TestContext } from '../test/helper';

const CLIENTS = [
  { ip: '203.0.113.77', stored: '203.0.113.0' },
  { ip: '::ffff:198.51.100.201', stored: '198.51.100.0' },
  { ip: '2001:db8:abcd:12:34:56:78:9a', stored: '2001:db8:abcd::' },
  // Short IPv6 forms were once stored whole (fewer than four groups when split on ':').
  { ip: '2001::beef', stored: '2001:0:0::' },
];

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1' });
});
afterAll(async () => t.close());

describe.each(CLIENTS)('a visitor at $ip', ({ ip, stored }) => {
  const sessionId = newSessionId();
  const headers = { 'x-session-id': sessionId, 'user-agent': 'jest' };
  let id: string;
  let shareCode: string;

  it('generates, views, shares, exports, responds and records an event: every address column keeps the prefix', async () => {
    ({ data: { id, shareCode } } = await generate(t, 'plot-twists', { genre: 'mystery' }, { sessionId, ip }));
    const calls = [
      await t.app.inject({ method: 'POST', url: `/api/plot-twists/share`, remoteAddress: ip, headers, payload: { contentId: id, sessionId, shareType: 'public' } }),
      await t.app.inject({ method: 'GET', url: `/api/plot-twists/share/${shareCode}`, remoteAddress: ip, headers }),
      await t.app.inject({ method: 'GET', url: `/api/plot-twists/${id}`, remoteAddress: ip, headers }),
      await t.app.inject({ method: 'POST', url: `/api/plot-twists/${id}/export`, remoteAddress: ip, headers, payload: { format: 'json' } }),
      await t.app.inject({ method: 'POST', url: `/api/plot-twists/${id}/responses`, remoteAddress: ip, headers, payload: { sessionId, title: 'Mine', content: 'A response.' } }),
      await t.app.inject({ method: 'POST', url: `/api/plot-twists/${id}/analytics`, remoteAddress: ip, headers, payload: { sessionId, eventType: 'view' } }),
    ];
    expect(calls.map((r) => r.statusCode).every((s) => s >= 200 && s < 300)).toBe(true);
    const [session] = await t.database.sql`select ip_prefix from tools_sessions where id = ${sessionId}`;
    expect(session!['ip_prefix']).toBe(stored);
    const events = await t.database.sql`select event_type, ip_address from tools_analytics where session_id = ${sessionId}`;
    expect(new Set(events.map((e) => e['event_type']))).toEqual(new Set(['generate', 'view', 'share', 'export', 'response_created']));
    for (const e of events) expect(e['ip_address']).toBe(stored);
  });

  it('records a refused generation with the prefix, and counts the address under a keyed hash', async () => {
    for (let i = 0; i < 5; i++) await t.app.inject({ method: 'POST', url: '/api/story-title-generator/generate', remoteAddress: ip, headers: { 'x-session-id': newSessionId() }, payload: { options: {} } });
    const refused = await t.app.inject({ method: 'POST', url: '/api/story-title-generator/generate', remoteAddress: ip, headers: { 'x-session-id': newSessionId() }, payload: { options: {} } });
    expect(refused.statusCode).toBe(429);
    const [hit] = await t.database.sql`select key, ip_prefix from tools_rate_limit_hits where key like 'ip:%' and ip_prefix = ${stored}`;
    expect(hit).toBeDefined();
    // Not the plain hash of the address anyone could recompute over the IPv4 space.
    const plain = createHash('sha256').update(ip).digest('base64url').slice(0, 16);
    expect(hit!['key']).not.toBe(`ip:${plain}`);
    expect(await t.database.sql`select 1 from tools_rate_limits where key = ${`ip:${plain}`}`).toHaveLength(0);
  });

  it('leaves the full address in no row of any table', async () => {
    expect(await tablesContaining(t.database.sql, ip.replace(/^::ffff:/, ''))).toEqual([]);
  });
});

it('keys the per-address limit identically on every replica (same secret), so a replica cannot be used to reset it', async () => {
  const second = await buildApp({ config: loadConfig(testEnv({ RATE_LIMIT_SCALE: '1' })), deps: { database: t.database } });
  await second.ready();
  try {
    const ip = '192.0.2.44';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? t.app : second;
      statuses.push((await app.inject({ method: 'POST', url: '/api/first-line-generator/generate', remoteAddress: ip, headers: { 'x-session-id': newSessionId() }, payload: { options: {} } })).statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  } finally {
    await second.close();
  }
});

it('keeps access logs free of the full address', async () => {
  const logs = logCapture();
  const app = await buildApp({ config: loadConfig(testEnv({ LOG_LEVEL: 'info' })), deps: { database: t.database, logStream: logs.stream } });
  try {
    for (const { ip } of CLIENTS) await app.inject({ method: 'GET', url: '/api/plot-twists', remoteAddress: ip, headers: { 'x-session-id': newSessionId() } });
  } finally {
    await app.close();
  }
  const text = logs.text();
  expect(text).toContain('"remoteAddress":"203.0.113.0"');
  for (const { ip } of CLIENTS) expect(text).not.toContain(ip.replace(/^::ffff:/, ''));
});
