// CONTRACTS §7: an impersonation token is refused on every admin route of all three services through one
// shared check (libs/auth requireRole). The routes come from the OpenAPI document the app serves, so an
// admin route added later is probed too. The token's account holds role admin itself: only the shared
// check can refuse it (before it, GET /api/user/usage and /api/gifts/admin/* answered it).
import { probeAdminRoutesForImpersonation } from '@story/testing';
import { buildTestApp, type TestContext } from '../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '100000' });
}, 120_000);
afterAll(async () => t.close(), 60_000);

it('refuses an impersonation token with the sentence on every admin route of core-api', async () => {
  const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const result = await probeAdminRoutesForImpersonation({ app: t.app, sql: t.database.sql, jwtSecret: t.config.secrets.jwtSecret, document });
  expect(result.adminRoutes).toEqual(
    expect.arrayContaining(['GET /api/user/usage', 'GET /api/gifts/admin/list', 'DELETE /api/gifts/admin/delete', 'GET /api/system/verify-database']),
  );
  expect(result.problems).toEqual([]);
}, 300_000);
