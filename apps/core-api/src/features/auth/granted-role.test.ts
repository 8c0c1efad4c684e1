// A role an admin grants through email-service's admin API (accounts.granted_role) survives
// sign-in and refresh, which decide the role again each time (roleForAccount), but only while the email
// is verified (CONTRACTS §7).
import { decodeJwt } from 'jose';
import { buildTestApp, PASSWORD, signUp, type TestContext } from '../../test/helper';

let t: TestContext;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

it('keeps a granted role through sign-in and refresh while verified, and drops it when not', async () => {
  const who = await signUp(t.app);
  // What PATCH /api/admin/users/{id} {role: 'support'} writes for a verified account.
  await t.database.sql`update accounts set email_confirmed_at = now(), role = 'support', granted_role = 'support' where id = ${who.userId}`;

  const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { email: who.email, password: PASSWORD } });
  expect(signin.statusCode).toBe(200);
  expect(decodeJwt(signin.json().session.access_token)['role']).toBe('support');
  const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: signin.json().session.refresh_token } });
  expect(decodeJwt(refreshed.json().session.access_token)['role']).toBe('support');
  const [row] = await t.database.sql`select role from accounts where id = ${who.userId}`;
  expect(row!['role']).toBe('support');

  await t.database.sql`update accounts set email_confirmed_at = null where id = ${who.userId}`;
  const again = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: refreshed.json().session.refresh_token } });
  expect(decodeJwt(again.json().session.access_token)['role']).toBe('user');
  const [after] = await t.database.sql`select role from accounts where id = ${who.userId}`;
  expect(after!['role']).toBe('user');
});
