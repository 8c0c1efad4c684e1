// GET /api/system/verify-database (admin only) and GET /api/reference-data/[collection] against a real
// database: a migrated database checks out; one with a table dropped and a migration unrecorded does not,
// and says which.
import { buildTestApp, signUp, type SignedUp, type TestContext } from '../../test/helper';
import { RELATIONSHIP_TYPES } from '../family/family.constants';
import { expectedMigrations, expectedTables } from './verify-database';

let t: TestContext;
let user: SignedUp;
let admin: SignedUp;

beforeAll(async () => {
  t = await buildTestApp();
  user = await signUp(t.app);
  admin = await signUp(t.app);
  await t.database.sql`update accounts set role = 'admin' where id = ${admin.userId}`;
});
afterAll(async () => t.close());

const verify = (who: SignedUp) => t.app.inject({ method: 'GET', url: '/api/system/verify-database', headers: who.headers });

describe('verify-database', () => {
  it('admin only', async () => {
    expect((await verify(user)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/system/verify-database' })).statusCode).toBe(401);
  });

  it('a migrated database has every table, column and migration', async () => {
    const res = await verify(admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ok).toBe(true);
    expect(body.tables).toMatchObject({ missing: [], missingColumns: [] });
    expect(body.tables.expected).toBe(expectedTables().size);
    expect(body.tables.expected).toBeGreaterThan(60);
    const migrations = expectedMigrations();
    expect(body.migrations).toMatchObject({ expected: migrations.length, applied: migrations.length, pending: [], unknownApplied: 0, latestApplied: migrations.at(-1)!.tag });
  });

  it('names a missing table, a missing column and an unrecorded migration', async () => {
    const sql = t.database.sql;
    const last = expectedMigrations().at(-1)!;
    await sql`drop table support_flags`;
    await sql`alter table user_devices drop column device_name`;
    await sql`delete from drizzle.__drizzle_migrations where hash = ${last.hash}`;
    const body = (await verify(admin)).json();
    expect(body.ok).toBe(false);
    expect(body.tables.missing).toEqual(['support_flags']);
    expect(body.tables.missingColumns).toEqual([{ table: 'user_devices', column: 'device_name' }]);
    expect(body.migrations.pending).toEqual([last.tag]);
  });
});

describe('reference data', () => {
  const get = (collection: string) => t.app.inject({ method: 'GET', url: `/api/reference-data/${collection}`, headers: user.headers });

  it.each(['relationship-types', 'story-themes', 'life-events', 'emotions'])('%s is a list of {id, name}', async (collection) => {
    const res = await get(collection);
    expect(res.statusCode).toBe(200);
    const items = res.json();
    expect(Array.isArray(items)).toBe(true);
    expect(items.length).toBeGreaterThan(10);
    for (const item of items) expect(item).toEqual(expect.objectContaining({ id: expect.any(String), name: expect.any(String) }));
    expect(new Set(items.map((i: { id: string }) => i.id)).size).toBe(items.length);
  });

  it('relationship types are exactly the values the family routes accept', async () => {
    expect((await get('relationship-types')).json().map((i: { id: string }) => i.id)).toEqual([...RELATIONSHIP_TYPES]);
  });

  it('an unknown collection is a 404; no session is a 401', async () => {
    const res = await get('colours');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatch(/not found/);
    expect((await t.app.inject({ method: 'GET', url: '/api/reference-data/emotions' })).statusCode).toBe(401);
  });
});
