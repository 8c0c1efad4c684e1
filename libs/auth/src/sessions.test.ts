import postgres from 'postgres';
import { createTestDatabase, type TestDatabase } from '@story/testing';
import { createSessionLookup } from './sessions';

// The cached session check: a second process (its own postgres.js client) changes the rows, and the
// cached answer must follow through LISTEN/NOTIFY, not after the cache time.
describe('createSessionLookup with a cache', () => {
  let db: TestDatabase;
  let other: postgres.Sql;
  let queries = 0;
  let sql: postgres.Sql;

  beforeAll(async () => {
    db = await createTestDatabase();
    other = postgres(db.url, { max: 1, onnotice: () => undefined });
    sql = postgres(db.url, { max: 2, onnotice: () => undefined, debug: (_c, q) => void (q.includes('auth_sessions s join') && queries++) });
  });
  afterAll(async () => {
    await sql.end();
    await other.end();
    await db.drop();
  });

  async function newSession(email: string, role = 'user') {
    const [account] = await other<{ id: string }[]>`insert into accounts (email, role) values (${email}, ${role}) returning id`;
    const [session] = await other<{ id: string }[]>`insert into auth_sessions (user_id, expires_at) values (${account!.id}, now() + interval '1 day') returning id`;
    return { userId: account!.id, sessionId: session!.id };
  }

  /** The notice travels on another connection: poll until the lookup sees the change (at most 1 s). */
  async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<{ value: T; ms: number }> {
    const started = Date.now();
    for (;;) {
      const value = await read();
      if (ok(value) || Date.now() - started > 1000) return { value, ms: Date.now() - started };
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async function readyLookup() {
    const lookup = createSessionLookup(sql, { cacheMs: 60_000 });
    // LISTEN is set up in the background; nothing is cached before it is in place.
    await new Promise((r) => setTimeout(r, 200));
    return lookup;
  }

  it('answers repeated checks from the cache, one query for many', async () => {
    const lookup = await readyLookup();
    const { sessionId, userId } = await newSession('cached@example.test');
    const before = queries;
    for (let i = 0; i < 20; i++) expect(await lookup.findActive(sessionId)).toEqual({ userId, email: 'cached@example.test', role: 'user' });
    expect(queries - before).toBe(1);
  });

  it('drops a session revoked by another process within a second, not after the cache time', async () => {
    const lookup = await readyLookup();
    const { sessionId } = await newSession('revoked@example.test');
    expect(await lookup.findActive(sessionId)).not.toBeNull();
    await other`update auth_sessions set revoked_at = now() where id = ${sessionId}`;
    const seen = await eventually(() => lookup.findActive(sessionId), (v) => v === null);
    expect(seen.value).toBeNull();
    expect(seen.ms).toBeLessThan(1000);
  });

  it('follows a role change and a deleted account', async () => {
    const lookup = await readyLookup();
    const { sessionId, userId } = await newSession('promoted@example.test');
    expect((await lookup.findActive(sessionId))!.role).toBe('user');
    await other`update accounts set role = 'admin' where id = ${userId}`;
    expect((await eventually(() => lookup.findActive(sessionId), (v) => v?.role === 'admin')).value!.role).toBe('admin');
    await other`delete from accounts where id = ${userId}`;
    expect((await eventually(() => lookup.findActive(sessionId), (v) => v === null)).value).toBeNull();
  });

  it('queries every time with cacheMs 0, and refuses ids that are not uuids without a query', async () => {
    const lookup = createSessionLookup(sql);
    const { sessionId } = await newSession('uncached@example.test');
    const before = queries;
    await lookup.findActive(sessionId);
    await lookup.findActive(sessionId);
    expect(queries - before).toBe(2);
    expect(await lookup.findActive('not-a-uuid')).toBeNull();
    expect(queries - before).toBe(2);
  });
});
