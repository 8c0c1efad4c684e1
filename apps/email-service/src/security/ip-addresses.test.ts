// Spec 000 Authentication 10 in email-service: the admin audit log
// (admin_audit_log.ip_prefix, its only address column) keeps the address without its last octet (IPv6:
// without its last 80 bits) for impersonation start and end, a flag change and a cache clear, from IPv4 and
// IPv6 admins; no row of any table and no log line holds the full address. The column inventory of the
// shared schema: core-api src/security/ip-addresses.test.ts.
import { logCapture, tablesContaining, testEnv } from '@story/testing';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildTestApp, sessionFor, type TestContext } from '../test/helper';

const CLIENTS = [
  { ip: '203.0.113.77', stored: '203.0.113.0' },
  { ip: '::ffff:198.51.100.201', stored: '198.51.100.0' },
  { ip: '2001:db8:abcd:12:34:56:78:9a', stored: '2001:db8:abcd::' },
  { ip: '2001::beef', stored: '2001:0:0::' },
];

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe.each(CLIENTS)('an admin at $ip', ({ ip, stored }) => {
  it('impersonates, ends it, changes a flag and clears caches: each audit row keeps the prefix only', async () => {
    const admin = await sessionFor(t, 'admin');
    const user = await sessionFor(t);
    const started = await t.app.inject({ method: 'POST', url: `/api/admin/users/${user.userId}/impersonate`, remoteAddress: ip, headers: admin.headers, payload: { reason: 'Ticket 1: cannot see her stories' } });
    expect(started.statusCode).toBe(201);
    const ended = await t.app.inject({ method: 'POST', url: `/api/admin/impersonations/${started.json().impersonation.id}/end`, remoteAddress: ip, headers: admin.headers });
    expect(ended.statusCode).toBe(200);
    const flag = await t.app.inject({ method: 'POST', url: '/api/feature-flags', remoteAddress: ip, headers: admin.headers, payload: { key: `ip_check_${Date.now()}`, enabled: true, rolloutPercentage: 10 } });
    expect(flag.statusCode).toBeLessThan(300);
    const clear = await t.app.inject({ method: 'POST', url: '/api/clear-cache', remoteAddress: ip, headers: admin.headers });
    expect(clear.statusCode).toBe(200);
    const rows = await t.database.sql`select action, ip_prefix from admin_audit_log where actor_id = ${admin.userId}`;
    expect(rows.map((r) => r['action']).sort()).toEqual(expect.arrayContaining(['cache.clear', 'user.impersonate.end', 'user.impersonate.start']));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const r of rows) expect(r['ip_prefix']).toBe(stored);
  });

  it('leaves the full address in no row of any table', async () => {
    expect(await tablesContaining(t.database.sql, ip.replace(/^::ffff:/, ''))).toEqual([]);
  });
});

it('keeps access logs free of the full address', async () => {
  const logs = logCapture();
  const app = await buildApp({ config: loadConfig(testEnv({ LOG_LEVEL: 'info' })), deps: { database: t.database, logStream: logs.stream } });
  try {
    const admin = await sessionFor(t, 'admin');
    for (const { ip } of CLIENTS) await app.inject({ method: 'GET', url: '/api/admin/email/templates', remoteAddress: ip, headers: admin.headers });
  } finally {
    await app.close();
  }
  const text = logs.text();
  expect(text).toContain('"remoteAddress":"203.0.113.0"');
  for (const { ip } of CLIENTS) expect(text).not.toContain(ip.replace(/^::ffff:/, ''));
});
