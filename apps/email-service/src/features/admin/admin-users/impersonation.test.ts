// Impersonation (spec 001 Authentication 5, CONTRACTS §7): act claim, at most 15 minutes, no refresh token,
// refused on admin routes, admins and support never impersonated, start and end in admin_audit_log, and the
// acting admin in the request log.
import { decodeJwt } from 'jose';
import { logCapture, createTestDatabase, testEnv } from '@story/testing';
import type { App } from '@story/http';
import { buildApp } from '../../../app';
import { loadConfig } from '../../../config';
import type { TestContext } from '../../../test/helper';
import { accountWithSession, auditRows, type TestAccount } from '../test/admin.test-helper';

let t: TestContext;
let app: App;
const logs = logCapture();
let admin: TestAccount;
let user: TestAccount;
beforeAll(async () => {
  const database = await createTestDatabase();
  const config = loadConfig(testEnv({ RATE_LIMIT_SCALE: '1000', LOG_LEVEL: 'info' }));
  app = await buildApp({ config, deps: { database, logStream: logs.stream } });
  await app.ready();
  t = { app, database, config, close: async () => (await app.close(), await database.drop()) };
  admin = await accountWithSession(t, { role: 'admin' });
  user = await accountWithSession(t, { fullName: 'Ada Lovelace' });
});
afterAll(async () => t.close());

const impersonate = (id: string, headers = admin.headers, reason: unknown = 'Ticket 4521: cannot see her stories') =>
  app.inject({ method: 'POST', url: `/api/admin/users/${id}/impersonate`, headers, payload: { reason } });

it('issues a 15-minute session with an act claim and no refresh token, and audit-logs the start', async () => {
  const before = Math.floor(Date.now() / 1000);
  const res = await impersonate(user.userId);
  expect(res.statusCode).toBe(201);
  const { session, impersonation } = res.json();
  expect(session.refresh_token).toBeNull();
  expect(session.expires_in).toBeLessThanOrEqual(900);
  const claims = decodeJwt(session.access_token);
  expect(claims).toMatchObject({ sub: user.userId, role: 'user', act: { sub: admin.userId } });
  expect(claims.exp! - before).toBeLessThanOrEqual(901);
  expect(session.expires_at).toBe(claims.exp);

  const [row] = await t.database.sql`select * from admin_impersonations where id = ${impersonation.id}`;
  expect(row).toMatchObject({ admin_id: admin.userId, user_id: user.userId, reason: 'Ticket 4521: cannot see her stories', ended_at: null });
  expect(new Date(row!['expires_at'] as string).getTime() - new Date(row!['started_at'] as string).getTime()).toBe(900_000);
  const [sessionRow] = await t.database.sql`select user_id, expires_at from auth_sessions where id = ${row!['session_id']}`;
  expect(sessionRow!['user_id']).toBe(user.userId);
  expect(await t.database.sql`select 1 from auth_refresh_tokens where session_id = ${row!['session_id']}`).toHaveLength(0);

  const starts = await auditRows(t, 'user.impersonate.start');
  expect(starts).toHaveLength(1);
  expect(starts[0]).toMatchObject({ actor_id: admin.userId, target_id: user.userId, impersonated_user_id: user.userId });
  expect(starts[0]!['data']).toMatchObject({ before: null, after: { impersonationId: impersonation.id, reason: 'Ticket 4521: cannot see her stories' } });
  // No token in the audit data or the log.
  expect(JSON.stringify(starts[0])).not.toContain(session.access_token);
  expect(logs.text()).not.toContain(session.access_token);
});

it('works as the user on user routes, logs the acting admin, and is refused on every admin route', async () => {
  const { session } = (await impersonate(user.userId)).json();
  const headers = { authorization: `Bearer ${session.access_token}` };
  const own = await app.inject({ url: '/api/user/emails/received', headers });
  expect(own.statusCode).toBe(200);
  const line = logs.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request completed' && l.actingAdminId);
  expect(line).toMatchObject({ actingAdminId: admin.userId });
  expect(logs.lines.filter((l) => l.includes('request completed') && !l.includes('actingAdminId')).length).toBeGreaterThan(0);

  for (const req of [
    { method: 'GET' as const, url: '/api/admin/users' },
    { method: 'GET' as const, url: '/api/overview-stats' },
    { method: 'GET' as const, url: '/api/admin/email/templates' },
    { method: 'POST' as const, url: '/api/feature-flags', payload: { key: 'k', enabled: true } },
    { method: 'POST' as const, url: `/api/admin/users/${user.userId}/impersonate`, payload: { reason: 'again and again' } },
  ]) {
    const res = await app.inject({ ...req, headers });
    expect([req.url, res.statusCode, res.json().code]).toEqual([req.url, 403, 'INSUFFICIENT_PERMISSIONS']);
  }
});

it('refuses admin and support targets, an unknown user and a missing reason, and logs nothing', async () => {
  const before = (await auditRows(t)).length;
  const otherAdmin = await accountWithSession(t, { role: 'admin' });
  const support = await accountWithSession(t, { role: 'support' });
  for (const target of [otherAdmin.userId, support.userId, admin.userId]) {
    const res = await impersonate(target);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/cannot be impersonated/);
  }
  expect((await impersonate('7b0c2f5e-0000-4000-8000-000000000000')).statusCode).toBe(404);
  const noReason = await impersonate(user.userId, admin.headers, '');
  expect(noReason.statusCode).toBe(400);
  expect(noReason.json().details.invalid_fields).toHaveProperty('reason');
  expect((await auditRows(t)).length).toBe(before);
  expect(await t.database.sql`select 1 from admin_impersonations where user_id in (${otherAdmin.userId}, ${support.userId})`).toHaveLength(0);
});

it('ends on the end route: the token stops working everywhere and the end is audit-logged once', async () => {
  const { session, impersonation } = (await impersonate(user.userId)).json();
  const headers = { authorization: `Bearer ${session.access_token}` };
  const end = await app.inject({ method: 'POST', url: `/api/admin/impersonations/${impersonation.id}/end`, headers: admin.headers });
  expect(end.statusCode).toBe(200);
  expect(end.json().impersonation).toMatchObject({ id: impersonation.id, active: false });
  expect((await app.inject({ url: '/api/user/emails/received', headers })).statusCode).toBe(401);
  const again = await app.inject({ method: 'POST', url: `/api/admin/impersonations/${impersonation.id}/end`, headers: admin.headers });
  expect(again.statusCode).toBe(409);
  const ends = (await auditRows(t, 'user.impersonate.end')).filter((r) => (r['data'] as { after: { impersonationId: string } }).after.impersonationId === impersonation.id);
  expect(ends).toHaveLength(1);
  expect(ends[0]!['data']).toMatchObject({ after: { endedBy: 'admin' } });
});

it('records the end of an expired or signed-out impersonation once, whichever replica sweeps', async () => {
  const expired = (await impersonate(user.userId)).json();
  const signedOut = (await impersonate(user.userId)).json();
  await t.database.sql`update admin_impersonations set started_at = now() - interval '20 minutes', expires_at = now() - interval '5 minutes' where id = ${expired.impersonation.id}`;
  // What core-api's POST /api/auth/signout does with the impersonation token's session.
  await t.database.sql`update auth_sessions set revoked_at = now(), revoked_reason = 'signout'
    where id = (select session_id from admin_impersonations where id = ${signedOut.impersonation.id})`;
  expect((await app.inject({ url: '/api/user/emails/received', headers: { authorization: `Bearer ${signedOut.session.access_token}` } })).statusCode).toBe(401);

  const swept = await Promise.all([app.adminImpersonations.sweepEnded(), app.adminImpersonations.sweepEnded()]);
  expect(swept[0] + swept[1]).toBe(2);
  const ends = await auditRows(t, 'user.impersonate.end');
  const by = (id: string) => ends.filter((r) => (r['data'] as { after: { impersonationId: string } }).after.impersonationId === id);
  expect(by(expired.impersonation.id)).toHaveLength(1);
  expect(by(expired.impersonation.id)[0]!['data']).toMatchObject({ after: { endedBy: 'expiry' } });
  expect(by(signedOut.impersonation.id)[0]!['data']).toMatchObject({ after: { endedBy: 'signout' } });
  expect(await app.adminImpersonations.sweepEnded()).toBe(0);

  const list = await app.inject({ url: '/api/admin/impersonations?active=true', headers: admin.headers });
  expect(list.json().impersonations.map((i: { id: string }) => i.id)).not.toContain(expired.impersonation.id);
});

it('keeps the start and end rows naming the admin and the user (id and email) after both accounts are deleted', async () => {
  // CONTRACTS §7: the audit's finding was a deletion that left rows without their target and no end row.
  const actingAdmin = await accountWithSession(t, { role: 'admin', verified: true });
  const target = await accountWithSession(t, { fullName: 'Grace Hopper' });
  const [emails] = await t.database.sql`select (select email from accounts where id = ${actingAdmin.userId}) as admin, (select email from accounts where id = ${target.userId}) as user`;
  const { impersonation } = (await impersonate(target.userId, actingAdmin.headers)).json();
  // The accounts go the way an erasure removes them (the session cascades with the user).
  await t.database.sql`delete from accounts where id in ${t.database.sql([target.userId, actingAdmin.userId])}`;
  expect(await app.adminImpersonations.sweepEnded()).toBeGreaterThanOrEqual(1);

  const rows = await t.database.sql`select action, actor_id, actor_email, target_id, target_email, impersonated_user_id, impersonated_user_email, data
    from admin_audit_log where data -> 'after' ->> 'impersonationId' = ${impersonation.id} order by created_at, action desc`;
  expect(rows.map((r) => r['action'])).toEqual(['user.impersonate.start', 'user.impersonate.end']);
  for (const row of rows) {
    expect(row).toMatchObject({
      actor_id: actingAdmin.userId,
      actor_email: emails!['admin'],
      target_id: target.userId,
      target_email: emails!['user'],
      impersonated_user_id: target.userId,
      impersonated_user_email: emails!['user'],
    });
  }
  expect(rows[1]!['data']).toMatchObject({ after: { endedBy: 'session_gone' } });
  const [kept] = await t.database.sql`select admin_id, admin_email, user_id, user_email, ended_at from admin_impersonations where id = ${impersonation.id}`;
  expect(kept).toMatchObject({ admin_id: actingAdmin.userId, admin_email: emails!['admin'], user_id: target.userId, user_email: emails!['user'], ended_at: expect.anything() });
});
