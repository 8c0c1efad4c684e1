// GET /api/flags (CONTRACTS §7) and the cross-process part of its caching rule (CONTRACTS §7 Feature flags):
// a flag change committed with its NOTIFY by another OS process (as email-service's POST /api/feature-flags
// does) is seen by this core-api within a second, although its cache would otherwise hold the old rules for
// 300 s.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';

const run = promisify(execFile);

let t: TestContext;
let alice: SignedUp;
let bob: SignedUp;
beforeAll(async () => {
  t = await buildTestApp();
  alice = await signUp(t.app);
  bob = await signUp(t.app);
  const sql = t.database.sql;
  await sql`insert into feature_flags (key, enabled, rollout_percentage) values ('off_flag', false, 100), ('on_flag', true, 100), ('none_yet', true, 0)`;
  const [ab] = await sql`insert into feature_flags (key, enabled, rollout_percentage, ab_config) values ('ab_flag', true, 100, ${JSON.stringify({ variants: [{ name: 'red', weight: 1 }] })}::jsonb) returning id`;
  const [off] = await sql`select id from feature_flags where key = 'off_flag'`;
  await sql`insert into feature_flag_overrides (flag_id, user_id, enabled) values (${off!['id']}, ${alice.userId}, true), (${ab!['id']}, ${bob.userId}, false)`;
});
afterAll(async () => t.close());

const flagsOf = async (who: SignedUp) => {
  const res = await t.app.inject({ url: '/api/flags', headers: who.headers });
  expect(res.statusCode).toBe(200);
  return res.json().flags as Record<string, boolean | string>;
};

it('lists every flag for the caller, false ones too, with overrides and variants applied', async () => {
  expect(await flagsOf(alice)).toEqual({ ab_flag: 'red', none_yet: false, off_flag: true, on_flag: true });
  expect(await flagsOf(bob)).toEqual({ ab_flag: false, none_yet: false, off_flag: false, on_flag: true });
  expect((await t.app.inject({ url: '/api/flags' })).statusCode).toBe(401);
});

it('sees a change committed by another process within a second', async () => {
  expect((await flagsOf(bob))['none_yet']).toBe(false);
  // The other process: plain node with postgres.js, the update and its NOTIFY in one transaction.
  const script = `
    const postgres = require('postgres');
    const sql = postgres(process.env.URL, { max: 1, onnotice: () => {} });
    sql.begin(async (tx) => {
      await tx\`update feature_flags set rollout_percentage = 100 where key = 'none_yet'\`;
      await tx\`select pg_notify('story_cache_clear', 'flags')\`;
    }).then(() => sql.end(), (e) => { console.error(e); process.exit(1); });`;
  await run(process.execPath, ['-e', script], { env: { ...process.env, URL: t.database.url }, cwd: process.cwd() });
  const committed = Date.now();
  let seen = false;
  while (!seen && Date.now() - committed < 1000) {
    seen = (await flagsOf(bob))['none_yet'] === true;
    if (!seen) await new Promise((r) => setTimeout(r, 10));
  }
  expect(seen).toBe(true);
  expect(Date.now() - committed).toBeLessThan(1000);
});
