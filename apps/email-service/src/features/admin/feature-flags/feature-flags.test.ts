// Feature flags on email-service (spec 001 Admin resources): GET/POST /api/feature-flags in the shapes of
// CONTRACTS §7, the audit row of each change, bad input refused with nothing written, and a change (or POST
// /api/clear-cache) seen within a second by another replica that holds its own postgres.js client and cache.
import { createDbClient, type DbClient } from '@story/db';
import type { App } from '@story/http';
import { buildApp } from '../../../app';
import { buildTestApp, type TestContext } from '../../../test/helper';
import { accountWithSession, auditRows, type TestAccount } from '../test/admin.test-helper';

let t: TestContext;
let replica: App;
let replicaDb: DbClient;
let admin: TestAccount;
let user: TestAccount;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_SCALE: '1000' });
  // A second replica: its own app, client pool and flag cache on the same database.
  replicaDb = createDbClient(t.database.url, { max: 3 });
  replica = await buildApp({ config: t.config, deps: { database: replicaDb } });
  await replica.ready();
  admin = await accountWithSession(t, { role: 'admin' });
  user = await accountWithSession(t);
});
afterAll(async () => {
  await replica.close();
  await replicaDb.close();
  await t.close();
});

const save = (payload: unknown, headers = admin.headers) => t.app.inject({ method: 'POST', url: '/api/feature-flags', headers, payload: payload as object });

async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not seen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

it('creates, lists and updates a whole flag, with an audit row per change', async () => {
  const created = await save({ key: 'new_editor', description: 'The new editor', enabled: true, rolloutPercentage: 10, overrides: [{ userId: user.userId, enabled: true }] });
  expect(created.statusCode).toBe(200);
  expect(created.json()).toMatchObject({ success: true, created: true, flag: { key: 'new_editor', enabled: true, rolloutPercentage: 10, overrides: [{ userId: user.userId, enabled: true }] } });

  const updated = await save({ key: 'new_editor', enabled: true, rolloutPercentage: 50, variants: [{ name: 'control', weight: 1 }, { name: 'blue', weight: 1 }] });
  expect(updated.json()).toMatchObject({ created: false, flag: { rolloutPercentage: 50, overrides: [], variants: [{ name: 'control', weight: 1 }, { name: 'blue', weight: 1 }] } });

  const list = await t.app.inject({ url: '/api/feature-flags', headers: admin.headers });
  expect(list.json().flags).toEqual([
    { key: 'new_editor', description: null, enabled: true, rolloutPercentage: 50, overrides: [], variants: [{ name: 'control', weight: 1 }, { name: 'blue', weight: 1 }], updatedAt: expect.any(String) },
  ]);
  const rows = await auditRows(t);
  expect(rows.map((r) => r['action'])).toEqual(['feature_flag.create', 'feature_flag.update']);
  expect(rows[1]).toMatchObject({ actor_id: admin.userId, target_type: 'feature_flag', target_id: 'new_editor' });
  expect(rows[1]!['data']).toMatchObject({ before: { rolloutPercentage: 10, overrides: [{ userId: user.userId }] }, after: { rolloutPercentage: 50, overrides: [] } });
  const overrides = await t.database.sql`select 1 from feature_flag_overrides`;
  expect(overrides).toHaveLength(0);
});

it('refuses a rollout outside 0-100 and an override for a user who does not exist, naming them; nothing changes', async () => {
  const before = (await auditRows(t)).length;
  for (const pct of [150, -1, 12.5]) {
    const res = await save({ key: 'new_editor', enabled: true, rolloutPercentage: pct });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(res.json().details.invalid_fields).toHaveProperty(['rolloutPercentage']);
  }
  const ghost = '9d6f3b1a-0000-4000-8000-000000000000';
  const res = await save({ key: 'new_editor', enabled: false, rolloutPercentage: 0, overrides: [{ userId: user.userId, enabled: true }, { userId: ghost, enabled: true }] });
  expect(res.statusCode).toBe(400);
  expect(res.json().error).toContain(ghost);
  expect(res.json().details.invalid_fields).toHaveProperty(['overrides.1.userId']);
  const dup = await save({ key: 'new_editor', enabled: true, overrides: [{ userId: user.userId, enabled: true }, { userId: user.userId, enabled: false }] });
  expect(dup.statusCode).toBe(400);
  expect((await save({ key: 'Bad Key', enabled: true })).statusCode).toBe(400);
  expect((await save({ key: 'ab', enabled: true, variants: [{ name: 'a', weight: 0 }] })).statusCode).toBe(400);

  expect((await auditRows(t)).length).toBe(before);
  const [flag] = await t.database.sql`select enabled, rollout_percentage from feature_flags where key = 'new_editor'`;
  expect(flag).toEqual({ enabled: true, rollout_percentage: 50 });
  expect(await t.database.sql`select 1 from feature_flags where key in ('ab')`).toHaveLength(0);
});

it('a change on one replica is seen by the other within a second', async () => {
  await save({ key: 'beta_export', enabled: false, rolloutPercentage: 100 });
  // Warm the replica's cache (valid for 300 s).
  await within(1000, async () => (await replica.flags.evaluate('beta_export', user.userId)) === false);
  expect(replica.flags.evaluateCached('beta_export', user.userId)).toBe(false);
  await save({ key: 'beta_export', enabled: true, rolloutPercentage: 100 });
  const ms = await within(1000, async () => (await replica.flags.evaluate('beta_export', user.userId)) === true);
  expect(ms).toBeLessThan(1000);
  // The writer's own cache was cleared at once.
  expect(await t.app.flags.evaluate('beta_export', user.userId)).toBe(true);
});

it('POST /api/clear-cache empties the other replica’s cache and is audit-logged', async () => {
  await replica.flags.evaluate('beta_export', user.userId);
  expect(replica.flags.evaluateCached('beta_export', user.userId)).toBe(true);
  // A change made behind the API's back (no NOTIFY) stays invisible until the cache is cleared.
  await t.database.sql`update feature_flags set enabled = false where key = 'beta_export'`;
  expect(await replica.flags.evaluate('beta_export', user.userId)).toBe(true);
  const res = await t.app.inject({ method: 'POST', url: '/api/clear-cache', headers: admin.headers });
  expect(res.statusCode).toBe(200);
  await within(1000, async () => (await replica.flags.evaluate('beta_export', user.userId)) === false);
  expect(await auditRows(t, 'cache.clear')).toHaveLength(1);
});
