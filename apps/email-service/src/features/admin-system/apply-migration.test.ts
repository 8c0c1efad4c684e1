// POST /api/apply-migration against a real database and a copy of the migrations folder with one extra
// migration: the first call applies exactly it, a second applies nothing; support and users are refused.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveMigrationsFolder } from '@story/db';
import { createTestDatabase, testEnv } from '@story/testing';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { sessionFor, type TestContext } from '../../test/helper';

let t: TestContext;
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  cpSync(resolveMigrationsFolder(), folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; when: number; tag: string }[] };
  const last = journal.entries.at(-1)!;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: '9999_apply_probe' });
  writeFileSync(journalPath, JSON.stringify(journal));
  writeFileSync(path.join(folder, '9999_apply_probe.sql'), 'CREATE TABLE "apply_migration_probe" ("id" integer);');

  const database = await createTestDatabase();
  const config = loadConfig(testEnv());
  const app = await buildApp({ config, deps: { database, migrationsFolder: folder } });
  await app.ready();
  t = { app, database, config, close: async () => (await app.close(), await database.drop()) };
});
afterAll(async () => {
  await t.close();
  rmSync(folder, { recursive: true, force: true });
});

const probeExists = async () => (await t.database.sql`select to_regclass('public.apply_migration_probe') as t`)[0]!['t'] !== null;

it('support and plain users get 403, no token 401, and nothing is applied', async () => {
  for (const role of ['support', 'user'] as const) {
    const res = await t.app.inject({ method: 'POST', url: '/api/apply-migration', headers: (await sessionFor(t, role)).headers });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('INSUFFICIENT_PERMISSIONS');
  }
  expect((await t.app.inject({ method: 'POST', url: '/api/apply-migration' })).statusCode).toBe(401);
  expect(await probeExists()).toBe(false);
});

it('applies the pending migration once; a second call applies nothing; both are audit-logged', async () => {
  const admin = await sessionFor(t, 'admin');
  const first = await t.app.inject({ method: 'POST', url: '/api/apply-migration', headers: admin.headers });
  expect(first.statusCode).toBe(200);
  expect(first.json()).toMatchObject({ success: true, applied: ['9999_apply_probe'] });
  expect(await probeExists()).toBe(true);
  const total = first.json().total;

  const second = await t.app.inject({ method: 'POST', url: '/api/apply-migration', headers: admin.headers });
  expect(second.json()).toEqual({ success: true, applied: [], total, message: 'The database is up to date' });
  const audit = await t.database.sql`select actor_id, data from admin_audit_log where action = 'database.apply_migration' order by created_at`;
  expect(audit.map((a) => a['data'].after.applied)).toEqual([['9999_apply_probe'], []]);
  expect(audit[0]!['actor_id']).toBe(admin.userId);
});
