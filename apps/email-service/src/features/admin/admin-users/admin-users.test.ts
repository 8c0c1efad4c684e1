// Admin users (spec 001 Admin application reference): list and search (paged), detail, tier and role changes
// with their audit rows; an unverified account cannot hold admin or support (CONTRACTS §7); bad input changes
// nothing.
import { buildTestApp, type TestContext } from '../../../test/helper';
import { accountWithSession, auditRows, type TestAccount } from '../test/admin.test-helper';

let t: TestContext;
let admin: TestAccount;
let support: TestAccount;
let ada: TestAccount;
let unverified: TestAccount;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1000', ADMIN_EMAILS: 'boss@example.test' });
  admin = await accountWithSession(t, { role: 'admin' });
  support = await accountWithSession(t, { role: 'support' });
  ada = await accountWithSession(t, { fullName: 'Ada 100%_Lovelace', tier: 'family' });
  unverified = await accountWithSession(t, { verified: false });
  for (let i = 0; i < 5; i++) await accountWithSession(t, { fullName: `Filler ${i}` });
  await t.database.sql`insert into campaigns (user_id, title, storyteller_name, relationship) values (${ada.userId}, 'Grandma', 'Grandma', 'grandparent')`;
  await t.database.sql`insert into stories (user_id, title, word_count) values (${ada.userId}, 'One', 120), (${ada.userId}, 'Two', 30)`;
});
afterAll(async () => t.close());

it('lists newest first with pagination and searches email and name literally', async () => {
  const page = await t.app.inject({ url: '/api/admin/users?limit=3&offset=0', headers: support.headers });
  expect(page.statusCode).toBe(200);
  expect(page.json().pagination).toEqual({ total: 9, limit: 3, offset: 0, hasMore: true });
  expect(page.json().users).toHaveLength(3);
  const last = (await t.app.inject({ url: '/api/admin/users?limit=3&offset=6', headers: support.headers })).json();
  expect(last.pagination).toEqual({ total: 9, limit: 3, offset: 6, hasMore: false });
  expect((await t.app.inject({ url: '/api/admin/users?limit=3&offset=60', headers: support.headers })).json().pagination.total).toBe(9);

  const byName = (await t.app.inject({ url: `/api/admin/users?search=${encodeURIComponent('100%_love')}`, headers: support.headers })).json();
  expect(byName.users.map((u: { id: string }) => u.id)).toEqual([ada.userId]);
  expect(byName.users[0]).toMatchObject({ email: ada.email, role: 'user', email_verified: true, subscription_tier: 'family', full_name: 'Ada 100%_Lovelace' });
  // % is not a wildcard.
  expect((await t.app.inject({ url: '/api/admin/users?search=%25', headers: support.headers })).json().users.map((u: { id: string }) => u.id)).toEqual([ada.userId]);
  const byEmail = (await t.app.inject({ url: `/api/admin/users?search=${unverified.email.slice(0, 12)}`, headers: support.headers })).json();
  expect(byEmail.users.map((u: { id: string }) => u.id)).toContain(unverified.userId);
  const bySupport = (await t.app.inject({ url: '/api/admin/users?role=support', headers: admin.headers })).json();
  expect(bySupport.users.map((u: { id: string }) => u.id)).toEqual([support.userId]);
  const byTier = (await t.app.inject({ url: '/api/admin/users?tier=family', headers: admin.headers })).json();
  expect(byTier.users.map((u: { id: string }) => u.id)).toEqual([ada.userId]);
  // Each filter's total counts what it matches, not every account.
  expect([byName, bySupport, byTier].map((x) => x.pagination.total)).toEqual([1, 1, 1]);
  const bad = await t.app.inject({ url: '/api/admin/users?limit=500', headers: admin.headers });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().details.invalid_fields).toHaveProperty(['query.limit']);
});

it('shows one user with activity counts and evaluated flags; unknown ids are 404', async () => {
  const res = await t.app.inject({ url: `/api/admin/users/${ada.userId}`, headers: support.headers });
  expect(res.statusCode).toBe(200);
  expect(res.json().user).toMatchObject({ id: ada.userId, activity: { campaigns: 1, stories: 2, wordCount: 150, books: 0, activeSessions: 1 }, flags: {} });
  expect((await t.app.inject({ url: '/api/admin/users/00000000-0000-4000-8000-000000000000', headers: support.headers })).statusCode).toBe(404);
  expect((await t.app.inject({ url: '/api/admin/users/not-a-uuid', headers: support.headers })).statusCode).toBe(404);
});

it('changes the tier and writes who, what, before and after in the same transaction', async () => {
  const res = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${ada.userId}`, headers: admin.headers, payload: { subscription_tier: 'premium' } });
  expect(res.statusCode).toBe(200);
  expect(res.json().user.subscription_tier).toBe('premium');
  const [p] = await t.database.sql`select subscription_tier from profiles where id = ${ada.userId}`;
  expect(p!['subscription_tier']).toBe('premium');
  const rows = await auditRows(t, 'user.update');
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ actor_id: admin.userId, target_type: 'account', target_id: ada.userId });
  expect(rows[0]!['data']).toMatchObject({ before: { role: 'user', subscription_tier: 'family' }, after: { role: 'user', subscription_tier: 'premium' } });
  // The same value again is not a change: no audit row.
  await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${ada.userId}`, headers: admin.headers, payload: { subscription_tier: 'premium' } });
  expect(await auditRows(t, 'user.update')).toHaveLength(1);
});

it('grants support to a verified account, never admin or support to an unverified one', async () => {
  const refused = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${unverified.userId}`, headers: admin.headers, payload: { role: 'admin' } });
  expect(refused.statusCode).toBe(400);
  expect(refused.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  expect(refused.json().error).toMatch(/unverified/);
  const [still] = await t.database.sql`select role from accounts where id = ${unverified.userId}`;
  expect(still!['role']).toBe('user');

  const ok = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${ada.userId}`, headers: admin.headers, payload: { role: 'support' } });
  expect(ok.statusCode).toBe(200);
  const [now] = await t.database.sql`select role, granted_role from accounts where id = ${ada.userId}`;
  // granted_role keeps the role through core-api's next sign-in and refresh (roleForAccount).
  expect(now).toEqual({ role: 'support', granted_role: 'support' });
  // Ada's session now reads as support (the session check reads the account row).
  expect((await t.app.inject({ url: '/api/admin/stats/users', headers: ada.headers })).statusCode).toBe(200);

  const self = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${admin.userId}`, headers: admin.headers, payload: { role: 'user' } });
  expect(self.statusCode).toBe(400);
  const unknown = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${ada.userId}`, headers: admin.headers, payload: { role: 'owner' } });
  expect(unknown.statusCode).toBe(400);
  expect(unknown.json().details.invalid_fields).toHaveProperty('role');
  const empty = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${ada.userId}`, headers: admin.headers, payload: {} });
  expect(empty.statusCode).toBe(400);
  expect(await auditRows(t, 'user.update')).toHaveLength(2);
});

it('leaves a role that comes from ADMIN_EMAILS to the list', async () => {
  const [boss] = await t.database.sql`insert into accounts (email, role, email_confirmed_at) values ('boss@example.test', 'admin', now()) returning id`;
  const res = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${boss!['id']}`, headers: admin.headers, payload: { role: 'user' } });
  expect(res.statusCode).toBe(409);
  const [row] = await t.database.sql`select role from accounts where id = ${boss!['id']}`;
  expect(row!['role']).toBe('admin');
});
