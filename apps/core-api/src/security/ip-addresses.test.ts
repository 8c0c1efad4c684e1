// Spec 000 Authentication 10: stored IP addresses have the last octet removed (IPv4
// a.b.c.0; IPv6 the last 80 bits, keeping the /48), and access logs hold no personal data. Checked three
// ways: the inventory of address columns in the shared schema (a new one must be added here), the stored
// value of each column core-api writes, and a scan of every row of every table and every log line for the
// full addresses after sign-up, sign-in, refresh, consent and invitation sign-up from IPv4 and IPv6 clients.
// The rule itself: libs/http client-ip (unit cases in src/security of each service use it through routes).
import { ipWithoutLastOctet } from '@story/http';
import { addressColumns, logCapture, tablesContaining, testEnv } from '@story/testing';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildTestApp, PASSWORD, uniqueEmail, type TestContext } from '../test/helper';

const CLIENTS = [
  { ip: '203.0.113.77', stored: '203.0.113.0' },
  { ip: '::ffff:198.51.100.201', stored: '198.51.100.0' },
  { ip: '2001:db8:abcd:12:34:56:78:9a', stored: '2001:db8:abcd::' },
  { ip: '2001:db8::beef', stored: '2001:db8:0::' },
];

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('knows every address column of the shared schema (add a new one here, with its check)', async () => {
  expect(await addressColumns(t.database.sql)).toEqual([
    'admin_audit_log.ip_prefix', // email-service src/security/ip-addresses.test.ts
    'auth_sessions.ip_prefix', // here
    'consent_records.ip_prefix', // here
    'tools_analytics.ip_address', // tools-api src/security/ip-addresses.test.ts
    'tools_rate_limit_hits.ip_prefix', // tools-api
    'tools_sessions.ip_prefix', // tools-api
  ]);
});

it.each([
  ['1.2.3.4', '1.2.3.0'],
  ['::ffff:10.0.0.9', '10.0.0.0'],
  ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3::'],
  ['2001::5', '2001:0:0::'],
  ['fe80::1%eth0', 'fe80:0:0::'],
  ['::1', '0:0:0::'],
  ['not an address', null],
  ['', null],
])('the shared rule keeps %j as %j', (ip, stored) => {
  expect(ipWithoutLastOctet(ip)).toBe(stored);
});

describe.each(CLIENTS)('a client at $ip', ({ ip, stored }) => {
  let email: string;
  let userId: string;
  let headers: { authorization: string };
  let refreshToken: string;

  it('signs up, signs in and refreshes: each session row keeps only the prefix', async () => {
    email = uniqueEmail('ip');
    const signup = await t.app.inject({ method: 'POST', url: '/api/auth/signup', remoteAddress: ip, payload: { email, password: PASSWORD } });
    expect(signup.statusCode).toBe(201);
    userId = signup.json().user.id;
    const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', remoteAddress: ip, payload: { email, password: PASSWORD } });
    expect(signin.statusCode).toBe(200);
    refreshToken = signin.json().session.refresh_token;
    const refresh = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', remoteAddress: ip, payload: { refresh_token: refreshToken } });
    expect(refresh.statusCode).toBe(200);
    headers = { authorization: `Bearer ${refresh.json().session.access_token}` };
    const sessions = await t.database.sql`select ip_prefix from auth_sessions where user_id = ${userId}`;
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    for (const s of sessions) expect(s['ip_prefix']).toBe(stored);
  });

  it('records a consent choice with the prefix only', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/consent/update', remoteAddress: ip, headers, payload: { marketing: true } });
    expect(res.statusCode).toBe(200);
    const rows = await t.database.sql`select ip_prefix from consent_records where user_id = ${userId}`;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r['ip_prefix']).toBe(stored);
  });

  it('signs up and signs in by magic link (the first verification) and keeps the prefix only', async () => {
    const invitee = uniqueEmail('invitee');
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/signup', remoteAddress: ip, payload: { email: invitee, password: PASSWORD } })).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/magic-link', remoteAddress: ip, payload: { email: invitee } })).statusCode).toBe(200);
    const [mail] = await t.database.sql`select text_content from email_send_queue where to_email = ${invitee} and text_content like '%/auth/magic?token=%'`;
    const token = /token=([A-Za-z0-9_-]{43})/.exec(String(mail!['text_content']))![1];
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/magic-link/verify', remoteAddress: ip, payload: { token } });
    expect(res.statusCode).toBe(200);
    const rows = await t.database.sql`select s.ip_prefix from auth_sessions s join accounts a on a.id = s.user_id where a.email = ${invitee}`;
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row['ip_prefix']).toBe(stored);
  });

  it('leaves the full address in no row of any table', async () => {
    const bare = ip.replace(/^::ffff:/, '');
    expect(await tablesContaining(t.database.sql, bare)).toEqual([]);
  });
});

it('keeps access logs free of the full address (pino request lines carry the prefix)', async () => {
  const logs = logCapture();
  const app = await buildApp({ config: loadConfig(testEnv({ LOG_LEVEL: 'info' })), deps: { database: t.database, logStream: logs.stream } });
  try {
    for (const { ip } of CLIENTS) {
      await app.inject({ method: 'POST', url: '/api/auth/signin', remoteAddress: ip, payload: { email: uniqueEmail('log'), password: 'wrong password 1' } });
      await app.inject({ method: 'GET', url: '/api/campaigns', remoteAddress: ip });
    }
  } finally {
    await app.close();
  }
  const text = logs.text();
  expect(text).toContain('"remoteAddress":"203.0.113.0"');
  expect(text).toContain('"remoteAddress":"2001:db8:abcd::"');
  for (const { ip } of CLIENTS) expect(text).not.toContain(ip.replace(/^::ffff:/, ''));
});
