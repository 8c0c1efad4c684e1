// Spec 001 Authentication 2 and 5, CONTRACTS §7: every admin route needs admin or support; support reads,
// only admin changes; an impersonation token is refused everywhere in the admin API (403
// INSUFFICIENT_PERMISSIONS).
import { buildTestApp, type TestContext } from '../../test/helper';
import { accountWithSession, auditRows, type TestAccount } from './test/admin.test-helper';

let t: TestContext;
let admin: TestAccount;
let support: TestAccount;
let user: TestAccount;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
  admin = await accountWithSession(t, { role: 'admin' });
  support = await accountWithSession(t, { role: 'support' });
  user = await accountWithSession(t);
});
afterAll(async () => t.close());

const reads = ['/api/admin/stats/users', '/api/admin/stats/content', '/api/admin/stats/platform', '/api/overview-stats', '/api/admin/users', '/api/feature-flags', '/api/admin/impersonations'];
const writes = () => [
  { method: 'POST' as const, url: '/api/feature-flags', payload: { key: 'x_flag', enabled: true } },
  { method: 'POST' as const, url: '/api/clear-cache' },
  { method: 'PATCH' as const, url: `/api/admin/users/${user.userId}`, payload: { subscription_tier: 'premium' } },
  { method: 'POST' as const, url: `/api/admin/users/${user.userId}/impersonate`, payload: { reason: 'support ticket 12' } },
];

it('refuses anonymous callers with 401 and role user with 403 INSUFFICIENT_PERMISSIONS', async () => {
  for (const url of reads) {
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const res = await t.app.inject({ url, headers: user.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS' });
  }
  for (const w of writes()) {
    const res = await t.app.inject({ ...w, headers: user.headers });
    expect([w.url, res.statusCode, res.json().code]).toEqual([w.url, 403, 'INSUFFICIENT_PERMISSIONS']);
  }
});

it('lets support read and refuses every change by support, before looking at the body', async () => {
  for (const url of reads) expect([url, (await t.app.inject({ url, headers: support.headers })).statusCode]).toEqual([url, 200]);
  for (const w of writes()) {
    const res = await t.app.inject({ ...w, headers: support.headers });
    expect([w.url, res.statusCode, res.json()]).toEqual([w.url, 403, { error: 'Admin access required', code: 'INSUFFICIENT_PERMISSIONS' }]);
  }
  // An invalid body from support is still a 403, not a 400.
  expect((await t.app.inject({ method: 'POST', url: '/api/feature-flags', headers: support.headers, payload: { rolloutPercentage: 150 } })).statusCode).toBe(403);
  expect(await auditRows(t)).toHaveLength(0);
  expect(await t.database.sql`select 1 from feature_flags`).toHaveLength(0);
  const [p] = await t.database.sql`select subscription_tier from profiles where id = ${user.userId}`;
  expect(p!['subscription_tier']).toBe('free');
});

it('lets admin read', async () => {
  for (const url of reads) expect([url, (await t.app.inject({ url, headers: admin.headers })).statusCode]).toEqual([url, 200]);
});
